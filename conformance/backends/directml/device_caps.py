"""A D3D12 device's shader caps, asked from Python (ctypes; Windows, or a Windows Python under Wine).

The python host of onnxruntime-directml (the onnxruntime module, where no native program is built) has no native
program to ask its device what it can compile.  Without the shader model, a kernel the device cannot compile
(kernels.SHADER_MODEL_6_KERNELS: a 64-bit DML_CAST below shader model 6) was an error per case there, where the
worker host says `unsupported`.  `device_caps` asks the same three questions as the native programs
(native/dml_common.h: shader_model, double_shader_ops, int64_shader_ops), in the same way, of the adapter
DmlExecutionProvider's `device_id` names (its index in IDXGIFactory::EnumAdapters order: ORT's
dml_provider_factory.h), on a D3D12 device made for the asking and released at once.

The vtable slots and struct layouts are DirectX-Headers' d3d12.h and mingw-w64's dxgi.h.
"""

from __future__ import annotations

import ctypes
import sys
import uuid
from collections.abc import Callable
from typing import Any

from .hresults import hresult_text

UNKNOWN = "unknown"
IID_IDXGI_FACTORY1 = "770aae78-f26f-4dba-a829-253c83d1b387"
IID_ID3D12_DEVICE = "189819f1-1db6-4b57-be54-1821339b85f7"
RELEASE = 2  # IUnknown::Release
ENUM_ADAPTERS1 = 12  # IDXGIFactory1: IUnknown 3, IDXGIObject 4, IDXGIFactory 5 slots before it
CHECK_FEATURE_SUPPORT = 13  # ID3D12Device: IUnknown 3, ID3D12Object 4, GetNodeCount and 5 Create* before it
D3D_FEATURE_LEVEL_11_0 = 0xB000
D3D12_FEATURE_D3D12_OPTIONS, D3D12_FEATURE_SHADER_MODEL, D3D12_FEATURE_D3D12_OPTIONS1 = 0, 7, 8
OPTIONS_FIELDS = 15  # D3D12_FEATURE_DATA_D3D12_OPTIONS: 15 four-byte fields, DoublePrecisionFloatShaderOps first
OPTIONS1_FIELDS = 6  # D3D12_FEATURE_DATA_D3D12_OPTIONS1: WaveOps ... Int64ShaderOps, the sixth
# D3D_SHADER_MODEL values asked, newest first: the runtime lowers the one asked to the device's; an older runtime
# refuses a model it does not know (E_INVALIDARG), so step down, as dml_common.h does.
SHADER_MODELS = (*range(0x69, 0x5F, -1), 0x51)


class _Guid(ctypes.Structure):
    _fields_ = [
        ("Data1", ctypes.c_uint32),
        ("Data2", ctypes.c_uint16),
        ("Data3", ctypes.c_uint16),
        ("Data4", ctypes.c_ubyte * 8),
    ]


def _guid(text: str) -> _Guid:
    u = uuid.UUID(text)
    return _Guid(u.time_low, u.time_mid, u.time_hi_version, (ctypes.c_ubyte * 8)(*u.bytes[8:]))


def _method(obj: ctypes.c_void_p, slot: int, restype: Any, *argtypes: Any) -> Callable[..., Any]:
    """The COM method in `slot` of `obj`'s vtable, callable with `obj` first (stdcall: WINFUNCTYPE)."""
    vtable = ctypes.cast(obj, ctypes.POINTER(ctypes.POINTER(ctypes.c_void_p))).contents
    return ctypes.WINFUNCTYPE(restype, ctypes.c_void_p, *argtypes)(vtable[slot])  # type: ignore[attr-defined]


def _release(obj: ctypes.c_void_p) -> None:
    if obj:
        _method(obj, RELEASE, ctypes.c_ulong)(obj)


def device_caps(adapter_index: int) -> dict[str, str]:
    """`shader_model` ("6.6", "5.1"), `double_shader_ops` and `int64_shader_ops` ("yes"/"no") of DXGI adapter
    `adapter_index`; "unknown (why)" for what cannot be asked (kernels.shader_model_reason then leaves the case to
    DirectML's answer)."""
    if sys.platform != "win32":
        return {"shader_model": f"{UNKNOWN} (asked only on Windows)"}
    try:
        dxgi, d3d12 = ctypes.WinDLL("dxgi"), ctypes.WinDLL("d3d12")
    except OSError as e:
        return {"shader_model": f"{UNKNOWN} (dxgi.dll or d3d12.dll: {e})"}
    factory, adapter, device = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    try:
        hr = dxgi.CreateDXGIFactory1(ctypes.byref(_guid(IID_IDXGI_FACTORY1)), ctypes.byref(factory))
        if hr < 0:
            return {"shader_model": f"{UNKNOWN} (CreateDXGIFactory1 returned {hresult_text(hr)})"}
        enum = _method(factory, ENUM_ADAPTERS1, ctypes.c_long, ctypes.c_uint, ctypes.POINTER(ctypes.c_void_p))
        hr = enum(factory, adapter_index, ctypes.byref(adapter))
        if hr < 0:
            return {
                "shader_model": f"{UNKNOWN} (IDXGIFactory1::EnumAdapters1({adapter_index}) returned {hresult_text(hr)})"
            }
        hr = d3d12.D3D12CreateDevice(
            adapter, D3D_FEATURE_LEVEL_11_0, ctypes.byref(_guid(IID_ID3D12_DEVICE)), ctypes.byref(device)
        )
        if hr < 0:
            return {"shader_model": f"{UNKNOWN} (D3D12CreateDevice returned {hresult_text(hr)})"}
        check = _method(device, CHECK_FEATURE_SUPPORT, ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_uint)
        return {
            "shader_model": _shader_model(device, check),
            "double_shader_ops": _flag(device, check, D3D12_FEATURE_D3D12_OPTIONS, OPTIONS_FIELDS, 0),
            "int64_shader_ops": _flag(device, check, D3D12_FEATURE_D3D12_OPTIONS1, OPTIONS1_FIELDS, 5),
        }
    finally:
        for obj in (device, adapter, factory):
            _release(obj)


def _shader_model(device: ctypes.c_void_p, check: Callable[..., int]) -> str:
    for model in SHADER_MODELS:
        data = ctypes.c_int(model)  # D3D12_FEATURE_DATA_SHADER_MODEL { D3D_SHADER_MODEL HighestShaderModel; }
        if check(device, D3D12_FEATURE_SHADER_MODEL, ctypes.byref(data), ctypes.sizeof(data)) >= 0:
            return f"{data.value >> 4}.{data.value & 0xF}"
    return UNKNOWN


def _flag(device: ctypes.c_void_p, check: Callable[..., int], feature: int, fields: int, index: int) -> str:
    """One BOOL of a D3D12_FEATURE_DATA_* struct of `fields` four-byte fields, as dml_common.h words it."""
    data = (ctypes.c_uint32 * fields)()
    hr = check(device, feature, ctypes.byref(data), ctypes.sizeof(data))
    if hr < 0:
        return f"{UNKNOWN} ({hresult_text(hr)})"
    return "yes" if data[index] else "no"

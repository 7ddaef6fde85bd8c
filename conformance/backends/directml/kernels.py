"""DirectML kernels a device's shader model cannot run: such cases are `unsupported` with the device's caps.

Some of DirectML's kernels are shader model 6 code (DXIL).  On a device whose highest shader model is older
(vkd3d 1.6 on lavapipe: 5.1, though it reports Int64ShaderOps and DoublePrecisionFloatShaderOps yes, and
DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT says all eleven types), DirectML still hands them to D3D12; vkd3d cannot
compile them ("Skipping DXIL shader model 6+ code chunk") and DirectML returns E_INVALIDARG, from
IDMLDevice::CompileOperator and CompileGraph alike, and through ONNX Runtime's DirectML provider ("Invalid
parameter" when the session runs).  That is the device's limit, not a defect of DirectML's: the case is never run
there, and never passes or fails.  Both DirectML backends read the caps from their native program's info.
"""

from __future__ import annotations

from collections.abc import Callable

from oracle import Descriptor


def _has_64_bit_tensor(desc: Descriptor) -> bool:
    return any(t.data_type.numpy.itemsize == 8 for t in (*desc.input_tensors, *desc.output_tensors))


# By operator: which descriptors reach a shader model 6 kernel.  Measured on DirectML 1.15.4 and 1.12.0: every valid
# DML_CAST with a 64-bit tensor (a same-type INT64 or FLOAT64 CAST included), on both compile paths; 64-bit copies
# (ELEMENT_WISE_IDENTITY, TILE, the other data-movement operators) run.
SHADER_MODEL_6_KERNELS: dict[str, tuple[str, Callable[[Descriptor], bool]]] = {
    "CAST": ("with a FLOAT64, INT64 or UINT64 tensor", _has_64_bit_tensor),
}
MIN_DXIL_SHADER_MODEL = (6, 0)


def shader_model_reason(info: dict, descriptor: Descriptor) -> str | None:
    """Why the device (`info`: the native program's, with its shader model) cannot run the descriptor's kernel,
    or None: it can, or its shader model is unknown (then DirectML's answer is the finding)."""
    entry = SHADER_MODEL_6_KERNELS.get(descriptor.operator)
    model = str(info.get("shader_model", "unknown"))
    if entry is None or not entry[1](descriptor):
        return None
    try:
        highest = tuple(int(p) for p in model.split("."))
    except ValueError:
        return None
    if highest >= MIN_DXIL_SHADER_MODEL:
        return None
    return (
        f"the device's highest shader model is {model} (Int64ShaderOps {info.get('int64_shader_ops', '?')}, "
        f"DoublePrecisionFloatShaderOps {info.get('double_shader_ops', '?')}): DirectML's DML_{descriptor.operator} "
        f"kernels {entry[0]} are shader model 6 code (DXIL), which this device cannot compile (DirectML returns "
        "E_INVALIDARG)"
    )

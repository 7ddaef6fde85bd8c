"""The HRESULTs the DirectML runner may answer with, and their names: a table, read by the backend's messages
and by the C++ reproducer (conformance.repro.cpp), which prints the same names."""

from __future__ import annotations

# HRESULTs a run may meet, with their names (Wine's FormatMessage knows few of them).
HRESULTS = {
    0x80070057: "E_INVALIDARG",
    0x8007000E: "E_OUTOFMEMORY",
    0x80004001: "E_NOTIMPL",
    0x80004005: "E_FAIL",
    0x80070002: "ERROR_FILE_NOT_FOUND",
    0x8007007E: "ERROR_MOD_NOT_FOUND (a DLL it needs is missing)",
    0x8007007F: "ERROR_PROC_NOT_FOUND (not a DirectML.dll: no DMLCreateDevice1)",
    0x800700C1: "ERROR_BAD_EXE_FORMAT (not a valid 64-bit DLL)",
    0x887A0001: "DXGI_ERROR_INVALID_CALL",
    0x887A0002: "DXGI_ERROR_NOT_FOUND",
    0x887A0004: "DXGI_ERROR_UNSUPPORTED",
    0x887A0005: "DXGI_ERROR_DEVICE_REMOVED",
    0x887A0006: "DXGI_ERROR_DEVICE_HUNG",
    0x887A0007: "DXGI_ERROR_DEVICE_RESET",
    0x887A0020: "DXGI_ERROR_DRIVER_INTERNAL_ERROR",
    0x887A002D: "DXGI_ERROR_SDK_COMPONENT_MISSING",
}
DEVICE_LOST = {0x887A0005, 0x887A0006, 0x887A0007, 0x887A0020}


def hresult_text(value: str | int | None) -> str:
    """'0x80070057 (E_INVALIDARG)'."""
    if value is None:
        return "no HRESULT"
    number = int(value, 16) if isinstance(value, str) else value
    name = HRESULTS.get(number & 0xFFFFFFFF)
    return f"0x{number & 0xFFFFFFFF:08x}" + (f" ({name})" if name else "")


def failure_text(header: dict) -> str:
    """'IDMLDevice::CreateOperator returned 0x80070057 (E_INVALIDARG); <message>'."""
    text = f"{header.get('call') or 'the program'} returned {hresult_text(header.get('hresult'))}"
    if header.get("message"):
        text += f"; {header['message']}"
    return text

"""DirectML versions by number (`--directml-version`): which onnxruntime-directml wheel ships each DirectML.dll.

Applications ship their own DirectML redistributable, so a driver meets several DirectML versions at
once.  Each row below was measured: the win_amd64 wheel fetched with `pip download --platform win_amd64
--python-version <python>`, its `onnxruntime/capi/DirectML.dll` read (file version, SHA-256), and the
highest feature level that DLL reports on the suite's Linux stack (DML_FEATURE_FEATURE_LEVELS).  `setup
directml --directml-version V` fetches a row's DLL into the cache beside the default one, checks its
version and hash, and `run --backend directml --directml-version V` runs it.  The default DirectML.dll
stays the one of the wheel pyproject.toml pins (extra `directml-dll`); its row is in this table too.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Release:
    directml: str  # the DLL's file version without its last part, as `--directml-version` takes it
    wheel: str  # the onnxruntime-directml release whose win_amd64 wheel ships it as onnxruntime/capi/DirectML.dll
    python: str  # the CPython that wheel is fetched for (pip download --python-version): 1.15.1 stops at 3.11
    sha256: str  # of that DirectML.dll (the wheels of one release for other Pythons differ in the signature only)
    feature_level: str  # the highest DML_FEATURE_LEVEL it reports (measured under Wine; DirectML's, not the GPU's)


# Oldest first.  Measured on 2026-11-26 (PyPI's wheels; see the README's "DirectML versions").
RELEASES: tuple[Release, ...] = (
    Release("1.12.0", "1.15.1", "3.11", "13e0d786be8568f25558362ee729cddb5b43ce4bf6c126fcd9f470e884e6de4d", "6.1"),
    Release("1.13.1", "1.17.3", "3.12", "25341a27902ca970bc99dddc8791e3b4ded49b3a15bebaa992468052564f0371", "6.2"),
    Release("1.14.1", "1.18.1", "3.12", "71b3bf48ec8d6d28b3f9ee185dcd0615f20fe52ebb338b0aba5123a2af0b780b", "6.3"),
    Release("1.15.1", "1.19.2", "3.12", "68f76dbcfa9672c9c322c2f78afa97d30823d67ff499590998396b62f43f6fec", "6.4"),
    Release("1.15.2", "1.20.1", "3.12", "7e64aab30990e4b772751719a42290304d7502c99e75ae8164529d75b35c42f1", "6.4"),
    Release("1.15.4", "1.24.4", "3.12", "b73972115320e906a49602f2027a3266622881b0d325ba685e0f165a9482a8d7", "6.4"),
)
BY_VERSION = {r.directml: r for r in RELEASES}
DEFAULT_PYTHON = "3.12"  # for a pinned wheel the table does not hold yet


def known() -> str:
    """The table as one line, for messages: '1.12.0 (onnxruntime-directml 1.15.1), ...'."""
    return ", ".join(f"{r.directml} (onnxruntime-directml {r.wheel})" for r in RELEASES)


def parse(text: str) -> str:
    """A `--directml-version`: one of the table's, else ValueError listing them."""
    if text not in BY_VERSION:
        raise ValueError(f"unknown DirectML version {text[:80]!r}; known: {known()}")
    return text


def for_wheel(wheel: str) -> Release | None:
    return next((r for r in RELEASES if r.wheel == wheel), None)


def same(asked: str, loaded: str) -> bool:
    """Whether a DLL's file version ("1.13.1.0") is the release asked for ("1.13.1")."""
    return loaded == asked or loaded.startswith(asked + ".")


# --- the DLL's own version, read from its PE resources (what GetFileVersionInfoW reads on Windows) --------------

RT_VERSION = 16
FIXED_FILE_INFO_SIGNATURE = 0xFEEF04BD


def file_version(path: Path) -> str | None:
    """The file version of a Windows DLL ("1.13.1.0"): its VS_FIXEDFILEINFO, found through the PE resource
    directory (no Windows API here: setup checks a fetched DLL on any platform).  None when it has none."""
    try:
        return _file_version(path.read_bytes())
    except (OSError, struct.error, ValueError):
        return None


def _file_version(data: bytes) -> str | None:
    u16 = lambda at: struct.unpack_from("<H", data, at)[0]  # noqa: E731
    u32 = lambda at: struct.unpack_from("<I", data, at)[0]  # noqa: E731
    if data[:2] != b"MZ":
        return None
    pe = u32(0x3C)
    if data[pe : pe + 4] != b"PE\0\0":
        return None
    sections, optional_size = u16(pe + 6), u16(pe + 20)
    optional = pe + 24
    directories = optional + (112 if u16(optional) == 0x20B else 96)  # PE32+ or PE32
    resources_rva = u32(directories + 8 * 2)  # IMAGE_DIRECTORY_ENTRY_RESOURCE
    table = optional + optional_size

    def offset(rva: int) -> int:
        for i in range(sections):
            virtual_size, address, raw_size, raw = struct.unpack_from("<IIII", data, table + 40 * i + 8)
            if address <= rva < address + max(virtual_size, raw_size):
                return raw + rva - address
        raise ValueError(f"RVA {rva:#x} is in no section")

    if not resources_rva:
        return None
    root = offset(resources_rva)
    node = 0
    for wanted in (RT_VERSION, None, None):  # type, then the first name, then the first language
        named, ids = u16(root + node + 12), u16(root + node + 14)
        entries = [struct.unpack_from("<II", data, root + node + 16 + 8 * i) for i in range(named + ids)]
        target = next((t for name, t in entries if wanted is None or name == wanted), None)
        if target is None:
            return None
        node = target & 0x7FFFFFFF
        if not target & 0x80000000:  # a leaf: IMAGE_RESOURCE_DATA_ENTRY
            break
    info = offset(u32(root + node))
    # VS_VERSIONINFO: wLength, wValueLength, wType, L"VS_VERSION_INFO" (32 bytes), padding to 4: the fixed info at 40.
    if data[info + 6 : info + 36].decode("utf-16-le", "replace") != "VS_VERSION_INFO" or u32(info + 40) != (
        FIXED_FILE_INFO_SIGNATURE
    ):
        return None
    ms, ls = u32(info + 48), u32(info + 52)
    return f"{ms >> 16}.{ms & 0xFFFF}.{ls >> 16}.{ls & 0xFFFF}"

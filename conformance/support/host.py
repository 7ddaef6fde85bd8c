"""What the host is, where the layers below the run need to know: a Windows Python under Wine."""

from __future__ import annotations

import sys


def wine_version() -> str | None:
    """Wine's version when this is a Windows Python under Wine (ntdll exports wine_get_version), else None."""
    if sys.platform != "win32":
        return None
    import ctypes

    try:
        get = ctypes.WinDLL("ntdll").wine_get_version
    except (OSError, AttributeError):
        return None  # real Windows
    get.restype = ctypes.c_char_p
    return (get() or b"unknown").decode(errors="replace")

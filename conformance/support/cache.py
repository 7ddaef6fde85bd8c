"""Where the suite keeps what it makes once and reuses: one per-user folder for every part of it.

`DML_CONFORMANCE_CACHE`, else the platform's per-user cache folder.  The DirectML stack (the
pinned DirectML.dll, the Wine prefix, the native runner) lives there, and so do the cases
generated at run time (`generated/`, conformance.run.selection; `DML_CONFORMANCE_GENERATED`
moves only those, or turns them off with `none`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


class CacheDirError(ValueError):
    """An environment variable naming a folder that cannot be one (`~user` of no such user): the message names it."""


def _expanded(variable: str, value: str) -> Path:
    try:
        return Path(value).expanduser()
    except RuntimeError as e:  # `~nosuchuser/...`: no home folder to expand it to
        raise CacheDirError(f"${variable}={value[:80]!r}: {e}") from None


def cache_dir() -> Path:
    """DML_CONFORMANCE_CACHE, else the platform's per-user cache folder."""
    if os.environ.get("DML_CONFORMANCE_CACHE"):
        return _expanded("DML_CONFORMANCE_CACHE", os.environ["DML_CONFORMANCE_CACHE"])
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local")) / "dml-conformance"
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "dml-conformance"


def generated_cache_dir() -> Path | None:
    """The run-time generation cache: DML_CONFORMANCE_GENERATED ('none' or 'off': no cache), else cache_dir()/generated."""
    env = os.environ.get("DML_CONFORMANCE_GENERATED")
    if env is not None:
        return None if env.strip().lower() in ("", "none", "off") else _expanded("DML_CONFORMANCE_GENERATED", env)
    return cache_dir() / "generated"

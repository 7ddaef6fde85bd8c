"""The PEP 517 build backend: hatchling, plus one config setting that picks the wheel.

    python -m build                       # the sdist and the pure wheel (py3-none-any): any platform;
                                          # DirectML's programs are built from source on first use
    python -m build -C wheel=windows      # the sdist and the Windows wheel (py3-none-win_amd64), which
                                          # carries dml_runner.exe and ort_worker.exe cross-compiled with
                                          # mingw-w64: a vendor's Windows machine needs no compiler

The setting reaches the wheel's build hook (hatch_build.py) as DML_CONFORMANCE_WHEEL, which may also
be set directly (for `pip wheel`).  Everything else is hatchling's.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

from hatchling.build import *  # noqa: F403 - hatchling's hooks are this backend's
from hatchling.build import build_sdist as _build_sdist
from hatchling.build import build_wheel as _build_wheel

SETTING = "wheel"
VARIABLE = "DML_CONFORMANCE_WHEEL"


@contextmanager
def _wheel_kind(config_settings):
    value = (config_settings or {}).get(SETTING)
    if value is None:
        yield
        return
    before = os.environ.get(VARIABLE)
    os.environ[VARIABLE] = str(value)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(VARIABLE, None)
        else:
            os.environ[VARIABLE] = before


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    with _wheel_kind(config_settings):
        return _build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    return _build_sdist(sdist_directory, config_settings)

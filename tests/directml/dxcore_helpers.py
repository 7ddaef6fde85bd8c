"""The test DXCore (tests/directml/native/test_dxcore.cpp): a dxcore.dll for Wine, built here into a test folder and
put on the Wine process's PATH (WINEPATH), never into the suite or a wheel."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from prerequisite import require_directml

from conformance.backends.directml.build import find_compiler, find_directml_h
from conformance.backends.directml.stack import windows_path

SOURCE = Path(__file__).parent / "native" / "test_dxcore.cpp"


def build_test_dxcore(folder: Path) -> Path:
    """folder/dxcore.dll, compiled with mingw-w64 against the DirectX-Headers the runner is built with."""
    require_directml()
    compiler = find_compiler()
    header = find_directml_h(compiler)
    assert compiler.kind == "mingw" and header is not None, "the test DXCore is for Wine (mingw-w64)"
    folder.mkdir(parents=True, exist_ok=True)
    dll = folder / "dxcore.dll"
    command = [
        compiler.path,
        "-std=c++17",
        "-O2",
        "-shared",
        "-Wall",
        "-Wextra",
        "-Wno-unknown-pragmas",
        "-static",
        "-static-libgcc",
        "-static-libstdc++",
        "-idirafter",
        str(header.parent),
        str(SOURCE),
        "-o",
        str(dll),
        "-ldxgi",
        "-ldxguid",
        "-luuid",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return dll


@contextmanager
def with_test_dxcore(dll: Path, adapters: str) -> Iterator[None]:
    """Native programs started inside find `dll` as dxcore.dll, presenting `adapters` ("0:gpu,0:npu")."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WINEPATH", windows_path(dll.parent))
        mp.setenv("DML_CONFORMANCE_TEST_DXCORE", adapters)
        yield

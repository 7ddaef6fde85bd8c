"""The native programs, ready to run: the Windows wheel's own copy, else built from source and cached.

The suite's Windows wheel carries both programs, cross-compiled when the wheel was built
(hatch_build.py, toolchain.py) with a manifest of their source hashes: an installed program whose
hash matches the installed sources is used as it is, so a vendor's machine needs no compiler.
Otherwise (a source checkout, an edited source, the Linux wheel) the program is compiled here
against Microsoft's DirectML.h and the D3D12 headers, with mingw-w64 on Linux (the result runs
under Wine) and MSVC, clang-cl or mingw on Windows, whichever is present.  The cache key hashes
the source, the header, the compiler's identity and the flags, so editing any of them rebuilds
and nothing stale is ever run.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from . import toolchain
from .stack import SETUP, SETUP_INSTALL, Missing, cache_dir
from .toolchain import NATIVE, Compiler, ToolMissing, command, compile_program, shipped_program, source_hash

__all__ = ["Compiler", "find_compiler", "find_directml_h", "header_candidates", "program_executable"]


def _cached_headers() -> list[Path]:
    return [cache_dir() / "directx-headers" / "usr" / "include" / "directx"]


def find_compiler() -> Compiler:
    try:
        return toolchain.find_compiler()
    except ToolMissing as e:
        raise Missing(f"{e} (or `{SETUP_INSTALL}` as root)" if "apt-get" in str(e) else str(e)) from None


def header_candidates() -> list[Path]:
    return toolchain.header_candidates(_cached_headers())


def find_directml_h(compiler: Compiler) -> Path | None:
    try:
        return toolchain.find_directml_h(compiler, _cached_headers())
    except ToolMissing as e:
        raise Missing(f"{e}, or `{SETUP}` unpacks it into the cache") from None


def cache_key(compiler: Compiler, header: Path | None, program: str) -> str:
    digest = hashlib.sha256(source_hash(program).encode())
    digest.update(header.read_bytes() if header else b"<compiler's DirectML.h>")
    digest.update(f"{compiler.kind}|{compiler.path}|{compiler.version}".encode())
    # The flags, with the paths left out: the same source and header built anywhere share one build.
    source, exe = NATIVE / f"{program}.cpp", Path(f"{program}.exe")
    flags = [
        a
        for a in command(compiler, header, source, exe)[1:]
        if a not in (str(source), str(exe)) and (header is None or str(header.parent) not in a)
    ]
    digest.update(" ".join(flags).encode())
    return digest.hexdigest()[:16]


def program_executable(program: str, *, log=None) -> Path:
    """native/<program>.exe: the one the installed wheel carries when it matches the sources, else built here
    from the current source (cached)."""
    shipped = shipped_program(program)
    if shipped is not None:
        return shipped
    compiler = find_compiler()
    header = find_directml_h(compiler)
    exe = cache_dir() / "native" / cache_key(compiler, header, program) / f"{program}.exe"
    if exe.is_file():
        return exe
    try:
        return compile_program(compiler, header, program, exe, log=log)
    except ToolMissing as e:
        raise Missing(str(e)) from None


def runner_executable(*, log=None) -> Path:
    """The DirectML runner (native/dml_runner.cpp)."""
    return program_executable("dml_runner", log=log)

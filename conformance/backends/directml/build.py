"""Build the native runner from source on first use, cached by what went into it.

No binary is shipped: the runner is compiled here against Microsoft's DirectML.h and the D3D12
headers, with mingw-w64 on Linux (the result runs under Wine) and MSVC, clang-cl or mingw on
Windows, whichever is present.  The cache key hashes the source, the header, the compiler's
identity and the flags, so editing any of them rebuilds and nothing stale is ever run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .stack import SETUP, SETUP_INSTALL, Missing, cache_dir

NATIVE = Path(__file__).resolve().parent / "native"  # one .cpp per program, and the header they share
LIBS = ("d3d12", "dxgi", "dxguid", "uuid", "version")
# Where DirectML.h may be: Debian's directx-headers-dev (>= 1.614, bookworm-backports), or the copy
# `dml-conformance setup directml` unpacks into the cache.  On Windows the SDK puts it on the
# compiler's include path.
HEADER_DIRS = ("/usr/include/directx",)


@dataclass(frozen=True)
class Compiler:
    kind: str  # "mingw" or "msvc" (cl and clang-cl take the same flags)
    path: str
    version: str


def _version(path: str, flag: str) -> str:
    try:
        done = subprocess.run([path, flag], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    text = (done.stdout or done.stderr).strip().splitlines()
    return text[0] if text else "unknown"


def find_compiler() -> Compiler:
    candidates = [("mingw", "x86_64-w64-mingw32-g++")]
    if sys.platform == "win32":
        candidates = [("msvc", "cl"), ("msvc", "clang-cl"), ("mingw", "g++"), *candidates]
    for kind, name in candidates:
        path = shutil.which(name)
        if path:
            return Compiler(kind, path, _version(path, "--version" if kind == "mingw" else "/?"))
    if sys.platform == "win32":
        raise Missing(
            "no C++ compiler for the DirectML runner: run from a Visual Studio Developer Prompt (cl), "
            "or install LLVM (clang-cl) or MSYS2's mingw-w64 g++"
        )
    raise Missing(
        f"no mingw-w64 C++ compiler (x86_64-w64-mingw32-g++) to build the DirectML runner: "
        f"`apt-get install mingw-w64` (or `{SETUP_INSTALL}` as root)"
    )


def header_candidates() -> list[Path]:
    extra = os.environ.get("DML_CONFORMANCE_DIRECTML_H")
    dirs = [Path(extra).parent] if extra else []
    dirs += [Path(d) for d in HEADER_DIRS] + [cache_dir() / "directx-headers" / "usr" / "include" / "directx"]
    return [d / "DirectML.h" for d in dirs]


def find_directml_h(compiler: Compiler) -> Path | None:
    """DirectML.h new enough for this runner (it knows DML_FEATURE_LEVEL_6_4); None: the compiler's own."""
    for header in header_candidates():
        try:
            if "DML_FEATURE_LEVEL_6_4" in header.read_text(errors="replace"):
                return header
        except OSError:
            continue
    if compiler.kind == "msvc":
        return None  # the Windows SDK's, on the include path of a Developer Prompt
    raise Missing(
        f"DirectML.h (from Microsoft's DirectX-Headers >= 1.614, which mingw-w64 lacks) was not found in "
        f"{', '.join(str(h.parent) for h in header_candidates())}: `{SETUP}` unpacks it into the cache"
    )


def command(compiler: Compiler, header: Path | None, source: Path, output: Path) -> list[str]:
    if compiler.kind == "mingw":
        # -idirafter: DirectML.h from DirectX-Headers, but mingw's own d3d12.h (the DirectX-Headers copy
        # beside DirectML.h does not build with mingw's rpcndr.h).
        cmd = [
            compiler.path,
            "-std=c++17",
            "-O2",
            "-municode",
            "-Wall",
            "-Wextra",
            "-Wno-cast-function-type",
            "-Wno-unknown-pragmas",
            "-static",
            "-static-libgcc",
            "-static-libstdc++",
        ]
        if header is not None:
            cmd += ["-idirafter", str(header.parent)]
        return [*cmd, str(source), "-o", str(output), *(f"-l{lib}" for lib in LIBS)]
    cmd = [compiler.path, "/nologo", "/std:c++17", "/O2", "/EHsc", "/W3"]
    if header is not None:
        cmd.append(f"/I{header.parent}")
    return [*cmd, str(source), f"/Fe{output}", "/link", *(f"{lib}.lib" for lib in LIBS if lib != "uuid")]


def cache_key(compiler: Compiler, header: Path | None, program: str) -> str:
    digest = hashlib.sha256()
    for path in [NATIVE / f"{program}.cpp", *sorted(NATIVE.glob("*.h"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
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
    """native/<program>.cpp built from the current source, building it first if the cache lacks it."""
    compiler = find_compiler()
    header = find_directml_h(compiler)
    folder = cache_dir() / "native" / cache_key(compiler, header, program)
    exe = folder / f"{program}.exe"
    if exe.is_file():
        return exe
    folder.mkdir(parents=True, exist_ok=True)
    # Build into a private name, then rename: two workers building at once both end with a whole file.
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        out = Path(tmp) / exe.name
        cmd = command(compiler, header, NATIVE / f"{program}.cpp", out)
        if log:
            log(f"building {program}: {' '.join(cmd)}")
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp, timeout=600, check=False)
        if done.returncode != 0 or not out.is_file():
            raise Missing(
                f"building {program} failed ({compiler.path}, exit {done.returncode}):\n"
                f"{(done.stderr or done.stdout)[-3000:]}"
            )
        os.replace(out, exe)
    return exe


def runner_executable(*, log=None) -> Path:
    """The DirectML runner (native/dml_runner.cpp)."""
    return program_executable("dml_runner", log=log)

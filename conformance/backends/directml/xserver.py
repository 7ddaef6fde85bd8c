"""The X display Wine needs for the native programs: a private Xvfb when the user's session has none."""

from __future__ import annotations

import os
import subprocess

from ...support.processes import Tree
from ..base import BackendUnavailable


class XServer:
    """A private Xvfb display for Wine, started only when there is no display, stopped on close."""

    def __init__(self, xvfb: str):
        read, write = os.pipe()
        try:
            self.proc = Tree(
                [xvfb, "-displayfd", str(write), "-nolisten", "tcp", "-screen", "0", "320x240x24"],
                pdeathsig=True,
                pass_fds=(write,),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            ).proc
        finally:
            os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number.isdigit():
            err = self.proc.stderr.read().decode(errors="replace")[-500:] if self.proc.stderr else ""
            self.close()
            raise BackendUnavailable(f"Xvfb ({xvfb}) did not start a display: {err.strip() or 'no display number'}")
        self.display = f":{number}"

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()

"""What tests that start processes share: whether a process id is still a live process."""

from __future__ import annotations

import os
from pathlib import Path


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie (a zombie is dead for our purpose)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    try:
        return not (status.exists() and "State:\tZ" in status.read_text())
    except OSError:  # gone between the two looks
        return False

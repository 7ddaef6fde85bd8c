"""How many bytes a descriptor's tensors take, and a budget that refuses them before anything is allocated.

Sizes come from the descriptor alone (sizes times element width, Python integers: no overflow,
no array), so a descriptor of 2**40 elements is refused in microseconds.  The default budget
is a fraction of the memory this process may use: physical RAM, or the cgroup limit when it
is lower (containers), with a fallback when neither can be read.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

# What a machine whose memory cannot be read is assumed to have: small, so that a guess errs
# towards refusing a case (reported unsupported) rather than swapping or being killed.
FALLBACK_MEMORY_BYTES = 4 * 2**30

# cgroup v2, then v1: the memory limit of the container the process runs in.
CGROUP_LIMIT_FILES = (Path("/sys/fs/cgroup/memory.max"), Path("/sys/fs/cgroup/memory/memory.limit_in_bytes"))


class TooLarge(ValueError):
    """The descriptor's tensors do not fit in the memory budget.  `.needed` and `.max_bytes` are bytes."""

    def __init__(self, message: str, needed: int, max_bytes: int):
        super().__init__(message)
        self.needed = needed
        self.max_bytes = max_bytes


def fmt_bytes(count: int) -> str:
    """268,435,456 bytes (256 MiB): exact, then readable."""
    scaled, unit = float(count), "bytes"
    for name in ("KiB", "MiB", "GiB", "TiB", "PiB"):
        if scaled < 1024:
            break
        scaled, unit = scaled / 1024, name
    readable = "" if unit == "bytes" else f" ({scaled:.4g} {unit})"
    return f"{count:,} bytes{readable}"


def tensor_bytes(desc) -> dict[str, int]:
    """Bytes of each of the descriptor's tensors, by name (input_tensor, output_tensor or output_tensors[j])."""
    return {name: math.prod(t.sizes) * t.data_type.numpy.itemsize for name, t in desc.tensors.items()}


def check_size(desc, max_bytes: int) -> int:
    """Raise TooLarge unless the input and every output fit in `max_bytes` together; return their total.

    The fast path needs the tensors and a bounded temporary; this counts the tensors, which
    the caller holds (the input) or receives (the outputs).
    """
    sizes = tensor_bytes(desc)
    needed = sum(sizes.values())
    if needed > max_bytes:
        parts = "; ".join(
            f"{name} {t.data_type.value} [{','.join(map(str, t.sizes))}] = {fmt_bytes(sizes[name])}"
            for name, t in desc.tensors.items()
        )
        raise TooLarge(
            f"{desc.operator} needs {fmt_bytes(needed)} for its tensors, but max_bytes={fmt_bytes(max_bytes)}: {parts}",
            needed,
            max_bytes,
        )
    return needed


def physical_memory_bytes() -> int | None:
    """Installed RAM from os.sysconf, else /proc/meminfo's MemTotal; None when neither is readable."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        pass
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def cgroup_limit_bytes() -> int | None:
    """The container's memory limit (cgroup v2 or v1); None when there is none or it cannot be read."""
    for path in CGROUP_LIMIT_FILES:
        try:
            text = path.read_text().strip()
        except OSError:
            continue
        if text.isdigit():
            return int(text)
    return None


def default_max_bytes(fraction: float = 0.5) -> int:
    """A budget for one case's tensors: `fraction` of the memory this process may use.

    The memory is the smaller of physical RAM and the cgroup limit (v1 reports "no limit" as a
    huge number, which the minimum absorbs), FALLBACK_MEMORY_BYTES when neither can be read.
    A run layer that also holds a backend's copy of the tensors should pass a smaller fraction.
    """
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction={fraction}, but it must be in (0, 1]")
    known = [m for m in (physical_memory_bytes(), cgroup_limit_bytes()) if m]
    return int(min(known, default=FALLBACK_MEMORY_BYTES) * fraction)

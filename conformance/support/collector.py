"""The cyclic garbage collector paused around bulk work that makes many objects and no cycles.

Each collection walks every object alive, however old; a report of two quick runs, or reading a
results file, makes hundreds of thousands of objects and sets off collections that walk the
millions already alive (the records) for nothing to free: acyclic objects are freed by reference
counting as before.  The collector is on again afterwards, as it was.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The collector off inside the block, then as it was (a block inside another leaves it off)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()

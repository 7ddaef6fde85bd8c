"""Open elements a page still bounds: each must be bit for bit one of the values the input's buffer holds.

GATHER's page leaves the value an out-of-range index produces open, yet promises that "all reads will be clamped
safely within the input tensor's memory" (GATHER.4, U-GATHER-1).  So such an element, whatever it is, must be a
value the input buffer holds: an element of the input, or of the bytes its layout leaves between elements
(oracle.layout.input_fill), read at an element's alignment.  A value from anywhere else (another buffer, stale
memory, a zero the input does not hold) is a read outside the input: a failure.  A register entry asks for this
judgement with `values_from_input` (oracle.errata); the values themselves stay observed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import oracle
from oracle import TensorDesc, layout

MAX_LISTED = 4  # elements named per failure; the count covers all of them


def buffer_values(x: np.ndarray, tensor: TensorDesc) -> np.ndarray:
    """Every element-sized value the input buffer holds (its elements and its gaps' fill), as the type's bits."""
    buffer = layout.pack(np.asarray(x), tensor)
    item = tensor.data_type.numpy.itemsize
    return np.unique(buffer[: (buffer.size // item) * item].view(tensor.data_type.bits))


def bounded(unspecified: Sequence[str]) -> bool:
    """Whether a reached register entry bounds its open elements to the input buffer's values."""
    return any(oracle.ERRATA[u].values_from_input for u in unspecified if u in oracle.ERRATA)


def values_outside_input(
    x: np.ndarray, tensor: TensorDesc, actual: Sequence[np.ndarray], open_elements: Sequence[np.ndarray]
) -> list[str]:
    """The problems (empty when none): each output's open elements whose bits are no value of the input buffer
    (`x` through `tensor`'s layout), named with their coordinates and hex bits."""
    pool = buffer_values(x, tensor)
    dt = tensor.data_type
    problems = []
    for j, (a, is_open) in enumerate(zip(actual, open_elements)):
        bits = np.ascontiguousarray(np.asarray(a), dtype=dt.numpy).view(dt.bits)
        outside = is_open & ~np.isin(bits, pool)
        if not outside.any():
            continue
        width = dt.numpy.itemsize * 2
        listed = ", ".join(
            f"[{','.join(str(int(v)) for v in c)}] = 0x{int(bits[tuple(c)]):0{width}x}"
            for c in np.argwhere(outside)[:MAX_LISTED]
        )
        problems.append(
            f"output {j}: {int(outside.sum())} element(s) an out-of-range index produced hold a value the input "
            f"buffer does not hold (reads must stay within the input tensor's memory): {listed}"
        )
    return problems

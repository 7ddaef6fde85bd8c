"""Index tensors (issue 32: GATHER, GATHER_ELEMENTS, ...): their values read as positions along one axis.

One body for every operator whose IndicesTensor picks elements along an axis: a signed index counts from the end
when negative (GATHER.3, GELEM.3: from FL 3.0, the first level with a signed index type), and an index outside
[-n, n) is out of range: the element it produces is open (U-GATHER-1, U-GELEM-1), its value the oracle's shown
policy (the index clamped to the axis), never judged as a value.
"""

from __future__ import annotations

import numpy as np

from .tables import DataType


def signed(data_type: DataType) -> bool:
    """Whether an index type can hold a negative index (INT32, INT64)."""
    return not data_type.is_float and np.issubdtype(data_type.numpy, np.signedinteger)


def resolve(indices: np.ndarray, data_type: DataType, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(positions, out_of_range): each index as an int64 position in [0, n) and whether it was out of range.

    A negative index of a signed type counts from the end (-1 is n - 1); an index < -n or >= n is out of range
    and shown clamped to [0, n - 1] (the oracle's policy for an open element).  UINT64 values past 2^63 compare
    as the unsigned numbers they are."""
    raw = np.asarray(indices)
    if signed(data_type):
        wide = raw.astype(np.int64)
        bad = (wide < -n) | (wide >= n)
        pos = np.where(wide < 0, wide + n, wide)
    else:
        unsigned = raw.astype(np.uint64)
        bad = unsigned >= np.uint64(n)
        pos = np.minimum(unsigned, np.uint64(max(n - 1, 0))).astype(np.int64)
    return np.clip(pos, 0, max(n - 1, 0)).astype(np.int64), bad


def position(value: int, data_type: DataType, n: int) -> tuple[int, bool]:
    """`resolve` for one index, as the literal paths read it: (position, out of range)."""
    if signed(data_type) and value < 0:
        return (value + n if value >= -n else 0), value < -n
    return min(value, n - 1), value >= n

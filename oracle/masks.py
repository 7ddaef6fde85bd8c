"""Which output elements an unspecified register entry really leaves open: one bool mask per output.

A case that reaches an `observed` entry (oracle.unspecified) is not open everywhere, so the
verdict must not be either.  U-PAD-1..3 leave open only the elements filled with
PaddingValue; U-WRAP-1 only the padding elements (the interior is a copy); U-PAD-4 only the elements read across a reflected size-1 axis from its padding;
U-SLICE-1 only the repeats along a stride-0 axis (element 0 of such an axis reads Offsets
whatever a zero stride means); U-CAST-1 and U-ONEHOT-1 only the elements their inputs' values
leave open.  Every other element is judged bit for bit.

Built from the descriptor's fields alone, independent of both compute paths, so a change to
the fast path cannot widen what is exempt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import layout
from .gather_nd import GatherNdBase
from .gather_nd import open_elements as gather_nd_open_elements
from .op_cast import CastDesc
from .op_cast import open_elements as cast_open_elements
from .op_cast import unspecified as cast_unspecified
from .op_diagonal_matrix import DiagonalMatrixDesc
from .op_diagonal_matrix import open_elements as diagonal_open_elements
from .op_element_wise_identity import IdentityDesc
from .op_fill_value_sequence import FillValueSequenceDesc
from .op_fill_value_sequence import open_elements as sequence_open_elements
from .op_gather import GatherDesc
from .op_gather import open_elements as gather_open_elements
from .op_gather_elements import GatherElementsDesc
from .op_gather_elements import open_elements as gather_elements_open_elements
from .op_one_hot import OneHotDesc
from .op_one_hot import open_elements as one_hot_open_elements
from .op_one_hot import unspecified as one_hot_unspecified
from .op_padding import PaddingDesc, PaddingMode
from .op_padding import unspecified as padding_unspecified
from .op_padding1 import Padding1Desc
from .op_padding1 import unspecified as padding1_unspecified
from .op_scatter import ScatterDesc
from .op_scatter import open_elements as scatter_open_elements
from .op_scatter_nd import ScatterNdDesc
from .op_scatter_nd import open_elements as scatter_nd_open_elements
from .op_slice import SliceDesc

# The entries whose open elements are PaddingValue's (the value conversion is what is open).
PADDING_VALUE_ENTRIES = frozenset({"U-PAD-1", "U-PAD-2", "U-PAD-3"})


def _along(axis: int, rank: int, flags: np.ndarray) -> np.ndarray:
    """A 1-D per-axis flag array shaped to broadcast along `axis` of a rank-`rank` tensor."""
    shape = [1] * rank
    shape[axis] = len(flags)
    return flags.reshape(shape)


def _any_axis(sizes: Sequence[int], per_axis: dict[int, np.ndarray]) -> np.ndarray:
    """Elements for which any listed axis's flag is set."""
    mask = np.zeros(tuple(sizes), dtype=bool)
    for axis, flags in per_axis.items():
        mask |= _along(axis, len(sizes), flags)
    return mask


def _padding_outside(desc: PaddingDesc | Padding1Desc, axes: Sequence[int]) -> dict[int, np.ndarray]:
    """Per axis: which output indices fall in the start or end padding (k - start outside [0, size))."""
    out = {}
    for d in axes:
        k = np.arange(desc.output_tensor.sizes[d]) - desc.start_padding[d]
        out[d] = (k < 0) | (k >= desc.input_tensor.sizes[d])
    return out


def _padding(desc: PaddingDesc | Padding1Desc) -> list[np.ndarray]:
    reached = set(padding_unspecified(desc) if isinstance(desc, PaddingDesc) else padding1_unspecified(desc))
    rank = desc.output_tensor.dimension_count
    axes: list[int] = []
    if desc.padding_mode is PaddingMode.CONSTANT and reached & PADDING_VALUE_ENTRIES:
        axes = list(range(rank))  # an element is PaddingValue when any of its coordinates is outside
    elif "U-WRAP-1" in reached:
        axes = list(range(rank))  # every element WRAP writes outside the interior (its values are undocumented)
    elif "U-PAD-4" in reached:
        axes = [
            d for d in range(rank) if desc.input_tensor.sizes[d] == 1 and (desc.start_padding[d] or desc.end_padding[d])
        ]
    return [_any_axis(desc.output_tensor.sizes, _padding_outside(desc, axes))]


def _slice(desc: SliceDesc) -> list[np.ndarray]:
    repeats = {d: np.arange(n) > 0 for d, (n, s) in enumerate(zip(desc.sizes, desc.strides)) if s == 0 and n > 1}
    return [_any_axis(desc.output_tensor.sizes, repeats)]


def unspecified_mask(desc, inputs: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
    """One bool array per output, True where an unspecified register entry leaves the element open
    (the operator's entries, and U-LAYOUT-2's elements sharing an output address).  `inputs`: for an operator
    whose open elements depend on the values (DML_CAST, U-CAST-1; DML_SCATTER's indices, U-SCATTER-1/2); without them every such element is open."""
    return [a | b for a, b in zip(_operator_mask(desc, inputs), layout.open_elements(desc))]


def _everywhere(desc) -> list[np.ndarray]:
    """Without the values an open element depends on: every element may be open."""
    return [np.ones(desc.output_tensor.sizes, dtype=bool)]


# The operators whose open elements the case's values decide (an index out of range, an inexact cast...): by
# descriptor class, the mask given the inputs, or None when the values are not known.  One row per operator.
VALUE_MASKS: dict[type, Callable[[Any, Sequence[np.ndarray] | None], list[np.ndarray]]] = {
    # U-CAST-1: the elements whose cast is not exact; without the values, wherever the pair can be inexact
    CastDesc: lambda d, x: (
        [cast_open_elements(d, x[0])] if x is not None else [np.full(d.output_tensor.sizes, bool(cast_unspecified(d)))]
    ),
    # U-DIAG-1: the diagonal, where Value's conversion is open (no input decides it)
    DiagonalMatrixDesc: lambda d, x: [np.array(diagonal_open_elements(d))],
    # U-FILLS-1: a float sequence's elements where the readings differ
    FillValueSequenceDesc: lambda d, x: [sequence_open_elements(d)],
    # U-GND-1: the elements of an out-of-range tuple
    GatherNdBase: lambda d, x: [gather_nd_open_elements(d, x[1])] if x is not None else _everywhere(d),
    # U-ONEHOT-1: the sequences whose index is below -size
    OneHotDesc: lambda d, x: (
        [one_hot_open_elements(d, x[0])]
        if x is not None
        else [np.full(d.output_tensor.sizes, bool(one_hot_unspecified(d)))]
    ),
    # U-GATHER-1: the elements an out-of-range index produces
    GatherDesc: lambda d, x: [gather_open_elements(d, x)] if x is not None else _everywhere(d),
    # U-GELEM-1: the elements whose own index is out of range
    GatherElementsDesc: lambda d, x: [gather_elements_open_elements(d, x)] if x is not None else _everywhere(d),
    # U-SCATTER-1/2: the targets written more than once, or everything past an index out of range
    ScatterDesc: lambda d, x: [scatter_open_elements(d, x[1])] if x is not None else _everywhere(d),
    # U-SCATND-1/2: the same for tuples
    ScatterNdDesc: lambda d, x: [scatter_nd_open_elements(d, x[1])] if x is not None else _everywhere(d),
}


def _operator_mask(desc, inputs: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
    if isinstance(desc, (PaddingDesc, Padding1Desc)):
        return _padding(desc)
    if isinstance(desc, SliceDesc):
        return _slice(desc)
    if isinstance(desc, IdentityDesc) and desc.scale_bias is not None:  # U-IDENT-1: the arithmetic, everywhere
        return _everywhere(desc)
    for kind, mask in VALUE_MASKS.items():
        if isinstance(desc, kind):
            return mask(desc, inputs)
    # SLICE1, SPLIT and JOIN reach no observed entry of their own: every element is judged.
    return [np.zeros(t.sizes, dtype=bool) for t in desc.output_tensors]

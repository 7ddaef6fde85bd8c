"""DML_SLICE1_OPERATOR_DESC (seeds 000, 003): a window, signed strides, free output sizes.

Output[c] = Input[CopyStart + InputWindowStrides * c], where CopyStart starts at the
window's end on axes with a negative stride (SLICE1.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import core
from .checks import (
    OneInOneOut,
    TensorDesc,
    check_one_in_one_out,
    check_support,
    check_uint,
    fail,
)
from .descriptor_json import TENSOR, JsonDescriptor
from .tables import (
    ALL_DATA_TYPES,
    FL30_TYPES,
    INT_MAX,
    INT_MIN,
    RANKS_1_8,
    FeatureLevel,
    OperatorTables,
    SupportRow,
)

OPERATOR = "SLICE1"
PAGE_ORDER = 2  # its place in the registry (oracle.registry): the pages' order, then the ones past them
# Its rows of the spec's tables: support table, clause ids (oracle.registry derives the rest).
TABLES = OperatorTables(
    support=(  # SLICE1.8, seeds 000 and 003
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4, 5), FL30_TYPES),
    ),
    support_clause="SLICE1.8",
    dimension_count_clause="SLICE1.6",
    introduced=(FeatureLevel.FL_2_1, "SLICE1.8"),
    clause_prefix="SLICE1.",
)


@dataclass(frozen=True)
class Slice1Desc(OneInOneOut, JsonDescriptor):
    """Mirrors DML_SLICE1_OPERATOR_DESC (InputWindowOffsets/Sizes/Strides as window_*)."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    window_offsets: tuple[int, ...]
    window_sizes: tuple[int, ...]
    # E-SLICE1-1: the struct says INT, the Members section UINT.  Signed: negative strides
    # are the point of SLICE1 (examples 2, remarks).
    window_strides: tuple[int, ...]
    dimension_count: int | None = None

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "output_tensor": TENSOR}
    ARRAYS = ("window_offsets", "window_sizes", "window_strides")
    UINT_ARRAYS = ("window_offsets", "window_sizes")  # InputWindowStrides is INT (E-SLICE1-1)


DESCRIPTOR = Slice1Desc


def copy_start(offset: int, size: int, stride: int) -> int:
    """SLICE1.2 for one axis: the window's end when the stride is negative.

    E-SLICE1-2: example 2's prose adds InputWindowSizes[0]; the pseudo-code (the same
    axis's size) is normative, and it is what example 2's own numbers give.
    """
    return offset + size - 1 if stride < 0 else offset


def max_copied_elements(size: int, stride: int) -> int:
    """SLICE1.4 with E-SLICE1-3: divide by |stride| (the page's signed division forbids example 2)."""
    return 1 + (size - 1) // abs(stride)


def validate(desc: Slice1Desc, feature_level: FeatureLevel) -> None:
    n = check_one_in_one_out(desc, "SLICE1.6")
    check_uint(desc.window_offsets, "window_offsets", "SLICE1.3")
    check_uint(desc.window_sizes, "window_sizes", "SLICE1.3")
    for i, s in enumerate(desc.window_strides):
        if not INT_MIN <= s <= INT_MAX:
            fail(
                f"window_strides[{i}]={s}, but window_strides is INT ({INT_MIN}..{INT_MAX})",
                "SLICE1.5",
                "window_strides",
            )
    check_support(OPERATOR, TABLES, desc.tensors, n, feature_level)
    for i in range(n):
        offset, size, stride = desc.window_offsets[i], desc.window_sizes[i], desc.window_strides[i]
        if size < 1:
            fail(f"window_sizes[{i}]={size}, but the window may not be empty", "SLICE1.3", "window_sizes")
        if offset + size > desc.input_tensor.sizes[i]:
            fail(
                f"window_offsets[{i}] + window_sizes[{i}] = {offset} + {size} = {offset + size}, but "
                f"input_tensor.sizes[{i}]={desc.input_tensor.sizes[i]}: the window extends past the input",
                "SLICE1.3",
                "window_sizes",
            )
        if stride == 0:
            fail(f"window_strides[{i}]=0, but strides may not be 0", "SLICE1.5", "window_strides")
        out = desc.output_tensor.sizes[i]
        limit = max_copied_elements(size, stride)
        if not 1 <= out <= limit:
            fail(
                f"output_tensor.sizes[{i}]={out}, but MaxCopiedElements[{i}] = 1 + ({size} - 1) / |{stride}| = {limit}",
                "SLICE1.4",
                "output_tensor.sizes",
            )


def unspecified(desc: Slice1Desc) -> list[str]:
    return []


def copy_starts(desc: Slice1Desc) -> tuple[int, ...]:
    return tuple(map(copy_start, desc.window_offsets, desc.window_sizes, desc.window_strides))


def source(desc: Slice1Desc, c: Sequence[int]) -> tuple[int, ...]:
    """SLICE1.2 for one output coordinate, as the pseudo-code writes it."""
    return tuple(s0 + st * k for s0, st, k in zip(copy_starts(desc), desc.window_strides, c))


def index_maps(desc: Slice1Desc) -> list[core.Affine]:
    """SLICE1.2 per axis: CopyStart + stride * k, a slice (reversed where the stride is negative)."""
    return [
        core.Affine(s0, st, n) for s0, st, n in zip(copy_starts(desc), desc.window_strides, desc.output_tensor.sizes)
    ]


def compute_literal(desc: Slice1Desc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    return [core.copy_elementwise(x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, c))]


def compute(desc: Slice1Desc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    return [core.strided_copy(x, desc.input_tensor.data_type, index_maps(desc))]


def explain(desc: Slice1Desc, inputs: Sequence[np.ndarray]) -> list[str]:
    """The pages' derivation lines: Output[c] = CopyStart + Strides * c = Input[...] = v."""
    (x,) = inputs
    start = copy_starts(desc)
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        src = source(desc, c)
        lines.append(
            f"Output[{','.join(map(str, c))}] = {core.fmt_coord(start)} + {core.fmt_coord(desc.window_strides)} * "
            f"{core.fmt_coord(c)} = Input[{core.fmt_coord(src)}] = {core.fmt_value(x[src])}"
        )
    return lines

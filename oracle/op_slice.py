"""DML_SLICE_OPERATOR_DESC (seed 002): Output[c] = Input[Offsets + Strides * c] (SLICE.1)."""

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
    RANKS_1_8,
    FeatureLevel,
    OperatorTables,
    SupportRow,
    types,
)

OPERATOR = "SLICE"
PAGE_ORDER = 1  # its place in the registry (oracle.registry): the pages' order, then the ones past them
# Its rows of the spec's tables: support table, clause ids (oracle.registry derives the rest).
TABLES = OperatorTables(
    support=(  # SLICE.7, seed 002
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4, 5), FL30_TYPES),
        SupportRow(FeatureLevel.FL_1_0, (4, 5), types("FLOAT32, FLOAT16, INT32, INT16, UINT32, UINT16")),
    ),
    support_clause="SLICE.7",
    dimension_count_clause="SLICE.5",
    introduced=(FeatureLevel.FL_1_0, "SLICE.6"),
    clause_prefix="SLICE.",
)


@dataclass(frozen=True)
class SliceDesc(OneInOneOut, JsonDescriptor):
    """Mirrors DML_SLICE_OPERATOR_DESC; `dimension_count` None means len(offsets)."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    offsets: tuple[int, ...]
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    dimension_count: int | None = None

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "output_tensor": TENSOR}
    ARRAYS = ("offsets", "sizes", "strides")
    UINT_ARRAYS = ARRAYS


DESCRIPTOR = SliceDesc


def validate(desc: SliceDesc, feature_level: FeatureLevel) -> None:
    n = check_one_in_one_out(desc, "SLICE.5")
    for name in desc.ARRAYS:
        check_uint(getattr(desc, name), name, "SLICE.2")
    check_support(OPERATOR, TABLES, desc.tensors, n, feature_level)
    for i in range(n):
        if desc.sizes[i] != desc.output_tensor.sizes[i]:
            fail(
                f"sizes[{i}]={desc.sizes[i]}, but output_tensor.sizes[{i}]={desc.output_tensor.sizes[i]}; "
                "they must be equal",
                "SLICE.3",
                "sizes",
            )
    for i in range(n):
        last = desc.offsets[i] + desc.strides[i] * (desc.sizes[i] - 1)
        if last > desc.input_tensor.sizes[i] - 1:
            fail(
                f"offsets[{i}] + strides[{i}] * (sizes[{i}] - 1) = {desc.offsets[i]} + {desc.strides[i]} * "
                f"{desc.sizes[i] - 1} = {last}, but input_tensor.sizes[{i}]={desc.input_tensor.sizes[i]}: "
                "out-of-bounds read",
                "SLICE.4",
                "offsets",
            )
    # U-SLICE-1: a stride of 0 is not forbidden; the formula repeats one element.  Accepted
    # here and reported by unspecified() so the case layer observes it instead of judging it.


def unspecified(desc: SliceDesc) -> list[str]:
    """Register entries whose unspecified behaviour this descriptor reaches."""
    return ["U-SLICE-1"] if any(s == 0 and n > 1 for s, n in zip(desc.strides, desc.sizes)) else []


def source(desc: SliceDesc, c: Sequence[int]) -> tuple[int, ...]:
    """SLICE.1 for one output coordinate."""
    return tuple(o + s * k for o, s, k in zip(desc.offsets, desc.strides, c))


def index_maps(desc: SliceDesc) -> list[core.Affine]:
    """SLICE.1 per axis: offset + stride * k, a slice (stride 0 repeats one element, U-SLICE-1)."""
    return [core.Affine(o, s, n) for o, s, n in zip(desc.offsets, desc.strides, desc.sizes)]


def compute_literal(desc: SliceDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    return [core.copy_elementwise(x, desc.input_tensor.data_type, desc.sizes, lambda c: source(desc, c))]


def compute(desc: SliceDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    return [core.strided_copy(x, desc.input_tensor.data_type, index_maps(desc))]


def explain(desc: SliceDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    (x,) = inputs
    lines = []
    for c in core.output_coordinates(desc.sizes):
        src = source(desc, c)
        lines.append(
            f"Output[{','.join(map(str, c))}] = {core.fmt_coord(desc.offsets)} + {core.fmt_coord(desc.strides)} * "
            f"{core.fmt_coord(c)} = Input[{core.fmt_coord(src)}] = {core.fmt_value(x[src])}"
        )
    return lines

"""DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, REVSEQ.*).

Along Axis, each subsequence (one line of the input through the axis) has its first L elements reversed, L its
value in SequenceLengthsTensor clamped to the axis' size; the rest is copied (REVSEQ.1, REVSEQ.3, REVSEQ.4).
The first operator with a second input of another data type: SequenceLengthsTensor is UINT32, or UINT64 from
FL 5.0 (REVSEQ.8, LENGTHS_TABLES), whatever the data's type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import buffers, core
from .checks import TensorDesc, check_same_type_and_rank, check_sizes, check_support, fail
from .descriptor_json import TENSOR, JsonDescriptor
from .tables import (
    ALL_DATA_TYPES,
    FL30_TYPES,
    RANKS_1_8,
    UINT_MAX,
    DataType,
    FeatureLevel,
    OperatorTables,
    SupportRow,
    types,
)

OPERATOR = "REVERSE_SUBSEQUENCES"
PAGE_ORDER = 14  # issue 31's order: ... DEPTH_TO_SPACE1, REVERSE_SUBSEQUENCES, SLICE_GRAD
TABLES = OperatorTables(
    support=(  # REVSEQ.7: InputTensor's and OutputTensor's rows, as the page prints them
        SupportRow(FeatureLevel.FL_5_0, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_4_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_3_0, (4, 5), FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
    ),
    support_clause="REVSEQ.7",
    dimension_count_clause="REVSEQ.7",
    introduced=(FeatureLevel.FL_2_1, "REVSEQ.7"),
    clause_prefix="REVSEQ.",
)
# REVSEQ.8: SequenceLengthsTensor's column of the same tables (its ranks are the data's: REVSEQ.2).
LENGTHS_TABLES = OperatorTables(
    support=(
        SupportRow(FeatureLevel.FL_5_0, RANKS_1_8, types("UINT64, UINT32")),
        SupportRow(FeatureLevel.FL_4_0, RANKS_1_8, types("UINT32")),
        SupportRow(FeatureLevel.FL_3_0, (4, 5), types("UINT32")),
        SupportRow(FeatureLevel.FL_2_1, (4,), types("UINT32")),
    ),
    support_clause="REVSEQ.8",
    dimension_count_clause="REVSEQ.7",
    introduced=(FeatureLevel.FL_2_1, "REVSEQ.7"),
    clause_prefix="REVSEQ.",
)


def lengths_types(level: FeatureLevel) -> tuple[DataType, ...]:
    """The SequenceLengthsTensor data types the table in force at `level` takes (none before FL 2.1)."""
    row = LENGTHS_TABLES.row(level)
    return () if row is None else row.data_types


@dataclass(frozen=True)
class ReverseSubsequencesDesc(JsonDescriptor):
    """Mirrors DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC, its fields in DirectML.h's order."""

    input_tensor: TensorDesc
    sequence_lengths_tensor: TensorDesc
    output_tensor: TensorDesc
    axis: int

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "sequence_lengths_tensor": TENSOR, "output_tensor": TENSOR}
    INPUT_FIELDS = ("input_tensor", "sequence_lengths_tensor")  # input_tensors' fields, in the struct's order
    UINT_SCALARS = ("axis",)  # Axis is UINT (the DirectML backend's C-form check reads this)

    @property
    def dimension_count(self) -> int:
        return self.input_tensor.dimension_count

    @property
    def tensors(self) -> dict[str, TensorDesc]:
        return {
            "input_tensor": self.input_tensor,
            "sequence_lengths_tensor": self.sequence_lengths_tensor,
            "output_tensor": self.output_tensor,
        }

    @property
    def input_tensors(self) -> tuple[TensorDesc, ...]:
        """The struct's two inputs in its order: the data, then the lengths (another data type)."""
        return tuple(getattr(self, name) for name in self.INPUT_FIELDS)

    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.output_tensor,)

    def struct_fields(self) -> dict:
        """The C struct's fields besides its tensor descs: Axis."""
        return {"axis": self.axis}


DESCRIPTOR = ReverseSubsequencesDesc


def lengths_sizes(input_sizes: Sequence[int], axis: int) -> tuple[int, ...]:
    """REVSEQ.2: the input's sizes with the Axis dimension 1 ({2,3,4,5}, axis 1 -> {2,1,4,5})."""
    return tuple(1 if d == axis else n for d, n in enumerate(input_sizes))


def validate(desc: ReverseSubsequencesDesc, feature_level: FeatureLevel) -> None:
    check_sizes(desc.input_tensor, "input_tensor")
    check_sizes(desc.sequence_lengths_tensor, "sequence_lengths_tensor")
    check_sizes(desc.output_tensor, "output_tensor")
    check_same_type_and_rank(desc.input_tensor, "input_tensor", desc.output_tensor, "output_tensor")
    n = desc.input_tensor.dimension_count
    if not 0 <= desc.axis <= UINT_MAX:
        fail(f"axis={desc.axis}, but Axis is UINT (0..{UINT_MAX})", "REVSEQ.6", "axis")
    if desc.axis >= n:
        fail(f"axis={desc.axis}, but Axis must be less than InputTensor.DimensionCount={n}", "REVSEQ.6", "axis")
    lengths = desc.sequence_lengths_tensor
    if lengths.dimension_count != n:
        fail(
            f"sequence_lengths_tensor has DimensionCount={lengths.dimension_count}, but input_tensor has {n}; "
            "they must be equal",
            "REVSEQ.2",
            "sequence_lengths_tensor.sizes",
        )
    want = lengths_sizes(desc.input_tensor.sizes, desc.axis)
    if lengths.sizes != want:
        fail(
            f"sequence_lengths_tensor.sizes={list(lengths.sizes)}, but they must be input_tensor's with the Axis "
            f"dimension 1: {list(want)}",
            "REVSEQ.2",
            "sequence_lengths_tensor.sizes",
        )
    if desc.output_tensor.sizes != desc.input_tensor.sizes:
        fail(
            f"output_tensor.sizes={list(desc.output_tensor.sizes)}, but OutputTensor must have InputTensor's sizes "
            f"{list(desc.input_tensor.sizes)}",
            "REVSEQ.5",
            "output_tensor.sizes",
        )
    check_support(
        OPERATOR, TABLES, {"input_tensor": desc.input_tensor, "output_tensor": desc.output_tensor}, n, feature_level
    )
    check_support(OPERATOR, LENGTHS_TABLES, {"sequence_lengths_tensor": lengths}, n, feature_level)


def unspecified(desc: ReverseSubsequencesDesc) -> list[str]:
    return []  # lengths past the axis (clamped, REVSEQ.3) and 0 or 1 (unchanged, REVSEQ.4) are the page's own


def clamped(desc: ReverseSubsequencesDesc, lengths: np.ndarray) -> np.ndarray:
    """REVSEQ.3: each length as int64, clamped to the axis' size (a UINT64 past 2^63 too)."""
    size = desc.input_tensor.sizes[desc.axis]
    return np.minimum(np.asarray(lengths, dtype=np.uint64), np.uint64(size)).astype(np.int64)


def index_maps(desc: ReverseSubsequencesDesc) -> list[core.AxisMap]:
    """No per-axis map: where an element comes from depends on SequenceLengthsTensor's values, an input
    (source() and compute() take it)."""
    return []


def source(desc: ReverseSubsequencesDesc, lengths: np.ndarray, c: Sequence[int]) -> tuple[int, ...]:
    """REVSEQ.1 for one output coordinate, as the page reads: within its subsequence's (clamped) length L the
    element at k along Axis comes from L - 1 - k; past it, from k (REVSEQ.3, REVSEQ.4)."""
    a = desc.axis
    at = tuple(0 if d == a else k for d, k in enumerate(c))
    length = min(int(lengths[at]), desc.input_tensor.sizes[a])
    k = c[a]
    return tuple(length - 1 - k if d == a and k < length else v for d, v in enumerate(c))


def compute_literal(desc: ReverseSubsequencesDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    x, lengths = inputs
    return [
        core.copy_elementwise(
            x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, lengths, c)
        )
    ]


def compute(desc: ReverseSubsequencesDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """One gather along Axis: the source index of every element, k < L ? L - 1 - k : k, with L broadcast from
    the lengths (size 1 along Axis), on the bits (NaN payloads and -0.0 intact)."""
    x, lengths = inputs
    dt, a = desc.input_tensor.data_type, desc.axis
    shape = [1] * desc.input_tensor.dimension_count
    shape[a] = desc.input_tensor.sizes[a]
    k = np.arange(shape[a], dtype=np.int64).reshape(shape)
    length = clamped(desc, lengths)
    index = np.where(k < length, length - 1 - k, k)
    out = buffers.empty(desc.output_tensor.sizes, dt.bits)
    out[...] = np.take_along_axis(core.as_bits(x, dt), np.broadcast_to(index, desc.input_tensor.sizes), axis=a)
    return [core.from_bits(out, dt)]


def explain(desc: ReverseSubsequencesDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    """Output[c] = Input[...] (L = SequenceLengths[...] clamped to the axis) = v."""
    x, lengths = inputs
    a, size = desc.axis, desc.input_tensor.sizes[desc.axis]
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        at = tuple(0 if d == a else k for d, k in enumerate(c))
        given = int(lengths[at])
        length = min(given, size)
        src = source(desc, lengths, c)
        rule = f"{length} - 1 - {c[a]}" if c[a] < length else f"{c[a]} (past L)"
        clamp = f" = min({given}, {size})" if given > size else ""
        lines.append(
            f"Output[{','.join(map(str, c))}] = Input[axis {a}: {rule}] (L = SequenceLengths[{core.fmt_coord(at)}]"
            f"{clamp} = {length}) = Input[{core.fmt_coord(src)}] = {core.fmt_value(x[src])}"
        )
    return lines

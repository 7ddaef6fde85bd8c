"""DML_GATHER_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, GATHER.*).

Along Axis, each output element reads the input at the position an index gives: the output's sizes are the
input's split at Axis with the last IndexDimensions sizes of IndicesTensor inserted between (GATHER.1, GATHER.5).
IndicesTensor is a second input of its own type (UINT32; INT64, INT32, UINT64 from FL 3.0: INDICES_TABLES); a
negative index of a signed type counts from the end (GATHER.3); an index out of range makes its elements open,
but each must still be one of the input buffer's values (GATHER.4, U-GATHER-1: `open_elements`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import buffers, core, indices
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

OPERATOR = "GATHER"
PAGE_ORDER = 16  # issue 32's order: GATHER, GATHER_ELEMENTS, ...
TABLES = OperatorTables(
    support=(  # GATHER.8: InputTensor's and OutputTensor's rows, as the page prints them
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
        SupportRow(FeatureLevel.FL_1_0, (4,), types("FLOAT32, FLOAT16")),
    ),
    support_clause="GATHER.8",
    dimension_count_clause="GATHER.8",
    introduced=(FeatureLevel.FL_1_0, "GATHER.8"),
    clause_prefix="GATHER.",
)
# GATHER.9: IndicesTensor's column of the same tables (its ranks are the data's: GATHER.2).
INDICES_TABLES = OperatorTables(
    support=(
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, types("INT64, INT32, UINT64, UINT32")),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, types("INT64, INT32, UINT64, UINT32")),
        SupportRow(FeatureLevel.FL_2_1, (4,), types("UINT32")),
        SupportRow(FeatureLevel.FL_1_0, (4,), types("UINT32")),
    ),
    support_clause="GATHER.9",
    dimension_count_clause="GATHER.8",
    introduced=(FeatureLevel.FL_1_0, "GATHER.8"),
    clause_prefix="GATHER.",
)


def indices_types(level: FeatureLevel) -> tuple[DataType, ...]:
    """The IndicesTensor data types the table in force at `level` takes."""
    row = INDICES_TABLES.row(level)
    return () if row is None else row.data_types


@dataclass(frozen=True)
class GatherDesc(JsonDescriptor):
    """Mirrors DML_GATHER_OPERATOR_DESC, its fields in DirectML.h's order."""

    input_tensor: TensorDesc
    indices_tensor: TensorDesc
    output_tensor: TensorDesc
    axis: int
    index_dimensions: int

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "indices_tensor": TENSOR, "output_tensor": TENSOR}
    INPUT_FIELDS = ("input_tensor", "indices_tensor")  # input_tensors' fields, in the struct's order
    UINT_SCALARS = ("axis", "index_dimensions")  # both UINT (the DirectML backend's C-form check reads this)

    @property
    def dimension_count(self) -> int:
        return self.input_tensor.dimension_count

    @property
    def tensors(self) -> dict[str, TensorDesc]:
        return {
            "input_tensor": self.input_tensor,
            "indices_tensor": self.indices_tensor,
            "output_tensor": self.output_tensor,
        }

    @property
    def input_tensors(self) -> tuple[TensorDesc, ...]:
        """The struct's two inputs in its order: the data, then the indices (another data type)."""
        return tuple(getattr(self, name) for name in self.INPUT_FIELDS)

    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.output_tensor,)

    def struct_fields(self) -> dict:
        """The C struct's fields besides its tensor descs: Axis, IndexDimensions."""
        return {"axis": self.axis, "index_dimensions": self.index_dimensions}


DESCRIPTOR = GatherDesc


def index_sizes(indices_sizes: Sequence[int], index_dimensions: int) -> tuple[int, ...]:
    """GATHER.7: the meaningful indices, IndicesTensor's last IndexDimensions sizes ({1,1,4,6}, 3 -> {1,4,6})."""
    return tuple(indices_sizes[len(indices_sizes) - index_dimensions :]) if index_dimensions else ()


def full_sizes(input_sizes: Sequence[int], axis: int, meaningful: Sequence[int]) -> tuple[int, ...]:
    """GATHER.5 before right-alignment: Input.Sizes[0..Axis], the meaningful index sizes, Input.Sizes[Axis+1..]."""
    return (*input_sizes[:axis], *meaningful, *input_sizes[axis + 1 :])


def output_sizes(
    input_sizes: Sequence[int], indices_sizes: Sequence[int], axis: int, index_dimensions: int
) -> tuple[int, ...] | None:
    """GATHER.5: the concatenation right-aligned in the input's DimensionCount, leading ones cropped (or added,
    for IndexDimensions 0); None when more than leading ones would have to go (the relevant dimensions do not
    fit: E-GATHER-2's reading)."""
    n = len(input_sizes)
    full = full_sizes(input_sizes, axis, index_sizes(indices_sizes, index_dimensions))
    extra = len(full) - n
    if extra > 0:
        return None if any(s != 1 for s in full[:extra]) else tuple(full[extra:])
    return (1,) * -extra + tuple(full)


def validate(desc: GatherDesc, feature_level: FeatureLevel) -> None:
    check_sizes(desc.input_tensor, "input_tensor")
    check_sizes(desc.indices_tensor, "indices_tensor")
    check_sizes(desc.output_tensor, "output_tensor")
    check_same_type_and_rank(desc.input_tensor, "input_tensor", desc.output_tensor, "output_tensor")
    n = desc.input_tensor.dimension_count
    idx = desc.indices_tensor
    if idx.dimension_count != n:
        fail(
            f"indices_tensor has DimensionCount={idx.dimension_count}, but input_tensor has {n}; they must be equal",
            "GATHER.2",
            "indices_tensor.sizes",
        )
    if not 0 <= desc.axis <= UINT_MAX:
        fail(f"axis={desc.axis}, but Axis is UINT (0..{UINT_MAX})", "GATHER.6", "axis")
    if desc.axis >= n:
        fail(f"axis={desc.axis}, but Axis must be less than InputTensor.DimensionCount={n}", "GATHER.6", "axis")
    if not 0 <= desc.index_dimensions <= UINT_MAX:
        fail(f"index_dimensions={desc.index_dimensions}, but IndexDimensions is UINT", "GATHER.7", "index_dimensions")
    if desc.index_dimensions > n:  # E-GATHER-3: [0, DimensionCount], example 1's 1 of 1 included
        fail(
            f"index_dimensions={desc.index_dimensions}, but IndexDimensions is at most IndicesTensor.DimensionCount={n}",
            "GATHER.7",
            "index_dimensions",
        )
    leading = idx.sizes[: n - desc.index_dimensions]
    if any(s != 1 for s in leading):
        fail(
            f"indices_tensor.sizes={list(idx.sizes)}, but the sizes before its last IndexDimensions="
            f"{desc.index_dimensions} must be irrelevant leading ones",
            "GATHER.7",
            "indices_tensor.sizes",
        )
    want = output_sizes(desc.input_tensor.sizes, idx.sizes, desc.axis, desc.index_dimensions)
    if want is None:
        fail(
            f"the output's relevant dimensions ({n} + IndexDimensions {desc.index_dimensions} - 1, leading ones "
            f"cropped) do not fit in DimensionCount={n}",
            "GATHER.5",
            "index_dimensions",
        )
    if desc.output_tensor.sizes != want:
        fail(
            f"output_tensor.sizes={list(desc.output_tensor.sizes)}, but GATHER.5 gives {list(want or ())} (the input's "
            "sizes split at Axis with the indices' last IndexDimensions sizes between, right-aligned)",
            "GATHER.5",
            "output_tensor.sizes",
        )
    check_support(
        OPERATOR, TABLES, {"input_tensor": desc.input_tensor, "output_tensor": desc.output_tensor}, n, feature_level
    )
    check_support(OPERATOR, INDICES_TABLES, {"indices_tensor": idx}, n, feature_level)


def unspecified(desc: GatherDesc) -> list[str]:
    """Whether an element is open depends on the index values (U-GATHER-1), so every GATHER case reaches it;
    `open_elements` says which elements, from the values."""
    return ["U-GATHER-1"]


def index_maps(desc: GatherDesc) -> list[core.AxisMap]:
    """No per-axis map: where an element comes from depends on IndicesTensor's values, an input."""
    return []


def _meaningful(desc: GatherDesc, idx: np.ndarray) -> np.ndarray:
    return np.asarray(idx).reshape(index_sizes(desc.indices_tensor.sizes, desc.index_dimensions))


def open_elements(desc: GatherDesc, inputs: Sequence[np.ndarray]) -> np.ndarray:
    """True where the element's index is out of range (U-GATHER-1): its value is open, but GATHER.4 still
    requires it to be one of the input buffer's values (the judging layer's drawn-from-input judgement)."""
    a, n = desc.axis, desc.input_tensor.sizes[desc.axis]
    _, bad = indices.resolve(_meaningful(desc, inputs[1]), desc.indices_tensor.data_type, n)
    shape = (1,) * a + bad.shape + (1,) * (desc.input_tensor.dimension_count - a - 1)
    full = full_sizes(desc.input_tensor.sizes, a, bad.shape)
    return np.broadcast_to(bad.reshape(shape), full).reshape(desc.output_tensor.sizes).copy()


def _full_coordinate(desc: GatherDesc, c: Sequence[int]) -> tuple[int, ...]:
    """An output coordinate as a coordinate of GATHER.5's concatenation (the cropped or added leading ones)."""
    full = len(
        full_sizes(desc.input_tensor.sizes, desc.axis, index_sizes(desc.indices_tensor.sizes, desc.index_dimensions))
    )
    n = len(c)
    return (0,) * (full - n) + tuple(c) if full >= n else tuple(c[n - full :])


def source(desc: GatherDesc, idx: np.ndarray, c: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """GATHER.1 for one output coordinate, as the page reads: (the input coordinate, the indices' coordinate,
    out of range).  The output's coordinates before Axis and after the index dimensions are the input's; the
    ones between pick an index, whose value (GATHER.3: from the end when negative) is the position along Axis."""
    a, k = desc.axis, desc.index_dimensions
    f = _full_coordinate(desc, c)
    j = f[a : a + k]
    at = (0,) * (desc.indices_tensor.dimension_count - k) + tuple(j)
    p, bad = indices.position(int(idx[at]), desc.indices_tensor.data_type, desc.input_tensor.sizes[a])
    return (*f[:a], p, *f[a + k :]), at, bad


def compute_literal(desc: GatherDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    x, idx = inputs
    return [
        core.copy_elementwise(
            x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, idx, c)[0]
        )
    ]


def compute(desc: GatherDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """One np.take along Axis of the positions (an out-of-range index shown clamped: U-GATHER-1), on the bits,
    then the right-aligned reshape of GATHER.5."""
    x, idx = inputs
    dt, a = desc.input_tensor.data_type, desc.axis
    pos, _ = indices.resolve(_meaningful(desc, idx), desc.indices_tensor.data_type, desc.input_tensor.sizes[a])
    out = buffers.empty(desc.output_tensor.sizes, dt.bits)
    out[...] = np.take(core.as_bits(x, dt), pos, axis=a).reshape(desc.output_tensor.sizes)
    return [core.from_bits(out, dt)]


def explain(desc: GatherDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    """Output[c] = Input[...] (the index Indices[...] = i along Axis a) = v."""
    x, idx = inputs
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        src, at, bad = source(desc, idx, c)
        note = " (out of range: open, U-GATHER-1; shown clamped)" if bad else ""
        lines.append(
            f"Output[{','.join(map(str, c))}] = Input[{core.fmt_coord(src)}] (Indices[{core.fmt_coord(at)}] = "
            f"{int(idx[at])} along axis {desc.axis}) = {core.fmt_value(x[src])}{note}"
        )
    return lines

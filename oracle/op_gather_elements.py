"""DML_GATHER_ELEMENTS_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, GELEM.*).

Each output element reads the input at its own coordinate, but along Axis at the position its index gives
(GELEM.1): IndicesTensor has the input's sizes but along Axis (GELEM.2), the output the indices' (GELEM.4).
IndicesTensor is a second input of its own type (UINT32; INT64, INT32, UINT64 from FL 3.0: INDICES_TABLES), read
by the same body as GATHER's (oracle/indices.py): a negative index of a signed type counts from the end
(GELEM.3); an index out of range makes its element open (U-GELEM-1: the page says nothing of it).
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

OPERATOR = "GATHER_ELEMENTS"
PAGE_ORDER = 17  # issue 32's order: GATHER, GATHER_ELEMENTS, ...
TABLES = OperatorTables(
    support=(  # GELEM.7: InputTensor's and OutputTensor's rows, as the page prints them
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
    ),
    support_clause="GELEM.7",
    dimension_count_clause="GELEM.7",
    introduced=(FeatureLevel.FL_2_1, "GELEM.7"),
    clause_prefix="GELEM.",
)
# GELEM.8: IndicesTensor's column of the same tables (its ranks are the data's: GELEM.6).
INDICES_TABLES = OperatorTables(
    support=(
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, types("INT64, INT32, UINT64, UINT32")),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, types("INT64, INT32, UINT64, UINT32")),
        SupportRow(FeatureLevel.FL_2_1, (4,), types("UINT32")),
    ),
    support_clause="GELEM.8",
    dimension_count_clause="GELEM.7",
    introduced=(FeatureLevel.FL_2_1, "GELEM.7"),
    clause_prefix="GELEM.",
)


def indices_types(level: FeatureLevel) -> tuple[DataType, ...]:
    """The IndicesTensor data types the table in force at `level` takes (none before FL 2.1)."""
    row = INDICES_TABLES.row(level)
    return () if row is None else row.data_types


@dataclass(frozen=True)
class GatherElementsDesc(JsonDescriptor):
    """Mirrors DML_GATHER_ELEMENTS_OPERATOR_DESC, its fields in DirectML.h's order."""

    input_tensor: TensorDesc
    indices_tensor: TensorDesc
    output_tensor: TensorDesc
    axis: int

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "indices_tensor": TENSOR, "output_tensor": TENSOR}
    INPUT_FIELDS = ("input_tensor", "indices_tensor")  # input_tensors' fields, in the struct's order
    UINT_SCALARS = ("axis",)  # Axis is UINT (the DirectML backend's C-form check reads this)

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
        """The C struct's fields besides its tensor descs: Axis."""
        return {"axis": self.axis}


DESCRIPTOR = GatherElementsDesc


def validate(desc: GatherElementsDesc, feature_level: FeatureLevel) -> None:
    check_sizes(desc.input_tensor, "input_tensor")
    check_sizes(desc.indices_tensor, "indices_tensor")
    check_sizes(desc.output_tensor, "output_tensor")
    check_same_type_and_rank(desc.input_tensor, "input_tensor", desc.output_tensor, "output_tensor")
    n = desc.input_tensor.dimension_count
    idx = desc.indices_tensor
    if idx.dimension_count != n:
        fail(
            f"indices_tensor has DimensionCount={idx.dimension_count}, but input_tensor has {n}; they must be equal",
            "GELEM.6",
            "indices_tensor.sizes",
        )
    if not 0 <= desc.axis <= UINT_MAX:
        fail(f"axis={desc.axis}, but Axis is UINT (0..{UINT_MAX})", "GELEM.5", "axis")
    if desc.axis >= n:
        fail(f"axis={desc.axis}, but Axis must be less than InputTensor.DimensionCount={n}", "GELEM.5", "axis")
    for d, (i, s) in enumerate(zip(idx.sizes, desc.input_tensor.sizes)):
        if d != desc.axis and i != s:
            fail(
                f"indices_tensor.sizes={list(idx.sizes)}, but they must match input_tensor.sizes="
                f"{list(desc.input_tensor.sizes)} in every dimension but Axis={desc.axis} (dimension {d})",
                "GELEM.2",
                "indices_tensor.sizes",
            )
    if desc.output_tensor.sizes != idx.sizes:
        fail(
            f"output_tensor.sizes={list(desc.output_tensor.sizes)}, but they must match indices_tensor.sizes="
            f"{list(idx.sizes)}",
            "GELEM.4",
            "output_tensor.sizes",
        )
    check_support(
        OPERATOR, TABLES, {"input_tensor": desc.input_tensor, "output_tensor": desc.output_tensor}, n, feature_level
    )
    check_support(OPERATOR, INDICES_TABLES, {"indices_tensor": idx}, n, feature_level)


def unspecified(desc: GatherElementsDesc) -> list[str]:
    """Whether an element is open depends on the index values (U-GELEM-1), so every case reaches it;
    `open_elements` says which elements, from the values."""
    return ["U-GELEM-1"]


def index_maps(desc: GatherElementsDesc) -> list[core.AxisMap]:
    """No per-axis map: where an element comes from depends on IndicesTensor's values, an input."""
    return []


def open_elements(desc: GatherElementsDesc, inputs: Sequence[np.ndarray]) -> np.ndarray:
    """True where the element's own index is out of range (U-GELEM-1: open, observed)."""
    n = desc.input_tensor.sizes[desc.axis]
    _, bad = indices.resolve(np.asarray(inputs[1]), desc.indices_tensor.data_type, n)
    return np.asarray(bad, dtype=bool).reshape(desc.output_tensor.sizes)


def source(desc: GatherElementsDesc, idx: np.ndarray, c: Sequence[int]) -> tuple[tuple[int, ...], bool]:
    """GELEM.1 for one output coordinate, as the page reads: the same coordinate, but along Axis the position
    Indices[c] gives (GELEM.3: from the end when negative); and whether that index is out of range."""
    a = desc.axis
    p, bad = indices.position(int(idx[tuple(c)]), desc.indices_tensor.data_type, desc.input_tensor.sizes[a])
    return tuple(p if d == a else v for d, v in enumerate(c)), bad


def compute_literal(desc: GatherElementsDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    x, idx = inputs
    return [
        core.copy_elementwise(
            x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, idx, c)[0]
        )
    ]


def compute(desc: GatherElementsDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """np.take_along_axis of the positions (an out-of-range index shown clamped: U-GELEM-1), on the bits.  The
    input is cut to the indices' sizes off Axis first (they are equal there: GELEM.2)."""
    x, idx = inputs
    dt, a = desc.input_tensor.data_type, desc.axis
    pos, _ = indices.resolve(np.asarray(idx), desc.indices_tensor.data_type, desc.input_tensor.sizes[a])
    out = buffers.empty(desc.output_tensor.sizes, dt.bits)
    out[...] = np.take_along_axis(core.as_bits(x, dt), pos.reshape(desc.output_tensor.sizes), axis=a)
    return [core.from_bits(out, dt)]


def explain(desc: GatherElementsDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    """Output[c] = Input[c with Axis at Indices[c]] = v."""
    x, idx = inputs
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        src, bad = source(desc, idx, c)
        note = " (out of range: open, U-GELEM-1; shown clamped)" if bad else ""
        lines.append(
            f"Output[{','.join(map(str, c))}] = Input[{core.fmt_coord(src)}] (Indices[{core.fmt_coord(c)}] = "
            f"{int(idx[c])} along axis {desc.axis}) = {core.fmt_value(x[src])}{note}"
        )
    return lines

"""DML_ONE_HOT_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, ONEHOT.*).

A generator: every sequence along Axis (one line of the output through the axis) is OffValue but at the element
its index names, which is OnValue (ONEHOT.1, ONEHOT.5).  An index past the axis is ignored: the whole sequence is
OffValue (ONEHOT.2; an index equal to the axis' size too: E-ONEHOT-1); from FL 3.0 a negative index of a signed
type counts from the end (ONEHOT.3).  A negative index before the sequence's start (below -size) is what the page
leaves open (U-ONEHOT-1): its sequence's elements are open, observed and shown, never failed (`open_elements`).
IndicesTensor has data types of its own (UINT32; INT64, INT32, UINT64 from FL 3.0: INDICES_TABLES); ValuesTensor
has the output's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import core
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

OPERATOR = "ONE_HOT"
PAGE_ORDER = 22  # issue 32's order (the lead's numbering at merge)
TABLES = OperatorTables(
    support=(  # ONEHOT.9: ValuesTensor's and OutputTensor's rows, as the page prints them
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_0, (4,), types("FLOAT32, FLOAT16")),
    ),
    support_clause="ONEHOT.9",
    dimension_count_clause="ONEHOT.9",
    introduced=(FeatureLevel.FL_2_0, "ONEHOT.9"),
    clause_prefix="ONEHOT.",
)
# ONEHOT.10: IndicesTensor's column of the same tables (its ranks are the output's: ONEHOT.8).
INDICES_TABLES = OperatorTables(
    support=(
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, types("INT64, INT32, UINT64, UINT32")),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, types("INT64, INT32, UINT64, UINT32")),
        SupportRow(FeatureLevel.FL_2_1, (4,), types("UINT32")),
        SupportRow(FeatureLevel.FL_2_0, (4,), types("UINT32")),
    ),
    support_clause="ONEHOT.10",
    dimension_count_clause="ONEHOT.9",
    introduced=(FeatureLevel.FL_2_0, "ONEHOT.9"),
    clause_prefix="ONEHOT.",
)
SIGNED_INDICES = (DataType.INT64, DataType.INT32)


def indices_types(level: FeatureLevel) -> tuple[DataType, ...]:
    """The IndicesTensor data types the table in force at `level` takes (none before FL 2.0)."""
    row = INDICES_TABLES.row(level)
    return () if row is None else row.data_types


@dataclass(frozen=True)
class OneHotDesc(JsonDescriptor):
    """Mirrors DML_ONE_HOT_OPERATOR_DESC, its fields in DirectML.h's order."""

    indices_tensor: TensorDesc
    values_tensor: TensorDesc
    output_tensor: TensorDesc
    axis: int

    operator = OPERATOR
    JSON_FIELDS = {"indices_tensor": TENSOR, "values_tensor": TENSOR, "output_tensor": TENSOR}
    INPUT_FIELDS = ("indices_tensor", "values_tensor")  # input_tensors' fields, in the struct's order
    UINT_SCALARS = ("axis",)  # Axis is UINT (the DirectML backend's C-form check reads this)

    @property
    def dimension_count(self) -> int:
        return self.output_tensor.dimension_count

    @property
    def input_tensor(self) -> TensorDesc:
        """What a case's data type and rank are read from (as JOIN's): the output, whose type is ValuesTensor's
        (ONEHOT.8) and whose sizes are the generated ones (IndicesTensor has the index type)."""
        return self.output_tensor

    @property
    def tensors(self) -> dict[str, TensorDesc]:
        return {
            "indices_tensor": self.indices_tensor,
            "values_tensor": self.values_tensor,
            "output_tensor": self.output_tensor,
        }

    @property
    def input_tensors(self) -> tuple[TensorDesc, ...]:
        """The struct's two inputs in its order: the indices (their own type), then the values (the output's)."""
        return tuple(getattr(self, name) for name in self.INPUT_FIELDS)

    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.output_tensor,)

    def struct_fields(self) -> dict:
        """The C struct's fields besides its tensor descs: Axis."""
        return {"axis": self.axis}


DESCRIPTOR = OneHotDesc


def indices_sizes(output_sizes: Sequence[int], axis: int) -> tuple[int, ...]:
    """ONEHOT.4: the output's sizes with the Axis dimension 1 ({2,3,4,5}, axis 1 -> {2,1,4,5})."""
    return tuple(1 if d == axis else n for d, n in enumerate(output_sizes))


def validate(desc: OneHotDesc, feature_level: FeatureLevel) -> None:
    for name, tensor in desc.tensors.items():
        check_sizes(tensor, name)
    # ONEHOT.8: ValuesTensor has OutputTensor's DataType and DimensionCount (reported as COMMON.1, as every input's)
    check_same_type_and_rank(desc.output_tensor, "output_tensor", desc.values_tensor, "values_tensor")
    n = desc.indices_tensor.dimension_count
    if not 0 <= desc.axis <= UINT_MAX:
        fail(f"axis={desc.axis}, but Axis is UINT (0..{UINT_MAX})", "ONEHOT.7", "axis")
    if desc.axis >= n:
        fail(f"axis={desc.axis}, but Axis must be less than IndicesTensor.DimensionCount={n}", "ONEHOT.7", "axis")
    if desc.output_tensor.dimension_count != n:
        fail(
            f"indices_tensor has DimensionCount={n}, but output_tensor has {desc.output_tensor.dimension_count}; "
            "they must be equal",
            "ONEHOT.4",
            "indices_tensor.sizes",
        )
    want = indices_sizes(desc.output_tensor.sizes, desc.axis)
    if desc.indices_tensor.sizes != want:
        fail(
            f"indices_tensor.sizes={list(desc.indices_tensor.sizes)}, but they must be output_tensor's with the "
            f"Axis dimension 1: {list(want)}",
            "ONEHOT.4",
            "indices_tensor.sizes",
        )
    count = int(np.prod(desc.values_tensor.sizes, dtype=object))
    if count < 2:
        fail(
            f"values_tensor has {count} element(s), but it must hold at least two (OffValue, OnValue)",
            "ONEHOT.5",
            "values_tensor.sizes",
        )
    check_support(
        OPERATOR, TABLES, {"values_tensor": desc.values_tensor, "output_tensor": desc.output_tensor}, n, feature_level
    )
    check_support(OPERATOR, INDICES_TABLES, {"indices_tensor": desc.indices_tensor}, n, feature_level)


def unspecified(desc: OneHotDesc) -> list[str]:
    """U-ONEHOT-1 is reachable wherever an index can be below -size: a signed IndicesTensor."""
    return ["U-ONEHOT-1"] if desc.indices_tensor.data_type in SIGNED_INDICES else []


def positions(desc: OneHotDesc, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each sequence's OnValue position along Axis (ONEHOT.1, a negative index counted from the end: ONEHOT.3),
    and whether its index is below the sequence's start (U-ONEHOT-1: open).  A position outside [0, size) puts no
    OnValue (ONEHOT.2, E-ONEHOT-1).  Python ints: a UINT64 index past 2^63 stays itself."""
    size = desc.output_tensor.sizes[desc.axis]
    raw = np.asarray(indices)
    if raw.dtype.kind == "u":  # unsigned: every value >= 0; past the axis (or past 2^63) is off
        where = np.minimum(raw.astype(np.uint64), np.uint64(size)).astype(np.int64)
        return where, np.zeros(raw.shape, dtype=bool)
    signed = raw.astype(np.int64)
    below = signed < -size
    where = np.where(signed < 0, signed + size, signed)
    return np.where(below, size, np.minimum(where, size)), below


def on_off(desc: OneHotDesc, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ONEHOT.5: element 0 is OffValue, the 1st along the fastest-changing dimension of size > 1 OnValue, i.e.
    element 1 in row-major order (every faster dimension has size 1), as bits (NaN payloads intact)."""
    flat = core.as_bits(np.asarray(values), desc.values_tensor.data_type).reshape(-1)
    return flat[0], flat[1]


def open_elements(desc: OneHotDesc, indices: np.ndarray) -> np.ndarray:
    """True on every element of a sequence whose index is below -size (U-ONEHOT-1: the page says only what a
    negative index inside the sequence means, and ignores only an index that exceeds the axis)."""
    _, below = positions(desc, indices)
    return np.broadcast_to(below, desc.output_tensor.sizes).copy()


def index_maps(desc: OneHotDesc) -> list[core.AxisMap]:
    """No map: a generator (STYLE.md), every element OffValue or OnValue as IndicesTensor's values say."""
    return []


def value_at(desc: OneHotDesc, indices: np.ndarray, c: Sequence[int]) -> bool:
    """ONEHOT.1-3 for one output coordinate, read as the page words it: is it its sequence's OnValue?"""
    a, size = desc.axis, desc.output_tensor.sizes[desc.axis]
    index = int(np.asarray(indices)[tuple(0 if d == a else k for d, k in enumerate(c))])
    if index < 0 and desc.indices_tensor.data_type in SIGNED_INDICES:
        index += size  # ONEHOT.3: relative to the end of the sequence
    return index == c[a]  # ONEHOT.2, E-ONEHOT-1: an index >= size (or still negative) matches no element


def compute_literal(desc: OneHotDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    indices, values = inputs
    dt = desc.output_tensor.data_type
    off, on = on_off(desc, values)
    out = np.empty(desc.output_tensor.sizes, dtype=dt.bits)
    for c in core.output_coordinates(desc.output_tensor.sizes):
        out[c] = on if value_at(desc, indices, c) else off
    return [core.from_bits(out, dt)]


def compute(desc: OneHotDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """One comparison along Axis: k == position (broadcast from the indices, size 1 along Axis), on the bits."""
    indices, values = inputs
    dt, a = desc.output_tensor.data_type, desc.axis
    shape = [1] * desc.output_tensor.dimension_count
    shape[a] = desc.output_tensor.sizes[a]
    k = np.arange(shape[a], dtype=np.int64).reshape(shape)
    where, _ = positions(desc, indices)
    off, on = on_off(desc, values)
    out = np.where(k == where, on, off).astype(dt.bits)
    return [core.from_bits(np.ascontiguousarray(np.broadcast_to(out, desc.output_tensor.sizes)), dt)]


def explain(desc: OneHotDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    """Output[c] = OnValue|OffValue (Indices[...] = i, position p along Axis) = v."""
    indices, values = inputs
    a, size = desc.axis, desc.output_tensor.sizes[desc.axis]
    flat = np.asarray(values).reshape(-1)
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        at = tuple(0 if d == a else k for d, k in enumerate(c))
        given = int(np.asarray(indices)[at])
        on = value_at(desc, indices, c)
        if given < -size:
            why = f"{given} < -{size}: open, U-ONEHOT-1"
        elif given < 0:
            why = f"{given} + {size} = {given + size}"
        elif given >= size:
            why = f"{given} >= {size}: ignored"
        else:
            why = str(given)
        name, v = ("OnValue", flat[1]) if on else ("OffValue", flat[0])
        lines.append(
            f"Output[{','.join(map(str, c))}] = {name} (Indices[{core.fmt_coord(at)}] = {why}; axis {a} at {c[a]}) "
            f"= {core.fmt_value(v)}"
        )
    return lines

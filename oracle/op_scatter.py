"""DML_SCATTER_OPERATOR_DESC, also DML_SCATTER_ELEMENTS_OPERATOR_DESC (DirectML's page, beyond the seeds:
docs/spec/beyond-seeds.md, SCATTER.*).

The output is the input, then for every coordinate c of IndicesTensor the output element at c with c[Axis]
replaced by Indices[c] takes Updates[c] (SCATTER.1).  IndicesTensor has a data type of its own (UINT32; INT32,
INT64, UINT64 too from FL 3.0: INDICES_TABLES), and from FL 3.0 a negative index of a signed type counts from the
end of the axis (SCATTER.3).  What the page leaves open depends on the index VALUES, as DML_CAST's open elements
do: a target written more than once (U-SCATTER-1: which write lands is unspecified) and an index outside the axis
(U-SCATTER-2: where, if anywhere, its write lands: the whole output is then open, the guard bytes still judged).  `open_elements` says which output elements those are;
everything else is judged bit for bit.  What the suite shows there: the last write in IndicesTensor's row-major
order (the page's example 1 prints that), and an out-of-range write dropped.
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

OPERATOR = "SCATTER"
# DirectML.h: `DML_OPERATOR_SCATTER = DML_OPERATOR_SCATTER_ELEMENTS` and `using DML_SCATTER_ELEMENTS_OPERATOR_DESC =
# DML_SCATTER_OPERATOR_DESC`: the same operator under its newer name (oracle.registry.ALIASES reads this).
ALIASES = ("SCATTER_ELEMENTS",)
PAGE_ORDER = 20  # issue 32's order: ... SCATTER 20, SCATTER_ND 21
_INDEX_TYPES = types("INT64, INT32, UINT64, UINT32")
TABLES = OperatorTables(
    support=(  # SCATTER.8: InputTensor's, UpdatesTensor's and OutputTensor's rows, as the page prints them
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
        # the page's DML_FEATURE_LEVEL_1_0 row, in force from 2.0 where the operator was introduced (E-SCATTER-3)
        SupportRow(FeatureLevel.FL_2_0, (4,), types("FLOAT32, FLOAT16")),
    ),
    support_clause="SCATTER.8",
    dimension_count_clause="SCATTER.8",
    introduced=(FeatureLevel.FL_2_0, "SCATTER.8"),
    clause_prefix="SCATTER.",
)
# SCATTER.9: IndicesTensor's column of the same tables (its ranks are the data's: SCATTER.7).
INDICES_TABLES = OperatorTables(
    support=(
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, _INDEX_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, _INDEX_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), types("UINT32")),
        SupportRow(FeatureLevel.FL_2_0, (4,), types("UINT32")),
    ),
    support_clause="SCATTER.9",
    dimension_count_clause="SCATTER.8",
    introduced=(FeatureLevel.FL_2_0, "SCATTER.8"),
    clause_prefix="SCATTER.",
)
# SCATTER.3: negative indices count from the end from this level on (signed index types arrive with it).
NEGATIVE_INDICES = FeatureLevel.FL_3_0


def indices_types(level: FeatureLevel) -> tuple[DataType, ...]:
    """The IndicesTensor data types the table in force at `level` takes (none before FL 2.0)."""
    row = INDICES_TABLES.row(level)
    return () if row is None else row.data_types


@dataclass(frozen=True)
class ScatterDesc(JsonDescriptor):
    """Mirrors DML_SCATTER_OPERATOR_DESC (= DML_SCATTER_ELEMENTS_OPERATOR_DESC), its fields in DirectML.h's order."""

    input_tensor: TensorDesc
    indices_tensor: TensorDesc
    updates_tensor: TensorDesc
    output_tensor: TensorDesc
    axis: int

    operator = OPERATOR
    JSON_FIELDS = {
        "input_tensor": TENSOR,
        "indices_tensor": TENSOR,
        "updates_tensor": TENSOR,
        "output_tensor": TENSOR,
    }
    INPUT_FIELDS = ("input_tensor", "indices_tensor", "updates_tensor")  # input_tensors' fields, the struct's order
    UINT_SCALARS = ("axis",)  # Axis is UINT (the DirectML backend's C-form check reads this)

    @property
    def dimension_count(self) -> int:
        return self.input_tensor.dimension_count

    @property
    def tensors(self) -> dict[str, TensorDesc]:
        return {name: getattr(self, name) for name in (*self.INPUT_FIELDS, "output_tensor")}

    @property
    def input_tensors(self) -> tuple[TensorDesc, ...]:
        """The struct's three inputs in its order: the data, the indices (another data type), the updates."""
        return tuple(getattr(self, name) for name in self.INPUT_FIELDS)

    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.output_tensor,)

    def struct_fields(self) -> dict:
        """The C struct's fields besides its tensor descs: Axis."""
        return {"axis": self.axis}


DESCRIPTOR = ScatterDesc


def validate(desc: ScatterDesc, feature_level: FeatureLevel) -> None:
    for name, tensor in desc.tensors.items():
        check_sizes(tensor, name)
    check_same_type_and_rank(desc.input_tensor, "input_tensor", desc.output_tensor, "output_tensor")
    n = desc.input_tensor.dimension_count
    for name in ("indices_tensor", "updates_tensor"):
        t = getattr(desc, name)
        if t.dimension_count != n:
            fail(
                f"{name} has DimensionCount={t.dimension_count}, but input_tensor has {n}; they must be equal",
                "SCATTER.7",
                f"{name}.sizes",
            )
    if desc.updates_tensor.data_type != desc.input_tensor.data_type:
        fail(
            f"updates_tensor.data_type={desc.updates_tensor.data_type.value}, but input_tensor.data_type="
            f"{desc.input_tensor.data_type.value}; they must be equal",
            "SCATTER.7",
            "updates_tensor.data_type",
        )
    if not 0 <= desc.axis <= UINT_MAX:
        fail(f"axis={desc.axis}, but Axis is UINT (0..{UINT_MAX})", "SCATTER.6", "axis")
    if desc.axis >= n:
        fail(f"axis={desc.axis}, but Axis must be less than OutputTensor.DimensionCount={n}", "SCATTER.6", "axis")
    indices = desc.indices_tensor
    for d in range(n):
        if d != desc.axis and indices.sizes[d] != desc.input_tensor.sizes[d]:
            fail(
                f"indices_tensor.sizes[{d}]={indices.sizes[d]}, but input_tensor.sizes[{d}]="
                f"{desc.input_tensor.sizes[d]}; only Axis={desc.axis} may differ",
                "SCATTER.2",
                "indices_tensor.sizes",
            )
    if desc.updates_tensor.sizes != indices.sizes:
        fail(
            f"updates_tensor.sizes={list(desc.updates_tensor.sizes)}, but they must be indices_tensor's "
            f"{list(indices.sizes)}",
            "SCATTER.4",
            "updates_tensor.sizes",
        )
    if desc.output_tensor.sizes != desc.input_tensor.sizes:
        fail(
            f"output_tensor.sizes={list(desc.output_tensor.sizes)}, but OutputTensor must have InputTensor's sizes "
            f"{list(desc.input_tensor.sizes)}",
            "SCATTER.5",
            "output_tensor.sizes",
        )
    data = {
        "input_tensor": desc.input_tensor,
        "updates_tensor": desc.updates_tensor,
        "output_tensor": desc.output_tensor,
    }
    check_support(OPERATOR, TABLES, data, n, feature_level)
    check_support(OPERATOR, INDICES_TABLES, {"indices_tensor": indices}, n, feature_level)


def unspecified(desc: ScatterDesc) -> list[str]:
    """The descriptor alone cannot say whether an element is open (the index values decide, `open_elements`):
    U-SCATTER-1 is reachable wherever two updates can meet (more than one index per output line), U-SCATTER-2
    wherever an index can fall outside the axis (any index type can hold such a value); U-SCATTER-3 (whether the
    descriptor is valid at all: a refusal is observed) where IndicesTensor is longer along Axis than the input."""
    reached = ["U-SCATTER-2"]
    along = desc.indices_tensor.sizes[desc.axis]
    if along > 1:
        reached.insert(0, "U-SCATTER-1")
    if along > desc.input_tensor.sizes[desc.axis]:  # more updates per line than targets (U-SCATTER-3)
        reached.append("U-SCATTER-3")
    return reached


def targets(desc: ScatterDesc, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each index as its position along Axis (int64) and whether it lies on the axis (SCATTER.1, SCATTER.3): a
    negative index of a signed type counts from the end (-1 the last); anything else outside [0, size) is out of
    range (U-SCATTER-2).  Python ints: a UINT64 past 2^63 stays out of range, not negative."""
    size = desc.input_tensor.sizes[desc.axis]
    raw = np.asarray(indices)
    signed = np.issubdtype(raw.dtype, np.signedinteger)
    wide = raw.astype(np.int64) if signed else np.minimum(raw.astype(np.uint64), np.uint64(2**62)).astype(np.int64)
    at = np.where(signed & (wide < 0), wide + size, wide)
    inside = (at >= 0) & (at < size)
    return np.where(inside, at, 0), inside


def _writes(desc: ScatterDesc, indices: np.ndarray) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """Every update's target coordinate (one int64 array per output axis, over IndicesTensor's shape) and
    whether it lies inside the output."""
    at, inside = targets(desc, indices)
    grid = list(np.indices(desc.indices_tensor.sizes, dtype=np.int64))
    grid[desc.axis] = at
    return tuple(grid), inside


def open_elements(desc: ScatterDesc, indices: np.ndarray) -> np.ndarray:
    """True where the page leaves the output element open: a target written more than once (U-SCATTER-1); and,
    when any index lies outside the axis, every element (U-SCATTER-2: the page says nothing of where such a write
    lands; DirectML 1.15.4 writes it at the flat offset the index gives, in another line of the output)."""
    sizes = desc.output_tensor.sizes
    grid, inside = _writes(desc, indices)
    if not inside.all():
        return np.ones(sizes, dtype=bool)
    counts = np.zeros(sizes, dtype=np.int64)
    np.add.at(counts, grid, 1)
    return counts > 1


def index_maps(desc: ScatterDesc) -> list[core.AxisMap]:
    """No per-axis map: where an update lands depends on IndicesTensor's values, an input (compute() takes it)."""
    return []


def compute_literal(desc: ScatterDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The page's pseudo-code read literally: output = input, then one write per IndicesTensor coordinate in
    row-major order (a later write to the same target replaces an earlier one: U-SCATTER-1's shown value), an
    index outside the axis writing nothing (U-SCATTER-2's shown value)."""
    x, indices, updates = inputs
    dt = desc.input_tensor.data_type
    out = core.as_bits(np.asarray(x), dt).copy()
    bits = core.as_bits(np.asarray(updates), dt)
    size = desc.input_tensor.sizes[desc.axis]
    signed = np.issubdtype(np.asarray(indices).dtype, np.signedinteger)
    for c in core.output_coordinates(desc.indices_tensor.sizes):
        k = int(indices[c])
        if signed and k < 0:
            k += size  # SCATTER.3
        if 0 <= k < size:
            target = tuple(k if d == desc.axis else v for d, v in enumerate(c))
            out[target] = bits[c]
    return [core.from_bits(out, dt)]


def compute(desc: ScatterDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """One fancy-index assignment on the bits (NaN payloads and -0.0 intact): numpy applies repeated targets in
    order, so the last write in row-major order lands, as compute_literal's loop."""
    x, indices, updates = inputs
    dt = desc.input_tensor.data_type
    out = buffers.empty(desc.output_tensor.sizes, dt.bits)
    out[...] = core.as_bits(np.asarray(x), dt)
    grid, inside = _writes(desc, indices)
    out[tuple(g[inside] for g in grid)] = core.as_bits(np.asarray(updates), dt)[inside]
    return [core.from_bits(out, dt)]


def explain(desc: ScatterDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    """Output[c] = Input[c], or = Updates[u] for the update u written there (the open entries named)."""
    indices = inputs[1]
    out = compute(desc, inputs)[0]
    opened = open_elements(desc, indices)
    grid, inside = _writes(desc, indices)
    writers: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for u in core.output_coordinates(desc.indices_tensor.sizes):
        if inside[u]:
            writers.setdefault(tuple(int(g[u]) for g in grid), []).append(u)
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        by = writers.get(c, [])
        if by:
            u = by[-1]
            rule = (
                f"Updates[{core.fmt_coord(u)}] (Indices[{core.fmt_coord(u)}] = {int(indices[u])} on axis {desc.axis})"
            )
            if len(by) > 1:
                rule += f", last of {len(by)} writes (U-SCATTER-1)"
        else:
            rule = f"Input[{core.fmt_coord(c)}]"
        if opened[c] and len(by) < 2:
            rule += " (an index lies outside the axis: U-SCATTER-2)"
        lines.append(f"Output[{','.join(map(str, c))}] = {rule} = {core.fmt_value(out[c])}")
    return lines

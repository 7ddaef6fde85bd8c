"""DML_SCATTER_ND_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, SCATND.*).

The output is the input, then each index tuple (IndicesTensor's last dimension, k coordinates) addresses a slice of
the input's meaningful dimensions (the last InputDimensionCount), which takes the updates of that tuple
(SCATND.1): with B the tuples' batch (the meaningful indices dimensions but the last) and R the input's meaningful
dimensions past the first k, Output[t(b), r] = Updates[b, r].  UpdatesTensor's sizes are B then R, right-aligned
with leading 1s (SCATND.4: the example's reading, E-SCATND-1).  IndicesTensor has a type of its own (UINT32; INT64,
INT32, UINT64 from FL 3.0), a negative index counts from the end of its dimension from FL 3.0 (SCATND.3).  As
DML_SCATTER's, what the page leaves open depends on the values: a slice element written more than once
(U-SCATND-1) and any coordinate outside its dimension (U-SCATND-2: the whole output open, the guard bytes judged).
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

OPERATOR = "SCATTER_ND"
PAGE_ORDER = 21  # issue 32's order: ... SCATTER 20, SCATTER_ND 21
_INDEX_TYPES = types("INT64, INT32, UINT64, UINT32")
TABLES = OperatorTables(
    support=(  # SCATND.9: InputTensor's, UpdatesTensor's and OutputTensor's rows, as the page prints them
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
    ),
    support_clause="SCATND.9",
    dimension_count_clause="SCATND.9",
    introduced=(FeatureLevel.FL_2_1, "SCATND.9"),
    clause_prefix="SCATND.",
)
# SCATND.10: IndicesTensor's column of the same tables (its ranks are the data's: SCATND.8).
INDICES_TABLES = OperatorTables(
    support=(
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, _INDEX_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, _INDEX_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), types("UINT32")),
    ),
    support_clause="SCATND.10",
    dimension_count_clause="SCATND.9",
    introduced=(FeatureLevel.FL_2_1, "SCATND.9"),
    clause_prefix="SCATND.",
)


def indices_types(level: FeatureLevel) -> tuple[DataType, ...]:
    """The IndicesTensor data types the table in force at `level` takes (none before FL 2.1)."""
    row = INDICES_TABLES.row(level)
    return () if row is None else row.data_types


@dataclass(frozen=True)
class ScatterNdDesc(JsonDescriptor):
    """Mirrors DML_SCATTER_ND_OPERATOR_DESC, its fields in DirectML.h's order."""

    input_tensor: TensorDesc
    indices_tensor: TensorDesc
    updates_tensor: TensorDesc
    output_tensor: TensorDesc
    input_dimension_count: int
    indices_dimension_count: int

    operator = OPERATOR
    JSON_FIELDS = {
        "input_tensor": TENSOR,
        "indices_tensor": TENSOR,
        "updates_tensor": TENSOR,
        "output_tensor": TENSOR,
    }
    INPUT_FIELDS = ("input_tensor", "indices_tensor", "updates_tensor")  # input_tensors' fields, the struct's order
    UINT_SCALARS = ("input_dimension_count", "indices_dimension_count")  # UINT in the struct

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

    @property
    def tuple_size(self) -> int:
        """k: IndicesTensor's last size, the coordinates per index tuple (SCATND.2)."""
        return self.indices_tensor.sizes[-1]

    def struct_fields(self) -> dict:
        """The C struct's fields besides its tensor descs: InputDimensionCount, IndicesDimensionCount."""
        return {
            "input_dimension_count": self.input_dimension_count,
            "indices_dimension_count": self.indices_dimension_count,
        }


DESCRIPTOR = ScatterNdDesc


def batch_sizes(desc: ScatterNdDesc) -> tuple[int, ...]:
    """B: the meaningful indices dimensions but the last (the tuples' batch)."""
    n = desc.indices_tensor.dimension_count
    return desc.indices_tensor.sizes[n - desc.indices_dimension_count : n - 1]


def slice_sizes(desc: ScatterNdDesc) -> tuple[int, ...]:
    """R: the input's meaningful dimensions past the first k (what one tuple addresses)."""
    n = desc.input_tensor.dimension_count
    return desc.input_tensor.sizes[n - desc.input_dimension_count + desc.tuple_size :]


def updates_sizes(desc: ScatterNdDesc) -> tuple[int, ...]:
    """SCATND.4 as the page's example reads it (E-SCATND-1): B then R, right-aligned to DimensionCount with 1s."""
    meaningful = (*batch_sizes(desc), *slice_sizes(desc))
    return (1,) * (desc.updates_tensor.dimension_count - len(meaningful)) + meaningful


def page_formula_updates_sizes(desc: ScatterNdDesc) -> tuple[int, ...]:
    """SCATND.4's formula as printed: B then the input's last k sizes (E-SCATND-1: the example disagrees)."""
    n = desc.input_tensor.dimension_count
    meaningful = (*batch_sizes(desc), *desc.input_tensor.sizes[n - desc.tuple_size :])
    return (1,) * max(0, desc.updates_tensor.dimension_count - len(meaningful)) + meaningful


def _count(value: int, name: str, struct: str, n: int, clause: str) -> None:
    if not 0 <= value <= UINT_MAX:
        fail(f"{name}={value}, but {struct} is UINT (0..{UINT_MAX})", clause, name)
    if not 1 <= value <= n:
        fail(f"{name}={value}, but {struct} ranges [1, DimensionCount={n}] (E-SCATND-3)", clause, name)


def validate(desc: ScatterNdDesc, feature_level: FeatureLevel) -> None:
    for name, tensor in desc.tensors.items():
        check_sizes(tensor, name)
    check_same_type_and_rank(desc.input_tensor, "input_tensor", desc.output_tensor, "output_tensor")
    n = desc.input_tensor.dimension_count
    for name in ("indices_tensor", "updates_tensor"):
        t = getattr(desc, name)
        if t.dimension_count != n:
            fail(
                f"{name} has DimensionCount={t.dimension_count}, but input_tensor has {n}; they must be equal",
                "SCATND.8",
                f"{name}.sizes",
            )
    if desc.updates_tensor.data_type != desc.input_tensor.data_type:
        fail(
            f"updates_tensor.data_type={desc.updates_tensor.data_type.value}, but input_tensor.data_type="
            f"{desc.input_tensor.data_type.value}; they must be equal",
            "SCATND.8",
            "updates_tensor.data_type",
        )
    _count(desc.input_dimension_count, "input_dimension_count", "InputDimensionCount", n, "SCATND.6")
    _count(desc.indices_dimension_count, "indices_dimension_count", "IndicesDimensionCount", n, "SCATND.7")
    for name, count, clause in (
        ("input_tensor", desc.input_dimension_count, "SCATND.6"),
        ("indices_tensor", desc.indices_dimension_count, "SCATND.7"),
    ):
        leading = getattr(desc, name).sizes[: n - count]
        if any(s != 1 for s in leading):
            fail(
                f"{name}.sizes={list(getattr(desc, name).sizes)}, but the {n - count} leading size(s) past its "
                f"{count} meaningful ones must be 1",
                clause,
                f"{name}.sizes",
            )
    k = desc.tuple_size
    if k > desc.input_dimension_count:
        fail(
            f"indices_tensor's last size (the tuple size) is {k}, but the tuples index the input's "
            f"InputDimensionCount={desc.input_dimension_count} meaningful dimensions",
            "SCATND.2",
            "indices_tensor.sizes",
        )
    meaningful = desc.indices_dimension_count - 1 + desc.input_dimension_count - k
    if meaningful > n:
        fail(
            f"updates need {meaningful} dimensions (IndicesDimensionCount - 1 + InputDimensionCount - tuple size), "
            f"more than DimensionCount={n}",
            "SCATND.4",
            "updates_tensor.sizes",
        )
    want = updates_sizes(desc)
    if desc.updates_tensor.sizes != want:
        fail(
            f"updates_tensor.sizes={list(desc.updates_tensor.sizes)}, but they must be the tuples' batch then the "
            f"input's sizes past the tuple, right-aligned: {list(want)}",
            "SCATND.4",
            "updates_tensor.sizes",
        )
    if desc.output_tensor.sizes != desc.input_tensor.sizes:
        fail(
            f"output_tensor.sizes={list(desc.output_tensor.sizes)}, but OutputTensor must have InputTensor's sizes "
            f"{list(desc.input_tensor.sizes)}",
            "SCATND.5",
            "output_tensor.sizes",
        )
    data = {
        "input_tensor": desc.input_tensor,
        "updates_tensor": desc.updates_tensor,
        "output_tensor": desc.output_tensor,
    }
    check_support(OPERATOR, TABLES, data, n, feature_level)
    check_support(OPERATOR, INDICES_TABLES, {"indices_tensor": desc.indices_tensor}, n, feature_level)


def unspecified(desc: ScatterNdDesc) -> list[str]:
    """By the values (`open_elements`): U-SCATND-1 wherever two tuples can meet (more than one tuple), U-SCATND-2
    wherever a coordinate can fall outside its dimension (any index type can hold such a value)."""
    return ["U-SCATND-1", "U-SCATND-2"] if int(np.prod(batch_sizes(desc))) > 1 else ["U-SCATND-2"]


def _tuples(desc: ScatterNdDesc, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each tuple as int64 coordinates on the input's first k meaningful dimensions, shaped (tuples, k), and
    whether it lies inside (SCATND.3: a negative coordinate of a signed type counts from the end of its dimension;
    a UINT64 past 2^62 stays outside, not negative)."""
    n, k = desc.input_tensor.dimension_count, desc.tuple_size
    dims = np.asarray(desc.input_tensor.sizes[n - desc.input_dimension_count :][:k], dtype=np.int64)
    raw = np.asarray(indices).reshape(-1, k)
    signed = np.issubdtype(raw.dtype, np.signedinteger)
    wide = raw.astype(np.int64) if signed else np.minimum(raw.astype(np.uint64), np.uint64(2**62)).astype(np.int64)
    at = np.where(signed & (wide < 0), wide + dims, wide)
    inside: np.ndarray = np.asarray(((at >= 0) & (at < dims)).all(axis=1))
    return np.where(inside[:, None], at, 0), inside


def _views(desc: ScatterNdDesc, x: np.ndarray, updates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The output as (input's leading prefix folded, the k tuple dims flattened, R) and the updates as (tuples, R)."""
    k, r = desc.tuple_size, slice_sizes(desc)
    n = desc.input_tensor.dimension_count
    tuple_dims = desc.input_tensor.sizes[n - desc.input_dimension_count :][:k]
    out = np.asarray(x).reshape(int(np.prod(tuple_dims)), *r)
    return out, np.asarray(updates).reshape(-1, *r)


def _flat(desc: ScatterNdDesc, at: np.ndarray) -> np.ndarray:
    n, k = desc.input_tensor.dimension_count, desc.tuple_size
    dims = desc.input_tensor.sizes[n - desc.input_dimension_count :][:k]
    return np.ravel_multi_index(tuple(at.T), dims) if len(at) else np.zeros(0, dtype=np.int64)


def open_elements(desc: ScatterNdDesc, indices: np.ndarray) -> np.ndarray:
    """True where the page leaves the element open: one written by more than one tuple (U-SCATND-1); every element
    when any tuple has a coordinate outside its dimension (U-SCATND-2)."""
    sizes = desc.output_tensor.sizes
    at, inside = _tuples(desc, indices)
    if not inside.all():
        return np.ones(sizes, dtype=bool)
    counts = np.bincount(_flat(desc, at), minlength=int(np.prod(sizes[: len(sizes) - len(slice_sizes(desc))])))
    per_slice = (counts > 1).reshape(-1, *([1] * len(slice_sizes(desc))))
    return np.broadcast_to(per_slice, (len(counts), *slice_sizes(desc))).reshape(sizes).copy()


def index_maps(desc: ScatterNdDesc) -> list[core.AxisMap]:
    """No per-axis map: where an update lands depends on IndicesTensor's values (compute() takes it)."""
    return []


def compute_literal(desc: ScatterNdDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The pseudo-code read literally: output = input, then tuple by tuple in row-major order (a later tuple's write
    replaces an earlier one's: U-SCATND-1's shown value), a tuple outside the input writing nothing (U-SCATND-2)."""
    x, indices, updates = inputs
    dt = desc.input_tensor.data_type
    n, k = desc.input_tensor.dimension_count, desc.tuple_size
    lead = n - desc.input_dimension_count
    dims = desc.input_tensor.sizes[lead:][:k]
    out = core.as_bits(np.asarray(x), dt).copy()
    bits = core.as_bits(np.asarray(updates), dt).reshape(-1, *slice_sizes(desc))
    signed = np.issubdtype(np.asarray(indices).dtype, np.signedinteger)
    for t, tup in enumerate(np.asarray(indices).reshape(-1, k).tolist()):
        coords = [c + d if signed and c < 0 else c for c, d in zip(tup, dims)]
        if all(0 <= c < d for c, d in zip(coords, dims)):
            for r in core.output_coordinates(slice_sizes(desc)):
                source = (t, *r)
                out[(0,) * lead + tuple(coords) + tuple(r)] = bits[source]
    return [core.from_bits(out, dt)]


def compute(desc: ScatterNdDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """One fancy-index assignment on the bits, the tuples flattened: numpy applies repeated targets in order (the
    last tuple lands, as compute_literal's loop)."""
    x, indices, updates = inputs
    dt = desc.input_tensor.data_type
    out = buffers.empty(desc.output_tensor.sizes, dt.bits)
    out[...] = core.as_bits(np.asarray(x), dt)
    view, ups = _views(desc, out, core.as_bits(np.asarray(updates), dt))
    at, inside = _tuples(desc, indices)
    view[_flat(desc, at[inside])] = ups[inside]
    return [core.from_bits(out, dt)]


def explain(desc: ScatterNdDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    """Per tuple: the slice it writes (the later tuple's write shown where two meet)."""
    indices = inputs[1]
    at, inside = _tuples(desc, indices)
    raw = np.asarray(indices).reshape(-1, desc.tuple_size).tolist()
    lines = []
    for t, (tup, ok) in enumerate(zip(raw, inside)):
        where = ",".join(map(str, at[t])) if ok else "outside the input: U-SCATND-2"
        lines.append(f"tuple {t} = {tup}: Output[{where}, ...] = Updates[tuple {t}, ...]")
    out = compute(desc, inputs)[0]
    opened = open_elements(desc, indices)
    lines += [
        f"Output[{','.join(map(str, c))}] = {core.fmt_value(out[c])}" + (" (open)" if opened[c] else "")
        for c in core.output_coordinates(desc.output_tensor.sizes)
    ]
    return lines

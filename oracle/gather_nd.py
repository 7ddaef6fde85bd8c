"""What DML_GATHER_ND and DML_GATHER_ND1 share: one body, GATHER_ND being GATHER_ND1 with no batch (GND1.11).

The three tensors have one DimensionCount n; the meaningful dimensions are the last InputDimensionCount (I)
of the input and the last IndicesDimensionCount (J) of the indices (the leading ones are 1: GND.4, GND.5).
Of those, the first BatchDimensionCount (B) are batches, the same in both (E-GND1-1). The indices' last
dimension is the tuple size q; each tuple of q coordinates picks one sub-block of the input's meaningful
dimensions past the batches, its last I - B - q dimensions copied whole:

    Output[b, p, t] = Input[b, indices[b, p, 0..q-1], t]

Output sizes: b's, p's (the indices' meaningful dimensions past the batches but the last) and t's, right-aligned
with leading ones (E-GND-1: the page's formula takes the input's last q dimensions instead). A negative index
in a signed type counts from the end of its dimension (GND.6); an index outside its dimension after that is
out of range: the page is silent (U-GND-1), so the elements its tuple writes are open (`open_elements`), shown
as 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from . import buffers, core
from .checks import TensorDesc, check_same_type_and_rank, check_sizes, check_support, fail
from .descriptor_json import TENSOR, JsonDescriptor
from .tables import (
    ALL_DATA_TYPES,
    FL30_TYPES,
    RANKS_1_8,
    DataType,
    FeatureLevel,
    OperatorTables,
    SupportRow,
    types,
)

SIGNED_INDEX_TYPES = (DataType.INT32, DataType.INT64)
OUT_OF_RANGE = "U-GND-1"  # the register entry of an index outside its dimension (both operators)


def data_tables(prefix: str, introduced: FeatureLevel) -> OperatorTables:
    """GND.8 / GND1.8: InputTensor's and OutputTensor's rows, as the pages print them (ND1 has no 2.1 row)."""
    rows = [
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
    ]
    return OperatorTables(
        support=tuple(r for r in rows if r.level >= introduced),
        support_clause=f"{prefix}8",
        dimension_count_clause=f"{prefix}8",
        introduced=(introduced, f"{prefix}8"),
        clause_prefix=prefix,
    )


def indices_tables(prefix: str, introduced: FeatureLevel) -> OperatorTables:
    """GND.9 / GND1.9: IndicesTensor's column of the same tables (UINT32 at 2.1; four types from 3.0)."""
    rows = [
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, types("INT64, INT32, UINT64, UINT32")),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, types("INT64, INT32, UINT64, UINT32")),
        SupportRow(FeatureLevel.FL_2_1, (4,), types("UINT32")),
    ]
    return OperatorTables(
        support=tuple(r for r in rows if r.level >= introduced),
        support_clause=f"{prefix}9",
        dimension_count_clause=f"{prefix}8",
        introduced=(introduced, f"{prefix}8"),
        clause_prefix=prefix,
    )


@dataclass(frozen=True)
class GatherNdBase(JsonDescriptor):
    """The fields both structs share, in DirectML.h's order (GATHER_ND1 adds BatchDimensionCount)."""

    input_tensor: TensorDesc
    indices_tensor: TensorDesc
    output_tensor: TensorDesc
    input_dimension_count: int
    indices_dimension_count: int

    JSON_FIELDS = {"input_tensor": TENSOR, "indices_tensor": TENSOR, "output_tensor": TENSOR}
    INPUT_FIELDS = ("input_tensor", "indices_tensor")  # input_tensors' fields, in the struct's order
    UINT_SCALARS: ClassVar[tuple[str, ...]] = ("input_dimension_count", "indices_dimension_count")  # UINT members

    @property
    def batch_count(self) -> int:
        return 0

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
        """The struct's two inputs in its order: the data, then the indices (a type of their own)."""
        return (self.input_tensor, self.indices_tensor)

    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.output_tensor,)

    @property
    def tuple_size(self) -> int:
        """q: the indices' last dimension, the coordinates per index tuple (GND.2)."""
        return self.indices_tensor.sizes[-1]

    def struct_fields(self) -> dict[str, Any]:
        return {
            "input_dimension_count": self.input_dimension_count,
            "indices_dimension_count": self.indices_dimension_count,
        }


def meaningful(sizes: Sequence[int], count: int) -> tuple[int, ...]:
    """The last `count` sizes (GND.4, GND.5: the leading ones are ignored)."""
    return tuple(sizes[len(sizes) - count :])


def output_sizes(
    input_sizes: Sequence[int], indices_sizes: Sequence[int], input_count: int, indices_count: int, batch: int = 0
) -> tuple[int, ...]:
    """GND.3 as the examples print it (E-GND-1): the batches, the indices' meaningful dimensions past them but the
    last, the input's meaningful dimensions past the batches and the tuple; right-aligned with leading ones to the
    tensors' DimensionCount (none when there are more: validation reports that)."""
    x = meaningful(input_sizes, input_count)
    ind = meaningful(indices_sizes, indices_count)
    q = indices_sizes[-1]
    sizes = ind[:batch] + ind[batch:-1] + x[batch + q :]
    return (1,) * max(0, len(input_sizes) - len(sizes)) + sizes


def page_formula_sizes(input_sizes: Sequence[int], indices_sizes: Sequence[int], indices_count: int) -> tuple[int, ...]:
    """GND.3's formula read literally (E-GND-1): the indices' segment, then the input's LAST q sizes, with leading
    ones; what the page's own examples contradict (kept to show the erratum, never used to judge)."""
    n, q = len(indices_sizes), indices_sizes[-1]
    sizes = tuple(indices_sizes[n - indices_count : n - 1]) + tuple(input_sizes[len(input_sizes) - q :])
    return (1,) * max(0, len(input_sizes) - len(sizes)) + sizes


@dataclass(frozen=True)
class GatherNdFunctions:
    """The operator-module functions of one of the two, by its tables and clause prefix."""

    operator: str
    tables: OperatorTables
    indices: OperatorTables
    prefix: str  # "GND." or "GND1."

    def validate(self, desc: GatherNdBase, feature_level: FeatureLevel) -> None:
        p = self.prefix
        for name, tensor in desc.tensors.items():
            check_sizes(tensor, name)
        check_same_type_and_rank(desc.input_tensor, "input_tensor", desc.output_tensor, "output_tensor")
        n = desc.dimension_count
        if desc.indices_tensor.dimension_count != n:
            fail(
                f"indices_tensor has DimensionCount={desc.indices_tensor.dimension_count}, but input_tensor has "
                f"{n}; they must be equal",
                f"{p}7",
                "indices_tensor.sizes",
            )
        for field, tensor, clause in (
            ("input_dimension_count", desc.input_tensor, f"{p}4"),
            ("indices_dimension_count", desc.indices_tensor, f"{p}5"),
        ):
            count = getattr(desc, field)
            if not 1 <= count <= n:
                fail(f"{field}={count}, but it must be in [1, DimensionCount={n}]", clause, field)
            leading = tensor.sizes[: n - count]
            if any(v != 1 for v in leading):
                fail(
                    f"{field}={count} leaves leading sizes {list(leading)}, but the dimensions it ignores must be 1",
                    clause,
                    field,
                )
        b, q = desc.batch_count, desc.tuple_size
        i_count, j_count = desc.input_dimension_count, desc.indices_dimension_count
        if not 0 <= b < min(i_count, j_count):
            fail(
                f"batch_dimension_count={b}, but it must be less than input_dimension_count={i_count} and "
                f"indices_dimension_count={j_count} (batches are the first meaningful dimensions)",
                f"{p}10",
                "batch_dimension_count",
            )
        if b:
            x_batch = meaningful(desc.input_tensor.sizes, i_count)[:b]
            i_batch = meaningful(desc.indices_tensor.sizes, j_count)[:b]
            if x_batch != i_batch:
                fail(
                    f"the batches differ: input_tensor's {list(x_batch)}, indices_tensor's {list(i_batch)}",
                    f"{p}10",
                    "indices_tensor.sizes",
                )
        if q > i_count - b:
            fail(
                f"indices_tensor's last size (the tuple size) is {q}, but it cannot exceed input_dimension_count"
                + (f" - batch_dimension_count = {i_count - b}" if b else f"={i_count}"),
                f"{p}2",
                "indices_tensor.sizes",
            )
        rank = j_count - 1 + i_count - b - q
        if rank > n:
            fail(
                f"the output has {rank} meaningful dimensions, more than DimensionCount={n}",
                f"{p}3",
                "output_tensor.sizes",
            )
        want = output_sizes(desc.input_tensor.sizes, desc.indices_tensor.sizes, i_count, j_count, b)
        if desc.output_tensor.sizes != want:
            fail(
                f"output_tensor.sizes={list(desc.output_tensor.sizes)}, but the indices and input give {list(want)}",
                f"{p}3",
                "output_tensor.sizes",
            )
        check_support(
            self.operator,
            self.tables,
            {"input_tensor": desc.input_tensor, "output_tensor": desc.output_tensor},
            n,
            feature_level,
        )
        check_support(self.operator, self.indices, {"indices_tensor": desc.indices_tensor}, n, feature_level)

    def unspecified(self, desc: GatherNdBase) -> list[str]:
        """The descriptor alone cannot say whether an index is out of range (the values decide): U-GND-1 is
        reached by every descriptor, and `open_elements` says which elements it leaves open."""
        return [OUT_OF_RANGE]

    def index_maps(self, desc: GatherNdBase) -> list[core.AxisMap]:
        """No per-axis map: where an element comes from depends on the indices' values, an input."""
        return []

    def compute(self, desc: GatherNdBase, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [gather(desc, inputs[0], inputs[1])[0]]

    def compute_literal(self, desc: GatherNdBase, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, indices = inputs
        dt = desc.input_tensor.data_type
        zero = np.zeros((), dtype=dt.numpy)
        return [core.copy_elementwise(x, dt, desc.output_tensor.sizes, lambda c: source(desc, indices, c), zero)]

    def explain(self, desc: GatherNdBase, inputs: Sequence[np.ndarray]) -> list[str]:
        """Output[c] = Input[...] (the tuple Indices[...] = (..)) = v, or the open element it is."""
        x, indices = inputs
        lines = []
        for c in core.output_coordinates(desc.output_tensor.sizes):
            at, _ = _split(desc, c)
            tuple_ = [int(v) for v in np.asarray(indices)[at]]
            src = source(desc, indices, c)
            head = f"Output[{','.join(map(str, c))}] = Input[... Indices[{core.fmt_coord(at[:-1])},:] = {tuple_} ...]"
            if src is None:
                lines.append(f"{head}: out of range ({OUT_OF_RANGE}: open, shown as 0)")
            else:
                lines.append(f"{head} = Input[{core.fmt_coord(src)}] = {core.fmt_value(x[src])}")
        return lines


def _split(desc: GatherNdBase, c: Sequence[int]) -> tuple[tuple, tuple[int, ...]]:
    """For an output coordinate: the indices' coordinate of its tuple (a slice for the last axis) and the trailing
    coordinates t copied from the input."""
    n, b, q = desc.dimension_count, desc.batch_count, desc.tuple_size
    j_count, i_count = desc.indices_dimension_count, desc.input_dimension_count
    positions = j_count - 1 - b
    trail = i_count - b - q
    meaning = tuple(c[n - (b + positions + trail) :])
    batch, pos, t = meaning[:b], meaning[b : b + positions], meaning[b + positions :]
    at = (0,) * (n - j_count) + batch + pos + (slice(None),)
    return at, t


def _resolve(value: int, size: int, signed: bool) -> int | None:
    """GND.6: a negative index in a signed type counts from the end; None when outside [0, size) (U-GND-1)."""
    if signed and value < 0:
        value += size
    return value if 0 <= value < size else None


def source(desc: GatherNdBase, indices: np.ndarray, c: Sequence[int]) -> tuple[int, ...] | None:
    """GND.1 for one output coordinate, read element by element: Input[leading 0s, b, tuple, t], or None when the
    tuple is out of range (U-GND-1)."""
    n, b, q = desc.dimension_count, desc.batch_count, desc.tuple_size
    at, t = _split(desc, c)
    signed = desc.indices_tensor.data_type in SIGNED_INDEX_TYPES
    x = meaningful(desc.input_tensor.sizes, desc.input_dimension_count)
    batch = tuple(at[n - desc.indices_dimension_count : n - desc.indices_dimension_count + b])
    picked = []
    for k, value in enumerate(np.asarray(indices)[at].tolist()):
        resolved = _resolve(int(value), x[b + k], signed)
        if resolved is None:
            return None
        picked.append(resolved)
    assert len(picked) == q
    return (0,) * (n - desc.input_dimension_count) + batch + tuple(picked) + t


def gather(desc: GatherNdBase, x: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The fast path: the output (out-of-range elements 0) and the open mask (U-GND-1), with numpy on the bits.

    The input viewed as (batches, the q indexed dimensions flattened, the rest); each tuple made one offset into
    the flattened q, the batch index beside it."""
    dt, b, q = desc.input_tensor.data_type, desc.batch_count, desc.tuple_size
    xs = meaningful(desc.input_tensor.sizes, desc.input_dimension_count)
    ind_sizes = meaningful(desc.indices_tensor.sizes, desc.indices_dimension_count)
    nb = int(np.prod(xs[:b], dtype=np.int64))
    indexed, rest = xs[b : b + q], xs[b + q :]
    bits = core.as_bits(np.asarray(x), dt).reshape((nb, int(np.prod(indexed, dtype=np.int64)), -1))
    raw = np.asarray(indices).reshape((nb, -1, q))
    signed = desc.indices_tensor.data_type in SIGNED_INDEX_TYPES
    valid = np.ones(raw.shape[:2], dtype=bool)
    offset = np.zeros(raw.shape[:2], dtype=np.int64)
    for k, size in enumerate(indexed):
        column = raw[:, :, k]
        if signed:
            v = column.astype(np.int64)
            v = np.where(v < 0, v + size, v)
            ok = (v >= 0) & (v < size)
        else:
            ok = column < np.uint64(size) if column.dtype == np.uint64 else column.astype(np.int64) < size
            v = np.where(ok, column, 0).astype(np.int64)
        valid &= ok
        offset = offset * size + np.where(ok, v, 0)
    offset = np.where(valid, offset, 0)
    picked = bits[np.arange(nb)[:, None], offset]  # (batches, tuples, the rest)
    picked = np.where(valid[:, :, None], picked, 0).astype(dt.bits)
    out = buffers.empty(desc.output_tensor.sizes, dt.bits)
    out[...] = picked.reshape(desc.output_tensor.sizes)
    shape = ind_sizes[:-1] + rest
    mask = np.broadcast_to(~valid[:, :, None], picked.shape).reshape(shape).reshape(desc.output_tensor.sizes)
    return core.from_bits(out, dt), mask


def open_elements(desc: GatherNdBase, indices: np.ndarray) -> np.ndarray:
    """True where the element's tuple is out of range after GND.6's wrap (U-GND-1): the values decide."""
    dt = desc.input_tensor.data_type
    zeros = np.zeros(desc.input_tensor.sizes, dtype=dt.numpy)
    return gather(desc, zeros, indices)[1]

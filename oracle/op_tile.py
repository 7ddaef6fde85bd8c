"""DML_TILE_OPERATOR_DESC (beyond the seed pages: docs/spec/beyond-seeds.md, TILE.*): the input repeated
Repeats[i] times along each dimension i.

Output[c] = Input[c mod InputSizes], per dimension: one index map per axis, `k mod size` (TILE.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import buffers, core
from .checks import (
    TensorDesc,
    UnaryTensors,
    as_ints,
    check_support,
    check_uint,
    check_unary_tensors,
    fail,
)
from .descriptor_json import TENSOR, JsonDescriptor
from .tables import (
    FL30_TYPES,
    RANKS_1_8,
    FeatureLevel,
    OperatorTables,
    SupportRow,
    types,
)

OPERATOR = "TILE"
PAGE_ORDER = 9  # its place in the registry (oracle.registry): the pages' order, then the ones past them
TABLES = OperatorTables(
    support=(  # TILE.6, the page's table (no FLOAT64 at any level)
        SupportRow(
            FeatureLevel.FL_4_1,
            RANKS_1_8,
            types("FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8"),
        ),
        SupportRow(FeatureLevel.FL_3_1, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
        SupportRow(FeatureLevel.FL_1_0, (4,), types("FLOAT32, FLOAT16")),
    ),
    support_clause="TILE.6",
    dimension_count_clause="TILE.6",
    introduced=(FeatureLevel.FL_1_0, "TILE.6"),
    clause_prefix="TILE.",
)


@dataclass(frozen=True)
class TileDesc(UnaryTensors, JsonDescriptor):
    """Mirrors DML_TILE_OPERATOR_DESC; `repeats_count` None means len(repeats)."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    repeats: tuple[int, ...]
    repeats_count: int | None = None

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "output_tensor": TENSOR}
    # The struct's one array: RepeatsCount entries long, UINT (the DirectML backend's C-form check reads these).
    ARRAYS = ("repeats",)
    UINT_ARRAYS = ("repeats",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "repeats", as_ints(self.repeats, "repeats"))
        if self.repeats_count is None:
            object.__setattr__(self, "repeats_count", len(self.repeats))

    @property
    def dimension_count(self) -> int:
        """RepeatsCount: the length the struct's Repeats array is read with (TILE.3 makes it the tensors' rank)."""
        assert self.repeats_count is not None  # __post_init__ fills it in
        return self.repeats_count

    def struct_fields(self) -> dict:
        """The C struct's fields besides its tensor descs: RepeatsCount and Repeats."""
        return {"repeats_count": self.repeats_count, "repeats": list(self.repeats)}


DESCRIPTOR = TileDesc


def validate(desc: TileDesc, feature_level: FeatureLevel) -> None:
    check_unary_tensors(desc)
    n = desc.input_tensor.dimension_count
    if desc.repeats_count != n:
        fail(
            f"repeats_count={desc.repeats_count}, but RepeatsCount must equal InputTensor.DimensionCount={n}",
            "TILE.3",
            "repeats_count",
        )
    if len(desc.repeats) != n:
        fail(f"repeats has {len(desc.repeats)} entries, but RepeatsCount={n}", "TILE.3", "repeats")
    check_uint(desc.repeats, "repeats", "TILE.4")
    check_support(OPERATOR, TABLES, desc.tensors, n, feature_level)
    for i, r in enumerate(desc.repeats):
        if r < 1:
            fail(f"repeats[{i}]={r}, but Repeats values must be larger than 0", "TILE.4", "repeats")
    for i, (size, r, out) in enumerate(zip(desc.input_tensor.sizes, desc.repeats, desc.output_tensor.sizes)):
        if out != size * r:
            fail(
                f"output_tensor.sizes[{i}]={out}, but InputTensor.Sizes[{i}] * Repeats[{i}] = {size} * {r} = {size * r}",
                "TILE.2",
                "output_tensor.sizes",
            )


def unspecified(desc: TileDesc) -> list[str]:
    return []


@dataclass(frozen=True, eq=True)
class Modulo(core.AxisMap):
    """Output index k reads input index k mod period (k < size): TILE.1 on one axis."""

    period: int
    size: int

    def at(self, k: np.ndarray) -> np.ndarray:
        return k % self.period


def index_maps(desc: TileDesc) -> list[Modulo]:
    """TILE.1 per axis: output index k reads k mod InputTensor.Sizes[i]."""
    return [Modulo(n, out) for n, out in zip(desc.input_tensor.sizes, desc.output_tensor.sizes)]


def source(desc: TileDesc, c: Sequence[int]) -> tuple[int, ...]:
    """TILE.1 for one output coordinate, as the page's sentence reads: each copy starts over at index 0."""
    return tuple(k % n for k, n in zip(c, desc.input_tensor.sizes))


def compute_literal(desc: TileDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    return [core.copy_elementwise(x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, c))]


def compute(desc: TileDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The input as one block, copied into every tile through a view that gives each repeat its own axis
    (no index arrays: the output is written once, raw bits, NaN payloads and -0.0 intact)."""
    (x,) = inputs
    dt = desc.input_tensor.data_type
    sizes, repeats = desc.input_tensor.sizes, desc.repeats
    out = buffers.empty(desc.output_tensor.sizes, dt.bits)
    # Output axis i of size r*n as (r, n): tile j of axis i is out[..., j, :, ...]; broadcast the input over every j.
    split = out.reshape(tuple(v for r, n in zip(repeats, sizes) for v in (r, n)))
    src = core.as_bits(x, dt).reshape(tuple(v for n in sizes for v in (1, n)))
    np.copyto(split, src)
    return [core.from_bits(out, dt)]


def explain(desc: TileDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    """Output[c] = Input[c mod InputSizes] = Input[...] = v."""
    (x,) = inputs
    sizes = core.fmt_coord(desc.input_tensor.sizes)
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        src = source(desc, c)
        lines.append(
            f"Output[{','.join(map(str, c))}] = Input[{core.fmt_coord(c)} mod {sizes}] = "
            f"Input[{core.fmt_coord(src)}] = {core.fmt_value(x[src])}"
        )
    return lines

"""DML_GATHER_ND cases (beyond the seed pages, GND.*), and the body GATHER_ND1's cases share (`GatherNdCases`).

The second input, IndicesTensor, has a data type of its own (UINT32 at FL 2.1; INT64, INT32, UINT64, UINT32 from
3.0: GND.9) and values that decide where each element comes from, so they are drawn here (`inputs`): mostly
inside their dimension (judged), in a signed type a share negative from the end (GND.6, judged), and a minority
out of range at the ends a kernel might mishandle (U-GND-1: observed, the guard bytes judged).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

import oracle
from oracle import DataType, FeatureLevel, GatherNdDesc, TensorDesc, op_gather_nd
from oracle.gather_nd import SIGNED_INDEX_TYPES, GatherNdBase, meaningful, output_sizes, page_formula_sizes
from oracle.tables import OperatorTables

from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    budget,
    choose_config,
    common_families,
    descriptor_of,
    input_tensor,
    one_output_common_1,
    set_at,
    with_descriptor,
)

OPERATOR = "GATHER_ND"
DESCRIPTOR = GatherNdDesc

# How the indices are drawn: in range, in range with negatives from the end (a signed type), or with some out of
# range at the ends (one past, the type's end, 2^32, below -size): a minority, observed (U-GND-1).
INDEX_DRAWS = ("inside", "negative", "outside")
INDEX_DRAW_WEIGHTS = (0.6, 0.25, 0.15)
MAX_POSITIONS = 24  # index tuples per batch: the output grows with them


def indices_types(tables: OperatorTables, level: FeatureLevel) -> tuple[DataType, ...]:
    row = tables.row(level)
    return () if row is None else row.data_types


def index_values(ch: Chooser, desc: GatherNdBase) -> np.ndarray:
    """IndicesTensor's values, drawn as INDEX_DRAWS says (one seed: a large tensor costs one draw)."""
    t = desc.indices_tensor
    signed = t.data_type in SIGNED_INDEX_TYPES
    how = ch.choice(INDEX_DRAWS, INDEX_DRAW_WEIGHTS)
    if how == "negative" and not signed:
        how = "inside"
    ch.event(f"indices {how}")
    rng = np.random.Generator(np.random.PCG64(ch.integer(0, 2**32 - 1)))
    q, b = desc.tuple_size, desc.batch_count
    dims = meaningful(desc.input_tensor.sizes, desc.input_dimension_count)[b : b + q]
    count = int(np.prod(t.sizes)) // q
    columns = []
    for size in dims:
        low = -size if how == "negative" else 0
        column = rng.integers(low, size, count).astype(object)
        if how == "outside":
            top = int(np.iinfo(t.data_type.numpy).max)
            ends = [size, size + 1, top] + ([2**32] if t.data_type.numpy.itemsize == 8 else [])
            ends += [-size - 1, int(np.iinfo(t.data_type.numpy).min)] if signed else []
            picks = rng.random(count) < 0.3
            column[picks] = [ends[k] for k in rng.integers(0, len(ends), int(picks.sum()))]
        columns.append(column)
    values = np.stack(columns, axis=-1).reshape(t.sizes)
    return np.asarray(values.tolist(), dtype=t.data_type.numpy).reshape(t.sizes)


def _with(base: CaseSpec, desc: GatherNdBase, tags: tuple[str, ...] | None = None) -> CaseSpec:
    """with_descriptor for either descriptor (the shared base class is not in oracle.Descriptor's union)."""
    return with_descriptor(base, cast(oracle.Descriptor, desc), tags)


@dataclass(frozen=True)
class GatherNdCases:
    """The generation functions of GATHER_ND or GATHER_ND1 (`batches`: whether BatchDimensionCount is drawn)."""

    operator: str
    make: Callable[..., Any]  # (input, indices, output, input count, indices count[, batches]) -> descriptor
    indices: OperatorTables
    prefix: str
    batches: bool

    def desc(self, x: TensorDesc, ind: TensorDesc, i_count: int, j_count: int, b: int) -> Any:
        out = TensorDesc(x.data_type, output_sizes(x.sizes, ind.sizes, i_count, j_count, b))
        return self.make(x, ind, out, i_count, j_count, *((b,) if self.batches else ()))

    def build(self, ch: Chooser, cfg: Config) -> Any:
        """A valid descriptor for `cfg`: the counts, the batches and the tuple size drawn so that the output fits
        the DimensionCount; sizes inside the element budget; an indices type the level takes."""
        n = cfg.rank
        i_count = ch.integer(1, n)
        b = ch.integer(0, i_count - 1) if self.batches else 0
        q = ch.integer(1, i_count - b)
        trail = i_count - b - q
        j_count = ch.integer(b + 1, min(n, n + 1 - trail))
        left = budget(ch, cfg)
        xs = []
        for _ in range(i_count):
            size = ch.integer(1, max(1, min(6, left)))
            left = max(1, left // size)
            xs.append(size)
        positions = [ch.integer(1, 4) for _ in range(j_count - 1 - b)]
        while int(np.prod(positions, dtype=np.int64)) > MAX_POSITIONS:
            positions[positions.index(max(positions))] -= 1
        x_sizes = (1,) * (n - i_count) + tuple(xs)
        ind_sizes = (1,) * (n - j_count) + tuple(xs[:b]) + tuple(positions) + (q,)
        ind_type = ch.choice(indices_types(self.indices, cfg.feature_level))
        return self.desc(TensorDesc(cfg.data_type, x_sizes), TensorDesc(ind_type, ind_sizes), i_count, j_count, b)

    def inputs(self, ch: Chooser, desc: GatherNdBase) -> tuple[np.ndarray, ...]:
        """The data filled as every operator's, the indices drawn (`index_values`)."""
        x = input_tensor(ch, desc.input_tensor.data_type, desc.input_tensor.sizes)
        return (x, index_values(ch, desc))

    def for_level(self, desc: GatherNdBase, level: FeatureLevel) -> GatherNdBase:
        """An invalid case's base at its own level: indices become UINT32 where the level's row does not take
        their type (FL 2.1: GND.9), so that only the family's rule breaks."""
        t = desc.indices_tensor
        if t.data_type in indices_types(self.indices, level) or self.indices.row(level) is None:
            return desc
        return dataclasses.replace(desc, indices_tensor=dataclasses.replace(t, data_type=DataType.UINT32))

    def corners(self, desc: GatherNdBase) -> list[str]:
        found = []
        if desc.tuple_size == desc.input_dimension_count - desc.batch_count:
            found.append("tuples index single elements")
        if desc.input_dimension_count < desc.dimension_count:
            found.append("leading ones ignored")
        if desc.batch_count:
            found.append("batches")
        if desc.indices_tensor.data_type in (DataType.INT64, DataType.UINT64):
            found.append("64-bit indices")
        return found

    def extra_clauses(self, desc: GatherNdBase) -> list[str]:
        p = self.prefix
        clauses = [f"{p}6"] if desc.indices_tensor.data_type in SIGNED_INDEX_TYPES else []
        if self.batches:
            clauses.append(f"{p}10" if desc.batch_count else f"{p}11")
        return clauses

    def valid_clauses(self) -> tuple[str, ...]:
        p = self.prefix
        return ("COMMON.1", "COMMON.2", "COMMON.3", *(f"{p}{k}" for k in (1, 2, 3, 4, 5, 7, 8, 9)))

    # --- invalid families ---------------------------------------------------------------------------

    def _replace(self, base: CaseSpec, **fields: Any) -> CaseSpec:
        return _with(base, dataclasses.replace(descriptor_of(base, GatherNdBase), **fields))

    def _common_2(self, ch: Chooser, base: CaseSpec) -> CaseSpec:
        """An input size of 0 (only COMMON.2 breaks: sizes are checked first)."""
        d = descriptor_of(base, GatherNdBase)
        i = ch.integer(0, d.dimension_count - 1)
        return self._replace(
            base, input_tensor=TensorDesc(d.input_tensor.data_type, set_at(d.input_tensor.sizes, i, 0))
        )

    def _indices_rank(self, ch: Chooser, base: CaseSpec) -> CaseSpec:
        """IndicesTensor with one leading 1 more (or fewer) than the input's DimensionCount."""
        d = descriptor_of(base, GatherNdBase)
        t = d.indices_tensor
        sizes = t.sizes[1:] if t.sizes[0] == 1 and t.dimension_count > 1 and ch.choice((0, 1)) else (1, *t.sizes)
        return self._replace(base, indices_tensor=TensorDesc(t.data_type, sizes))

    def _count(self, field: str) -> Callable[[Chooser, CaseSpec], CaseSpec]:
        def mutate(ch: Chooser, base: CaseSpec) -> CaseSpec:
            """The count 0, past the DimensionCount, or leaving a non-1 size among the ignored ones."""
            d = descriptor_of(base, GatherNdBase)
            n = d.dimension_count
            tensor = d.input_tensor if field == "input_dimension_count" else d.indices_tensor
            count = getattr(d, field)
            shrink = [k for k in range(1, count) if any(v != 1 for v in tensor.sizes[n - count : n - k])]
            how = ch.choice(("zero", "past", "shrink") if shrink else ("zero", "past"))
            value = 0 if how == "zero" else n + ch.integer(1, 2) if how == "past" else ch.choice(shrink)
            return self._replace(base, **{field: value})

        return mutate

    def _tuple_size(self, ch: Chooser, base: CaseSpec) -> CaseSpec:
        """A tuple longer than the input's meaningful dimensions past the batches (E-GND-2)."""
        d = descriptor_of(base, GatherNdBase)
        t = d.indices_tensor
        q = d.input_dimension_count - d.batch_count + ch.integer(1, 2)
        return self._replace(base, indices_tensor=TensorDesc(t.data_type, set_at(t.sizes, -1, q)))

    def _output_sizes(self, ch: Chooser, base: CaseSpec) -> CaseSpec:
        """Output sizes not the examples' (one size one larger, or the page's formula where it differs)."""
        d = descriptor_of(base, GatherNdBase)
        page = page_formula_sizes(d.input_tensor.sizes, d.indices_tensor.sizes, d.indices_dimension_count)
        if len(page) == d.dimension_count and page != d.output_tensor.sizes and ch.choice((0, 1)):
            sizes, tags = page, ("E-GND-1",)
        else:
            i = ch.integer(0, d.dimension_count - 1)
            sizes, tags = set_at(d.output_tensor.sizes, i, d.output_tensor.sizes[i] + 1), None
        out = TensorDesc(d.output_tensor.data_type, sizes)
        return _with(base, dataclasses.replace(d, output_tensor=out), tags or None)

    def _indices_type(self, ch: Chooser, base: CaseSpec) -> CaseSpec:
        """An indices type the level's table does not take: a float, a narrower integer, or a signed or 64-bit
        one at FL 2.1."""
        d = descriptor_of(base, GatherNdBase)
        allowed = indices_types(self.indices, base.feature_level)
        dt = ch.choice([t for t in oracle.ALL_DATA_TYPES if t not in allowed])
        return self._replace(base, indices_tensor=TensorDesc(dt, d.indices_tensor.sizes))

    def _indices_type_config(self, ch: Chooser, operator: str) -> Config:
        levels = [fl for fl in FeatureLevel if self.indices.row(fl) is not None]
        return choose_config(ch, operator, feature_level=ch.choice(levels))

    def _batches(self, ch: Chooser, base: CaseSpec) -> CaseSpec:
        """BatchDimensionCount not below both counts, or a batch size of the indices not the input's (E-GND1-1)."""
        d = descriptor_of(base, GatherNdBase)
        if d.batch_count and ch.choice((0, 1)):
            t = d.indices_tensor
            k = d.dimension_count - d.indices_dimension_count + ch.integer(0, d.batch_count - 1)
            sizes = set_at(t.sizes, k, t.sizes[k] + 1)
            return _with(base, dataclasses.replace(d, indices_tensor=TensorDesc(t.data_type, sizes)), ("E-GND1-1",))
        low = min(d.input_dimension_count, d.indices_dimension_count)
        return self._replace(base, batch_dimension_count=low + ch.integer(0, 1))

    def families(self) -> list[Family]:
        """One family per validation rule, in a fixed order (the generator draws from it by index)."""
        p = self.prefix
        batches = [Family("batches out of range or unequal", f"{p}10", self._batches)] if self.batches else []
        return [
            *common_families(self.operator, one_output_common_1, self._common_2),
            Family("indices' DimensionCount not the input's", f"{p}7", self._indices_rank),
            Family("InputDimensionCount out of range", f"{p}4", self._count("input_dimension_count")),
            Family("IndicesDimensionCount out of range", f"{p}5", self._count("indices_dimension_count")),
            Family("tuple longer than the indexed dimensions", f"{p}2", self._tuple_size),
            Family("output sizes not the examples'", f"{p}3", self._output_sizes),
            Family("indices' data type unsupported at level", f"{p}9", self._indices_type, self._indices_type_config),
            *batches,
        ]


_CASES = GatherNdCases(OPERATOR, GatherNdDesc, op_gather_nd.INDICES_TABLES, "GND.", batches=False)
VALID_CLAUSES = _CASES.valid_clauses()
build = _CASES.build
inputs = _CASES.inputs
for_level = _CASES.for_level
corners = _CASES.corners
extra_clauses = _CASES.extra_clauses
families = _CASES.families

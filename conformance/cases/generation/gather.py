"""DML_GATHER cases (beyond the seed pages, GATHER.*): a valid builder, the indices' values, its corners, and the
families that break its rules.

IndicesTensor is a second input of its own type (UINT32; INT64, INT32, UINT64 from FL 3.0: GATHER.9) whose values
decide where each element comes from, so they are drawn here (`inputs`), not filled as data: mostly inside the
axis (judged), a minority negative (from the end: GATHER.3, judged) and out of range (open, U-GATHER-1: observed,
each element judged to be one of the input buffer's values).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

import oracle
from oracle import DataType, FeatureLevel, GatherDesc, TensorDesc
from oracle.indices import signed
from oracle.op_gather import INDICES_TABLES, indices_types
from oracle.op_gather import output_sizes as gather_output_sizes
from oracle.tables import UINT_MAX

from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    choose_config,
    common_families,
    descriptor_of,
    input_tensor,
    one_output_common_1,
    set_at,
    sizes_in_budget,
    with_descriptor,
)

OPERATOR = "GATHER"
DESCRIPTOR = GatherDesc

VALID_CLAUSES = (
    "COMMON.1",
    "COMMON.2",
    "COMMON.3",
    "GATHER.1",
    "GATHER.2",
    "GATHER.5",
    "GATHER.6",
    "GATHER.7",
    "GATHER.8",
    "GATHER.9",
)
# How the indices are drawn: inside [0, n) (judged), negative inside [-n, 0) where the type is signed (judged,
# GATHER.3), or with some out of range (open, U-GATHER-1).
INDEX_DRAWS = ("inside", "negative", "out of range")
INDEX_DRAW_WEIGHTS = (0.7, 0.15, 0.15)
MAX_INDEX_AXIS = 6  # each meaningful index dimension's size


def meaningful_sizes(
    ch: Chooser, input_sizes: list[int], axis: int, index_dimensions: int, max_elements: int
) -> list[int]:
    """The indices' last IndexDimensions sizes, with the leading ones GATHER.5 crops made 1 (on the input's
    sizes before Axis, or on the first index sizes): the output then fits the DimensionCount. Their product
    stays within what the output's other dimensions leave of `max_elements` (the output replaces the input's
    Axis by them), so the indices and the output stay inside the case's element cap."""
    left = max(1, max_elements // (math.prod(input_sizes) // input_sizes[axis]))
    m = []
    for _ in range(index_dimensions):
        m.append(ch.integer(1, max(1, min(MAX_INDEX_AXIS, left))))
        left = max(1, left // m[-1])
    extra = index_dimensions - 1
    for k in range(max(0, extra)):
        if k < axis:
            input_sizes[k] = 1
        else:
            m[k - axis] = 1
    return m


def build(ch: Chooser, cfg: Config) -> GatherDesc:
    """A valid descriptor for `cfg`: the input's sizes inside the budget, any axis, IndexDimensions 0 to the
    DimensionCount (mostly 1), an indices type the level takes."""
    sizes = sizes_in_budget(ch, cfg)
    n = cfg.rank
    axis = ch.integer(0, n - 1)
    index_dimensions = ch.choice((1, ch.integer(0, n)), (0.6, 0.4))
    m = meaningful_sizes(ch, sizes, axis, index_dimensions, cfg.max_elements)
    indices = (1,) * (n - index_dimensions) + tuple(m)
    it = ch.choice(indices_types(cfg.feature_level))
    return oracle.gather_desc(TensorDesc(cfg.data_type, tuple(sizes)), indices, axis, index_dimensions, it)


def out_of_range_ends(n: int, data_type: DataType) -> tuple[int, ...]:
    """Indices past the axis: its size, a little past it, 2^31 and the type's end (2^32 and 2^63 in 64 bits), and
    below -n in a signed type."""
    top = int(np.iinfo(data_type.numpy).max)
    wide = (2**32, 2**63) if data_type is DataType.UINT64 else (2**32,) if data_type is DataType.INT64 else ()
    low = (-n - 1, int(np.iinfo(data_type.numpy).min)) if signed(data_type) else ()
    return tuple(v for v in (n, n + 3, 2**31, top, *wide, *low) if v <= top)


def draw_indices(ch: Chooser, t: TensorDesc, n: int) -> np.ndarray:
    """An index tensor's values for an axis of size `n`, drawn as INDEX_DRAWS says (one seed: a large tensor costs
    one draw); GATHER_ELEMENTS' too."""
    how = ch.choice(INDEX_DRAWS, INDEX_DRAW_WEIGHTS)
    if how == "negative" and not signed(t.data_type):
        how = "inside"
    ch.event(f"indices {how}")
    rng = np.random.Generator(np.random.PCG64(ch.integer(0, 2**32 - 1)))
    count = int(np.prod(t.sizes))
    values = rng.integers(0, n, count).astype(object)
    if how == "negative":
        values = np.where(rng.random(count) < 0.5, values - n, values)
    elif how == "out of range":
        ends = np.asarray(out_of_range_ends(n, t.data_type), dtype=object)
        bad = rng.random(count) < 0.3
        bad[rng.integers(0, count)] = True
        values = np.where(bad, ends[rng.integers(0, len(ends), count)], values)
    return np.asarray(values.tolist(), dtype=t.data_type.numpy).reshape(t.sizes)


def inputs(ch: Chooser, desc: GatherDesc) -> tuple[np.ndarray, ...]:
    """The data filled as every operator's, the indices drawn (`draw_indices`)."""
    x = input_tensor(ch, desc.input_tensor.data_type, desc.input_tensor.sizes)
    return (x, draw_indices(ch, desc.indices_tensor, desc.input_tensor.sizes[desc.axis]))


def for_level(desc: GatherDesc, level: FeatureLevel) -> GatherDesc:
    """An invalid case's base at its own level: indices become UINT32 before FL 3.0 (GATHER.9), so that only the
    family's rule breaks."""
    t = desc.indices_tensor
    if t.data_type in indices_types(level) or INDICES_TABLES.row(level) is None:
        return desc
    return dataclasses.replace(desc, indices_tensor=dataclasses.replace(t, data_type=DataType.UINT32))


def corners(desc: GatherDesc) -> list[str]:
    found = []
    n = desc.input_tensor.dimension_count
    if desc.axis == n - 1:
        found.append("last axis")
    if desc.input_tensor.sizes[desc.axis] == 1:
        found.append("axis of size 1")
    if desc.index_dimensions == 0:
        found.append("IndexDimensions 0 (a scalar index)")
    if desc.index_dimensions > 1:
        found.append("IndexDimensions past 1 (leading ones cropped)")
    if desc.indices_tensor.data_type in (DataType.INT64, DataType.UINT64):
        found.append(f"{desc.indices_tensor.data_type.value} indices")
    return found


def extra_clauses(desc: GatherDesc) -> list[str]:
    return []


def _rebuilt(d: GatherDesc, input_sizes: tuple[int, ...], indices: tuple[int, ...]) -> GatherDesc:
    t = TensorDesc(d.input_tensor.data_type, input_sizes)
    return oracle.gather_desc(t, indices, d.axis, d.index_dimensions, d.indices_tensor.data_type)


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An input size of 0 (the output's with it: only COMMON.2 breaks).  A size before Axis that GATHER.5's
    right-alignment crops (it must be 1 there) is Axis' own instead, which the output does not hold."""
    d = descriptor_of(base, GatherDesc)
    i = ch.integer(0, d.input_tensor.dimension_count - 1)
    sizes = set_at(d.input_tensor.sizes, i, 0)
    if gather_output_sizes(sizes, d.indices_tensor.sizes, d.axis, d.index_dimensions) is None:
        sizes = set_at(d.input_tensor.sizes, d.axis, 0)
    return with_descriptor(base, _rebuilt(d, sizes, d.indices_tensor.sizes))


def _indices_rank(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """IndicesTensor with one dimension more than the input (a leading 1)."""
    d = descriptor_of(base, GatherDesc)
    t = d.indices_tensor
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=TensorDesc(t.data_type, (1, *t.sizes))))


def _output_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, GatherDesc)
    i = ch.integer(0, d.output_tensor.dimension_count - 1)
    out = TensorDesc(d.output_tensor.data_type, set_at(d.output_tensor.sizes, i, d.output_tensor.sizes[i] + 1))
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def _index_dimensions_past(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """IndexDimensions past the DimensionCount (the tensors left as they were)."""
    d = descriptor_of(base, GatherDesc)
    n = d.input_tensor.dimension_count
    return with_descriptor(base, dataclasses.replace(d, index_dimensions=ch.choice((n + 1, UINT_MAX))))


def _leading_not_one(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """A size before IndicesTensor's last IndexDimensions that is not 1 (IndexDimensions one less than its
    meaningful dimensions, or the first size made 2)."""
    d = descriptor_of(base, GatherDesc)
    t = d.indices_tensor
    n = t.dimension_count
    if d.index_dimensions == n:  # no leading size to break: take one index dimension away instead
        if n == 1 or t.sizes[0] == 1:
            t = TensorDesc(t.data_type, set_at(t.sizes, 0, 2))
        return with_descriptor(base, dataclasses.replace(d, indices_tensor=t, index_dimensions=n - 1))
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=TensorDesc(t.data_type, set_at(t.sizes, 0, 2))))


def _axis_past(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, GatherDesc)
    n = d.input_tensor.dimension_count
    return with_descriptor(base, dataclasses.replace(d, axis=ch.choice((n, n + 1, UINT_MAX))))


def _axis_overflow(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, GatherDesc)
    return with_descriptor(base, dataclasses.replace(d, axis=UINT_MAX + 1))


def _indices_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An indices type the level's table does not take: a float or narrower one, or a 64-bit or signed one
    before 3.0."""
    d = descriptor_of(base, GatherDesc)
    allowed = indices_types(base.feature_level)
    dt = ch.choice([t for t in oracle.ALL_DATA_TYPES if t not in allowed])
    t = d.indices_tensor
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=TensorDesc(dt, t.sizes)))


def _indices_type_config(ch: Chooser, operator: str) -> Config:
    levels = [fl for fl in FeatureLevel if INDICES_TABLES.row(fl) is not None]
    return choose_config(ch, operator, feature_level=ch.choice(levels))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, _common_2),
        Family("indices' DimensionCount not the input's", "GATHER.2", _indices_rank),
        Family("output sizes not GATHER.5's", "GATHER.5", _output_sizes),
        Family("Axis not below the DimensionCount", "GATHER.6", _axis_past),
        Family("Axis past UINT", "GATHER.6", _axis_overflow),
        Family("IndexDimensions past the DimensionCount", "GATHER.7", _index_dimensions_past),
        Family("a size before the index dimensions not 1", "GATHER.7", _leading_not_one),
        Family("indices' data type unsupported at level", "GATHER.9", _indices_type, _indices_type_config),
    ]

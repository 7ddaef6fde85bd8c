"""DML_ONE_HOT cases (beyond the seed pages, ONEHOT.*): a valid builder, the indices' values, its corners, and the
families that break its rules.

IndicesTensor has a data type of its own (UINT32; INT64, INT32, UINT64 from FL 3.0: ONEHOT.10) and values that
decide where OnValue goes, so they are drawn here (`inputs`), not filled as data: mostly inside the axis (what is
judged), a minority negative (ONEHOT.3, signed types), past the axis (ignored: ONEHOT.2, E-ONEHOT-1) or at the
type's ends (2^32 + 1 and 2^63 in UINT64: a public report of large UINT64 indices before DirectML 1.9.1; below
-size in a signed type: open, U-ONEHOT-1).
"""

from __future__ import annotations

import dataclasses

import numpy as np

import oracle
from oracle import DataType, FeatureLevel, OneHotDesc, TensorDesc
from oracle.op_one_hot import INDICES_TABLES, SIGNED_INDICES, indices_types
from oracle.tables import UINT_MAX

from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    choose_config,
    common_families,
    data_type_order,
    descriptor_of,
    input_tensor,
    set_at,
    sizes_in_budget,
    with_descriptor,
)

OPERATOR = "ONE_HOT"
DESCRIPTOR = OneHotDesc

VALID_CLAUSES = (
    "COMMON.1",
    "COMMON.2",
    "ONEHOT.1",
    "ONEHOT.4",
    "ONEHOT.5",
    "ONEHOT.6",
    "ONEHOT.7",
    "ONEHOT.8",
    "ONEHOT.9",
    "ONEHOT.10",
)
# How the indices are drawn: inside the axis (judged), negative inside it (signed types: ONEHOT.3), just past it
# (ignored: ONEHOT.2), or at the ends a kernel might mishandle (size, 2^31, the type's ends, 2^32 + 1 and 2^63).
INDEX_DRAWS = ("inside", "negative", "past", "ends")
INDEX_DRAW_WEIGHTS = (0.7, 0.1, 0.1, 0.1)
# ValuesTensor's shapes: [off, on] along the last axis, a longer last axis, or two elements down the first axis.
VALUES_SHAPES = ("pair", "longer", "first axis")
VALUES_SHAPE_WEIGHTS = (0.7, 0.15, 0.15)


def values_sizes(ch: Chooser, rank: int) -> tuple[int, ...]:
    """ValuesTensor's sizes (ONEHOT.5: any, at least two elements; OnValue is element 1 in row-major order)."""
    how = ch.choice(VALUES_SHAPES, VALUES_SHAPE_WEIGHTS)
    if how == "pair" or rank == 1:
        return (1,) * (rank - 1) + (2 if how == "pair" else ch.integer(2, 4),)
    if how == "longer":
        return (1,) * (rank - 1) + (ch.integer(3, 5),)
    return (ch.integer(2, 3),) + (1,) * (rank - 1)


def build(ch: Chooser, cfg: Config) -> OneHotDesc:
    """A valid descriptor for `cfg`: output sizes inside the element budget, any axis, an indices type the level
    takes, the values' shape drawn."""
    sizes = sizes_in_budget(ch, cfg)
    axis = ch.integer(0, cfg.rank - 1)
    indices_type = ch.choice(indices_types(cfg.feature_level))
    indices = TensorDesc(indices_type, tuple(1 if d == axis else n for d, n in enumerate(sizes)))
    return oracle.one_hot_desc(indices, sizes[axis], axis, cfg.data_type, values_sizes(ch, cfg.rank))


def index_ends(size: int, data_type: DataType) -> tuple[int, ...]:
    """The indices at the ends: the axis' size and one past, 2^31 - 1, the type's ends (2^32 + 1 and 2^63 in
    UINT64: a 32-bit or signed read would land inside the axis), -size and below it in a signed type."""
    info = np.iinfo(data_type.numpy)
    ends = [size, size + 1, 2**31 - 1, int(info.max)]
    if data_type is DataType.UINT64:
        ends += [2**32 + 1, 2**63]
    if data_type in SIGNED_INDICES:
        ends += [-size, -size - 1, int(info.min)]
    return tuple(ends)


def indices_values(ch: Chooser, desc: OneHotDesc) -> np.ndarray:
    """IndicesTensor's values, drawn as INDEX_DRAWS says (one seed: a large tensor costs one draw)."""
    t = desc.indices_tensor
    size = desc.output_tensor.sizes[desc.axis]
    signed = t.data_type in SIGNED_INDICES
    how = ch.choice([d for d in INDEX_DRAWS if signed or d != "negative"])
    ch.event(f"indices {how}")
    rng = np.random.Generator(np.random.PCG64(ch.integer(0, 2**32 - 1)))
    count = int(np.prod(t.sizes))
    inside = rng.integers(0, size, count)
    if how == "ends":
        ends = np.asarray(index_ends(size, t.data_type), dtype=object)
        picked = ends[rng.integers(0, len(ends), count)]
        keep = rng.random(count) < 0.5  # half the sequences keep an index inside: both kinds in one case
        values = np.where(keep, inside.astype(object), picked)
    elif how == "negative":
        values = np.where(rng.random(count) < 0.5, inside, rng.integers(-size, 0, count)).astype(object)
    elif how == "past":
        values = np.where(rng.random(count) < 0.5, inside, rng.integers(size, size + 3, count)).astype(object)
    else:
        values = inside.astype(object)
    return np.array(values.tolist(), dtype=t.data_type.numpy).reshape(t.sizes)


def inputs(ch: Chooser, desc: OneHotDesc) -> tuple[np.ndarray, ...]:
    """The indices drawn (`indices_values`), the values filled as every operator's data."""
    return (indices_values(ch, desc), input_tensor(ch, desc.values_tensor.data_type, desc.values_tensor.sizes))


def for_level(desc: OneHotDesc, level: FeatureLevel) -> OneHotDesc:
    """An invalid case's base at its own level: indices other than UINT32 become UINT32 before FL 3.0
    (ONEHOT.10), so that only the family's rule breaks."""
    t = desc.indices_tensor
    if t.data_type in indices_types(level) or INDICES_TABLES.row(level) is None:
        return desc
    return dataclasses.replace(desc, indices_tensor=TensorDesc(DataType.UINT32, t.sizes))


def corners(desc: OneHotDesc) -> list[str]:
    found = []
    n = desc.output_tensor.dimension_count
    if desc.axis == 0 and n > 1:
        found.append("axis 0 (the outermost)")
    if desc.axis == n - 1:
        found.append("last axis")
    if desc.output_tensor.sizes[desc.axis] == 1:
        found.append("axis of size 1")
    if desc.indices_tensor.data_type is not DataType.UINT32:
        found.append(f"{desc.indices_tensor.data_type.value} indices")
    if int(np.prod(desc.values_tensor.sizes)) > 2:
        found.append("values past two elements")
    return found


def extra_clauses(desc: OneHotDesc) -> list[str]:
    """ONEHOT.3 where the indices can be negative (a signed type)."""
    return ["ONEHOT.3"] if desc.indices_tensor.data_type in SIGNED_INDICES else []


def _common_1(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """COMMON.1 (ONEHOT.8): the output's data type differs from the values'."""
    d = descriptor_of(base, OneHotDesc)
    dt = ch.choice([t for t in data_type_order(OPERATOR) if t is not d.values_tensor.data_type])
    return with_descriptor(base, dataclasses.replace(d, output_tensor=TensorDesc(dt, d.output_tensor.sizes)))


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An output size of 0 (the indices' with it off the axis: only COMMON.2 breaks)."""
    d = descriptor_of(base, OneHotDesc)
    i = ch.integer(0, d.output_tensor.dimension_count - 1)
    out = dataclasses.replace(d.output_tensor, sizes=set_at(d.output_tensor.sizes, i, 0))
    t = d.indices_tensor
    indices = t if i == d.axis else dataclasses.replace(t, sizes=set_at(t.sizes, i, 0))
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out, indices_tensor=indices))


def _indices_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """IndicesTensor not the output's sizes with 1 on Axis: the axis' own size (or 2), another axis one larger,
    or one dimension more."""
    d = descriptor_of(base, OneHotDesc)
    t = d.indices_tensor
    how = ch.choice(("along the axis", "another axis", "one more dimension"))
    if how == "along the axis":
        sizes = set_at(t.sizes, d.axis, max(2, d.output_tensor.sizes[d.axis]))
    elif how == "another axis" and t.dimension_count > 1:
        i = ch.choice([k for k in range(t.dimension_count) if k != d.axis])
        sizes = set_at(t.sizes, i, t.sizes[i] + 1)
    else:
        sizes = (*t.sizes, 1)
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=TensorDesc(t.data_type, sizes)))


def _values_one_element(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, OneHotDesc)
    t = d.values_tensor
    return with_descriptor(base, dataclasses.replace(d, values_tensor=TensorDesc(t.data_type, (1,) * len(t.sizes))))


def _axis_past(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """Axis at the DimensionCount or past it (the indices' sizes left as they were)."""
    d = descriptor_of(base, OneHotDesc)
    n = d.indices_tensor.dimension_count
    return with_descriptor(base, dataclasses.replace(d, axis=ch.choice((n, n + 1, UINT_MAX))))


def _axis_overflow(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, OneHotDesc)
    return with_descriptor(base, dataclasses.replace(d, axis=UINT_MAX + 1))


def _indices_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An indices type the level's table does not take: a float or narrower one, or a 64-bit/signed one before 3.0."""
    d = descriptor_of(base, OneHotDesc)
    allowed = indices_types(base.feature_level)
    dt = ch.choice([t for t in oracle.ALL_DATA_TYPES if t not in allowed])
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=TensorDesc(dt, d.indices_tensor.sizes)))


def _indices_type_config(ch: Chooser, operator: str) -> Config:
    """Any level the operator exists at: the row in force there decides the indices' types (ONEHOT.10)."""
    levels = [fl for fl in FeatureLevel if INDICES_TABLES.row(fl) is not None]
    return choose_config(ch, operator, feature_level=ch.choice(levels))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, _common_1, _common_2),
        Family("indices' sizes not the output's with 1 on Axis", "ONEHOT.4", _indices_sizes),
        Family("values with fewer than two elements", "ONEHOT.5", _values_one_element),
        Family("Axis not below the DimensionCount", "ONEHOT.7", _axis_past),
        Family("Axis past UINT", "ONEHOT.7", _axis_overflow),
        Family("indices' data type unsupported at level", "ONEHOT.10", _indices_type, _indices_type_config),
    ]

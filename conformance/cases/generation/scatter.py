"""DML_SCATTER cases (also DML_SCATTER_ELEMENTS; beyond the seed pages, SCATTER.*): a valid builder, the indices'
values, its corners, and the families that break its rules.

IndicesTensor has a data type of its own (UINT32; INT64, INT32, UINT64 too from FL 3.0: SCATTER.9) and values that
decide where each update lands, so they are drawn here (`inputs`), not filled as data.  Mostly in range and
distinct along each line (every element judged), some in range with repeats (U-SCATTER-1's elements open), some
negative where the type is signed (SCATTER.3, judged), and a minority outside the axis (U-SCATTER-2: the output
open, observed; the guard bytes still judged).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

import oracle
from oracle import DataType, FeatureLevel, ScatterDesc, TensorDesc
from oracle.op_scatter import INDICES_TABLES, indices_types
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

OPERATOR = "SCATTER"
DESCRIPTOR = ScatterDesc

VALID_CLAUSES = (
    "COMMON.1",
    "COMMON.2",
    "COMMON.3",
    "SCATTER.1",
    "SCATTER.2",
    "SCATTER.4",
    "SCATTER.5",
    "SCATTER.6",
    "SCATTER.7",
    "SCATTER.8",
    "SCATTER.9",
)
# How the indices are drawn: distinct along each line (all judged), in range with repeats (U-SCATTER-1),
# negative from the end where signed (SCATTER.3), or some outside the axis (U-SCATTER-2).
INDEX_DRAWS = ("distinct", "repeats", "negative", "outside")
INDEX_DRAW_WEIGHTS = (0.6, 0.15, 0.15, 0.1)


def build(ch: Chooser, cfg: Config) -> ScatterDesc:
    """A valid descriptor for `cfg`: the input inside the element budget, any axis, 1 to the axis' size updates
    per line (now and then a few more: repeats then must meet; never past the element cap), an indices type the
    level takes."""
    sizes = sizes_in_budget(ch, cfg)
    axis = ch.integer(0, cfg.rank - 1)
    room = cfg.max_elements // (math.prod(sizes) // sizes[axis])  # the longest line the updates can have
    along = ch.integer(1, min(room, sizes[axis] + (2 if ch.rare(8) else 0)))
    indices_type = ch.choice(indices_types(cfg.feature_level))
    return oracle.scatter_desc(TensorDesc(cfg.data_type, tuple(sizes)), set_at(sizes, axis, along), axis, indices_type)


def indices_values(ch: Chooser, desc: ScatterDesc) -> np.ndarray:
    """IndicesTensor's values, drawn as INDEX_DRAWS says (one seed: a large tensor costs one draw)."""
    t = desc.indices_tensor
    size = desc.input_tensor.sizes[desc.axis]
    signed = np.issubdtype(t.data_type.numpy, np.signedinteger)
    how = ch.choice(INDEX_DRAWS, INDEX_DRAW_WEIGHTS)
    if how == "distinct" and t.sizes[desc.axis] > size:
        how = "repeats"  # more updates per line than targets: two must meet
    if how == "negative" and not signed:
        how = "distinct" if t.sizes[desc.axis] <= size else "repeats"
    ch.event(f"indices {how}")
    rng = np.random.Generator(np.random.PCG64(ch.integer(0, 2**32 - 1)))
    if how == "distinct":  # a distinct choice of targets per line along Axis
        moved = np.moveaxis(np.empty(t.sizes, dtype=np.int64), desc.axis, -1)
        lines = moved.reshape(-1, moved.shape[-1])
        for row in lines:
            row[:] = rng.permutation(size)[: len(row)]
        values = np.moveaxis(lines.reshape(moved.shape), -1, desc.axis)
    else:
        values = rng.integers(0, size, t.sizes, dtype=np.int64)
        if how == "negative":  # some of them counted from the end (SCATTER.3)
            values = np.where(rng.random(t.sizes) < 0.5, values - size, values)
        elif how == "outside":  # a few at or past the size, or below -size, or at the type's ends
            top = int(np.iinfo(t.data_type.numpy).max)
            far = [size, size + 1, top, *([-size - 1, int(np.iinfo(t.data_type.numpy).min)] if signed else [])]
            picks = np.asarray(far, dtype=object)[rng.integers(0, len(far), t.sizes)]
            out = rng.random(t.sizes) < 0.25
            values = np.where(out, picks, values.astype(object))
    return np.asarray(np.asarray(values).tolist(), dtype=object).astype(t.data_type.numpy).reshape(t.sizes)


def inputs(ch: Chooser, desc: ScatterDesc) -> tuple[np.ndarray, ...]:
    """The data and the updates filled as every operator's, the indices drawn (`indices_values`)."""
    x = input_tensor(ch, desc.input_tensor.data_type, desc.input_tensor.sizes)
    indices = indices_values(ch, desc)
    updates = input_tensor(ch, desc.updates_tensor.data_type, desc.updates_tensor.sizes)
    return (x, indices, updates)


def for_level(desc: ScatterDesc, level: FeatureLevel) -> ScatterDesc:
    """An invalid case's base at its own level: indices become UINT32 where the level's table does not take
    theirs (before FL 3.0: SCATTER.9), so that only the family's rule breaks."""
    t = desc.indices_tensor
    if t.data_type in indices_types(level) or INDICES_TABLES.row(level) is None:
        return desc
    return dataclasses.replace(desc, indices_tensor=dataclasses.replace(t, data_type=DataType.UINT32))


def corners(desc: ScatterDesc) -> list[str]:
    found = []
    n = desc.input_tensor.dimension_count
    if desc.axis == 0 and n > 1:
        found.append("axis 0 (the outermost)")
    if desc.axis == n - 1:
        found.append("last axis")
    if desc.indices_tensor.sizes[desc.axis] > desc.input_tensor.sizes[desc.axis]:
        found.append("more updates per line than targets")
    if desc.indices_tensor.data_type is not DataType.UINT32:
        found.append(f"{desc.indices_tensor.data_type.value} indices")
    return found


def extra_clauses(desc: ScatterDesc) -> list[str]:
    return ["SCATTER.3"] if np.issubdtype(desc.indices_tensor.data_type.numpy, np.signedinteger) else []


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An input size of 0 off the axis (the others' with it: only COMMON.2 breaks), or the indices' along it."""
    d = descriptor_of(base, ScatterDesc)
    i = ch.integer(0, d.input_tensor.dimension_count - 1)
    if i == d.axis:
        t = dataclasses.replace(d.indices_tensor, sizes=set_at(d.indices_tensor.sizes, i, 0))
        updates = TensorDesc(d.updates_tensor.data_type, t.sizes)
        return with_descriptor(base, dataclasses.replace(d, indices_tensor=t, updates_tensor=updates))
    tensor = dataclasses.replace(d.input_tensor, sizes=set_at(d.input_tensor.sizes, i, 0))
    return with_descriptor(
        base,
        oracle.scatter_desc(tensor, set_at(d.indices_tensor.sizes, i, 0), d.axis, d.indices_tensor.data_type),
    )


def _indices_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """IndicesTensor (and the updates with it) one larger on a dimension other than Axis."""
    d = descriptor_of(base, ScatterDesc)
    n = d.input_tensor.dimension_count
    i = ch.choice([k for k in range(n) if k != d.axis])
    sizes = set_at(d.indices_tensor.sizes, i, d.indices_tensor.sizes[i] + 1)
    return with_descriptor(
        base,
        dataclasses.replace(
            d,
            indices_tensor=TensorDesc(d.indices_tensor.data_type, sizes),
            updates_tensor=TensorDesc(d.updates_tensor.data_type, sizes),
        ),
    )


def _two_or_more_dims(ch: Chooser, operator: str) -> Config:
    """A base with a dimension besides Axis (SCATTER.2 has nothing to break in 1-D)."""
    return choose_config(ch, operator, rank=ch.integer(2, 8))


def _updates_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """UpdatesTensor one larger than IndicesTensor along Axis."""
    d = descriptor_of(base, ScatterDesc)
    sizes = set_at(d.updates_tensor.sizes, d.axis, d.updates_tensor.sizes[d.axis] + 1)
    return with_descriptor(base, dataclasses.replace(d, updates_tensor=TensorDesc(d.updates_tensor.data_type, sizes)))


def _updates_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """UpdatesTensor in another data type than the input's (one the level's table takes)."""
    d = descriptor_of(base, ScatterDesc)
    row = oracle.support_row(OPERATOR, base.feature_level)
    assert row is not None
    others = [t for t in row.data_types if t is not d.input_tensor.data_type] or [
        t for t in oracle.ALL_DATA_TYPES if t is not d.input_tensor.data_type
    ]
    dt = ch.choice(others)
    return with_descriptor(base, dataclasses.replace(d, updates_tensor=TensorDesc(dt, d.updates_tensor.sizes)))


def _rank(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """IndicesTensor and UpdatesTensor one dimension more than the data (a trailing 1)."""
    d = descriptor_of(base, ScatterDesc)
    sizes = (*d.indices_tensor.sizes, 1)
    return with_descriptor(
        base,
        dataclasses.replace(
            d,
            indices_tensor=TensorDesc(d.indices_tensor.data_type, sizes),
            updates_tensor=TensorDesc(d.updates_tensor.data_type, sizes),
        ),
    )


def _output_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, ScatterDesc)
    i = ch.integer(0, d.output_tensor.dimension_count - 1)
    out = TensorDesc(d.output_tensor.data_type, set_at(d.output_tensor.sizes, i, d.output_tensor.sizes[i] + 1))
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def _axis_past(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """Axis at the DimensionCount or past it."""
    d = descriptor_of(base, ScatterDesc)
    n = d.input_tensor.dimension_count
    return with_descriptor(base, dataclasses.replace(d, axis=ch.choice((n, n + 1, UINT_MAX))))


def _axis_overflow(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, ScatterDesc)
    return with_descriptor(base, dataclasses.replace(d, axis=UINT_MAX + 1))


def _indices_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An indices type the level's table does not take: a float, a narrower integer, or a signed or 64-bit one
    before FL 3.0."""
    d = descriptor_of(base, ScatterDesc)
    allowed = indices_types(base.feature_level)
    dt = ch.choice([t for t in oracle.ALL_DATA_TYPES if t not in allowed])
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=TensorDesc(dt, d.indices_tensor.sizes)))


def _indices_type_config(ch: Chooser, operator: str) -> Config:
    """Any level the operator exists at: the row in force there decides the indices' types (SCATTER.9)."""
    levels = [fl for fl in FeatureLevel if INDICES_TABLES.row(fl) is not None]
    return choose_config(ch, operator, feature_level=ch.choice(levels))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, _common_2),
        Family("indices' sizes not the input's off Axis", "SCATTER.2", _indices_sizes, _two_or_more_dims),
        Family("updates' sizes not the indices'", "SCATTER.4", _updates_sizes),
        Family("output sizes not the input's", "SCATTER.5", _output_sizes),
        Family("Axis not below the DimensionCount", "SCATTER.6", _axis_past),
        Family("Axis past UINT", "SCATTER.6", _axis_overflow),
        Family("indices and updates of another DimensionCount", "SCATTER.7", _rank),
        Family("updates' data type not the input's", "SCATTER.7", _updates_type),
        Family("indices' data type unsupported at level", "SCATTER.9", _indices_type, _indices_type_config),
    ]

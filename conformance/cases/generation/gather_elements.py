"""DML_GATHER_ELEMENTS cases (beyond the seed pages, GELEM.*): a valid builder, the indices' values, its corners,
and the families that break its rules.

IndicesTensor (UINT32; INT64, INT32, UINT64 from FL 3.0: GELEM.8) has the input's sizes but along Axis, and its
values are drawn as GATHER's (`gather.draw_indices`): mostly inside the axis (judged), a minority negative (from
the end: GELEM.3, judged) and out of range (open, U-GELEM-1: observed).
"""

from __future__ import annotations

import dataclasses

import numpy as np

import oracle
from oracle import DataType, FeatureLevel, GatherElementsDesc, TensorDesc
from oracle.op_gather_elements import INDICES_TABLES, indices_types
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
from .gather import MAX_INDEX_AXIS, draw_indices

OPERATOR = "GATHER_ELEMENTS"
DESCRIPTOR = GatherElementsDesc

VALID_CLAUSES = (
    "COMMON.1",
    "COMMON.2",
    "COMMON.3",
    "GELEM.1",
    "GELEM.2",
    "GELEM.4",
    "GELEM.5",
    "GELEM.6",
    "GELEM.7",
    "GELEM.8",
)


def build(ch: Chooser, cfg: Config) -> GatherElementsDesc:
    """A valid descriptor for `cfg`: the input's sizes inside the budget, any axis, the indices' size along it
    1 to MAX_INDEX_AXIS (the input's, more or fewer), an indices type the level takes."""
    sizes = sizes_in_budget(ch, cfg)
    axis = ch.integer(0, cfg.rank - 1)
    along = ch.choice((sizes[axis], ch.integer(1, MAX_INDEX_AXIS)))
    it = ch.choice(indices_types(cfg.feature_level))
    return oracle.gather_elements_desc(TensorDesc(cfg.data_type, tuple(sizes)), set_at(sizes, axis, along), axis, it)


def inputs(ch: Chooser, desc: GatherElementsDesc) -> tuple[np.ndarray, ...]:
    """The data filled as every operator's, the indices drawn (`gather.draw_indices`)."""
    x = input_tensor(ch, desc.input_tensor.data_type, desc.input_tensor.sizes)
    return (x, draw_indices(ch, desc.indices_tensor, desc.input_tensor.sizes[desc.axis]))


def for_level(desc: GatherElementsDesc, level: FeatureLevel) -> GatherElementsDesc:
    """An invalid case's base at its own level: indices become UINT32 before FL 3.0 (GELEM.8)."""
    t = desc.indices_tensor
    if t.data_type in indices_types(level) or INDICES_TABLES.row(level) is None:
        return desc
    return dataclasses.replace(desc, indices_tensor=dataclasses.replace(t, data_type=DataType.UINT32))


def corners(desc: GatherElementsDesc) -> list[str]:
    found = []
    n = desc.input_tensor.dimension_count
    if desc.axis == n - 1:
        found.append("last axis")
    if desc.input_tensor.sizes[desc.axis] == 1:
        found.append("axis of size 1")
    if desc.indices_tensor.sizes[desc.axis] != desc.input_tensor.sizes[desc.axis]:
        found.append("indices' size along Axis not the input's")
    if desc.indices_tensor.data_type in (DataType.INT64, DataType.UINT64):
        found.append(f"{desc.indices_tensor.data_type.value} indices")
    return found


def extra_clauses(desc: GatherElementsDesc) -> list[str]:
    return []


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An input size of 0 (the indices' and the output's with it off Axis: only COMMON.2 breaks)."""
    d = descriptor_of(base, GatherElementsDesc)
    i = ch.integer(0, d.input_tensor.dimension_count - 1)
    t = dataclasses.replace(d.input_tensor, sizes=set_at(d.input_tensor.sizes, i, 0))
    indices = d.indices_tensor.sizes if i == d.axis else set_at(d.indices_tensor.sizes, i, 0)
    return with_descriptor(base, oracle.gather_elements_desc(t, indices, d.axis, d.indices_tensor.data_type))


def _indices_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """IndicesTensor one larger than the input in a dimension other than Axis (the output with it)."""
    d = descriptor_of(base, GatherElementsDesc)
    n = d.input_tensor.dimension_count  # 2 or more (_indices_sizes_config)
    i = ch.choice([k for k in range(n) if k != d.axis])
    sizes = set_at(d.indices_tensor.sizes, i, d.indices_tensor.sizes[i] + 1)
    t = TensorDesc(d.indices_tensor.data_type, sizes)
    return with_descriptor(
        base, dataclasses.replace(d, indices_tensor=t, output_tensor=TensorDesc(d.output_tensor.data_type, sizes))
    )


def _indices_sizes_config(ch: Chooser, operator: str) -> Config:
    """Rank 2 or more: a dimension other than Axis to break."""
    cfg = choose_config(ch, operator)
    return cfg if cfg.rank > 1 else choose_config(ch, operator, rank=4)


def _output_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, GatherElementsDesc)
    i = ch.integer(0, d.output_tensor.dimension_count - 1)
    out = TensorDesc(d.output_tensor.data_type, set_at(d.output_tensor.sizes, i, d.output_tensor.sizes[i] + 1))
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def _indices_rank(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """IndicesTensor with one dimension more than the input (a leading 1)."""
    d = descriptor_of(base, GatherElementsDesc)
    t = d.indices_tensor
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=TensorDesc(t.data_type, (1, *t.sizes))))


def _axis_past(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, GatherElementsDesc)
    n = d.input_tensor.dimension_count
    return with_descriptor(base, dataclasses.replace(d, axis=ch.choice((n, n + 1, UINT_MAX))))


def _axis_overflow(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, GatherElementsDesc)
    return with_descriptor(base, dataclasses.replace(d, axis=UINT_MAX + 1))


def _indices_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An indices type the level's table does not take: a float or narrower one, or a 64-bit or signed one
    before 3.0."""
    d = descriptor_of(base, GatherElementsDesc)
    allowed = indices_types(base.feature_level)
    dt = ch.choice([t for t in oracle.ALL_DATA_TYPES if t not in allowed])
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=TensorDesc(dt, d.indices_tensor.sizes)))


def _indices_type_config(ch: Chooser, operator: str) -> Config:
    levels = [fl for fl in FeatureLevel if INDICES_TABLES.row(fl) is not None]
    return choose_config(ch, operator, feature_level=ch.choice(levels))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, _common_2),
        Family("indices' sizes not the input's off Axis", "GELEM.2", _indices_sizes, _indices_sizes_config),
        Family("output sizes not the indices'", "GELEM.4", _output_sizes),
        Family("Axis not below the DimensionCount", "GELEM.5", _axis_past),
        Family("Axis past UINT", "GELEM.5", _axis_overflow),
        Family("indices' DimensionCount not the input's", "GELEM.6", _indices_rank),
        Family("indices' data type unsupported at level", "GELEM.8", _indices_type, _indices_type_config),
    ]

"""DML_REVERSE_SUBSEQUENCES cases (beyond the seed pages, REVSEQ.*): a valid builder, the lengths' values, its
corners, and the families that break its rules.

The second input, SequenceLengthsTensor, has a data type of its own (UINT32, or UINT64 from FL 5.0: REVSEQ.8)
and values that decide where each element goes, so they are drawn here (`inputs`), not filled as data: inside
the axis, 0 and 1 (no change, REVSEQ.4), the whole axis, and past it up to the type's end (clamped, REVSEQ.3).
"""

from __future__ import annotations

import dataclasses

import numpy as np

import oracle
from oracle import DataType, FeatureLevel, ReverseSubsequencesDesc, TensorDesc
from oracle.op_reverse_subsequences import LENGTHS_TABLES, lengths_types
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

OPERATOR = "REVERSE_SUBSEQUENCES"
DESCRIPTOR = ReverseSubsequencesDesc

VALID_CLAUSES = (
    "COMMON.1",
    "COMMON.2",
    "COMMON.3",
    "REVSEQ.1",
    "REVSEQ.2",
    "REVSEQ.5",
    "REVSEQ.6",
    "REVSEQ.7",
    "REVSEQ.8",
)
# How the lengths are drawn: inside the axis (0..size), past it by a little (clamped), or at the ends a
# kernel might mishandle (0, 1, size, size + 1, 2^31, the type's maximum; 2^32 and 2^63 in UINT64).
LENGTH_DRAWS = ("inside", "past", "ends")
LENGTH_DRAW_WEIGHTS = (0.6, 0.25, 0.15)


def build(ch: Chooser, cfg: Config) -> ReverseSubsequencesDesc:
    """A valid descriptor for `cfg`: sizes inside the element budget, any axis, a lengths type the level takes."""
    sizes = sizes_in_budget(ch, cfg)
    axis = ch.integer(0, cfg.rank - 1)
    lengths_type = ch.choice(lengths_types(cfg.feature_level))
    return oracle.reverse_subsequences_desc(TensorDesc(cfg.data_type, tuple(sizes)), axis, lengths_type)


def length_ends(size: int, data_type: DataType) -> tuple[int, ...]:
    """The lengths at the ends: none, one, the axis, one past it, 2^31, and the type's end (REVSEQ.3, REVSEQ.4)."""
    top = int(np.iinfo(data_type.numpy).max)
    wide = (2**32, 2**63) if data_type is DataType.UINT64 else ()
    return (0, 1, size, size + 1, 2**31, top, *wide)


def lengths_values(ch: Chooser, desc: ReverseSubsequencesDesc) -> np.ndarray:
    """SequenceLengthsTensor's values, drawn as LENGTH_DRAWS says (one seed: a large tensor costs one draw)."""
    t = desc.sequence_lengths_tensor
    size = desc.input_tensor.sizes[desc.axis]
    how = ch.choice(LENGTH_DRAWS, LENGTH_DRAW_WEIGHTS)
    ch.event(f"lengths {how}")
    rng = np.random.Generator(np.random.PCG64(ch.integer(0, 2**32 - 1)))
    count = int(np.prod(t.sizes))
    if how == "ends":
        ends = np.asarray(length_ends(size, t.data_type), dtype=np.uint64)
        values = ends[rng.integers(0, len(ends), count)]
    else:
        values = rng.integers(0, size + (3 if how == "past" else 0), count, endpoint=True).astype(np.uint64)
    return values.astype(t.data_type.numpy).reshape(t.sizes)


def inputs(ch: Chooser, desc: ReverseSubsequencesDesc) -> tuple[np.ndarray, ...]:
    """The data filled as every operator's, the lengths drawn (`lengths_values`)."""
    x = input_tensor(ch, desc.input_tensor.data_type, desc.input_tensor.sizes)
    return (x, lengths_values(ch, desc))


def for_level(desc: ReverseSubsequencesDesc, level: FeatureLevel) -> ReverseSubsequencesDesc:
    """An invalid case's base at its own level: UINT64 lengths become UINT32 before FL 5.0 (REVSEQ.8), so that
    only the family's rule breaks."""
    t = desc.sequence_lengths_tensor
    if t.data_type in lengths_types(level) or LENGTHS_TABLES.row(level) is None:
        return desc
    return dataclasses.replace(desc, sequence_lengths_tensor=dataclasses.replace(t, data_type=DataType.UINT32))


def corners(desc: ReverseSubsequencesDesc) -> list[str]:
    found = []
    n = desc.input_tensor.dimension_count
    if desc.axis == 0 and n > 1:
        found.append("axis 0 (the outermost)")
    if desc.axis == n - 1:
        found.append("last axis")
    if desc.input_tensor.sizes[desc.axis] == 1:
        found.append("axis of size 1")
    if desc.sequence_lengths_tensor.data_type is DataType.UINT64:
        found.append("UINT64 lengths")
    return found


def extra_clauses(desc: ReverseSubsequencesDesc) -> list[str]:
    return []


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An input size of 0 (the output's and the lengths' with it: only COMMON.2 breaks)."""
    d = descriptor_of(base, ReverseSubsequencesDesc)
    i = ch.integer(0, d.input_tensor.dimension_count - 1)
    tensor = dataclasses.replace(d.input_tensor, sizes=set_at(d.input_tensor.sizes, i, 0))
    return with_descriptor(base, oracle.reverse_subsequences_desc(tensor, d.axis, d.sequence_lengths_tensor.data_type))


def _lengths_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """SequenceLengthsTensor not the input's sizes with 1 on Axis: the axis' own size (or 2), another axis one
    larger, or one dimension more."""
    d = descriptor_of(base, ReverseSubsequencesDesc)
    t = d.sequence_lengths_tensor
    how = ch.choice(("along the axis", "another axis", "one more dimension"))
    if how == "along the axis":
        sizes = set_at(t.sizes, d.axis, max(2, d.input_tensor.sizes[d.axis]))
    elif how == "another axis" and t.dimension_count > 1:
        i = ch.choice([k for k in range(t.dimension_count) if k != d.axis])
        sizes = set_at(t.sizes, i, t.sizes[i] + 1)
    else:
        sizes = (*t.sizes, 1)
    return with_descriptor(base, dataclasses.replace(d, sequence_lengths_tensor=TensorDesc(t.data_type, sizes)))


def _output_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, ReverseSubsequencesDesc)
    i = ch.integer(0, d.output_tensor.dimension_count - 1)
    out = TensorDesc(d.output_tensor.data_type, set_at(d.output_tensor.sizes, i, d.output_tensor.sizes[i] + 1))
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def _axis_past(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """Axis at the DimensionCount or past it (the lengths' sizes left as they were)."""
    d = descriptor_of(base, ReverseSubsequencesDesc)
    n = d.input_tensor.dimension_count
    return with_descriptor(base, dataclasses.replace(d, axis=ch.choice((n, n + 1, UINT_MAX))))


def _axis_overflow(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, ReverseSubsequencesDesc)
    return with_descriptor(base, dataclasses.replace(d, axis=UINT_MAX + 1))


def _lengths_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """A lengths type the level's table does not take: a signed, float or narrower one, or UINT64 before 5.0."""
    d = descriptor_of(base, ReverseSubsequencesDesc)
    allowed = lengths_types(base.feature_level)
    dt = ch.choice([t for t in oracle.ALL_DATA_TYPES if t not in allowed])
    t = d.sequence_lengths_tensor
    return with_descriptor(base, dataclasses.replace(d, sequence_lengths_tensor=TensorDesc(dt, t.sizes)))


def _lengths_type_config(ch: Chooser, operator: str) -> Config:
    """Any level the operator exists at: the row in force there decides the lengths' types (REVSEQ.8)."""
    levels = [fl for fl in FeatureLevel if LENGTHS_TABLES.row(fl) is not None]
    return choose_config(ch, operator, feature_level=ch.choice(levels))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, _common_2),
        Family("lengths' sizes not the input's with 1 on Axis", "REVSEQ.2", _lengths_sizes),
        Family("output sizes not the input's", "REVSEQ.5", _output_sizes),
        Family("Axis not below the DimensionCount", "REVSEQ.6", _axis_past),
        Family("Axis past UINT", "REVSEQ.6", _axis_overflow),
        Family("lengths' data type unsupported at level", "REVSEQ.8", _lengths_type, _lengths_type_config),
    ]

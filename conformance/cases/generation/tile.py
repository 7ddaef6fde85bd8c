"""DML_TILE cases (beyond the seed pages): a valid builder, its corners, and the families that break its rules."""

from __future__ import annotations

import dataclasses

from oracle import TensorDesc, TileDesc
from oracle.tables import UINT_MAX

from .common import (
    MAX_AXIS,
    CaseSpec,
    Chooser,
    Config,
    Family,
    budget,
    common_families,
    descriptor_of,
    one_output_common_1,
    set_at,
    with_descriptor,
)

OPERATOR = "TILE"
DESCRIPTOR = TileDesc

# Most copies along one axis of a generated case: enough that a kernel's per-tile loop runs past 2 and 3
# (the example's), while the output (the input times every repeat) stays inside the element budget.
MAX_REPEATS = 5

VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "TILE.1", "TILE.2", "TILE.3", "TILE.4", "TILE.5", "TILE.6")


def build(ch: Chooser, cfg: Config) -> TileDesc:
    """A valid descriptor for `cfg`: input sizes and repeats drawn so that the output fits the element budget."""
    left = budget(ch, cfg)
    sizes, repeats = [], []
    for _ in range(cfg.rank):
        n = ch.integer(1, max(1, min(MAX_AXIS, left)))
        left = max(1, left // n)
        r = ch.integer(1, max(1, min(MAX_REPEATS, left)))
        left = max(1, left // r)
        sizes.append(n)
        repeats.append(r)
    tensor = TensorDesc(cfg.data_type, tuple(sizes))
    out = TensorDesc(cfg.data_type, tuple(n * r for n, r in zip(sizes, repeats)))
    return TileDesc(tensor, out, tuple(repeats))


def corners(desc: TileDesc) -> list[str]:
    found = []
    if all(r == 1 for r in desc.repeats):
        found.append("TILE of repeats 1 (a copy)")
    if any(r > 1 and n == 1 for r, n in zip(desc.repeats, desc.input_tensor.sizes)):
        found.append("TILE of a size-1 axis (a broadcast)")
    return found


def extra_clauses(desc: TileDesc) -> list[str]:
    return []


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An input size of 0 (with its output size 0: TILE.2 holds, COMMON.2 does not)."""
    d = descriptor_of(base, TileDesc)
    i = ch.integer(0, d.input_tensor.dimension_count - 1)
    tensor = dataclasses.replace(d.input_tensor, sizes=set_at(d.input_tensor.sizes, i, 0))
    out = dataclasses.replace(d.output_tensor, sizes=set_at(d.output_tensor.sizes, i, 0))
    return with_descriptor(base, dataclasses.replace(d, input_tensor=tensor, output_tensor=out))


def _tile_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An output size other than Sizes * Repeats on one axis: one more, or the input's own size."""
    d = descriptor_of(base, TileDesc)
    i = ch.integer(0, d.input_tensor.dimension_count - 1)
    size, r = d.input_tensor.sizes[i], d.repeats[i]
    wrong = size * r + 1 if r == 1 or ch.choice(("one more", "untiled")) == "one more" else size
    out = dataclasses.replace(d.output_tensor, sizes=set_at(d.output_tensor.sizes, i, wrong))
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def _tile_2_wrap(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """TILE.2 broken only past 32 bits: Repeats[i] grown by 2^32 / Sizes[i] (a power of two), so Sizes * Repeats
    exceeds the output's size by 2^32; a UINT32 product would wrap to the right size."""
    d = descriptor_of(base, TileDesc)
    i = ch.integer(0, d.input_tensor.dimension_count - 1)
    tensor = dataclasses.replace(d.input_tensor, sizes=set_at(d.input_tensor.sizes, i, 2))
    out = dataclasses.replace(d.output_tensor, sizes=set_at(d.output_tensor.sizes, i, 2 * d.repeats[i]))
    repeats = set_at(d.repeats, i, d.repeats[i] + 2**31)
    return with_descriptor(
        base, dataclasses.replace(d, input_tensor=tensor, output_tensor=out, repeats=repeats), tags=("uint32-wrap",)
    )


def _tile_3(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """RepeatsCount (and the Repeats array) one longer or shorter than the tensors' DimensionCount."""
    d = descriptor_of(base, TileDesc)
    n = d.input_tensor.dimension_count
    if n > 1 and ch.choice(("shorter", "longer")) == "shorter":
        repeats = d.repeats[:-1]
    else:
        repeats = (*d.repeats, 1)
    return with_descriptor(base, dataclasses.replace(d, repeats=repeats, repeats_count=len(repeats)))


def _tile_4_zero(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """A Repeats value of 0 (the output's sizes unchanged: TILE.4 is checked before TILE.2)."""
    d = descriptor_of(base, TileDesc)
    i = ch.integer(0, d.input_tensor.dimension_count - 1)
    return with_descriptor(base, dataclasses.replace(d, repeats=set_at(d.repeats, i, 0)))


def _tile_4_overflow(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, TileDesc)
    i = ch.integer(0, d.input_tensor.dimension_count - 1)
    return with_descriptor(base, dataclasses.replace(d, repeats=set_at(d.repeats, i, UINT_MAX + 1)))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, _common_2),
        Family("output size not Sizes * Repeats", "TILE.2", _tile_2),
        Family("output size Sizes * Repeats only modulo 2^32", "TILE.2", _tile_2_wrap),
        Family("RepeatsCount not the DimensionCount", "TILE.3", _tile_3),
        Family("a Repeats value of 0", "TILE.4", _tile_4_zero),
        Family("Repeats past UINT", "TILE.4", _tile_4_overflow),
    ]

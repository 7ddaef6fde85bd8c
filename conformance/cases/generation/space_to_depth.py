"""DML_SPACE_TO_DEPTH cases (beyond the seed pages, S2D.*): the blocks' geometry (generation.blocks), read from
the space side, depth-column-row."""

from __future__ import annotations

from oracle import SpaceToDepthDesc

from . import blocks
from .common import Chooser, Config, Family, common_families, one_output_common_1

OPERATOR = "SPACE_TO_DEPTH"
DESCRIPTOR = SpaceToDepthDesc

# The clauses a valid case exercises (S2D.2 is E-S2D-1's: the sizes checked are the examples', not the formula's).
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "S2D.1", "S2D.2", "S2D.3", "S2D.5", "S2D.6")


def build(ch: Chooser, cfg: Config) -> SpaceToDepthDesc:
    """Space {N, C, H * b, W * b} to depth {N, C * b * b, H, W}."""
    b, depth, space = blocks.geometry(ch, cfg)
    return SpaceToDepthDesc(*blocks.tensors(cfg.data_type, space, depth), b)


def corners(desc: SpaceToDepthDesc) -> list[str]:
    return blocks.corners(desc)


def extra_clauses(desc: SpaceToDepthDesc) -> list[str]:
    return []


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    common = common_families(OPERATOR, one_output_common_1, blocks._common_2)
    return [*common, *blocks.families("S2D.2", "S2D.3", (2, 3), "U-S2D-1")]

"""DML_SPACE_TO_DEPTH1 cases (beyond the seed pages, S2D1.*): the blocks' geometry (generation.blocks), read
from the space side, and an Order."""

from __future__ import annotations

from oracle import DepthSpaceOrder, SpaceToDepth1Desc

from . import blocks
from .common import Chooser, Config, Family, common_families, one_output_common_1

OPERATOR = "SPACE_TO_DEPTH1"
DESCRIPTOR = SpaceToDepth1Desc

# The clauses a valid case exercises (S2D1.4, the order, is every case's: each has one).
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "S2D1.1", "S2D1.2", "S2D1.3", "S2D1.4", "S2D1.6", "S2D1.7")


def build(ch: Chooser, cfg: Config) -> SpaceToDepth1Desc:
    """Space {N, C, H * b, W * b} to depth {N, C * b * b, H, W}, in either order."""
    b, depth, space = blocks.geometry(ch, cfg)
    return SpaceToDepth1Desc(*blocks.tensors(cfg.data_type, space, depth), b, blocks.order_of(ch, True))


def corners(desc: SpaceToDepth1Desc) -> list[str]:
    found = blocks.corners(desc)
    if desc.order is DepthSpaceOrder.COLUMN_ROW_DEPTH:
        found.append("order COLUMN_ROW_DEPTH")
    return found


def extra_clauses(desc: SpaceToDepth1Desc) -> list[str]:
    return []


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    common = common_families(OPERATOR, one_output_common_1, blocks._common_2)
    return [*common, *blocks.families("S2D1.2", "S2D1.3", (2, 3), "U-S2D-1")]

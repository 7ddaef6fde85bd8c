"""DML_DEPTH_TO_SPACE1 cases (beyond the seed pages, D2S1.*): the blocks' geometry (generation.blocks) and an Order."""

from __future__ import annotations

from oracle import DepthSpaceOrder, DepthToSpace1Desc

from . import blocks
from .common import Chooser, Config, Family, common_families, one_output_common_1

OPERATOR = "DEPTH_TO_SPACE1"
DESCRIPTOR = DepthToSpace1Desc

# The clauses a valid case exercises (D2S1.4, the order, is every case's: each has one).
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "D2S1.1", "D2S1.2", "D2S1.3", "D2S1.4", "D2S1.6", "D2S1.7")


def build(ch: Chooser, cfg: Config) -> DepthToSpace1Desc:
    """Depth {N, C * b * b, H, W} to space {N, C, H * b, W * b}, in either order."""
    b, depth, space = blocks.geometry(ch, cfg)
    return DepthToSpace1Desc(*blocks.tensors(cfg.data_type, depth, space), b, blocks.order_of(ch, True))


def corners(desc: DepthToSpace1Desc) -> list[str]:
    found = blocks.corners(desc)
    if desc.order is DepthSpaceOrder.COLUMN_ROW_DEPTH:
        found.append("order COLUMN_ROW_DEPTH")
    return found


def extra_clauses(desc: DepthToSpace1Desc) -> list[str]:
    return []


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    common = common_families(OPERATOR, one_output_common_1, blocks._common_2)
    return [*common, *blocks.families("D2S1.2", "D2S1.3", (1,))]

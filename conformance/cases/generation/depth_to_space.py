"""DML_DEPTH_TO_SPACE cases (beyond the seed pages, D2S.*): the blocks' geometry (generation.blocks), depth-column-row."""

from __future__ import annotations

from oracle import DepthToSpaceDesc

from . import blocks
from .common import Chooser, Config, Family, common_families, one_output_common_1

OPERATOR = "DEPTH_TO_SPACE"
DESCRIPTOR = DepthToSpaceDesc

VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "D2S.1", "D2S.2", "D2S.3", "D2S.5", "D2S.6")


def build(ch: Chooser, cfg: Config) -> DepthToSpaceDesc:
    """Depth {N, C * b * b, H, W} to space {N, C, H * b, W * b}."""
    b, depth, space = blocks.geometry(ch, cfg)
    return DepthToSpaceDesc(*blocks.tensors(cfg.data_type, depth, space), b)


def corners(desc: DepthToSpaceDesc) -> list[str]:
    return blocks.corners(desc)


def extra_clauses(desc: DepthToSpaceDesc) -> list[str]:
    return []


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    common = common_families(OPERATOR, one_output_common_1, blocks._common_2)
    return [*common, *blocks.families("D2S.2", "D2S.3", (1,))]

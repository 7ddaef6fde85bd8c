"""DML_DEPTH_TO_SPACE cases (beyond the seed pages, D2S.*): the blocks' geometry (generation.blocks), depth-column-row."""

from __future__ import annotations

from oracle import DepthToSpaceDesc

from . import blocks

OPERATOR = "DEPTH_TO_SPACE"
DESCRIPTOR = DepthToSpaceDesc

VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "D2S.1", "D2S.2", "D2S.3", "D2S.5", "D2S.6")


# The functions are the shared body of the four (generation.blocks.BlockCases).
_CASES = blocks.BlockCases(OPERATOR, DepthToSpaceDesc, to_space=True, sizes_clause="D2S.2", block_clause="D2S.3")
build = _CASES.build
corners = _CASES.corners
extra_clauses = _CASES.extra_clauses
families = _CASES.families

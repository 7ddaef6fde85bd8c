"""DML_DEPTH_TO_SPACE1 cases (beyond the seed pages, D2S1.*): the blocks' geometry (generation.blocks) and an Order."""

from __future__ import annotations

from oracle import DepthToSpace1Desc

from . import blocks

OPERATOR = "DEPTH_TO_SPACE1"
DESCRIPTOR = DepthToSpace1Desc

# The clauses a valid case exercises (D2S1.4, the order, is every case's: each has one).
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "D2S1.1", "D2S1.2", "D2S1.3", "D2S1.4", "D2S1.6", "D2S1.7")


# The functions are the shared body of the four (generation.blocks.BlockCases).
_CASES = blocks.BlockCases(OPERATOR, DepthToSpace1Desc, to_space=True, sizes_clause="D2S1.2", block_clause="D2S1.3")
build = _CASES.build
corners = _CASES.corners
extra_clauses = _CASES.extra_clauses
families = _CASES.families

"""DML_SPACE_TO_DEPTH1 cases (beyond the seed pages, S2D1.*): the blocks' geometry (generation.blocks), read
from the space side, and an Order."""

from __future__ import annotations

from oracle import SpaceToDepth1Desc

from . import blocks

OPERATOR = "SPACE_TO_DEPTH1"
DESCRIPTOR = SpaceToDepth1Desc

# The clauses a valid case exercises (S2D1.4, the order, is every case's: each has one).
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "S2D1.1", "S2D1.2", "S2D1.3", "S2D1.4", "S2D1.6", "S2D1.7")


# The functions are the shared body of the four (generation.blocks.BlockCases).
_CASES = blocks.BlockCases(OPERATOR, SpaceToDepth1Desc, to_space=False, sizes_clause="S2D1.2", block_clause="S2D1.3")
build = _CASES.build
corners = _CASES.corners
extra_clauses = _CASES.extra_clauses
families = _CASES.families

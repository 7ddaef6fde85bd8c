"""DML_SPACE_TO_DEPTH cases (beyond the seed pages, S2D.*): the blocks' geometry (generation.blocks), read from
the space side, depth-column-row."""

from __future__ import annotations

from oracle import SpaceToDepthDesc

from . import blocks

OPERATOR = "SPACE_TO_DEPTH"
DESCRIPTOR = SpaceToDepthDesc

# The clauses a valid case exercises (S2D.2 is E-S2D-1's: the sizes checked are the examples', not the formula's).
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "S2D.1", "S2D.2", "S2D.3", "S2D.5", "S2D.6")


# The functions are the shared body of the four (generation.blocks.BlockCases).
_CASES = blocks.BlockCases(OPERATOR, SpaceToDepthDesc, to_space=False, sizes_clause="S2D.2", block_clause="S2D.3")
build = _CASES.build
corners = _CASES.corners
extra_clauses = _CASES.extra_clauses
families = _CASES.families

"""DML_GATHER_ND1 cases (beyond the seed pages, GND1.*): GATHER_ND's body (generation.gather_nd.GatherNdCases) with
BatchDimensionCount drawn, and the family that breaks the batches' rule (GND1.10, E-GND1-1)."""

from __future__ import annotations

from oracle import GatherNd1Desc, op_gather_nd1

from .gather_nd import GatherNdCases

OPERATOR = "GATHER_ND1"
DESCRIPTOR = GatherNd1Desc

_CASES = GatherNdCases(OPERATOR, GatherNd1Desc, op_gather_nd1.INDICES_TABLES, "GND1.", batches=True)
VALID_CLAUSES = _CASES.valid_clauses()
build = _CASES.build
inputs = _CASES.inputs
for_level = _CASES.for_level
corners = _CASES.corners
extra_clauses = _CASES.extra_clauses
families = _CASES.families

"""DML_GATHER_ND_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, GND.*).

Each index tuple (the indices' last dimension) picks a sub-block of the input's meaningful dimensions:
Output[p, t] = Input[indices[p, 0..q-1], t] (GND.1). The body is oracle.gather_nd's, shared with GATHER_ND1
(GATHER_ND is GATHER_ND1 with BatchDimensionCount 0). IndicesTensor has a type of its own: UINT32 at FL 2.1,
INT64, INT32, UINT64 or UINT32 from 3.0 (GND.9, INDICES_TABLES).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import gather_nd
from .gather_nd import GatherNdBase
from .tables import FeatureLevel

OPERATOR = "GATHER_ND"
PAGE_ORDER = 18  # issue 32's order: GATHER, GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, ...
TABLES = gather_nd.data_tables("GND.", FeatureLevel.FL_2_1)
INDICES_TABLES = gather_nd.indices_tables("GND.", FeatureLevel.FL_2_1)


@dataclass(frozen=True)
class GatherNdDesc(GatherNdBase):
    """Mirrors DML_GATHER_ND_OPERATOR_DESC: InputTensor, IndicesTensor, OutputTensor, InputDimensionCount,
    IndicesDimensionCount (UINT)."""

    operator = OPERATOR


DESCRIPTOR = GatherNdDesc

_FUNCTIONS = gather_nd.GatherNdFunctions(OPERATOR, TABLES, INDICES_TABLES, "GND.")
validate = _FUNCTIONS.validate
unspecified = _FUNCTIONS.unspecified
index_maps = _FUNCTIONS.index_maps
compute = _FUNCTIONS.compute
compute_literal = _FUNCTIONS.compute_literal
explain = _FUNCTIONS.explain

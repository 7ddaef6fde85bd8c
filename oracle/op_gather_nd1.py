"""DML_GATHER_ND1_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, GND1.*).

GATHER_ND with batches: the first BatchDimensionCount meaningful dimensions of the input and the indices are
independent batches (GND1.10, E-GND1-1): Output[b, p, t] = Input[b, indices[b, p, 0..q-1], t] (GND1.1). The
body is oracle.gather_nd's; with BatchDimensionCount 0 it is GATHER_ND (GND1.11).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import gather_nd
from .gather_nd import GatherNdBase
from .tables import FeatureLevel

OPERATOR = "GATHER_ND1"
PAGE_ORDER = 19  # issue 32's order: ... GATHER_ND, GATHER_ND1, SCATTER, ...
TABLES = gather_nd.data_tables("GND1.", FeatureLevel.FL_3_0)
INDICES_TABLES = gather_nd.indices_tables("GND1.", FeatureLevel.FL_3_0)


@dataclass(frozen=True)
class GatherNd1Desc(GatherNdBase):
    """Mirrors DML_GATHER_ND1_OPERATOR_DESC: InputTensor, IndicesTensor, OutputTensor, InputDimensionCount,
    IndicesDimensionCount, BatchDimensionCount (UINT)."""

    batch_dimension_count: int

    operator = OPERATOR
    UINT_SCALARS = ("input_dimension_count", "indices_dimension_count", "batch_dimension_count")

    @property
    def batch_count(self) -> int:
        return self.batch_dimension_count

    def struct_fields(self) -> dict[str, Any]:
        return super().struct_fields() | {"batch_dimension_count": self.batch_dimension_count}


DESCRIPTOR = GatherNd1Desc

_FUNCTIONS = gather_nd.GatherNdFunctions(OPERATOR, TABLES, INDICES_TABLES, "GND1.")
validate = _FUNCTIONS.validate
unspecified = _FUNCTIONS.unspecified
index_maps = _FUNCTIONS.index_maps
compute = _FUNCTIONS.compute
compute_literal = _FUNCTIONS.compute_literal
explain = _FUNCTIONS.explain

"""DML_SPACE_TO_DEPTH_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, S2D.*).

DML_SPACE_TO_DEPTH1 with Order DEPTH_COLUMN_ROW (S2D1.4: the newer page's remarks say so), and no
Order field: the depth is [Batch, (BlockHeight, BlockWidth, Channels), Height, Width].  The output's
sizes are {N, C * b * b, H / b, W / b}, not the page's formula (E-S2D-1).  Everything but the table
and the clause ids is oracle.depth_space's.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import depth_space
from .checks import TensorDesc
from .depth_space import BlockMover
from .descriptor_json import TENSOR, JsonDescriptor
from .tables import ALL_DATA_TYPES, FL30_TYPES, FeatureLevel, OperatorTables, SupportRow, types

OPERATOR = "SPACE_TO_DEPTH"
PAGE_ORDER = 10  # issue 31's order: ... SPACE_TO_DEPTH, SPACE_TO_DEPTH1, DEPTH_TO_SPACE, DEPTH_TO_SPACE1
TABLES = OperatorTables(
    support=(  # S2D.6, the page's table
        SupportRow(FeatureLevel.FL_5_0, (4,), ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
        SupportRow(FeatureLevel.FL_1_0, (4,), types("FLOAT32, FLOAT16")),
    ),
    support_clause="S2D.6",
    dimension_count_clause="S2D.6",
    introduced=(FeatureLevel.FL_1_0, "S2D.6"),
    clause_prefix="S2D.",
)


@dataclass(frozen=True)
class SpaceToDepthDesc(BlockMover, JsonDescriptor):
    """Mirrors DML_SPACE_TO_DEPTH_OPERATOR_DESC: InputTensor, OutputTensor, BlockSize (UINT)."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    block_size: int

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "output_tensor": TENSOR}


DESCRIPTOR = SpaceToDepthDesc


# S2D.1: the blocks of space transposed into the depth as [BlockHeight, BlockWidth, Channels]; the functions are
# the shared body of the four (oracle.depth_space.BlockOperator).
_FUNCTIONS = depth_space.BlockOperator(
    OPERATOR, TABLES, depth_space.TO_DEPTH, "S2D.2", "S2D.3", "Input[n, k % C, y * b + k / C / b, x * b + k / C % b]"
)
validate = _FUNCTIONS.validate
unspecified = _FUNCTIONS.unspecified
index_maps = _FUNCTIONS.index_maps
compute = _FUNCTIONS.compute
compute_literal = _FUNCTIONS.compute_literal
explain = _FUNCTIONS.explain

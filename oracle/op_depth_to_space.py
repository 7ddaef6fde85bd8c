"""DML_DEPTH_TO_SPACE_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, D2S.*).

DML_DEPTH_TO_SPACE1 with Order DEPTH_COLUMN_ROW (D2S1.4: the newer page's remarks say so), and no
Order field: the depth is [Batch, (BlockHeight, BlockWidth, Channels), Height, Width].  Everything
but the table and the clause ids is oracle.depth_space's.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import depth_space
from .checks import TensorDesc
from .depth_space import BlockMover
from .descriptor_json import TENSOR, JsonDescriptor
from .tables import ALL_DATA_TYPES, FL30_TYPES, FeatureLevel, OperatorTables, SupportRow, types

OPERATOR = "DEPTH_TO_SPACE"
PAGE_ORDER = 12  # issue 31's order: ... SPACE_TO_DEPTH, SPACE_TO_DEPTH1, DEPTH_TO_SPACE, DEPTH_TO_SPACE1
TABLES = OperatorTables(
    support=(  # D2S.6, the page's table
        SupportRow(FeatureLevel.FL_5_0, (4,), ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
        SupportRow(FeatureLevel.FL_1_0, (4,), types("FLOAT32, FLOAT16")),
    ),
    support_clause="D2S.6",
    dimension_count_clause="D2S.6",
    introduced=(FeatureLevel.FL_1_0, "D2S.6"),
    clause_prefix="D2S.",
)


@dataclass(frozen=True)
class DepthToSpaceDesc(BlockMover, JsonDescriptor):
    """Mirrors DML_DEPTH_TO_SPACE_OPERATOR_DESC: InputTensor, OutputTensor, BlockSize (UINT)."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    block_size: int

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "output_tensor": TENSOR}


DESCRIPTOR = DepthToSpaceDesc


# D2S.1: the depth split as [BlockHeight, BlockWidth, Channels], transposed into the blocks; the functions are
# the shared body of the four (oracle.depth_space.BlockOperator).
_FUNCTIONS = depth_space.BlockOperator(
    OPERATOR, TABLES, depth_space.TO_SPACE, "D2S.2", "D2S.3", "Input[n, (y % b * b + x % b) * C + c, y / b, x / b]"
)
validate = _FUNCTIONS.validate
unspecified = _FUNCTIONS.unspecified
index_maps = _FUNCTIONS.index_maps
compute = _FUNCTIONS.compute
compute_literal = _FUNCTIONS.compute_literal
explain = _FUNCTIONS.explain

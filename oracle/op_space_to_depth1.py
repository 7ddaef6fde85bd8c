"""DML_SPACE_TO_DEPTH1_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, S2D1.*).

BlockSize x BlockSize blocks of height and width moved into the depth, laid out as Order names
(DML_DEPTH_SPACE_ORDER): Output[n, depth(c, i, j), y, x] = Input[n, c, y * b + i, x * b + j].  The
output's sizes are {N, C * b * b, H / b, W / b}, not the page's formula (E-S2D-1).  The index map is
oracle.depth_space's: a reshape and a transpose.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import depth_space
from .checks import TensorDesc
from .depth_space import DEPTH_SPACE_ORDER, BlockMover, DepthSpaceOrder
from .descriptor_json import TENSOR, JsonDescriptor
from .tables import ALL_DATA_TYPES, FL30_TYPES, FeatureLevel, OperatorTables, SupportRow

OPERATOR = "SPACE_TO_DEPTH1"
PAGE_ORDER = 11  # issue 31's order: ... SPACE_TO_DEPTH, SPACE_TO_DEPTH1, DEPTH_TO_SPACE, DEPTH_TO_SPACE1
TABLES = OperatorTables(
    support=(  # S2D1.7, the page's table
        SupportRow(FeatureLevel.FL_5_0, (4,), ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
    ),
    support_clause="S2D1.7",
    dimension_count_clause="S2D1.7",
    introduced=(FeatureLevel.FL_2_1, "S2D1.7"),
    clause_prefix="S2D1.",
)


@dataclass(frozen=True)
class SpaceToDepth1Desc(BlockMover, JsonDescriptor):
    """Mirrors DML_SPACE_TO_DEPTH1_OPERATOR_DESC: InputTensor, OutputTensor, BlockSize (UINT), Order."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    block_size: int
    order: DepthSpaceOrder = DepthSpaceOrder.DEPTH_COLUMN_ROW

    operator = OPERATOR
    HAS_ORDER = True
    JSON_FIELDS = {"input_tensor": TENSOR, "output_tensor": TENSOR, "order": DEPTH_SPACE_ORDER}

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "order", DepthSpaceOrder.parse(self.order))


DESCRIPTOR = SpaceToDepth1Desc


# S2D1.1/S2D1.4: the blocks of space transposed into the depth as Order lays it out; the functions are the
# shared body of the four (oracle.depth_space.BlockOperator).
_FUNCTIONS = depth_space.BlockOperator(
    OPERATOR,
    TABLES,
    depth_space.TO_DEPTH,
    sizes_clause="S2D1.2",
    block_clause="S2D1.3",
    formula="Input[n, c, y * b + i, x * b + j] with k = depth(c, i, j)",
)
validate = _FUNCTIONS.validate
unspecified = _FUNCTIONS.unspecified
index_maps = _FUNCTIONS.index_maps
compute = _FUNCTIONS.compute
compute_literal = _FUNCTIONS.compute_literal
explain = _FUNCTIONS.explain

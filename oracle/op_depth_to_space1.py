"""DML_DEPTH_TO_SPACE1_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, D2S1.*).

Depth moved into BlockSize x BlockSize blocks of height and width, the depth read in the layout
Order names (DML_DEPTH_SPACE_ORDER): Output[n, c, y, x] = Input[n, depth(c, y % b, x % b), y / b, x / b].
The index map is oracle.depth_space's: a reshape and a transpose.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import depth_space
from .checks import TensorDesc
from .depth_space import DEPTH_SPACE_ORDER, BlockMover, DepthSpaceOrder
from .descriptor_json import TENSOR, JsonDescriptor
from .tables import ALL_DATA_TYPES, FL30_TYPES, FeatureLevel, OperatorTables, SupportRow

OPERATOR = "DEPTH_TO_SPACE1"
PAGE_ORDER = 13  # issue 31's order: ... SPACE_TO_DEPTH, SPACE_TO_DEPTH1, DEPTH_TO_SPACE, DEPTH_TO_SPACE1
TABLES = OperatorTables(
    support=(  # D2S1.7, the page's table
        SupportRow(FeatureLevel.FL_5_0, (4,), ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
    ),
    support_clause="D2S1.7",
    dimension_count_clause="D2S1.7",
    introduced=(FeatureLevel.FL_2_1, "D2S1.7"),
    clause_prefix="D2S1.",
)


@dataclass(frozen=True)
class DepthToSpace1Desc(BlockMover, JsonDescriptor):
    """Mirrors DML_DEPTH_TO_SPACE1_OPERATOR_DESC: InputTensor, OutputTensor, BlockSize (UINT), Order."""

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


DESCRIPTOR = DepthToSpace1Desc


# D2S1.1/D2S1.4: the depth split as Order lays it out, transposed into the blocks; the functions are the shared
# body of the four (oracle.depth_space.BlockOperator).
_FUNCTIONS = depth_space.BlockOperator(
    OPERATOR, TABLES, depth_space.TO_SPACE, "D2S1.2", "D2S1.3", "Input[n, depth(c, y % b, x % b), y / b, x / b]"
)
validate = _FUNCTIONS.validate
unspecified = _FUNCTIONS.unspecified
index_maps = _FUNCTIONS.index_maps
compute = _FUNCTIONS.compute
compute_literal = _FUNCTIONS.compute_literal
explain = _FUNCTIONS.explain

"""DML_DEPTH_TO_SPACE1_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, D2S1.*).

Depth moved into BlockSize x BlockSize blocks of height and width, the depth read in the layout
Order names (DML_DEPTH_SPACE_ORDER): Output[n, c, y, x] = Input[n, depth(c, y % b, x % b), y / b, x / b].
The index map is oracle.depth_space's: a reshape and a transpose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import core, depth_space
from .checks import TensorDesc, check_support
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


def validate(desc: DepthToSpace1Desc, feature_level: FeatureLevel) -> None:
    depth_space.check_tensors(desc)
    check_support(OPERATOR, TABLES, desc.tensors, desc.dimension_count, feature_level)
    depth_space.validate_to_space(desc, "D2S1.2", "D2S1.3")


def unspecified(desc: DepthToSpace1Desc) -> list[str]:
    return []


def index_maps(desc: DepthToSpace1Desc) -> depth_space.Regroup:
    """D2S1.1/D2S1.4: the depth split as Order lays it out, transposed into the blocks."""
    return depth_space.to_space(desc.order, desc.input_tensor.sizes, desc.block_size)


def compute(desc: DepthToSpace1Desc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    return [index_maps(desc).apply(x, desc.input_tensor.data_type)]


def compute_literal(desc: DepthToSpace1Desc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    source = depth_space.space_source
    return [core.copy_elementwise(x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, c))]


def explain(desc: DepthToSpace1Desc, inputs: Sequence[np.ndarray]) -> list[str]:
    formula = "Input[n, depth(c, y % b, x % b), y / b, x / b]"
    return depth_space.explain_lines(desc, inputs, depth_space.space_source, formula)

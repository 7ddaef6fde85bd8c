"""DML_SPACE_TO_DEPTH1_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, S2D1.*).

BlockSize x BlockSize blocks of height and width moved into the depth, laid out as Order names
(DML_DEPTH_SPACE_ORDER): Output[n, depth(c, i, j), y, x] = Input[n, c, y * b + i, x * b + j].  The
output's sizes are {N, C * b * b, H / b, W / b}, not the page's formula (E-S2D-1).  The index map is
oracle.depth_space's: a reshape and a transpose.
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


def validate(desc: SpaceToDepth1Desc, feature_level: FeatureLevel) -> None:
    depth_space.check_tensors(desc)
    check_support(OPERATOR, TABLES, desc.tensors, desc.dimension_count, feature_level)
    depth_space.validate_to_depth(desc, "S2D1.2", "S2D1.3")


def unspecified(desc: SpaceToDepth1Desc) -> list[str]:
    return []


def index_maps(desc: SpaceToDepth1Desc) -> depth_space.Regroup:
    """S2D1.1/S2D1.4: the blocks of space transposed into the depth as Order lays it out."""
    return depth_space.to_depth(desc.order, desc.input_tensor.sizes, desc.block_size)


def compute(desc: SpaceToDepth1Desc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    return [index_maps(desc).apply(x, desc.input_tensor.data_type)]


def compute_literal(desc: SpaceToDepth1Desc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    source = depth_space.depth_source
    return [core.copy_elementwise(x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, c))]


def explain(desc: SpaceToDepth1Desc, inputs: Sequence[np.ndarray]) -> list[str]:
    formula = "Input[n, c, y * b + i, x * b + j] with k = depth(c, i, j)"
    return depth_space.explain_lines(desc, inputs, depth_space.depth_source, formula)

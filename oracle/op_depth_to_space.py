"""DML_DEPTH_TO_SPACE_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, D2S.*).

DML_DEPTH_TO_SPACE1 with Order DEPTH_COLUMN_ROW (D2S1.4: the newer page's remarks say so), and no
Order field: the depth is [Batch, (BlockHeight, BlockWidth, Channels), Height, Width].  Everything
but the table and the clause ids is oracle.depth_space's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import core, depth_space
from .checks import TensorDesc, check_support
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


def validate(desc: DepthToSpaceDesc, feature_level: FeatureLevel) -> None:
    depth_space.check_tensors(desc)
    check_support(OPERATOR, TABLES, desc.tensors, desc.dimension_count, feature_level)
    depth_space.validate_to_space(desc, "D2S.2", "D2S.3")


def unspecified(desc: DepthToSpaceDesc) -> list[str]:
    return []


def index_maps(desc: DepthToSpaceDesc) -> depth_space.Regroup:
    """D2S.1: the depth split as [BlockHeight, BlockWidth, Channels], transposed into the blocks."""
    return depth_space.to_space(desc.order, desc.input_tensor.sizes, desc.block_size)


def compute(desc: DepthToSpaceDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    return [index_maps(desc).apply(x, desc.input_tensor.data_type)]


def compute_literal(desc: DepthToSpaceDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    source = depth_space.space_source
    return [core.copy_elementwise(x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, c))]


def explain(desc: DepthToSpaceDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    formula = "Input[n, (y % b * b + x % b) * C + c, y / b, x / b]"
    return depth_space.explain_lines(desc, inputs, depth_space.space_source, formula)

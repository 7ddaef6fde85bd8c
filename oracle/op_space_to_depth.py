"""DML_SPACE_TO_DEPTH_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, S2D.*).

DML_SPACE_TO_DEPTH1 with Order DEPTH_COLUMN_ROW (S2D1.4: the newer page's remarks say so), and no
Order field: the depth is [Batch, (BlockHeight, BlockWidth, Channels), Height, Width].  The output's
sizes are {N, C * b * b, H / b, W / b}, not the page's formula (E-S2D-1).  Everything but the table
and the clause ids is oracle.depth_space's.
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


def validate(desc: SpaceToDepthDesc, feature_level: FeatureLevel) -> None:
    depth_space.check_tensors(desc)
    check_support(OPERATOR, TABLES, desc.tensors, desc.dimension_count, feature_level)
    depth_space.validate_to_depth(desc, "S2D.2", "S2D.3")


def unspecified(desc: SpaceToDepthDesc) -> list[str]:
    return []


def index_maps(desc: SpaceToDepthDesc) -> depth_space.Regroup:
    """S2D.1: the blocks of space transposed into the depth as [BlockHeight, BlockWidth, Channels]."""
    return depth_space.to_depth(desc.order, desc.input_tensor.sizes, desc.block_size)


def compute(desc: SpaceToDepthDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    return [index_maps(desc).apply(x, desc.input_tensor.data_type)]


def compute_literal(desc: SpaceToDepthDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    source = depth_space.depth_source
    return [core.copy_elementwise(x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, c))]


def explain(desc: SpaceToDepthDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    formula = "Input[n, k % C, y * b + k / C / b, x * b + k / C % b]"
    return depth_space.explain_lines(desc, inputs, depth_space.depth_source, formula)

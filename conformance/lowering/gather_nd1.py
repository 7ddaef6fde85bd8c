"""DML_GATHER_ND1 -> ONNX GatherND (opset 13) with batch_dims: GATHER_ND's lowering (lowering.gather_nd), whose
batch_dims counts BatchDimensionCount after the ignored leading dimensions."""

from __future__ import annotations

from oracle import GatherNd1Desc

from .gather_nd import lower_gather_nd
from .graph import Lowering

OPERATOR = "GATHER_ND1"


def lower(desc: GatherNd1Desc) -> Lowering:
    return lower_gather_nd(desc)

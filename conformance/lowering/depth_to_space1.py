"""DML_DEPTH_TO_SPACE1 -> ONNX DepthToSpace (opset 13): Order DEPTH_COLUMN_ROW is mode DCR, COLUMN_ROW_DEPTH is
CRD (the same layouts, D2S1.4).  ONNX Runtime's DirectML provider runs it as DML_DEPTH_TO_SPACE1."""

from __future__ import annotations

from oracle import DepthToSpace1Desc, DepthToSpaceDesc

from .graph import Lowering

OPERATOR = "DEPTH_TO_SPACE1"


def lower(desc: DepthToSpace1Desc | DepthToSpaceDesc) -> Lowering:
    """Also the plain operator's lowering: its order is DEPTH_COLUMN_ROW (oracle.depth_space.BlockMover)."""
    return Lowering(
        "DepthToSpace",
        "DEPTH_TO_SPACE1",
        desc.output_tensor.data_type,
        desc.output_tensor.dimension_count,
        1,
        attributes={"blocksize": desc.block_size, "mode": desc.order.onnx_mode},
    )

"""DML_SPACE_TO_DEPTH1 -> ONNX SpaceToDepth (opset 13) for Order DEPTH_COLUMN_ROW (ONNX's one layout, its DCR);
ONNX Runtime's DirectML provider runs it as DML_SPACE_TO_DEPTH1.

COLUMN_ROW_DEPTH has no one-node ONNX form: SpaceToDepth has no mode attribute (DepthToSpace's CRD has no
SpaceToDepth twin), and the exact equivalents are compositions (Reshape, Transpose, Reshape; or DCR SpaceToDepth
then a channel Gather), so such a case is unsupported with that reason."""

from __future__ import annotations

from oracle import DepthSpaceOrder, SpaceToDepth1Desc, SpaceToDepthDesc

from .graph import Inexpressible, Lowering

OPERATOR = "SPACE_TO_DEPTH1"


def lower(desc: SpaceToDepth1Desc | SpaceToDepthDesc) -> Lowering:
    """Also the plain operator's lowering: its order is DEPTH_COLUMN_ROW (oracle.depth_space.BlockMover)."""
    if desc.order is not DepthSpaceOrder.DEPTH_COLUMN_ROW:
        raise Inexpressible(
            "SPACE_TO_DEPTH1 with Order COLUMN_ROW_DEPTH has no one-node ONNX form: ONNX SpaceToDepth has no mode "
            "(DCR only); CRD takes Reshape, Transpose and Reshape, a composition, not the operator"
        )
    return Lowering(
        "SpaceToDepth",
        "SPACE_TO_DEPTH1",
        desc.output_tensor.data_type,
        desc.output_tensor.dimension_count,
        1,
        attributes={"blocksize": desc.block_size},
    )

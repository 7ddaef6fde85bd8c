"""DML_SPACE_TO_DEPTH -> ONNX SpaceToDepth (opset 13), whose one layout is DEPTH_COLUMN_ROW's (ONNX's DCR:
S2D1.4 makes the two one); ONNX Runtime's DirectML provider runs it as DML_SPACE_TO_DEPTH1 with that order."""

from __future__ import annotations

from oracle import SpaceToDepthDesc

from .graph import Lowering

OPERATOR = "SPACE_TO_DEPTH"


def lower(desc: SpaceToDepthDesc) -> Lowering:
    return Lowering(
        "SpaceToDepth",
        "SPACE_TO_DEPTH1",
        desc.output_tensor.data_type,
        desc.output_tensor.dimension_count,
        1,
        attributes={"blocksize": desc.block_size},
    )

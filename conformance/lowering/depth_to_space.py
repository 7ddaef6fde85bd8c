"""DML_DEPTH_TO_SPACE -> ONNX DepthToSpace mode DCR (DEPTH_COLUMN_ROW: D2S1.4 makes them one); ONNX Runtime's
DirectML provider runs it as DML_DEPTH_TO_SPACE1."""

from __future__ import annotations

from oracle import DepthToSpaceDesc

from .graph import Lowering

OPERATOR = "DEPTH_TO_SPACE"


def lower(desc: DepthToSpaceDesc) -> Lowering:
    return Lowering(
        "DepthToSpace",
        "DEPTH_TO_SPACE1",
        desc.output_tensor.data_type,
        desc.output_tensor.dimension_count,
        1,
        attributes={"blocksize": desc.block_size, "mode": "DCR"},
    )

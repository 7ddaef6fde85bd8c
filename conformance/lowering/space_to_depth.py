"""DML_SPACE_TO_DEPTH -> ONNX SpaceToDepth (opset 13), whose one layout is DEPTH_COLUMN_ROW's (ONNX's DCR:
S2D1.4 makes the two one); ONNX Runtime's DirectML provider runs it as DML_SPACE_TO_DEPTH1 with that order."""

from __future__ import annotations

from . import space_to_depth1

OPERATOR = "SPACE_TO_DEPTH"

# SPACE_TO_DEPTH1's lowering: the plain descriptor is SPACE_TO_DEPTH1 with Order DEPTH_COLUMN_ROW, the same ONNX node.
lower = space_to_depth1.lower

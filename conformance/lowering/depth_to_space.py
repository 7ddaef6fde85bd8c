"""DML_DEPTH_TO_SPACE -> ONNX DepthToSpace mode DCR (DEPTH_COLUMN_ROW: D2S1.4 makes them one); ONNX Runtime's
DirectML provider runs it as DML_DEPTH_TO_SPACE1."""

from __future__ import annotations

from . import depth_to_space1

OPERATOR = "DEPTH_TO_SPACE"

# DEPTH_TO_SPACE1's lowering: the plain descriptor is DEPTH_TO_SPACE1 with Order DEPTH_COLUMN_ROW, the same ONNX node.
lower = depth_to_space1.lower

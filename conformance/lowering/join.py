"""DML_JOIN -> ONNX Concat along Axis (what ONNX Runtime's DirectML provider runs as DML_JOIN)."""

from __future__ import annotations

from oracle import JoinDesc

from .graph import Lowering

OPERATOR = "JOIN"


def lower(desc: JoinDesc) -> Lowering:
    return Lowering(
        "Concat",
        "JOIN",
        desc.output_tensor.data_type,
        desc.output_tensor.dimension_count,
        1,
        attributes={"axis": desc.axis},
        input_count=len(desc.input_tensors),
    )

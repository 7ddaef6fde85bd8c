"""DML_CAST -> ONNX Cast to the output's type (what ONNX Runtime's DirectML provider runs as DML_CAST)."""

from __future__ import annotations

from oracle import CastDesc

from .graph import Lowering, tensor_type

OPERATOR = "CAST"


def lower(desc: CastDesc) -> Lowering:
    out = desc.output_tensor.data_type
    return Lowering(
        "Cast",
        "CAST",
        desc.input_tensor.data_type,
        desc.output_tensor.dimension_count,
        1,
        attributes={"to": tensor_type(out.numpy)},
        output_data_type=out,
    )

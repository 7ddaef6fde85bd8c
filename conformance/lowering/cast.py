"""DML_CAST -> ONNX Cast to the output's type (what ONNX Runtime's DirectML provider runs as DML_CAST)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oracle import CastDesc

from ..support.lazy import lazy_import
from .graph import Lowering

if TYPE_CHECKING:
    import onnx
else:
    onnx = lazy_import("onnx")  # the run's own process imports this module, never builds a node

OPERATOR = "CAST"


def lower(desc: CastDesc) -> Lowering:
    out = desc.output_tensor.data_type
    return Lowering(
        "Cast",
        "CAST",
        desc.input_tensor.data_type,
        desc.output_tensor.dimension_count,
        1,
        attributes={"to": onnx.helper.np_dtype_to_tensor_dtype(out.numpy)},
        output_data_type=out,
    )

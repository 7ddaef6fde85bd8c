"""DML_FILL_VALUE_CONSTANT -> ONNX ConstantOfShape (opset 9, unchanged to the models' opset 13): the output's
sizes as its `input` (1-D INT64), Value as its one-element `value` attribute in the output's type, bit for bit;
what ONNX Runtime's DirectML provider runs as DML_FILL_VALUE_CONSTANT.  ConstantOfShape takes all eleven data
types, so every valid descriptor has this form (the value is an attribute: a session per distinct value)."""

from __future__ import annotations

import numpy as np

from oracle import FillValueConstantDesc

from .graph import Lowering, TensorAttribute, int64s

OPERATOR = "FILL_VALUE_CONSTANT"


def lower(desc: FillValueConstantDesc) -> Lowering:
    out = desc.output_tensor
    value = np.asarray(desc.value, dtype=out.data_type.numpy).reshape(1)
    return Lowering(
        "ConstantOfShape",
        "FILL_VALUE_CONSTANT",
        out.data_type,
        out.dimension_count,
        1,
        attributes={"value": TensorAttribute.of(value)},
        parameters={"input": int64s(out.sizes)},
        input_count=0,
    )

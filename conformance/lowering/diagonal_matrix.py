"""DML_DIAGONAL_MATRIX -> ONNX EyeLike (opset 9, unchanged to the models' opset 13): ones on the diagonal k of a
2-D tensor shaped like its input (a zeros tensor of the output's sizes and type, fed as a parameter), `k` the
Offset, `dtype` the output's type; what ONNX Runtime's DirectML provider runs as DML_DIAGONAL_MATRIX.

EyeLike writes 1 only and takes one 2-D matrix: so it is faithful where the output is 2-D (no batch: DIAG.1's
leading dimensions have no EyeLike form) and Value is 1.0; every other descriptor is unsupported, with the reason."""

from __future__ import annotations

import numpy as np

from oracle import DiagonalMatrixDesc

from .graph import Inexpressible, Lowering, tensor_type

OPERATOR = "DIAGONAL_MATRIX"


def lower(desc: DiagonalMatrixDesc) -> Lowering:
    out = desc.output_tensor
    if out.dimension_count != 2:
        raise Inexpressible(f"ONNX EyeLike makes one 2-D matrix: no rank-{out.dimension_count} output (a batch)")
    if float(desc.value) != 1.0:
        raise Inexpressible(f"ONNX EyeLike writes ones: Value {float(desc.value)!r} has no EyeLike form")
    return Lowering(
        "EyeLike",
        "DIAGONAL_MATRIX",
        out.data_type,
        2,
        1,
        attributes={"k": desc.offset, "dtype": tensor_type(out.data_type.numpy)},
        parameters={"like": np.zeros(out.sizes, dtype=out.data_type.numpy)},
        input_count=0,
    )

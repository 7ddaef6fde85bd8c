"""DML_DIAGONAL_MATRIX1 -> ONNX Trilu (opset 14) with an input, EyeLike (opset 9) without, only where one node means
the same; what ONNX Runtime's DirectML provider runs as DML_DIAGONAL_MATRIX1.

Trilu keeps the elements on and above diagonal k (upper=1) or on and below it (upper=0) of every matrix of a stack
and zeros the rest: so a band of Value 0 that covers every diagonal below k (DiagonalFillBegin at or under the
first diagonal, -(height - 1)) is Trilu upper with k = DiagonalFillEnd, and one that covers every diagonal above k
(DiagonalFillEnd past the last, at width or more) is Trilu lower with k = DiagonalFillBegin - 1.  Without an input, a
one-diagonal band [k, k + 1) of Value 1 on a 2-D output is EyeLike k.  Everything else is unsupported, with the
reason (the name of what ONNX lacks)."""

from __future__ import annotations

import numpy as np

from oracle import DiagonalMatrix1Desc
from oracle.op_padding1 import scalar_bits

from .graph import Inexpressible, Lowering, tensor_type

OPERATOR = "DIAGONAL_MATRIX1"
TRILU_OPSET = 14


def lower(desc: DiagonalMatrix1Desc) -> Lowering:
    out = desc.output_tensor
    height, width = out.sizes[-2], out.sizes[-1]
    begin, end = desc.diagonal_fill_begin, desc.diagonal_fill_end
    if desc.input_tensor is None:
        if out.dimension_count != 2 or end != begin + 1 or float(desc.value) != 1.0:
            raise Inexpressible(
                "without an input, ONNX has EyeLike only: one 2-D matrix, one diagonal (DiagonalFillEnd = "
                "DiagonalFillBegin + 1), Value 1"
            )
        return Lowering(
            "EyeLike",
            "DIAGONAL_MATRIX1",
            out.data_type,
            2,
            1,
            attributes={"k": begin, "dtype": tensor_type(out.data_type.numpy)},
            parameters={"like": np.zeros(out.sizes, dtype=out.data_type.numpy)},
            input_count=0,
        )
    if scalar_bits(desc.value) != 0 or begin > end:
        raise Inexpressible("ONNX Trilu zeros a triangle: a band of Value 0 (+0), not inverted, only")
    if begin <= -(height - 1):  # every diagonal below `end` is zeroed: keep the upper triangle from `end`
        upper, k = 1, end
    elif end >= width:  # every diagonal from `begin` up is zeroed: keep the lower triangle to `begin - 1`
        upper, k = 0, begin - 1
    else:
        raise Inexpressible("ONNX Trilu zeros everything below or above one diagonal: this band is neither")
    return Lowering(
        "Trilu",
        "DIAGONAL_MATRIX1",
        out.data_type,
        out.dimension_count,
        1,
        attributes={"upper": upper},
        parameters={"k": np.asarray(k, dtype=np.int64)},
        opset=TRILU_OPSET,
    )

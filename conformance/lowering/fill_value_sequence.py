"""DML_FILL_VALUE_SEQUENCE -> ONNX Range (opset 11, unchanged to the models' opset 13): `start`, `limit`, `delta`
as 0-d inputs of the output's type, giving ceil((limit - start) / delta) elements `start + i * delta`; what ONNX
Runtime's DirectML provider runs as DML_FILL_VALUE_SEQUENCE.

Range is faithful only where it means the same: a 1-D output (Range makes one axis); a type Range takes (FLOAT32,
INT16, INT32, INT64: not FLOAT16, INT8 nor the unsigned ones); a step other than 0 (Range then makes no element);
an integer sequence that stays inside its type up to `limit` (ONNX does not say how Range wraps, FILLS.3 does);
a float sequence whose running sum (the page's pseudocode) and closed form (Range's) agree on every element
(U-FILLS-1 leaves none open) and whose element count Range computes back exactly.  Every other descriptor is
unsupported, with the reason.
"""

from __future__ import annotations

import math

import numpy as np

from oracle import DataType, FillValueSequenceDesc
from oracle.op_fill_value_sequence import open_elements

from .graph import Inexpressible, Lowering

OPERATOR = "FILL_VALUE_SEQUENCE"

RANGE_TYPES = (DataType.FLOAT32, DataType.INT16, DataType.INT32, DataType.INT64)


def lower(desc: FillValueSequenceDesc) -> Lowering:
    out = desc.output_tensor
    dt = out.data_type
    if out.dimension_count != 1:
        raise Inexpressible(f"ONNX Range makes a 1-D sequence: no rank-{out.dimension_count} output")
    if dt not in RANGE_TYPES:
        raise Inexpressible(f"ONNX Range takes {', '.join(t.value for t in RANGE_TYPES)}: not {dt.value}")
    count = out.sizes[0]
    if dt.is_float:
        if bool(open_elements(desc).any()):
            raise Inexpressible(
                "ONNX Range computes start + i * delta; this float sequence's running sum (FILLS.1) differs from it "
                "(U-FILLS-1)"
            )
        start, delta = float(desc.value_start), float(desc.value_delta)
        limit = dt.numpy.type(start + count * delta)
        if delta == 0 or not math.isfinite(float(limit)) or math.ceil((float(limit) - start) / delta) != count:
            raise Inexpressible(f"ONNX Range cannot be given a limit that makes exactly {count} element(s)")
    else:
        start, delta = int(desc.value_start), int(desc.value_delta)
        info = np.iinfo(dt.numpy)
        if delta == 0:
            raise Inexpressible("ONNX Range makes no element for a step of 0")
        if not info.min <= start + count * delta <= info.max:
            raise Inexpressible(
                f"this {dt.value} sequence wraps (FILLS.3) or its limit leaves the type; ONNX Range does not say how "
                "it would wrap"
            )
        limit = dt.numpy.type(start + count * delta)
    typed = dt.numpy.type
    return Lowering(
        "Range",
        "FILL_VALUE_SEQUENCE",
        dt,
        1,
        1,
        parameters={
            "start": np.asarray(typed(start)),
            "limit": np.asarray(limit, dtype=dt.numpy),
            "delta": np.asarray(typed(delta)),
        },
        input_count=0,
    )

"""DML_PADDING -> ONNX Pad (constant, edge, reflect); SYMMETRIC has no ONNX form.

ONNX Pad takes its constant in the tensor's own type, and ORT's DirectML provider runs Pad
as DML_PADDING1 with a typed value.  So the float32 PaddingValue is converted here, with the
oracle's policy (oracle.convert_padding_value): through ONNX, the implementation's own
PaddingValue conversion (PAD.4, U-PAD-1..3) is never exercised, and results say so.
"""

from __future__ import annotations

import numpy as np

from oracle import PaddingDesc, PaddingMode, convert_padding_value

from .graph import Inexpressible, Lowering, int64s

OPERATOR = "PADDING"

ONNX_MODES = {PaddingMode.CONSTANT: "constant", PaddingMode.EDGE: "edge", PaddingMode.REFLECTION: "reflect"}


def lower(desc: PaddingDesc) -> Lowering:
    mode = ONNX_MODES.get(desc.padding_mode)
    if mode is None:
        raise Inexpressible(
            f"padding_mode={desc.padding_mode.value}: ONNX Pad has no symmetric mode "
            "(only constant, reflect, edge, wrap)"
        )
    data_type = desc.input_tensor.data_type
    parameters = {"pads": int64s([*desc.start_padding, *desc.end_padding])}
    notes: tuple[str, ...] = ()
    if desc.padding_mode is PaddingMode.CONSTANT:
        conversion = convert_padding_value(data_type, desc.padding_value)
        parameters["constant_value"] = np.asarray(conversion.value, dtype=data_type.numpy).reshape(())
        notes = (
            f"padding_value converted to {data_type.value} by the suite ({conversion.note}); DML_PADDING1 "
            "receives a typed value, so the implementation's PaddingValue conversion is not exercised",
        )
    return Lowering(
        "Pad",
        "PADDING1",
        data_type,
        desc.input_tensor.dimension_count,
        1,
        attributes={"mode": mode},
        parameters=parameters,
        notes=notes,
    )

"""DML_PADDING -> ONNX Pad (constant, edge, reflect; wrap at opset 19); SYMMETRIC has no ONNX form.

ONNX Pad takes its constant in the tensor's own type, and ORT's DirectML provider runs Pad
as DML_PADDING1 with a typed value.  So the float32 PaddingValue is converted here, with the
oracle's policy (oracle.convert_padding_value): through ONNX, the implementation's own
PaddingValue conversion (PAD.4, U-PAD-1..3) is never exercised, and results say so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from oracle import Padding1Desc, PaddingDesc, PaddingMode, convert_padding_value

from .graph import OPSET, WRAP_OPSET, Inexpressible, Lowering, int64s

OPERATOR = "PADDING"

ONNX_MODES = {
    PaddingMode.CONSTANT: "constant",
    PaddingMode.EDGE: "edge",
    PaddingMode.REFLECTION: "reflect",
    PaddingMode.WRAP: "wrap",  # Pad-19's wrap-around, the oracle's reading of WRAP (U-WRAP-1)
}


def onnx_mode(desc: PaddingDesc | Padding1Desc) -> str:
    """The ONNX Pad mode, or Inexpressible: ONNX Pad has no symmetric mode."""
    mode = ONNX_MODES.get(desc.padding_mode)
    if mode is None:
        raise Inexpressible(f"padding_mode={desc.padding_mode.value}: ONNX Pad has no symmetric mode")
    return mode


def lower(desc: PaddingDesc) -> Lowering:
    data_type = desc.input_tensor.data_type
    if desc.padding_mode is not PaddingMode.CONSTANT:
        return pad(desc, None)
    conversion = convert_padding_value(data_type, desc.padding_value)
    note = (
        f"padding_value converted to {data_type.value} by the suite ({conversion.note}); DML_PADDING1 "
        "receives a typed value, so the implementation's PaddingValue conversion is not exercised"
    )
    return pad(desc, conversion.value, (note,))


def pad(desc: PaddingDesc | Padding1Desc, constant_value: Any, notes: tuple[str, ...] = ()) -> Lowering:
    """The Pad node both padding operators lower to; `constant_value` (the tensor's type) for CONSTANT only."""
    mode = onnx_mode(desc)
    data_type = desc.input_tensor.data_type
    parameters = {"pads": int64s([*desc.start_padding, *desc.end_padding])}
    if desc.padding_mode is PaddingMode.CONSTANT:
        parameters["constant_value"] = np.asarray(constant_value, dtype=data_type.numpy).reshape(())
    return Lowering(
        "Pad",
        "PADDING1",
        data_type,
        desc.input_tensor.dimension_count,
        1,
        attributes={"mode": mode},
        parameters=parameters,
        notes=notes,
        opset=WRAP_OPSET if desc.padding_mode is PaddingMode.WRAP else OPSET,
    )

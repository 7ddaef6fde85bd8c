"""DML_SLICE -> ONNX Slice: Output[c] = Input[offsets + strides * c] is a forward slice per axis.

ends = offsets + strides * (sizes - 1) + 1 makes ONNX produce exactly `sizes` elements
(SLICE.4 keeps it within the input).  ORT's DirectML provider runs Slice as DML_SLICE1,
so a DML_SLICE case through ONNX Runtime exercises DML_SLICE1, never DML_SLICE itself.
"""

from __future__ import annotations

from oracle import SliceDesc

from .graph import Inexpressible, Lowering, onnx_slice

OPERATOR = "SLICE"


def lower(desc: SliceDesc) -> Lowering:
    starts, ends, steps = [], [], []
    for axis, (offset, size, stride) in enumerate(zip(desc.offsets, desc.sizes, desc.strides)):
        if size == 1:
            stride = 1  # one element is read whatever the stride (a stride of 0 included)
        elif stride == 0:
            # U-SLICE-1: DML_SLICE's UINT stride 0 repeats one element; ONNX Slice forbids step 0.
            raise Inexpressible(
                f"strides[{axis}]=0 with sizes[{axis}]={size} repeats one element (U-SLICE-1); "
                "ONNX Slice does not allow a step of 0"
            )
        starts.append(offset)
        ends.append(offset + stride * (size - 1) + 1)
        steps.append(stride)
    return onnx_slice(desc, starts, ends, steps)

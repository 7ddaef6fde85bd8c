"""DML_SLICE1 -> ONNX Slice: CopyStart + InputWindowStrides * c, negative strides as negative steps.

The end index is one step past the last element read.  For a backward slice that must
reach index 0 that is -1, which ONNX reads as "the last element" (an empty slice), so it
becomes INT64_MIN: clamped by ONNX to "before index 0".
"""

from __future__ import annotations

from oracle import Slice1Desc
from oracle.op_slice1 import copy_start  # SLICE1.2 as the oracle reads it (E-SLICE1-2 decided there, once)

from .graph import INT64_MIN, Lowering, onnx_slice

OPERATOR = "SLICE1"


def lower(desc: Slice1Desc) -> Lowering:
    starts, ends, steps = [], [], []
    for offset, size, stride, count in zip(
        desc.window_offsets, desc.window_sizes, desc.window_strides, desc.output_tensor.sizes
    ):
        start = copy_start(offset, size, stride)
        last = start + stride * (count - 1)
        if count == 1:
            stride = 1  # one element: the direction does not matter
        end = last + (1 if stride > 0 else -1)
        if end < 0:
            end = INT64_MIN  # -1 would mean "the last element" in ONNX
        starts.append(start)
        ends.append(end)
        steps.append(stride)
    return onnx_slice(desc, starts, ends, steps)

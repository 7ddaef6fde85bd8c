"""Judge output buffers byte by byte: the addressed elements, the padding inside TotalTensorSizeInBytes, the guard.

A backend with tensor layouts (Capabilities.tensor_layouts) returns each output's whole buffer, filled
with oracle.layout.OUTPUT_FILL before the run.  Three regions (docs/spec/beyond-seeds.md):
- the bytes the output's elements occupy: read through the strides and compared element by element,
  like any output (conformance.judging.compare);
- the padding bytes inside TotalTensorSizeInBytes: DirectML may write them (LAYOUT.4), so a write there
  is shown (U-LAYOUT-1), never failed;
- the guard after TotalTensorSizeInBytes: not the tensor's; a write there fails, naming the byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from oracle import TensorDesc, layout


@dataclass
class BufferJudgement:
    outputs: list[np.ndarray] = field(default_factory=list)  # read through the strides
    problems: list[str] = field(default_factory=list)  # failures: a guard written, a buffer of the wrong size
    padding: list[str] = field(default_factory=list)  # U-LAYOUT-1 observations


def judge_buffers(tensors: Sequence[TensorDesc], buffers: list[np.ndarray]) -> BufferJudgement:
    """Read each output (of the descs `tensors`) through its layout and check the bytes no element owns."""
    out = BufferJudgement()
    if len(buffers) != len(tensors):
        out.problems.append(f"expected {len(tensors)} output buffer(s), got {len(buffers)}")
        return out
    for j, (tensor, raw) in enumerate(zip(tensors, buffers)):
        buffer = np.asarray(raw)
        total = layout.total_size(tensor)
        if buffer.dtype != np.uint8 or buffer.ndim != 1 or buffer.size < total:
            out.problems.append(
                f"output {j}: the buffer is {buffer.dtype} {list(buffer.shape)}, expected uint8 bytes, at least "
                f"TotalTensorSizeInBytes={total}"
            )
            continue
        guard = np.flatnonzero(buffer[total:] != layout.OUTPUT_FILL)
        if guard.size:
            k = total + int(guard[0])
            out.problems.append(
                f"output {j}: byte {k} of its buffer was written (0x{layout.OUTPUT_FILL:02x} -> 0x{int(buffer[k]):02x}), "
                f"past TotalTensorSizeInBytes={total}: outside the tensor [LAYOUT.4]"
                + (f"; {guard.size} such byte(s)" if guard.size > 1 else "")
            )
        inside = buffer[:total]
        padding = np.flatnonzero(~layout.addressed(tensor) & (inside != layout.OUTPUT_FILL))
        if padding.size:
            k = int(padding[0])
            out.padding.append(
                f"output {j}: {padding.size} padding byte(s) inside TotalTensorSizeInBytes={total} written, first at "
                f"byte {k} (0x{layout.OUTPUT_FILL:02x} -> 0x{int(inside[k]):02x}; LAYOUT.4 allows it, U-LAYOUT-1)"
            )
        out.outputs.append(layout.unpack(inside, tensor))
    return out

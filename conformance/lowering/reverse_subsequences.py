"""DML_REVERSE_SUBSEQUENCES -> ONNX ReverseSequence (opset 10, unchanged since: the models' opset 13), where that one node means the same; ONNX Runtime's
DirectML provider runs it as DML_REVERSE_SUBSEQUENCES.

ReverseSequence reverses, along `time_axis` (0 or 1), the first sequence_lens[b] elements of each entry b along
`batch_axis` (the other of 0 and 1), every element past the first two axes alike; sequence_lens is 1-D INT64 with
one length per batch entry, each at most the time axis' size.  So the node is faithful exactly when Axis is 0 or
1 of a rank >= 2 input whose other axes past the first two have size 1: then DirectML's lengths tensor (the input's
sizes with 1 on Axis) holds one length per batch entry, fed reshaped to [B] and as INT64.  A length past the axis
is fed as the axis' size: REVSEQ.3 says DirectML behaves as if it were clamped, and ONNX takes no more.  Every
other descriptor is unsupported, with the reason.
"""

from __future__ import annotations

import numpy as np

from oracle import ReverseSubsequencesDesc

from .graph import Inexpressible, Lowering, SideInput

OPERATOR = "REVERSE_SUBSEQUENCES"


def lower(desc: ReverseSubsequencesDesc) -> Lowering:
    sizes, axis = desc.input_tensor.sizes, desc.axis
    rank = len(sizes)
    if rank < 2:
        raise Inexpressible("ONNX ReverseSequence takes a batch axis and a time axis: no 1-D input")
    if axis > 1:
        raise Inexpressible(f"ONNX ReverseSequence reverses along axis 0 or 1 (time_axis), not Axis={axis}")
    if any(n != 1 for n in sizes[2:]):
        raise Inexpressible(
            "ONNX ReverseSequence takes one length per batch entry: DirectML's lengths vary along the axes past "
            f"the first two too (sizes {list(sizes)})"
        )
    batch_axis = 1 - axis
    time = sizes[axis]

    def to_sequence_lens(lengths: np.ndarray) -> np.ndarray:
        clamped = np.minimum(np.asarray(lengths, dtype=np.uint64), np.uint64(time))  # REVSEQ.3
        return clamped.astype(np.int64).reshape(sizes[batch_axis])

    return Lowering(
        "ReverseSequence",
        "REVERSE_SUBSEQUENCES",
        desc.input_tensor.data_type,
        rank,
        1,
        attributes={"batch_axis": batch_axis, "time_axis": axis},
        notes=("lengths fed as INT64, one per batch entry, past the axis as its size (REVSEQ.3)",),
        side_inputs=(SideInput("sequence_lens", np.dtype(np.int64), (sizes[batch_axis],), to_sequence_lens),),
    )

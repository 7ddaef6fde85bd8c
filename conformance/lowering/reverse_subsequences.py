"""DML_REVERSE_SUBSEQUENCES -> ONNX ReverseSequence (opset 10), where that one node means the same.

ReverseSequence reverses along `time_axis` (0 or 1) the first sequence_lens[b] elements of each batch entry b
along `batch_axis` (the other of 0 and 1), its sequence_lens a 1-D INT64 tensor of the batch's size; ONNX
Runtime's CPU kernel refuses a length past the time axis, where DirectML clamps (REVSEQ.3).  A lengths tensor of
another shape or type is not a graph input's rewrite but a different operator, and a length's value cannot
decide a lowering (the graph is shared by every case of its signature): every descriptor is unsupported here,
with the reason, until the lowering carries a second input of its own type and shape.
"""

from __future__ import annotations

from oracle import ReverseSubsequencesDesc

from .graph import Inexpressible, Lowering

OPERATOR = "REVERSE_SUBSEQUENCES"


def lower(desc: ReverseSubsequencesDesc) -> Lowering:
    raise Inexpressible(
        "REVERSE_SUBSEQUENCES has no faithful one-node ONNX form here: ReverseSequence takes 1-D INT64 lengths per "
        "batch entry (DirectML: UINT32/UINT64, one per subsequence) and refuses lengths past the time axis, which "
        "DirectML clamps (REVSEQ.3)"
    )

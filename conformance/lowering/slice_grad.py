"""DML_SLICE_GRAD has no ONNX form: every case is unsupported on the ONNX Runtime backends, with the reason.

ONNX has no gradient operators in its default domain (training's are in ai.onnx.preview.training, with no Slice
gradient), and no single node writes a strided window into a zero tensor: ScatterND or ScatterElements would need
index tensors built per case, a composition, not the operator.
"""

from __future__ import annotations

from oracle import SliceGradDesc

from .graph import Inexpressible, Lowering

OPERATOR = "SLICE_GRAD"


def lower(desc: SliceGradDesc) -> Lowering:
    raise Inexpressible(
        "SLICE_GRAD has no ONNX form: ONNX defines no Slice gradient, and writing a strided window into zeros "
        "takes a ScatterND with per-case indices, not one operator"
    )

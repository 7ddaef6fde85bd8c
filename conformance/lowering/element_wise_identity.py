"""DML_ELEMENT_WISE_IDENTITY -> ONNX Identity (a copy: what ONNX Runtime's DirectML provider runs as
DML_ELEMENT_WISE_IDENTITY).  A ScaleBias has no one-node ONNX form (Mul then Add), and what it computes is
unspecified (U-IDENT-1): Inexpressible, with that reason."""

from __future__ import annotations

from oracle import IdentityDesc

from .graph import Inexpressible, Lowering

OPERATOR = "ELEMENT_WISE_IDENTITY"


def lower(desc: IdentityDesc) -> Lowering:
    if desc.scale_bias is not None:
        raise Inexpressible("ONNX has no one-node form of ScaleBias's x * Scale + Bias (U-IDENT-1: observed only)")
    return Lowering(
        "Identity",
        "ELEMENT_WISE_IDENTITY",
        desc.output_tensor.data_type,
        desc.output_tensor.dimension_count,
        1,
    )

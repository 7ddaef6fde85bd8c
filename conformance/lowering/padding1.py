"""DML_PADDING1 -> ONNX Pad (constant, edge, reflect), its typed value as Pad's constant_value, exactly.

What ONNX Runtime's DirectML provider turns every Pad into: this is the one lowering where the
case's own value reaches the implementation unconverted (PAD1.4), so a provider that converts
the constant on the way (through float32, say) is seen.
"""

from __future__ import annotations

from oracle import Padding1Desc

from .graph import Lowering
from .padding import pad

OPERATOR = "PADDING1"


def lower(desc: Padding1Desc) -> Lowering:
    return pad(desc, desc.padding_value)

"""DirectML descriptors lowered to one-node ONNX graphs: one module per operator, LOWERINGS names them.

Shared graph code is lowering/graph.py; the backends that run lowered graphs build on
conformance.backends.lowered (this package knows nothing of backends).
"""

from __future__ import annotations

from collections.abc import Callable

from oracle import Descriptor

from . import join, padding, padding1, slice1, split
from . import slice as slice_
from .graph import (
    DATA,
    INT64_MIN,
    IR_VERSION,
    OPSET,
    Inexpressible,
    Lowering,
    batch_prefix,
    build_batch_model,
    build_graph_model,
    build_graphs_model,
    build_model,
    int64s,
    onnx_slice,
)

__all__ = [
    "DATA",
    "INT64_MIN",
    "IR_VERSION",
    "LOWERINGS",
    "OPSET",
    "Inexpressible",
    "Lowering",
    "batch_prefix",
    "build_batch_model",
    "build_graph_model",
    "build_graphs_model",
    "build_model",
    "int64s",
    "lower",
    "onnx_slice",
]

# Operator -> its lowering (each module's `lower`, typed against its own descriptor class).
LOWERINGS: dict[str, Callable[..., Lowering]] = {
    slice_.OPERATOR: slice_.lower,
    slice1.OPERATOR: slice1.lower,
    padding.OPERATOR: padding.lower,
    split.OPERATOR: split.lower,
    padding1.OPERATOR: padding1.lower,
    join.OPERATOR: join.lower,
}


def lower(descriptor: Descriptor) -> Lowering:
    """The descriptor's ONNX form; raises Inexpressible with the reason when there is none."""
    try:
        lowering = LOWERINGS[descriptor.operator]
    except KeyError:
        raise Inexpressible(f"no ONNX lowering for DML_{descriptor.operator}") from None
    return lowering(descriptor)

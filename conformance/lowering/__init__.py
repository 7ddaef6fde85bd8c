"""DirectML descriptors lowered to one-node ONNX graphs: one module per operator, LOWERINGS names them.

Shared graph code is lowering/graph.py; the backends that run lowered graphs build on
conformance.backends.lowered (this package knows nothing of backends).
"""

from __future__ import annotations

from collections.abc import Callable

import oracle.registry
from oracle import Descriptor

from .graph import (
    DATA,
    INT64_MIN,
    IR_VERSION,
    OPSET,
    Inexpressible,
    Lowering,
    SideInput,
    TensorAttribute,
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
    "SideInput",
    "TensorAttribute",
    "batch_prefix",
    "build_batch_model",
    "build_graph_model",
    "build_graphs_model",
    "build_model",
    "int64s",
    "lower",
    "onnx_slice",
]

# Operator -> its lowering: the `lower` of its module here, named after it (slice1.py for SLICE1), found, not listed.
LOWERINGS: dict[str, Callable[..., Lowering]] = {
    operator: module.lower for operator, module in oracle.registry.layer_modules(__package__, "lowering").items()
}


def lower(descriptor: Descriptor) -> Lowering:
    """The descriptor's ONNX form; raises Inexpressible with the reason when there is none."""
    try:
        lowering = LOWERINGS[descriptor.operator]
    except KeyError:
        raise Inexpressible(f"no ONNX lowering for DML_{descriptor.operator}") from None
    return lowering(descriptor)

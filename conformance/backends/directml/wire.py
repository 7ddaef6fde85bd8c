"""What the directml backend sends its runner for a descriptor: the operator's DirectML struct, field for field
as the case states it, over DML_BUFFER_TENSOR_DESCs, and the input buffers; and which descriptors have no such
struct at all (a C struct cannot hold them).  The C++ reproducer (conformance.repro.cpp) writes the same
request out as a program."""

from __future__ import annotations

import numpy as np

import oracle
from oracle import Descriptor, FeatureLevel, TensorDesc, layout
from oracle.graph import GraphSpec

from .graph import graph_request

UINT_MAX = 2**32 - 1
INT_MIN, INT_MAX = -(2**31), 2**31 - 1


def tensor_desc(tensor: TensorDesc) -> dict:
    """The runner's DML_BUFFER_TENSOR_DESC: every field as the case states it (LAYOUT.*), the size as
    DMLCalcBufferTensorSize computes it when the case gives none."""
    out: dict = {
        "data_type": tensor.data_type.value,
        "sizes": list(tensor.sizes),
        "flags": tensor.flags,
        "total_size": layout.total_size(tensor),
        "alignment": tensor.guaranteed_base_offset_alignment,
    }
    if tensor.strides is not None:
        out["strides"] = list(tensor.strides)
    return out


def _count_and_axis(desc: Descriptor) -> str | None:
    """SPLIT's OutputCount and JOIN's InputCount: their tensor array is read that many entries long; Axis is UINT."""
    if isinstance(desc, oracle.SplitDesc):
        field, count, tensors, array = "output_count", desc.output_count, desc.output_tensors, "OutputTensors"
    elif isinstance(desc, oracle.JoinDesc):
        field, count, tensors, array = "input_count", desc.input_count, desc.input_tensors, "InputTensors"
    else:
        return None
    if count != len(tensors):
        return (
            f"{field}={count} but {array} has {len(tensors)} tensors: {array} is read "
            f"{array.replace('Tensors', 'Count')} entries long, so this descriptor has no C form"
        )
    if not 0 <= desc.axis <= UINT_MAX:
        return f"axis={desc.axis}, which a UINT field cannot hold"
    return None


def _uint_scalars(desc: Descriptor) -> str | None:
    """A UINT member the descriptor names in UINT_SCALARS (the depth-space family's BlockSize) out of range."""
    for name in getattr(desc, "UINT_SCALARS", ()):
        if not 0 <= getattr(desc, name) <= UINT_MAX:
            return f"{name}={getattr(desc, name)}, which a UINT field cannot hold"
    return None


def inexpressible(desc: Descriptor) -> str | None:
    """Why the descriptor has no faithful DirectML struct (a C struct has one DimensionCount for all
    its arrays, UINT fields cannot be negative), or None."""
    # The descriptor class names its arrays and which are UINT (SPLIT has none: only OutputTensors).
    uint_fields: tuple[str, ...] = getattr(desc, "UINT_ARRAYS", ())
    arrays = {name: getattr(desc, name) for name in getattr(desc, "ARRAYS", ())}
    count = desc.dimension_count
    for name, values in arrays.items():
        if len(values) != count:
            return (
                f"{name} has {len(values)} entries but DimensionCount={count}: the struct's arrays are read "
                "DimensionCount entries long, so this descriptor has no C form"
            )
    for name in uint_fields:
        bad = [v for v in getattr(desc, name) if not 0 <= v <= UINT_MAX]
        if bad:
            return f"{name} holds {bad[0]}, which a UINT field cannot hold"
    for name in [n for n in arrays if n not in uint_fields]:  # the rest are INT (SLICE1's and SLICE_GRAD's strides)
        bad = [v for v in arrays[name] if not INT_MIN <= v <= INT_MAX]
        if bad:
            return f"{name} holds {bad[0]}, which an INT field cannot hold"
    reason = _count_and_axis(desc) or _uint_scalars(desc)
    if reason:
        return reason
    for tensor in (*desc.input_tensors, *desc.output_tensors):
        if any(not 0 <= s <= UINT_MAX for s in tensor.sizes):
            return f"tensor sizes {list(tensor.sizes)} hold a value a UINT cannot hold"
        if tensor.strides is not None and len(tensor.strides) != tensor.dimension_count:
            return (
                f"strides {list(tensor.strides)} have {len(tensor.strides)} entries but the tensor has DimensionCount="
                f"{tensor.dimension_count}: Strides is read DimensionCount entries long, so this desc has no C form"
            )
        if tensor.strides is not None and any(not 0 <= s <= UINT_MAX for s in tensor.strides):
            return f"strides {list(tensor.strides)} hold a value a UINT cannot hold"
    return None


def request(desc: Descriptor, level: FeatureLevel, *, check_only: bool = False, graph: bool = False) -> dict:
    """The runner's request for one descriptor: the struct's fields as the case states them; with `graph`,
    the operator as the one node of a DML graph (--dml-path graph)."""
    if graph:
        return graph_request(GraphSpec.one_node(desc), level, tensor_desc, check_only=check_only)
    return {
        "op": "run",
        "operator": desc.operator,
        "min_feature_level": str(level),
        "check_only": check_only,
        "tensors": {
            "inputs": [tensor_desc(t) for t in desc.input_tensors],
            "outputs": [tensor_desc(t) for t in desc.output_tensors],
        },
        "fields": desc.struct_fields(),
    }


def input_payload(xs: list[np.ndarray], tensors: tuple[TensorDesc, ...]) -> bytes:
    """The inputs' buffers one after another, each TotalTensorSizeInBytes long, elements placed through the
    strides (the runner splits them so)."""
    return b"".join(layout.pack(x, tensor).tobytes() for x, tensor in zip(xs, tensors))

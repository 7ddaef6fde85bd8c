"""DML_ONE_HOT -> ONNX OneHot (opset 11, unchanged since), the indices, depth and values as its three inputs:
what ONNX Runtime's DirectML provider runs as DML_ONE_HOT.

OneHot's output has one axis more than its indices; DirectML's IndicesTensor has the output's rank with size 1
on Axis, so it is fed with that axis dropped, and `axis` is the same output axis.  The semantics match the page
wherever it speaks: an index inside [0, depth) puts on_value there (ONEHOT.1), a negative one counts from the end
(ONEHOT.3: ONNX's convention too), one at or past depth gives all off_value (ONEHOT.2, E-ONEHOT-1).  So that an
unsigned index past 2^63 is not read as a negative INT64, the indices are fed as INT64 with every unsigned value
past the axis fed as the axis' size (ignored either way).  A signed index below -depth is open on the page
(U-ONEHOT-1): ONNX gives all off_value there.  ValuesTensor's OffValue and OnValue are its elements 0 and 1 in
row-major order (ONEHOT.5): fed as OneHot's two-element `values`.  Every descriptor has this form but a 1-D one:
its indices without the axis would be a scalar, and OneHot takes indices of rank >= 1.
"""

from __future__ import annotations

import numpy as np

from oracle import OneHotDesc
from oracle.op_one_hot import SIGNED_INDICES

from .graph import Inexpressible, Lowering, SideInput

OPERATOR = "ONE_HOT"


def lower(desc: OneHotDesc) -> Lowering:
    if desc.output_tensor.dimension_count == 1:
        raise Inexpressible(
            "a 1-D ONE_HOT has no ONNX form: OneHot takes indices of rank >= 1, and its indices without the axis "
            "are a scalar"
        )
    axis = desc.axis
    depth = desc.output_tensor.sizes[axis]
    shape = tuple(n for d, n in enumerate(desc.indices_tensor.sizes) if d != axis)
    signed = desc.indices_tensor.data_type in SIGNED_INDICES

    def to_indices(indices: np.ndarray) -> np.ndarray:
        raw = np.asarray(indices)
        if signed:
            fed = raw.astype(np.int64)
        else:  # ONEHOT.2: past the axis is ignored; as INT64 a value past 2^63 would count from the end
            fed = np.minimum(raw.astype(np.uint64), np.uint64(depth)).astype(np.int64)
        return fed.reshape(shape)

    def to_values(values: np.ndarray) -> np.ndarray:
        return np.asarray(values).reshape(-1)[:2]  # ONEHOT.5: OffValue, OnValue

    return Lowering(
        "OneHot",
        "ONE_HOT",
        desc.output_tensor.data_type,
        desc.output_tensor.dimension_count,
        1,
        input_count=0,
        attributes={"axis": axis},
        parameters={"depth": np.asarray(depth, dtype=np.int64)},
        notes=("indices fed as INT64 without the Axis dimension; values as [OffValue, OnValue] (ONEHOT.5)",),
        side_inputs=(
            SideInput("indices", np.dtype(np.int64), shape, to_indices),
            SideInput("values", desc.values_tensor.data_type.numpy, (2,), to_values),
        ),
        node_inputs=("indices", "depth", "values"),
    )

"""DML_SCATTER (= DML_SCATTER_ELEMENTS) -> ONNX ScatterElements (opset 11; 13 adds types, 16 the `reduction`
attribute, whose default 'none' is this operator: the models' opset 13), where that one node means the same;
ONNX Runtime's DirectML provider runs it as DML_SCATTER.

ScatterElements(data, indices, updates, axis) writes updates[c] at c with c[axis] = indices[c], indices and updates
of one shape and data's rank, a negative index counting from the end (SCATTER.1, SCATTER.3): the descriptor's
meaning exactly, for every DML_SCATTER descriptor (SCATTER.2 is narrower than ONNX's shapes).  ONNX takes INT32 or
INT64 indices: DirectML's UINT32 and UINT64 are fed as INT64, exact for every index on the axis.  What differs
is in the VALUES: ONNX leaves duplicate indices undefined with reduction 'none' and refuses indices outside
[-s, s-1], where the page leaves both open (U-SCATTER-1, U-SCATTER-2): such a case's inputs are refused with
that reason (`Lowering.refuse`), every other one run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oracle import ScatterDesc
from oracle.op_scatter import open_elements, targets

from .graph import Lowering, SideInput

OPERATOR = "SCATTER"


def lower(desc: ScatterDesc) -> Lowering:
    sizes = desc.indices_tensor.sizes
    dt = desc.input_tensor.data_type

    def to_int64(indices: np.ndarray) -> np.ndarray:
        return np.asarray(indices).astype(np.int64)  # exact on the axis (the others are refused first)

    def refuse(xs: Sequence[np.ndarray]) -> str | None:
        indices = xs[1]
        _, inside = targets(desc, indices)
        if not inside.all():
            return (
                "ONNX ScatterElements refuses indices outside [-s, s-1] (U-SCATTER-2: the page leaves them open): "
                f"{int((~inside).sum())} of them on axis {desc.axis} of size {desc.input_tensor.sizes[desc.axis]}"
            )
        if open_elements(desc, indices).any():
            return (
                "ONNX ScatterElements leaves duplicate indices undefined with reduction 'none' (U-SCATTER-1: the "
                "page leaves which write lands open)"
            )
        return None

    return Lowering(
        "ScatterElements",
        "SCATTER",
        dt,
        desc.input_tensor.dimension_count,
        1,
        attributes={"axis": desc.axis},
        notes=(f"indices fed as INT64 ({desc.indices_tensor.data_type.value} in the case)",),
        side_inputs=(
            SideInput("indices", np.dtype(np.int64), tuple(sizes), to_int64),
            SideInput("updates", dt.numpy, tuple(sizes), lambda u: np.asarray(u)),
        ),
        refuse=refuse,
    )

"""DML_SCATTER_ND -> ONNX ScatterND (opset 11; 13 adds types, 16 the `reduction` attribute, whose default 'none' is
this operator: the models' opset 13), where that one node means the same; ONNX Runtime's DirectML provider runs it
as DML_SCATTER_ND.

ScatterND(data, indices, updates) writes updates[b, ...] into the slice of data its tuple indices[b, :] addresses:
DML_SCATTER_ND's meaning, once DirectML's ignored leading dimensions are accounted for.  The data keeps its rank,
so each tuple is fed with the input's ignored leading coordinates (all 0: those sizes are 1) in front, as INT64
(exact for every index inside; a negative one counted from the end first, SCATND.3), shaped as the tuples' batch
then the tuple; the updates are fed shaped as the batch then the slice.  What differs is in the values: ONNX
leaves duplicate tuples undefined with reduction 'none' and refuses indices out of bounds, where the page leaves
both open (U-SCATND-1, U-SCATND-2): such a case's inputs are refused with that reason (`Lowering.refuse`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oracle import ScatterNdDesc
from oracle.op_scatter_nd import _tuples, batch_sizes, open_elements, slice_sizes

from .graph import Lowering, SideInput

OPERATOR = "SCATTER_ND"


def lower(desc: ScatterNdDesc) -> Lowering:
    n = desc.input_tensor.dimension_count
    lead = n - desc.input_dimension_count
    batch, rest = batch_sizes(desc), slice_sizes(desc)
    dt = desc.input_tensor.data_type

    def to_int64(indices: np.ndarray) -> np.ndarray:
        at, _ = _tuples(desc, indices)  # negative coordinates counted from the end (the others are refused first)
        full = np.concatenate([np.zeros((len(at), lead), dtype=np.int64), at], axis=1)
        return full.reshape((*batch, lead + desc.tuple_size))

    def refuse(xs: Sequence[np.ndarray]) -> str | None:
        _, inside = _tuples(desc, xs[1])
        if not inside.all():
            return (
                "ONNX ScatterND refuses indices out of bounds (U-SCATND-2: the page leaves them open): "
                f"{int((~inside).sum())} tuple(s)"
            )
        if open_elements(desc, xs[1]).any():
            return "ONNX ScatterND leaves duplicate indices undefined with reduction 'none' (U-SCATND-1)"
        return None

    return Lowering(
        "ScatterND",
        "SCATTER_ND",
        dt,
        n,
        1,
        notes=(f"tuples fed as INT64 with {lead} leading 0 coordinate(s) ({desc.indices_tensor.data_type.value})",),
        side_inputs=(
            SideInput("indices", np.dtype(np.int64), (*batch, lead + desc.tuple_size), to_int64),
            SideInput("updates", dt.numpy, (*batch, *rest), lambda u: np.asarray(u).reshape((*batch, *rest))),
        ),
        refuse=refuse,
    )

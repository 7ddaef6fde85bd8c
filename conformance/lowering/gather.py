"""DML_GATHER -> ONNX Gather (opset 13), where that one node means the same; ONNX Runtime's DirectML provider
runs it as DML_GATHER.

ONNX Gather's output is data's sizes before `axis`, the whole shape of `indices`, data's sizes after it (rank
r + q - 1), and its indices are INT32 or INT64 in [-s, s - 1], negative counting from the end (GATHER.3's
reading).  So the node is faithful exactly when IndexDimensions is 1: the meaningful indices are 1-D, fed as
such, and the output's sizes are DirectML's with nothing right-aligned (with 0 or 2 and more, GATHER.5 crops or
adds leading ones a single node cannot).  INT32 and INT64 indices are fed in their own type (so that the
provider sees INT64 indices where the case has them: ONNX Runtime's Gather lowering refused those on some
releases), UINT32 and UINT64 as INT64.  An index out of range is an error in ONNX Runtime, where DirectML's page
leaves its value open (U-GATHER-1): such a case is unsupported, with the reason, never run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oracle import DataType, GatherDesc
from oracle import indices as index_values

from .graph import Inexpressible, Lowering, SideInput

OPERATOR = "GATHER"


def lower(desc: GatherDesc) -> Lowering:
    if desc.index_dimensions != 1:
        raise Inexpressible(
            f"ONNX Gather's output has rank r + q - 1: IndexDimensions={desc.index_dimensions} makes GATHER.5 crop or "
            "add leading ones, a reshape one node cannot do (only IndexDimensions 1 keeps the rank)"
        )
    it = desc.indices_tensor
    count = it.sizes[-1]
    n = desc.input_tensor.sizes[desc.axis]
    fed = np.dtype(np.int32) if it.data_type is DataType.INT32 else np.dtype(np.int64)

    def to_indices(x: np.ndarray) -> np.ndarray:
        return np.asarray(x).astype(fed).reshape(count)

    def refuse(xs: Sequence[np.ndarray]) -> str | None:
        _, bad = index_values.resolve(np.asarray(xs[1]), it.data_type, n)
        if not bad.any():
            return None
        return (
            f"ONNX Gather makes an index out of [-{n}, {n - 1}] an error (ONNX Runtime fails the run); DirectML's "
            f"page leaves its value open (U-GATHER-1): {int(bad.sum())} such index(es)"
        )

    return Lowering(
        "Gather",
        "GATHER",
        desc.input_tensor.data_type,
        desc.input_tensor.dimension_count,
        1,
        attributes={"axis": desc.axis},
        notes=(f"indices fed 1-D as {fed.name}",),
        side_inputs=(SideInput("indices", fed, (count,), to_indices),),
        refuse=refuse,
    )

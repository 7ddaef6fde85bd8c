"""DML_GATHER_ELEMENTS -> ONNX GatherElements (opset 13), which means the same: ONNX Runtime's DirectML provider
runs it as DML_GATHER_ELEMENTS.

GatherElements' `indices` has data's rank and its sizes off `axis` (ONNX lets them be smaller there; GELEM.2
wants them equal, so every valid descriptor fits), the output has the indices' sizes, and an index is INT32 or
INT64 in [-s, s - 1], negative counting from the end (GELEM.3's reading). INT32 indices are fed as INT32, the
other types as INT64. An index out of range is an error in ONNX Runtime, where DirectML's page says nothing of it
(U-GELEM-1): such a case is unsupported, with the reason, never run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oracle import DataType, GatherElementsDesc
from oracle import indices as index_values

from .graph import Lowering, SideInput

OPERATOR = "GATHER_ELEMENTS"


def lower(desc: GatherElementsDesc) -> Lowering:
    it = desc.indices_tensor
    n = desc.input_tensor.sizes[desc.axis]
    fed = np.dtype(np.int32) if it.data_type is DataType.INT32 else np.dtype(np.int64)

    def to_indices(x: np.ndarray) -> np.ndarray:
        return np.asarray(x).astype(fed).reshape(it.sizes)

    def refuse(xs: Sequence[np.ndarray]) -> str | None:
        _, bad = index_values.resolve(np.asarray(xs[1]), it.data_type, n)
        if not bad.any():
            return None
        return (
            f"ONNX GatherElements makes an index out of [-{n}, {n - 1}] an error (ONNX Runtime fails the run); "
            f"DirectML's page says nothing of it (U-GELEM-1): {int(bad.sum())} such index(es)"
        )

    return Lowering(
        "GatherElements",
        "GATHER_ELEMENTS",
        desc.input_tensor.data_type,
        desc.input_tensor.dimension_count,
        1,
        attributes={"axis": desc.axis},
        notes=(f"indices fed as {fed.name}",),
        side_inputs=(SideInput("indices", fed, tuple(it.sizes), to_indices),),
        refuse=refuse,
    )

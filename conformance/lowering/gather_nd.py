"""DML_GATHER_ND -> ONNX GatherND (opset 13, batch_dims 12+), where that one node means the same; ONNX Runtime's
DirectML provider runs it as DML_GATHER_ND1 (so GATHER_ND's cases reach DML_GATHER_ND1 that way). The body is
`lower_gather_nd`, shared with GATHER_ND1.

GatherND's batch_dims leading dimensions of data and indices are batches, each index tuple (the indices' last
dimension) picks a slice of the data's next dimensions, and the output is indices.shape[:-1] + the rest of data's.
DirectML's tensors carry the same tuples with leading ones: the node takes the data as it is, batch_dims the
ignored ones plus BatchDimensionCount, and the indices fed reshaped (a SideInput) so that GatherND's output is
DirectML's OutputTensor.Sizes exactly; where no reshape gives them, the descriptor is unsupported, with the
reason. ONNX takes INT64 indices only: any other IndicesTensor type is unsupported (a converted feed would not be
the descriptor DirectML runs). Negative indices count from the end in both (GND.6); an index out of range, open in
DirectML (U-GND-1), is an error in ONNX: it is fed as 0, and the elements its tuple writes stay open.
"""

from __future__ import annotations

import numpy as np

from oracle import DataType, GatherNdDesc
from oracle.gather_nd import GatherNdBase, meaningful

from .graph import Inexpressible, Lowering, SideInput

OPERATOR = "GATHER_ND"
MAX_RANK = 8  # DirectML's tensors' (a 9-D GatherND input is refused with E_INVALIDARG by ONNX Runtime's DML provider)


def lower_gather_nd(desc: GatherNdBase) -> Lowering:
    """GatherND with batch_dims = the input's ignored dimensions + BatchDimensionCount, its indices reshaped."""
    ind = desc.indices_tensor
    if ind.data_type is not DataType.INT64:
        raise Inexpressible(f"ONNX GatherND takes INT64 indices only, not {ind.data_type.value}")
    n, b, q = desc.dimension_count, desc.batch_count, desc.tuple_size
    ignored = n - desc.input_dimension_count
    batch_dims = ignored + b
    out = desc.output_tensor.sizes
    trail = desc.input_dimension_count - b - q
    x_batch = desc.input_tensor.sizes[:batch_dims]
    if out[:batch_dims] != x_batch:
        raise Inexpressible(
            f"GatherND's output starts with the data's {batch_dims} batch dimensions {list(x_batch)}; DirectML's "
            f"OutputTensor.Sizes {list(out)} do not"
        )
    fed = (*out[: n - trail], q)  # the data's batches, then the position dimensions, then the tuple
    if len(fed) > MAX_RANK:
        raise Inexpressible(
            f"GatherND's indices would need {len(fed)} dimensions (the output's {n} and the tuple's, no trailing "
            f"dimension copied): past the {MAX_RANK} that DirectML's tensors, which ONNX Runtime lowers them to, take"
        )
    indexed = meaningful(desc.input_tensor.sizes, desc.input_dimension_count)[b : b + q]

    def to_indices(indices: np.ndarray) -> np.ndarray:
        values = np.asarray(indices, dtype=np.int64).reshape(fed)
        sizes = np.asarray(indexed, dtype=np.int64)
        inside = np.all((values >= -sizes) & (values < sizes), axis=-1, keepdims=True)
        return np.where(inside, values, 0)  # U-GND-1: out of range fed as 0 (ONNX refuses it; the elements open)

    return Lowering(
        "GatherND",
        "GATHER_ND1",  # ORT's DirectML provider builds DML_GATHER_ND1 (BatchDimensionCount = batch_dims) for both
        desc.input_tensor.data_type,
        n,
        1,
        attributes={"batch_dims": batch_dims},
        notes=("indices fed reshaped to the output's leading sizes; an out-of-range tuple fed as 0 (U-GND-1)",),
        side_inputs=(SideInput("indices", np.dtype(np.int64), fed, to_indices),),
    )


def lower(desc: GatherNdDesc) -> Lowering:
    return lower_gather_nd(desc)

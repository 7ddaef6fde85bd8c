"""DML_SPLIT -> ONNX Split (opset 13: sizes as an input), one graph per axis and output count."""

from __future__ import annotations

from oracle import SplitDesc

from .graph import Lowering, int64s

OPERATOR = "SPLIT"


def lower(desc: SplitDesc) -> Lowering:
    sizes = [t.sizes[desc.axis] for t in desc.output_tensors]
    return Lowering(
        "Split",
        "SPLIT",
        desc.input_tensor.data_type,
        desc.input_tensor.dimension_count,
        len(desc.output_tensors),
        attributes={"axis": desc.axis},
        parameters={"split": int64s(sizes)},
    )

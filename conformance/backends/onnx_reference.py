"""`onnx-reference`: onnx.reference.ReferenceEvaluator (numpy) on the same lowered graphs.

A second, independent reading of the ONNX graphs: when ORT and the reference evaluator
disagree, the lowering is right and one runtime is not (or the reverse).
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator

from ..lowering import IR_VERSION, OPSET, Lowering
from .base import RunResult
from .lowered import LoweredGraphBackend, Runner


class OnnxReferenceBackend(LoweredGraphBackend):
    name = "onnx-reference"

    def versions(self) -> dict[str, str]:
        return {"onnx": onnx.__version__, "onnx_opset": str(OPSET), "onnx_ir_version": str(IR_VERSION)}

    def _compile(self, model: onnx.ModelProto) -> Runner:
        evaluator = ReferenceEvaluator(model)

        def run(feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            outputs = evaluator.run(None, feeds)
            if not isinstance(outputs, list):  # a list for output names None; a dict only for intermediate results
                raise TypeError(f"ReferenceEvaluator.run returned {type(outputs).__name__}, not a list")
            return outputs

        return run

    def _classify(self, error: Exception, phase: str, lowering: Lowering) -> RunResult:
        return RunResult.error(
            f"{self.name}: the reference evaluator failed to {phase} {lowering.onnx_operator} "
            f"({lowering.data_type.value}, rank {lowering.rank}): {type(error).__name__}: {error}"
        )

"""`onnx-reference`: onnx.reference.ReferenceEvaluator (numpy) on the same lowered graphs.

A second, independent reading of the ONNX graphs: when ORT and the reference evaluator
disagree, the lowering is right and one runtime is not (or the reverse).
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator

from oracle import Descriptor, FeatureLevel

from ..lowering import IR_VERSION, OPSET, Lowering
from .base import RunResult
from .lowered import LoweredGraphBackend, Runner


def one_hot_arithmetic(lowering: Lowering, inputs: list[np.ndarray], parameters_as_inputs: bool) -> str | None:
    """Why the reference evaluator's OneHot cannot give this case's values, or None.  It does not select: it
    computes `hot * (on - off) + off` in the values' type, which is on and off bit for bit only where that
    arithmetic is exact (not for an infinite or NaN value, a difference that rounds or overflows, or -0.0)."""
    values = np.asarray(lowering.feeds(inputs, parameters_as_inputs)["values"])
    off, on = values[0:1], values[1:2]
    with np.errstate(all="ignore"):
        got = [np.asarray(hot, dtype=values.dtype) * (on - off) + off for hot in (0, 1)]
    if all(g.tobytes() == want.tobytes() for g, want in zip(got, (off, on))):
        return None
    return (
        f"onnx.reference's OneHot computes hot * (on - off) + off, not a select: OffValue {off[0]!r} and "
        f"OnValue {on[0]!r} do not come back bit for bit"
    )


class OnnxReferenceBackend(LoweredGraphBackend):
    name = "onnx-reference"

    def versions(self) -> dict[str, str]:
        return {"onnx": onnx.__version__, "onnx_opset": str(OPSET), "onnx_ir_version": str(IR_VERSION)}

    def run(self, descriptor: Descriptor, inputs: list[np.ndarray], feature_level: FeatureLevel) -> RunResult:
        lowering = self.lower(descriptor)
        if not isinstance(lowering, RunResult) and lowering.onnx_operator == "OneHot":
            try:
                reason = one_hot_arithmetic(lowering, inputs, self.parameters_as_inputs)
            except (ValueError, KeyError):  # inputs that do not fit the lowering: run() reports them
                reason = None
            if reason is not None and self.unsupported_reason(descriptor, feature_level) is None:
                return RunResult.unsupported(f"{self.name}: {reason}")
        return super().run(descriptor, inputs, feature_level)

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

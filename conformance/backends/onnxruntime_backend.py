"""ONNX Runtime's CPU provider: the lowered graphs, one session per graph signature (the fast CPU path).

ONNX Runtime's DirectML provider is its own backend (onnxruntime_directml.py): batched models on a
worker that shares one DirectML device, on Windows and under Wine alike.
"""

from __future__ import annotations

import os
import re
import tempfile

import numpy as np
import onnx
from packaging.version import Version

from oracle import Descriptor, FeatureLevel, PaddingMode

from ..lowering import IR_VERSION, OPSET, Lowering
from .base import BackendUnavailable, RunResult
from .lowered import LoweredGraphBackend, Runner

CPU = "CPUExecutionProvider"
DML = "DmlExecutionProvider"
DISABLE_CPU_FALLBACK = "session.disable_cpu_ep_fallback"

# Failures that are known limits of ONNX Runtime, not wrong answers: reported unsupported with
# ORT's own message and the rule that explains it.
NO_KERNEL = re.compile(r"NOT_IMPLEMENTED|Could not find an implementation")
KNOWN_LIMITS: list[tuple[re.Pattern[str], str]] = [
    (NO_KERNEL, "ONNX Runtime has no kernel for this operator and data type on {provider}"),
    (
        re.compile(r"Pad reflect: (pre|post)-pad \(\d+\) exceeds maximum allowed"),
        "ONNX Runtime's reflect Pad needs every pad < the dimension's size (no periodic folding, PAD.3)",
    ),
    (
        re.compile(r"Pad reflect requires axis length >= 2"),
        "ONNX Runtime's reflect Pad needs a padded axis of size >= 2 (reflecting a size-1 axis is U-PAD-4)",
    ),
    (
        re.compile(r"fallback to CPU EP has been explicitly disabled"),
        "a node would run on the CPU, not on {provider}: refused, never reported as a {provider} result",
    ),
]


def _import_ort():
    try:
        import onnxruntime
    except ImportError as e:
        raise BackendUnavailable(
            "ONNX Runtime is not installed: `pip install onnxruntime` (CPU, any platform) or "
            "`pip install onnxruntime-directml` (Windows 10/11 with a DirectX 12 GPU), never both"
        ) from e
    return onnxruntime


class OnnxRuntimeBackend(LoweredGraphBackend):
    """The lowered graphs on one ONNX Runtime execution provider, with nothing else allowed to run them."""

    name = "onnxruntime"

    def __init__(self, provider: str = CPU, *, cache: bool = True, parameters_as_inputs: bool = True, threads: int = 1):
        super().__init__(cache=cache, parameters_as_inputs=parameters_as_inputs)
        self.ort = _import_ort()
        self.provider = provider
        self.threads = threads

    def versions(self) -> dict[str, str]:
        return {
            "onnxruntime": self.ort.__version__,
            "provider": self.provider,
            "onnx": onnx.__version__,
            "onnx_opset": str(OPSET),
            "onnx_ir_version": str(IR_VERSION),
        }

    def session_options(self):
        options = self.ort.SessionOptions()
        # One thread: the cases are tiny, and thread pools cost more than they save here.
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 4  # failures are reported through RunResult, not stderr
        # No graph optimisation: the node runs as lowered (nothing folded or fused away), and a session of
        # a one-node graph is made in about half the time (0.23 ms against 0.40 on the CPU provider).
        options.graph_optimization_level = self.ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        if self.provider != CPU:
            # Only the chosen provider may run a node: with CPU fallback disabled, session creation
            # fails instead of quietly placing a node on the CPU provider.  (ORT refuses this entry
            # when the CPU provider is the one asked for: "Conflicting session configuration".)
            options.add_session_config_entry(DISABLE_CPU_FALLBACK, "1")
        return options

    def _compile(self, model: onnx.ModelProto) -> Runner:
        options = self.session_options()
        node = model.graph.node[0]
        added: list[str] = []
        if model.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.FLOAT16:
            # The graph ORT really runs: lacking a FLOAT16 kernel, ORT wraps the node in Casts to
            # float32 and back (CPU Pad does), which changes what a result means.  Checked for
            # FLOAT16 only: writing the optimized model costs more than the session itself.
            with tempfile.TemporaryDirectory() as folder:
                options.optimized_model_filepath = os.path.join(folder, "optimized.onnx")
                session = self.ort.InferenceSession(model.SerializeToString(), options, providers=[self.provider])
                added = [
                    n.op_type
                    for n in onnx.load(options.optimized_model_filepath).graph.node
                    if n.op_type != node.op_type
                ]
        else:
            session = self.ort.InferenceSession(model.SerializeToString(), options, providers=[self.provider])

        def run(feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            return session.run(None, feeds)

        if added:
            # A function attribute: LoweredGraphBackend reads it with getattr (Runner is a plain callable).
            run.notes = (  # type: ignore[attr-defined]
                f"ONNX Runtime ran {node.op_type} between inserted {', '.join(added)} nodes "
                f"({self.provider} has no FLOAT16 kernel): the values went through float32",
            )
        return run

    def _classify(self, error: Exception, phase: str, lowering: Lowering) -> RunResult:
        message = str(error).strip()
        for pattern, rule in KNOWN_LIMITS:
            if pattern.search(message):
                return RunResult.unsupported(f"{self.name}: {rule.format(provider=self.provider)}: {message}")
        return RunResult.error(
            f"{self.name}: ONNX Runtime failed to {phase} {lowering.onnx_operator} "
            f"({lowering.data_type.value}, rank {lowering.rank}): {message}"
        )


# ONNX Runtime's CPU Pad 'wrap' was reported wrong where a pad exceeds its axis (microsoft/onnxruntime pull
# request 32725, "Fix CPU Pad wrap for large padding"). 1.32.0 measured right (every type, ranks 1-8, pads to
# 3 x the axis); an older release runs such pads only where the pad fits its axis.
WRAP_PAST_AXIS_RIGHT_FROM = Version("1.32")


def wrap_past_axis(descriptor: Descriptor) -> bool:
    """A WRAP padding with a pad larger than its axis (DML_PADDING or DML_PADDING1)."""
    if getattr(descriptor, "padding_mode", None) is not PaddingMode.WRAP:
        return False
    pads = zip(descriptor.start_padding, descriptor.end_padding, descriptor.input_tensor.sizes)  # type: ignore[union-attr]
    return any(s > n or e > n for s, e, n in pads)


class OnnxRuntimeCpuBackend(OnnxRuntimeBackend):
    name = "onnxruntime-cpu"
    tensor_copies = 1.0  # the session's output, copied into the numpy array run() returns

    def __init__(self, **kw):
        super().__init__(CPU, **kw)

    def unsupported_reason(self, descriptor: Descriptor, feature_level: FeatureLevel) -> str | None:
        reason = super().unsupported_reason(descriptor, feature_level)
        if reason is None and wrap_past_axis(descriptor) and Version(self.ort.__version__) < WRAP_PAST_AXIS_RIGHT_FROM:
            return (
                f"{self.name}: ONNX Runtime {self.ort.__version__}'s CPU Pad 'wrap' is reported wrong where a pad "
                "exceeds its axis (microsoft/onnxruntime pull request 32725); 1.32 measured right"
            )
        return reason

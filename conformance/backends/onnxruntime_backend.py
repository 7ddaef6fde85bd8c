"""ONNX Runtime backends: the lowered graphs on the CPU provider, or on DirectML.

One class, parameterised by the execution provider.  The DirectML-specific parts are only
the provider choice and its checks: selecting it fails at once on a machine without it,
and a session is created with DmlExecutionProvider alone and CPU fallback disabled, so a
node that DirectML will not take makes session creation fail (reported unsupported, with
ORT's message) instead of silently running on the CPU and passing.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx

from oracle import Descriptor

from ..lowering import IR_VERSION, OPSET, LoweredGraphBackend, Lowering, Runner
from .base import BackendUnavailable, RunResult

CPU = "CPUExecutionProvider"
DML = "DmlExecutionProvider"
DISABLE_CPU_FALLBACK = "session.disable_cpu_ep_fallback"

# Failures that are known limits of ONNX Runtime, not wrong answers: reported unsupported with
# ORT's own message and the rule that explains it.
KNOWN_LIMITS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"NOT_IMPLEMENTED|Could not find an implementation"),
     "ONNX Runtime has no kernel for this operator and data type on {provider}"),
    (re.compile(r"Pad reflect: (pre|post)-pad \(\d+\) exceeds maximum allowed"),
     "ONNX Runtime's reflect Pad needs every pad < the dimension's size (no periodic folding, PAD.3)"),
    (re.compile(r"Pad reflect requires axis length >= 2"),
     "ONNX Runtime's reflect Pad needs a padded axis of size >= 2 (reflecting a size-1 axis is U-PAD-4)"),
    (re.compile(r"fallback to CPU EP has been explicitly disabled"),
     "a node would run on the CPU, not on {provider}: refused, never reported as a {provider} result"),
]

INSTALL_DIRECTML = (
    "install it with `pip install onnxruntime-directml` on Windows 10/11 (x64) with a DirectX 12 capable GPU; "
    "uninstall `onnxruntime` first: onnxruntime and onnxruntime-directml ship the same module and must not be "
    "installed together"
)


def _import_ort():
    try:
        import onnxruntime
    except ImportError as e:
        raise BackendUnavailable(
            "ONNX Runtime is not installed: `pip install onnxruntime` (CPU, any platform) or "
            "`pip install onnxruntime-directml` (Windows 10/11 with a DirectX 12 GPU), never both") from e
    return onnxruntime


class OnnxRuntimeBackend(LoweredGraphBackend):
    """The lowered graphs on one ONNX Runtime execution provider, with nothing else allowed to run them."""

    name = "onnxruntime"

    def __init__(self, provider: str = CPU, *, cache: bool = True, parameters_as_inputs: bool = True,
                 threads: int = 1):
        super().__init__(cache=cache, parameters_as_inputs=parameters_as_inputs)
        self.ort = _import_ort()
        self.provider = provider
        self.threads = threads

    def versions(self) -> dict[str, str]:
        return {"onnxruntime": self.ort.__version__, "provider": self.provider, "onnx": onnx.__version__,
                "onnx_opset": str(OPSET), "onnx_ir_version": str(IR_VERSION)}

    def session_options(self):
        options = self.ort.SessionOptions()
        # One thread: the cases are tiny, and thread pools cost more than they save here.
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 4  # failures are reported through RunResult, not stderr
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
                added = [n.op_type for n in onnx.load(options.optimized_model_filepath).graph.node
                         if n.op_type != node.op_type]
        else:
            session = self.ort.InferenceSession(model.SerializeToString(), options, providers=[self.provider])

        def run(feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            return session.run(None, feeds)

        if added:
            run.notes = (f"ONNX Runtime ran {node.op_type} between inserted {', '.join(added)} nodes "  # type: ignore[attr-defined]
                         f"({self.provider} has no FLOAT16 kernel): the values went through float32",)
        return run

    def _classify(self, error: Exception, phase: str, lowering: Lowering) -> RunResult:
        message = str(error).strip()
        for pattern, rule in KNOWN_LIMITS:
            if pattern.search(message):
                return RunResult.unsupported(f"{self.name}: {rule.format(provider=self.provider)}: {message}")
        return RunResult.error(f"{self.name}: ONNX Runtime failed to {phase} {lowering.onnx_operator} "
                               f"({lowering.data_type.value}, rank {lowering.rank}): {message}")


class OnnxRuntimeCpuBackend(OnnxRuntimeBackend):
    name = "onnxruntime-cpu"

    def __init__(self, **kw):
        super().__init__(CPU, **kw)


def _directml_version(ort_module) -> str:
    """The file version of the DirectML.dll that onnxruntime-directml loads (Windows only)."""
    dll = Path(ort_module.__file__).parent / "capi" / "DirectML.dll"
    if sys.platform != "win32" or not dll.is_file():
        return "unknown"
    try:
        version = ctypes.windll.version  # type: ignore[attr-defined]
        size = version.GetFileVersionInfoSizeW(str(dll), None)
        buffer = ctypes.create_string_buffer(size)
        version.GetFileVersionInfoW(str(dll), 0, size, buffer)
        info, length = ctypes.c_void_p(), ctypes.c_uint()
        version.VerQueryValueW(buffer, "\\", ctypes.byref(info), ctypes.byref(length))
        words = ctypes.cast(info, ctypes.POINTER(ctypes.c_uint32 * 4)).contents
        return f"{words[2] >> 16}.{words[2] & 0xFFFF}.{words[3] >> 16}.{words[3] & 0xFFFF}"
    except (OSError, AttributeError, ValueError):
        return f"unknown ({dll})"


class OnnxRuntimeDirectMLBackend(OnnxRuntimeBackend):
    """ORT's DmlExecutionProvider alone.  `provider` and `platform` exist so tests can run this code on the CPU."""

    name = "onnxruntime-directml"

    def __init__(self, *, provider: str = DML, platform: str = sys.platform, **kw):
        super().__init__(provider, **kw)
        if platform != "win32":
            raise BackendUnavailable(
                f"onnxruntime-directml needs Windows; this is {platform}. Run it on Windows: {INSTALL_DIRECTML}")
        available = self.ort.get_available_providers()
        if provider not in available:
            raise BackendUnavailable(
                f"ONNX Runtime {self.ort.__version__} here offers {', '.join(available)}, not {provider}: "
                f"{INSTALL_DIRECTML}")

    def session_options(self):
        options = super().session_options()
        if self.provider == DML:
            # The DirectML provider requires both (ORT's DirectML execution provider docs).
            options.enable_mem_pattern = False
            options.execution_mode = self.ort.ExecutionMode.ORT_SEQUENTIAL
        return options

    def versions(self) -> dict[str, str]:
        return {**super().versions(), "directml": _directml_version(self.ort)}

    def _reached(self, descriptor: Descriptor, lowering: Lowering) -> str | None:
        """DirectML's operator for the node, when it is not the case's own (Slice -> SLICE1, Pad -> PADDING1)."""
        return None if lowering.dml_operator == descriptor.operator else lowering.dml_operator

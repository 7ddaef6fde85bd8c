"""`repro --onnx DIR`: the one-node ONNX model the suite's lowering built for a case, its inputs and the oracle's
outputs as ONNX TensorProto files (test_data_set_0/input_0.pb, output_0.pb, as ONNX's node tests store them),
and run_onnx.py (conformance/repro/ort_script.py with the case written in), which runs it on ONNX Runtime's
DirectML provider as the `onnxruntime-directml` backend does and compares bytes: the form DirectML's
maintainers ask for in ONNX Runtime's tracker.

The model is conformance.lowering's, with the parameters baked in as initializers, as the backend's batch
models have them; a case the backend reports unsupported before any session (no ONNX form, a tensor layout,
SYMMETRIC, an invalid descriptor) has no reproducer here: ReproError with the reason.
"""

from __future__ import annotations

import pprint
import re
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

import oracle
from oracle import FeatureLevel

from ..backends.base import Backend, Capabilities
from ..backends.onnxruntime_backend import KNOWN_LIMITS
from ..backends.onnxruntime_directml import GRAPH_OPTIMIZATION_LEVELS, ONNX_SYMMETRIC_FREE, SessionSettings
from ..lowering import Inexpressible, Lowering, build_model, lower
from ..support.outputs import write_atomic
from . import ReproError
from .target import Target

SCRIPT = "run_onnx.py"
TEMPLATE = Path(__file__).with_name("ort_script.py")
CASE_LINE = "CASE: dict = {}  # the case and the session settings: written in by dml-conformance\n"
FILES = ("model.onnx", SCRIPT, "test_data_set_0")
PROVIDER = "DmlExecutionProvider"


class _OrtDirectMLCapabilities(Backend):
    """What the onnxruntime-directml backend can express whatever the device: it reports the rest unsupported
    before any session (its data types come from the device; the script meets those as ORT's refusal)."""

    name = "onnxruntime-directml"

    def capabilities(self) -> Capabilities:
        return Capabilities(padding_modes=ONNX_SYMMETRIC_FREE, feature_level=max(FeatureLevel))

    def run(self, descriptor, inputs, feature_level):  # never run: it only answers unsupported_reason
        raise NotImplementedError


def settings_of(target: Target) -> SessionSettings:
    """The run's session settings (its --ort-graph-optimization and --ort-dml-graph-fusion), else the backend's
    defaults."""
    options = target.header.backend_options if target.header else {}
    optimization = str(options.get("graph_optimization") or "all")
    if optimization not in GRAPH_OPTIMIZATION_LEVELS:
        raise ReproError(
            f"--results: graph_optimization={optimization!r} is not one of {', '.join(GRAPH_OPTIMIZATION_LEVELS)}"
        )
    return SessionSettings(optimization, str(options.get("dml_graph_fusion") or "on") == "on")


def script(target: Target, settings: SessionSettings, lowering: Lowering, device_id: int) -> str:
    """run_onnx.py: the template with CASE written in (the case, its data names, the run's session settings)."""
    case = target.case
    values = {
        "id": case.id,
        "summary": f"{case.id} (DML_{case.operator}, {case.data_type.value}, rank {case.rank}; ONNX "
        f"{lowering.onnx_operator}, which ONNX Runtime runs as DML_{lowering.dml_operator})",
        "inputs": [*lowering.data_names, *(side.name for side in lowering.side_inputs)],
        "graph_optimization_level": settings.level,
        "dml_graph_fusion": settings.dml_graph_fusion,
        "device_id": device_id,
        "unspecified": list(case.unspecified),
        "known_limits": [[p.pattern, rule.format(provider=PROVIDER)] for p, rule in KNOWN_LIMITS],
    }
    text = TEMPLATE.read_text()
    if text.count(CASE_LINE) != 1:
        raise ReproError(f"{TEMPLATE}: expected one line {CASE_LINE.strip()!r}")
    return text.replace(CASE_LINE, f"CASE: dict = {pprint.pformat(values, width=110, sort_dicts=False)}\n")


def write_onnx(target: Target, directory: Path, *, device_id: int = 0) -> list[Path]:
    """Write the folder; returns the files written.  Nothing is written for a case with no ONNX form."""
    case = target.case
    if not case.valid:
        raise ReproError(
            f"{case.id} is an invalid descriptor: an ONNX model cannot state it, so the onnxruntime-directml backend "
            "cannot observe its validation (U-ALL-2); reproduce it with --cpp"
        )
    try:
        lowering = lower(case.descriptor)
    except Inexpressible as e:
        raise ReproError(f"the lowering cannot express {case.id}: {e}") from None
    reason = Backend.unsupported_reason(_OrtDirectMLCapabilities(), case.descriptor, case.feature_level)
    if reason:
        raise ReproError(f"{case.id}: the onnxruntime-directml backend reports it unsupported: {reason}")
    model = build_model(lowering, parameters_as_inputs=False)
    data = directory / "test_data_set_0"
    data.mkdir(parents=True, exist_ok=True)
    # Each file whole (conformance.support.outputs); the script's CASE line is the folder's marker.
    written = [write_atomic(directory / "model.onnx", model.SerializeToString())]
    tensors: dict[str, onnx.TensorProto] = {}
    # The data inputs, then any side input as the model takes it (REVERSE_SUBSEQUENCES' lengths: INT64 per batch entry).
    for k, (name, x) in enumerate(lowering.feeds(list(case.inputs), parameters_as_inputs=False).items()):
        tensors[f"input_{k}.pb"] = numpy_helper.from_array(np.require(x, requirements="C"), name)  # 0-d stays 0-d
    outputs = [o.name for o in model.graph.output]
    masks = oracle.unspecified_mask(case.descriptor, case.inputs) if case.unspecified else [None] * len(outputs)
    for j, (name, y, mask) in enumerate(zip(outputs, case.expected.outputs, masks)):
        tensors[f"output_{j}.pb"] = numpy_helper.from_array(np.ascontiguousarray(y), name)
        if mask is not None and mask.any():
            tensors[f"open_{j}.pb"] = numpy_helper.from_array(mask, f"{name}_open")
    for file, proto in tensors.items():
        written.append(write_atomic(data / file, proto.SerializeToString()))
    written.append(write_atomic(directory / SCRIPT, script(target, settings_of(target), lowering, device_id).encode()))
    return written


def device_index(adapter: str | None) -> int:
    """DmlExecutionProvider's device_id: an adapter given by index (a name is the native worker's alone)."""
    if adapter is None:
        return 0
    if not re.fullmatch(r"\d+", adapter):
        raise ReproError(
            f"--adapter {adapter}: DmlExecutionProvider picks an adapter by index (device_id); give its index"
        )
    return int(adapter)

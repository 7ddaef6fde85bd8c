"""A backend base that runs lowered graphs (conformance.lowering), compiling each graph signature once.

Here, not in conformance.lowering: lowering is below the backends (it turns descriptors into
graphs and knows nothing of running them), so the dependency points one way.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from oracle import Descriptor, FeatureLevel
from oracle.graph import GraphSpec

from ..lowering import Inexpressible, Lowering, build_graph_model, build_model, lower
from .base import Backend, Capabilities, RunResult

if TYPE_CHECKING:  # annotations only: this module never touches onnx at run time
    import onnx

Runner = Callable[[dict[str, np.ndarray]], list[np.ndarray]]


def lower_graph(backend: Backend, graph: GraphSpec, level: FeatureLevel) -> list[Lowering] | RunResult:
    """Each node of a DML graph as its ONNX node, or why the backend cannot run the graph: a node with no ONNX
    form first (its reason is the specific one: "no symmetric mode"), then the backend's own limits."""
    lowerings = []
    for node in graph.nodes:
        try:
            lowering = lower(node)
        except Inexpressible as e:
            return RunResult.unsupported(f"{backend.name}: {e}")
        if lowering.side_inputs:  # fed converted (OneHot's indices as INT64): an edge carries DirectML's tensor as is
            names = ", ".join(side.name for side in lowering.side_inputs)
            return RunResult.unsupported(
                f"{backend.name}: ONNX {lowering.onnx_operator} takes {names} converted from DirectML's tensors, "
                "which a graph's edges carry unconverted"
            )
        lowerings.append(lowering)
        reason = backend.unsupported_reason(node, level)
        if reason is not None:
            return RunResult.unsupported(reason)
    return lowerings


class LoweredGraphBackend(Backend):
    """A backend that runs lowered graphs, compiling each graph signature once.

    Subclasses say how a model becomes a runner (`_compile`) and which failures are known
    limits of the runtime (`_classify`); lowering, caching and bookkeeping are shared.
    """

    def __init__(self, *, cache: bool = True, parameters_as_inputs: bool = True):
        self.cache = cache
        self.parameters_as_inputs = parameters_as_inputs
        # signature -> runner, or the RunResult of a failed compilation (replayed, not retried)
        self._runners: dict[tuple, Runner | RunResult] = {}
        self.stats = {"compiled": 0, "runs": 0}

    # ONNX has no symmetric Pad (WRAP is Pad-19's wrap); the feature level is DirectML's, which an ONNX graph
    # does not limit.
    CAPABILITIES = Capabilities(
        padding_modes=frozenset({"CONSTANT", "EDGE", "REFLECTION", "WRAP"}), feature_level=max(FeatureLevel)
    )

    def capabilities(self) -> Capabilities:
        return self.CAPABILITIES

    def close(self) -> None:
        """Drop the compiled sessions (each holds its runtime's memory)."""
        self._runners.clear()

    @abc.abstractmethod
    def _compile(self, model: onnx.ModelProto) -> Runner: ...

    def _classify(self, error: Exception, phase: str, lowering: Lowering) -> RunResult:
        """Turn a runtime failure ("compile" or "run") into a typed outcome; default: error."""
        return RunResult.error(f"{self.name}: {phase} failed: {type(error).__name__}: {error}")

    def _reached(self, descriptor: Descriptor, lowering: Lowering) -> str | None:
        return f"ONNX {lowering.onnx_operator}-{lowering.opset}"

    def lower(self, descriptor: Descriptor) -> Lowering | RunResult:
        try:
            return lower(descriptor)
        except Inexpressible as e:
            return RunResult.unsupported(f"{self.name}: {e}")

    def run(self, descriptor: Descriptor, inputs: list[np.ndarray], feature_level: FeatureLevel) -> RunResult:
        lowering = self.lower(descriptor)  # first: its reason is the specific one ("no symmetric mode")
        if isinstance(lowering, RunResult):
            return lowering
        refused = lowering.refusal(inputs)
        reason = self.unsupported_reason(descriptor, feature_level) or (refused and f"{self.name}: {refused}")
        if reason is not None:
            return RunResult.unsupported(reason)
        reached = self._reached(descriptor, lowering)
        t0 = time.perf_counter()
        runner = self._runner(lowering)
        t1 = time.perf_counter()
        if isinstance(runner, RunResult):
            return RunResult(runner.status, reason=runner.reason, reached_operator=reached, notes=list(lowering.notes))
        notes = [*lowering.notes, *getattr(runner, "notes", ())]
        try:
            outputs = runner(lowering.feeds(inputs, self.parameters_as_inputs))
        except Exception as e:  # the runtime's own failure, classified below
            result = self._classify(e, "run", lowering)
            result.reached_operator = reached
            result.notes = notes
            return result
        finally:
            self.stats["runs"] += 1
        t2 = time.perf_counter()
        return RunResult.ok(
            [np.asarray(y) for y in outputs],
            reached_operator=reached,
            notes=notes,
            timings={"compile_s": t1 - t0, "run_s": t2 - t1},
        )

    def run_graph(self, graph: GraphSpec, inputs: list[np.ndarray], feature_level: FeatureLevel) -> RunResult:
        """A DML graph (conformance.cases.compositions) as one ONNX model: Split then Concat, Pad then Slice."""
        lowerings = lower_graph(self, graph, feature_level)
        if isinstance(lowerings, RunResult):
            return lowerings
        reached = " + ".join(f"ONNX {lowering.onnx_operator}-{lowering.opset}" for lowering in lowerings)
        model, names, _ = build_graph_model(graph, lowerings)
        try:
            runner = self._compile(model)
        except Exception as e:
            result = self._classify(e, "compile", lowerings[0])
            result.reached_operator = reached
            return result
        try:
            outputs = runner(dict(zip(names, (np.ascontiguousarray(x) for x in inputs))))
        except Exception as e:
            result = self._classify(e, "run", lowerings[0])
            result.reached_operator = reached
            return result
        return RunResult.ok([np.asarray(y) for y in outputs], reached_operator=reached)

    def _runner(self, lowering: Lowering) -> Runner | RunResult:
        key = lowering.signature if self.parameters_as_inputs else lowering.full_signature
        if self.cache and key in self._runners:
            return self._runners[key]
        try:
            runner: Runner | RunResult = self._compile(
                build_model(lowering, parameters_as_inputs=self.parameters_as_inputs)
            )
            self.stats["compiled"] += 1
        except Exception as e:  # session creation refused the graph: classified below
            runner = self._classify(e, "compile", lowering)
        if self.cache:
            self._runners[key] = runner
        return runner

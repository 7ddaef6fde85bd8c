"""The `oracle` backend: the project's own oracle, for self-checks and as the report's baseline."""

from __future__ import annotations

import numpy as np

import oracle
from oracle import Descriptor, FeatureLevel
from oracle.graph import GraphSpec, compose

from .base import Backend, Capabilities, RunResult

# Made once: asked for by every case's unsupported_reason.
CAPABILITIES = Capabilities(checks_invalid_descriptors=True, feature_level=max(FeatureLevel), tensor_layouts=True)


class OracleBackend(Backend):
    name = "oracle"
    tensor_copies = 0.0  # it computes straight into the outputs it returns

    def capabilities(self) -> Capabilities:
        # The oracle implements every table row, so it can run a case at any feature level.
        return CAPABILITIES

    def versions(self) -> dict[str, str]:
        return {"oracle": oracle.__version__}

    def run(self, descriptor: Descriptor, inputs: list[np.ndarray], feature_level: FeatureLevel) -> RunResult:
        try:
            outputs = oracle.compute(descriptor, inputs, feature_level=feature_level)
        except oracle.InvalidDescriptor as e:
            return RunResult.rejected(str(e))
        if not oracle.layout.has_layout(descriptor):
            return RunResult.ok(outputs)
        # The outputs written through their strides into fresh buffers, as an implementation would.
        buffers = []
        for out, tensor in zip(outputs, descriptor.output_tensors):
            buffers.append(oracle.layout.pack(out, tensor, oracle.layout.output_buffer(tensor)))
        return RunResult.ok(outputs, buffers=buffers)

    def run_graph(self, graph: GraphSpec, inputs: list[np.ndarray], feature_level: FeatureLevel) -> RunResult:
        """A DML graph composed node by node (oracle.graph.compose)."""
        for node in graph.nodes:
            reason = self.unsupported_reason(node, feature_level)
            if reason:
                return RunResult.unsupported(f"{node.operator} node: {reason}")
        try:
            return RunResult.ok(compose(graph, inputs, feature_level))
        except oracle.InvalidDescriptor as e:
            return RunResult.rejected(str(e))

    def check_descriptor(self, descriptor: Descriptor, feature_level: FeatureLevel) -> RunResult:
        try:
            oracle.validate(descriptor, feature_level)
        except oracle.InvalidDescriptor as e:
            return RunResult.rejected(str(e))  # the message ends with "[CLAUSE]"
        return RunResult.ok([])

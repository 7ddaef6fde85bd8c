"""DML graphs as the oracle sees them (GRAPH.1-3, docs/spec/beyond-seeds.md): nodes and edges, and their composition.

A graph is described the way DML_GRAPH_DESC describes it: operator nodes (oracle descriptors), the graph's
input and output tensor descs, and input (graph input, node, node input), output (node, node output, graph
output) and intermediate (from node, its output, to node, its input) edges.  Its result is its nodes'
results composed along its edges (GRAPH.2): `compose`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .api import Descriptor, compute
from .checks import TensorDesc
from .tables import FeatureLevel


@dataclass(frozen=True)
class GraphSpec:
    nodes: tuple[Descriptor, ...]
    inputs: tuple[TensorDesc, ...]
    outputs: tuple[TensorDesc, ...]
    input_edges: tuple[tuple[int, int, int], ...] = ()
    output_edges: tuple[tuple[int, int, int], ...] = ()
    intermediate_edges: tuple[tuple[int, int, int, int], ...] = ()

    @classmethod
    def one_node(cls, desc: Descriptor, extra_inputs: Sequence[TensorDesc] = ()) -> GraphSpec:
        """`desc` alone: graph input i feeds its input i, its output j is graph output j; `extra_inputs` unused."""
        ins, outs = tuple(desc.input_tensors), tuple(desc.output_tensors)
        return cls(
            (desc,),
            ins + tuple(extra_inputs),
            outs,
            input_edges=tuple((i, 0, i) for i in range(len(ins))),
            output_edges=tuple((0, j, j) for j in range(len(outs))),
        )


def compose(graph: GraphSpec, inputs: Sequence[np.ndarray], level: FeatureLevel) -> list[np.ndarray]:
    """The graph's outputs as the oracle computes them: each node (in order) on what its edges bring it."""
    values: dict[tuple[int, int], np.ndarray] = {}  # (node, its input) -> array
    for g, n, k in graph.input_edges:
        values[(n, k)] = inputs[g]
    produced: dict[tuple[int, int], np.ndarray] = {}  # (node, its output) -> array
    for n, desc in enumerate(graph.nodes):
        for a, j, b, k in graph.intermediate_edges:
            if b == n:
                values[(n, k)] = produced[(a, j)]
        xs = [values[(n, k)] for k in range(len(desc.input_tensors))]
        for j, y in enumerate(compute(desc, xs, feature_level=level)):
            produced[(n, j)] = y
    outputs: list[np.ndarray | None] = [None] * len(graph.outputs)
    for n, j, g in graph.output_edges:
        outputs[g] = produced[(n, j)]
    if any(y is None for y in outputs):
        raise ValueError("a graph output has no edge")
    return [y for y in outputs if y is not None]

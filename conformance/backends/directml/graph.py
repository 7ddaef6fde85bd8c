"""DML graphs for the native runner (`--dml-path graph`): IDMLDevice1::CompileGraph, as applications reach DirectML.

ONNX Runtime fuses each DirectML partition into one DML graph; bugs live there that single operators never
show.  A case runs as a one-node graph (its operator, the graph's inputs and outputs the operator's); the
compositions below build small connected graphs from cases, whose result the oracle composes.

A node here is a descriptor; an edge names indices the way DML_*_GRAPH_EDGE_DESC does:
input (graph input, node, node input), output (node, node output, graph output) and intermediate
(from node, its output, to node, its input).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from oracle import Descriptor, FeatureLevel, TensorDesc


@dataclass
class Graph:
    nodes: list[Descriptor]
    inputs: list[TensorDesc]  # the graph's inputs, in binding order
    outputs: list[TensorDesc]  # the graph's outputs, in binding order
    input_edges: list[tuple[int, int, int]] = field(default_factory=list)
    output_edges: list[tuple[int, int, int]] = field(default_factory=list)
    intermediate_edges: list[tuple[int, int, int, int]] = field(default_factory=list)

    @classmethod
    def one_node(cls, desc: Descriptor) -> Graph:
        """The case's operator alone: graph input i feeds its input i, its output j is graph output j."""
        ins, outs = list(desc.input_tensors), list(desc.output_tensors)
        return cls(
            [desc],
            ins,
            outs,
            input_edges=[(i, 0, i) for i in range(len(ins))],
            output_edges=[(0, j, j) for j in range(len(outs))],
        )


def graph_request(graph: Graph, level: FeatureLevel, node_fields, tensor_json, *, check_only: bool = False) -> dict:
    """The runner's request for a graph: each node as a single operator's request states it."""
    nodes = []
    for desc in graph.nodes:
        nodes.append(
            {
                "operator": desc.operator,
                "tensors": {
                    "inputs": [tensor_json(t) for t in desc.input_tensors],
                    "outputs": [tensor_json(t) for t in desc.output_tensors],
                },
                "fields": node_fields(desc),
            }
        )
    return {
        "op": "run",
        "min_feature_level": str(level),
        "check_only": check_only,
        "graph": {
            "nodes": nodes,
            "inputs": [tensor_json(t) for t in graph.inputs],
            "outputs": [tensor_json(t) for t in graph.outputs],
            "input_edges": [list(e) for e in graph.input_edges],
            "output_edges": [list(e) for e in graph.output_edges],
            "intermediate_edges": [list(e) for e in graph.intermediate_edges],
        },
    }

"""DML graphs for the native runner (`--dml-path graph`, and the graph compositions): IDMLDevice1::CompileGraph.

ONNX Runtime fuses each DirectML partition into one DML graph; bugs live there that single operators never
show.  The graph (oracle.graph.GraphSpec) travels as its nodes, each stated as a single operator's request
states it, and its edges, indices as DML_*_GRAPH_EDGE_DESC has them.
"""

from __future__ import annotations

from collections.abc import Callable

from oracle import FeatureLevel, TensorDesc
from oracle.graph import GraphSpec


def graph_request(
    graph: GraphSpec, level: FeatureLevel, tensor_json: Callable[[TensorDesc], dict], *, check_only: bool = False
) -> dict:
    """The runner's request for a graph."""
    nodes = [
        {
            "operator": desc.operator,
            "tensors": {
                "inputs": [tensor_json(t) for t in desc.input_tensors],
                "outputs": [tensor_json(t) for t in desc.output_tensors],
            },
            "fields": desc.struct_fields(),
        }
        for desc in graph.nodes
    ]
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

"""Small DML graphs built from stored cases, whose results the oracle composes (GRAPH.1-3, beyond the seed pages).

Applications reach DirectML through graphs (ONNX Runtime compiles each DirectML partition into one
DML graph), and bugs live there that single operators never show: a SPLIT output nobody reads, a
graph input nobody uses, one node's output feeding the next.  Each composition takes a valid stored
case and builds such a graph around its descriptor; the expected outputs are the oracle's, node by
node along the edges (`compose`), and the relations make most of them need no oracle at all:

- split-join: SPLIT, then JOIN of all its outputs along the same axis: the input (SPLIT.6, JOIN.6);
- padding-slice1: PADDING (or PADDING1), then SLICE1 of the interior: the input;
- unconnected-output: SPLIT with only its first output connected to a graph output;
- unused-input: the case's node, and one more graph input connected to nothing.

A graph is described the way DML_GRAPH_DESC describes it: nodes (oracle descriptors), the graph's
input and output tensor descs, and input (graph input, node, node input), output (node, node output,
graph output) and intermediate (from node, output, to node, input) edges.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

import oracle
from oracle import DataType, Descriptor, FeatureLevel, InvalidDescriptor
from oracle.graph import GraphSpec, compose

from .corpus import Case, Expected

CLAUSES = {
    "split-join": ("GRAPH.1", "GRAPH.2", "SPLIT.6", "JOIN.6"),
    "padding-slice1": ("GRAPH.1", "GRAPH.2"),
    "unconnected-output": ("GRAPH.1", "GRAPH.3"),
    "unused-input": ("GRAPH.1", "GRAPH.3"),
}


@dataclass(frozen=True)
class Composition:
    """A run unit: a graph built from `base`, with the inputs it is fed and the outputs the oracle composes."""

    kind: str
    base: Case
    graph: GraphSpec
    inputs: tuple[np.ndarray, ...]
    expected: Expected
    feature_level: FeatureLevel
    tags: tuple[str, ...] = field(default=("graph",))

    @property
    def id(self) -> str:
        return f"{self.base.id}.graph-{self.kind}"

    @property
    def operator(self) -> str:
        return self.base.operator

    @property
    def descriptor(self) -> Descriptor:
        return self.base.descriptor

    @property
    def data_type(self) -> DataType:
        return self.base.data_type

    @property
    def rank(self) -> int:
        return self.base.rank

    @property
    def clauses(self) -> tuple[str, ...]:
        return CLAUSES[self.kind]

    @property
    def unspecified(self) -> tuple[str, ...]:
        return ()

    @property
    def valid(self) -> bool:
        return True

    @property
    def path(self) -> str:
        return ""

    @property
    def source(self) -> str:
        return f"composed from {self.base.id} ({self.kind}: conformance/cases/compositions.py)"


def _slice1_interior(desc: oracle.PaddingDesc | oracle.Padding1Desc) -> oracle.Slice1Desc:
    """SLICE1 of a padding's output that cuts its interior (the input) back out."""
    out = desc.output_tensor
    return oracle.slice1_desc(out, desc.start_padding, desc.input_tensor.sizes, [1] * out.dimension_count)


def _graphs(case: Case) -> list[tuple[str, GraphSpec, tuple[np.ndarray, ...]]]:
    desc, xs = case.descriptor, tuple(case.inputs)
    found: list[tuple[str, GraphSpec, tuple[np.ndarray, ...]]] = []
    if isinstance(desc, oracle.SplitDesc) and len(desc.output_tensors) >= 2:
        join = oracle.join_desc(desc.output_tensors, desc.axis)
        n = len(desc.output_tensors)
        found.append(
            (
                "split-join",
                GraphSpec(
                    (desc, join),
                    (desc.input_tensor,),
                    (join.output_tensor,),
                    input_edges=((0, 0, 0),),
                    output_edges=((1, 0, 0),),
                    intermediate_edges=tuple((0, j, 1, j) for j in range(n)),
                ),
                xs,
            )
        )
        found.append(
            (
                "unconnected-output",
                GraphSpec((desc,), (desc.input_tensor,), (desc.output_tensors[0],), ((0, 0, 0),), ((0, 0, 0),)),
                xs,
            )
        )
    if isinstance(desc, (oracle.PaddingDesc, oracle.Padding1Desc)):
        cut = _slice1_interior(desc)
        found.append(
            (
                "padding-slice1",
                GraphSpec(
                    (desc, cut),
                    (desc.input_tensor,),
                    (cut.output_tensor,),
                    input_edges=((0, 0, 0),),
                    output_edges=((1, 0, 0),),
                    intermediate_edges=((0, 0, 1, 0),),
                ),
                xs,
            )
        )
    extra = (desc.input_tensors or desc.output_tensors)[0].logical  # FILL_VALUE_*: a graph input of the output's
    found.append(
        ("unused-input", GraphSpec.one_node(desc, (extra,)), (*xs, np.zeros(extra.sizes, extra.data_type.numpy)))
    )
    return found


def compositions(cases: Iterable[Case]) -> list[Composition]:
    """The compositions of the valid, packed, fully specified cases among `cases`, in their order.

    Each is made at the oldest level where every node is valid (JOIN needs 4.1 for most ranks, SLICE1 2.1);
    a graph some node of which no level allows is left out.
    """
    out = []
    for case in cases:
        if not case.valid or case.unspecified or oracle.layout.has_layout(case.descriptor):
            continue
        for kind, graph, inputs in _graphs(case):
            level = _level(graph, case.feature_level)
            if level is None:
                continue
            expected = Expected("valid", tuple(compose(graph, inputs, level)))
            tags = ("graph", "U-GRAPH-1") if kind == "unused-input" else ("graph",)
            out.append(Composition(kind, case, graph, inputs, expected, level, tags))
    return out


def _level(graph: GraphSpec, lowest: FeatureLevel) -> FeatureLevel | None:
    for level in sorted(FeatureLevel):
        if level < lowest:
            continue
        try:
            for node in graph.nodes:
                oracle.validate(node, level)
        except InvalidDescriptor:
            continue
        return level
    return None

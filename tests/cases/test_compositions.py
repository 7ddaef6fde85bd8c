"""Small DML graphs around the stored cases (conformance.cases.compositions, GRAPH.1-3).

The relations are checked against what the case files state (hand-typed inputs and outputs), not against the
composition code: SPLIT then JOIN, and PADDING then SLICE1 of the interior, give back the case's input; a SPLIT
with one output connected gives the case's first output; an unused graph input changes no output.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from conformance.cases.compositions import compositions
from conformance.cases.corpus import CASES_DIR, load

STORED = load([CASES_DIR / "examples", CASES_DIR / "curated"]).cases
UNITS = compositions(STORED)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_every_kind_is_built_from_the_stored_cases():
    kinds = Counter(u.kind for u in UNITS)
    assert set(kinds) == {"split-join", "padding-slice1", "unconnected-output", "unused-input"}
    assert all(n >= 3 for n in kinds.values()), kinds
    assert len({u.id for u in UNITS}) == len(UNITS)


def test_split_then_join_and_padding_then_slice1_give_back_the_input():
    for u in UNITS:
        if u.kind in ("split-join", "padding-slice1"):
            assert same_bits(u.expected.outputs[0], u.base.inputs[0]), u.id


def test_an_unconnected_output_and_an_unused_input_change_nothing_else():
    for u in UNITS:
        if u.kind == "unconnected-output":
            assert len(u.expected.outputs) == 1 and same_bits(u.expected.outputs[0], u.base.expected.outputs[0]), u.id
        if u.kind == "unused-input":
            assert len(u.graph.inputs) == len(u.base.descriptor.input_tensors) + 1
            assert all(same_bits(a, b) for a, b in zip(u.expected.outputs, u.base.expected.outputs)), u.id
            assert "U-GRAPH-1" in u.tags


def test_compositions_cite_the_graph_clauses_and_stay_beyond_the_seed_pages():
    import oracle

    for u in UNITS:
        assert "GRAPH.1" in u.clauses and oracle.beyond_seed_pages(u.operator, u.clauses)
        assert u.id.startswith(u.base.id + ".graph-")


def test_the_byte_budget_holds_for_graphs_too():
    """Issue 29: `--max-bytes 1` still ran the compositions. Every kind is unsupported over the budget, by the graph's
    own sizes, and passes on the oracle backend with room (the budget between the two is the graph's need)."""
    from conformance.backends.registry import load_backend
    from conformance.run.execute import execute_case
    from conformance.run.large import graph_over_budget
    from conformance.run.record import Category
    from conformance.run.units import Work

    backend = load_backend("oracle")
    for kind in ("split-join", "padding-slice1", "unconnected-output", "unused-input"):
        unit = next(u for u in UNITS if u.kind == kind)
        starved = execute_case(Work(0, unit), backend, None, max_bytes=1)
        assert starved.category is Category.UNSUPPORTED and "over the memory budget: the graph" in starved.reason
        roomy = execute_case(Work(0, unit), backend, None, max_bytes=2**30)
        assert roomy.category is Category.PASS, roomy.reason
        graph_bytes = sum(
            np.prod(t.sizes) * t.data_type.numpy.itemsize for n in unit.graph.nodes for t in n.tensors.values()
        )
        assert graph_over_budget(unit.graph, backend, int(graph_bytes)) is not None  # copies come on top

"""onnxruntime-cpu's batches (run_many): every case answered as run() answers it alone, in a session per batch.

What a run says must not change with the batches: status, reason (ORT's words for a refusal are those of the
case's own one-node session), the operator reached, the notes and the output bytes.
"""

from __future__ import annotations

import numpy as np

import oracle
from conformance.backends.onnxruntime_backend import OnnxRuntimeCpuBackend
from conformance.backends.registry import resolve_backend
from conformance.run.selection import select_cases
from oracle import DEFAULT_FEATURE_LEVEL as FL
from oracle import DataType, PaddingMode, TensorDesc

CASES = [c for c in select_cases(generated=400, seed=11) if c.valid]
# Cases ORT's CPU provider runs, alone and so in any batch (dense SLICE1s; not FLOAT16, whose batches are apart).
FINE = [
    (c.descriptor, list(c.inputs), c.feature_level)
    for c in CASES
    if c.operator == "SLICE1"
    and not oracle.layout.has_layout(c.descriptor)
    and c.descriptor.input_tensor.data_type is not DataType.FLOAT16
][:20]


def t(*sizes, data_type=DataType.FLOAT32):
    return TensorDesc(data_type, sizes)


def same(a, b) -> bool:
    return (
        (a.status, a.reason, a.reached_operator, a.notes) == (b.status, b.reason, b.reached_operator, b.notes)
        and len(a.outputs) == len(b.outputs)
        and all(
            x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()
            for x, y in zip(a.outputs, b.outputs)
        )
    )


def too_wide_reflect(data_type=DataType.FLOAT32):
    """A reflect Pad ORT refuses while running: post-pad 4 on an axis of 4 (PAD.3 folds it; ORT does not)."""
    x = np.arange(4).astype(data_type.numpy)
    return oracle.PaddingDesc(
        t(4, data_type=data_type), t(8, data_type=data_type), PaddingMode.REFLECTION, 0.0, (0,), (4,)
    ), [x]


def int16_pad():
    """A Pad ORT's CPU provider has no kernel for: its session is refused."""
    x = np.arange(3, dtype=np.int16)
    return oracle.PaddingDesc(
        t(3, data_type=DataType.INT16), t(4, data_type=DataType.INT16), PaddingMode.EDGE, 0.0, (1,), (0,)
    ), [x]


def test_the_backend_the_run_builds_batches():
    backend = resolve_backend("onnxruntime-cpu").factory()
    assert backend.batch_size > 1  # the run layer then hands it whole batches (conformance.run.execute.prefetch)


def test_run_many_answers_every_case_as_run_answers_it_alone_in_a_session_per_batch():
    items = [(c.descriptor, list(c.inputs), c.feature_level) for c in CASES]
    alone = [OnnxRuntimeCpuBackend().run(*item) for item in items]
    backend = OnnxRuntimeCpuBackend()
    batched = backend.run_many(items)
    differ = [c.id for c, a, b in zip(CASES, alone, batched) if b is None or not same(a, b)]
    assert not differ, differ[:5]
    assert {r.status for r in alone} >= {"ok", "unsupported"}  # refusals among them
    assert backend.stats["batched"] > len(items) // 2
    assert backend.stats["sessions"] <= backend.stats["batched"] // 10  # a session per batch, not per case


def test_a_case_refused_inside_a_batch_gets_the_words_it_gets_alone_and_only_it():
    """ORT refuses the batch naming the culprit's node (`c<k>_Pad`); the culprit is answered by the one-case path,
    the others by the batch without it, and the missing kernel is learnt: the next such case is not batched."""
    fine = FINE
    assert len(fine) == 20
    desc, xs = int16_pad()
    backend = OnnxRuntimeCpuBackend()
    results = backend.run_many([*fine[:10], (desc, xs, FL), *fine[10:]])
    expected = OnnxRuntimeCpuBackend().run(desc, xs, FL)
    assert expected.status == "unsupported" and "NOT_IMPLEMENTED" in expected.reason
    assert same(results[10], expected)
    assert "c10_" not in results[10].reason  # the one-case graph's words, not the batch's
    assert all(r.status == "ok" for k, r in enumerate(results) if k != 10)
    assert (backend.stats["refused_sessions"], backend.stats["sessions"]) == (1, 1)
    again = backend.run_many([*fine[:3], (desc, xs, FL)])
    assert same(again[3], expected)
    assert (backend.stats["refused_sessions"], backend.stats["sessions"]) == (1, 2)  # learnt: not batched


def test_a_case_whose_run_fails_inside_a_batch_is_found_by_name_and_answered_alone(monkeypatch):
    """A reflect Pad ORT refuses while running fails the whole batch's run: were it batched (here: every case is),
    it would still be answered as alone, and the rest of its batch would still run."""
    backend = OnnxRuntimeCpuBackend()
    monkeypatch.setattr(backend, "_batchable", lambda lowering, inputs: True)
    fine = FINE[:8]
    desc, xs = too_wide_reflect()
    results = backend.run_many([*fine[:3], (desc, xs, FL), *fine[3:]])
    expected = OnnxRuntimeCpuBackend().run(desc, xs, FL)
    assert expected.status == "unsupported" and "post-pad (4) exceeds maximum allowed (3)" in expected.reason
    assert same(results[3], expected)
    assert [r.status for k, r in enumerate(results) if k != 3] == ["ok"] * len(fine)
    assert backend.stats["sessions"] == 2  # the batch (its run failed) and the batch without the culprit


def f16_pads():
    """FLOAT16 Pads ORT's CPU provider runs between inserted Casts (no FLOAT16 kernel): edge (two Casts) and constant
    (three: the padding value's too)."""
    x = np.array([0x7D12, 0x3C00, 0x7E01], dtype=np.uint16).view(np.float16)
    return [
        (oracle.PaddingDesc(t(3, data_type=F16), t(5, data_type=F16), mode, 2.5, (1,), (1,)), [x], FL)
        for mode in (PaddingMode.EDGE, PaddingMode.CONSTANT)
    ]


F16 = DataType.FLOAT16


def test_float16_cases_are_batched_apart_and_noted_as_their_own_session_notes_them():
    """A FLOAT16 batch writes its optimized graph: each case is told of the Casts ORT inserted around its own node
    (the count its one-case session sees), the other cases in a session of their own."""
    items = [*f16_pads(), FINE[0], *f16_pads()[::-1], FINE[1]]
    backend = OnnxRuntimeCpuBackend()
    results = backend.run_many(items)
    alone = [OnnxRuntimeCpuBackend().run(*item) for item in items]
    assert [same(a, b) for a, b in zip(alone, results)] == [True] * len(items)
    inserted = [n for r in results for n in r.notes if "went through float32" in n]
    assert [n.split(" nodes")[0] for n in inserted] == [
        "ONNX Runtime ran Pad between inserted Cast, Cast",
        "ONNX Runtime ran Pad between inserted Cast, Cast, Cast",
        "ONNX Runtime ran Pad between inserted Cast, Cast, Cast",
        "ONNX Runtime ran Pad between inserted Cast, Cast",
    ]
    assert (backend.stats["batched"], backend.stats["sessions"], backend.stats["compiled"]) == (6, 2, 0)


def test_a_float16_case_of_a_halved_batch_is_noted_once():
    """The batch is made again without the culprit: the notes are the last session's, not both sessions'."""
    backend = OnnxRuntimeCpuBackend()
    backend._batchable = lambda lowering, inputs: True  # type: ignore[method-assign]
    desc, xs = too_wide_reflect(F16)
    items = [*f16_pads(), (desc, xs, FL)]
    results = backend.run_many(items)
    assert [same(OnnxRuntimeCpuBackend().run(*item), r) for item, r in zip(items, results)] == [True] * 3
    assert backend.stats["sessions"] == 2
    assert [sum("went through float32" in n for n in r.notes) for r in results[:2]] == [1, 1]


def test_cases_a_batch_could_not_answer_as_alone_take_the_one_case_path():
    """A reflect Pad as wide as its axis is not batched (ORT may refuse its run): its answer is run()'s."""
    wide, xs = too_wide_reflect()
    backend = OnnxRuntimeCpuBackend()
    results = backend.run_many([(wide, xs, FL)])
    assert backend.stats["batched"] == 0 and backend.stats["sessions"] == 0
    assert same(results[0], OnnxRuntimeCpuBackend().run(wide, xs, FL))


def test_cases_refused_for_the_culprit_s_missing_kernel_leave_its_batch_with_it():
    """Two INT16 Pads in a batch: ORT names the first; the second lacks the same kernel, so it is answered alone at
    once instead of costing the batch a second refused session."""
    desc, xs = int16_pad()
    backend = OnnxRuntimeCpuBackend()
    results = backend.run_many([*FINE[:5], (desc, xs, FL), *FINE[5:10], (desc, [xs[0][::-1].copy()], FL)])
    assert same(results[5], OnnxRuntimeCpuBackend().run(desc, xs, FL))
    assert same(results[11], OnnxRuntimeCpuBackend().run(desc, [xs[0][::-1].copy()], FL))
    assert [k for k, r in enumerate(results) if r.status != "ok"] == [5, 11]
    assert (backend.stats["refused_sessions"], backend.stats["sessions"]) == (1, 1)


# Cases of the operators and types ORT's CPU provider has no kernel for (OneHot, DepthToSpace, SpaceToDepth, EyeLike,
# Pad of 16-bit integers...), of many graph signatures each.
NO_KERNEL_CASES = [
    c
    for c in select_cases(
        generated=1500,
        seed=5,
        operators=["ONE_HOT", "DEPTH_TO_SPACE", "DEPTH_TO_SPACE1", "SPACE_TO_DEPTH", "DIAGONAL_MATRIX1", "PADDING"],
    )
    if c.valid and not oracle.layout.has_layout(c.descriptor)
]


def test_a_refusal_for_want_of_a_kernel_is_answered_for_every_graph_as_its_own_session_words_it():
    """After ORT refused a kernel once, a graph of the same operator, opset and tensor types is answered without a
    session: each answer is the one a backend that asks ORT for that very graph gives, word for word."""
    backend = OnnxRuntimeCpuBackend()
    answers = [backend.run(c.descriptor, list(c.inputs), c.feature_level) for c in NO_KERNEL_CASES]
    refused = [
        (c, r)
        for c, r in zip(NO_KERNEL_CASES, answers)
        if r.status == "unsupported" and "no kernel" in (r.reason or "")
    ]
    assert backend.stats["known_refusals"] > 50  # most answered without a session
    assert len({c.operator for c, _ in refused}) >= 5
    differ = [
        c.id
        for c, r in refused
        if not same(r, OnnxRuntimeCpuBackend().run(c.descriptor, list(c.inputs), c.feature_level))
    ]
    assert not differ, differ[:5]


def test_a_refusal_that_says_more_than_the_missing_kernel_is_asked_again(monkeypatch):
    """A refusal whose words could depend on the graph (here one naming a shape) is not reused: ORT is asked for each
    graph."""
    backend = OnnxRuntimeCpuBackend()
    asked = []

    def refuse(model):
        asked.append(model)
        raise RuntimeError(
            "[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for Pad(13) node with name "
            f"'Pad' for shape {len(asked)}"
        )

    monkeypatch.setattr(backend, "_compile", refuse)
    desc, xs = int16_pad()
    wider = oracle.PaddingDesc(
        t(3, 2, data_type=DataType.INT16), t(4, 2, data_type=DataType.INT16), PaddingMode.EDGE, 0.0, (1, 0), (0, 0)
    )
    first, second = backend.run(desc, xs, FL), backend.run(wider, [np.zeros((3, 2), np.int16)], FL)
    assert len(asked) == 2 and backend.stats["known_refusals"] == 0
    assert first.reason != second.reason and "for shape 2" in (second.reason or "")


def test_compositions_run_in_sessions_of_many_each_answered_as_run_graph_answers_it_alone():
    """run_graphs: the examples' compositions (some with a node ORT has no kernel for, some inexpressible) in a few
    sessions; each result is run_graph's for that graph alone, a refusal in the words of the graph's own session."""
    from conformance.cases.compositions import compositions
    from conformance.cases.corpus import CASES_DIR, load

    units = compositions(load([CASES_DIR / "examples"]).cases)
    items = [(u.graph, list(u.inputs), u.feature_level) for u in units]
    backend = OnnxRuntimeCpuBackend()
    batched = backend.run_graphs(items)
    alone = [OnnxRuntimeCpuBackend().run_graph(*item) for item in items]
    differ = [u.id for u, a, b in zip(units, alone, batched) if b is None or not same(a, b)]
    assert not differ, differ[:5]
    statuses = [r.status for r in alone]
    assert statuses.count("ok") > 10 and any("no kernel" in (r.reason or "") for r in alone)
    assert backend.stats["refused_sessions"] >= 1  # a graph ORT refused inside a batch, then answered alone
    assert backend.stats["sessions"] <= statuses.count("ok") // 4


def test_a_graph_with_a_reflect_pad_ort_may_refuse_runs_alone_and_costs_its_batch_nothing():
    from oracle.graph import GraphSpec

    wide, xs = too_wide_reflect()
    fine = [(GraphSpec.one_node(d), x, level) for d, x, level in FINE[:3]]
    items = [*fine, (GraphSpec.one_node(wide), xs, FL)]
    backend = OnnxRuntimeCpuBackend()
    results = backend.run_graphs(items)
    assert [same(r, OnnxRuntimeCpuBackend().run_graph(*item)) for r, item in zip(results, items)] == [True] * 4
    assert results[3].status == "unsupported" and "reflect Pad needs" in results[3].reason
    assert (backend.stats["sessions"], backend.stats["refused_sessions"]) == (1, 0)  # the three fine graphs

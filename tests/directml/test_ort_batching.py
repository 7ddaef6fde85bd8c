"""onnxruntime-directml's batches on the real stack: a case's result is the one it gets in a session of its own.

Batches (many cases' nodes in one model), recycled descriptor heaps and reruns after a crash only
change how fast results come; these tests hold them to that, record by record and byte by byte.
Needs `dml-conformance setup directml`; skipped with the reason elsewhere, failed in CI.
"""

from __future__ import annotations

import os
import signal
from collections import Counter

import numpy as np
import pytest
from directml_helpers import require_directml

from conformance.backends.onnxruntime_directml import OnnxRuntimeDirectMLBackend, WorkerSessions
from conformance.cases.compositions import Composition
from conformance.cases.corpus import Case
from conformance.lowering import Inexpressible, lower
from conformance.run.config import RunConfig
from conformance.run.execute import execute_case
from conformance.run.selection import select
from conformance.run.units import Work

# A real selection: the quick profile's stored cases (every category this backend gives: pass, observed, unsupported
# before any session), a slice of its generated and reach cases (the JOIN/SPLIT of 256 tensors among them), and
# some of its graph compositions.
UNITS = [w.unit for w in select(RunConfig(profile="quick", hypothesis_examples=0)).works]
VALID = [u for u in UNITS if isinstance(u, Case) and u.valid]  # an invalid case never reaches the backend
STORED = [c for c in VALID if "generated" not in c.tags and "reach" not in c.tags]
REACH = [c for c in VALID if "reach" in c.tags]
GENERATED = [c for c in VALID if "generated" in c.tags]
CASES = STORED + REACH[::12] + GENERATED[::40]
GRAPHS = [u for u in UNITS if isinstance(u, Composition)][::3]


def output_bytes(result) -> list[bytes]:
    return [np.ascontiguousarray(y).tobytes() for y in result.outputs]


@pytest.fixture(scope="module")
def ort_dml():
    require_directml()
    backend = OnnxRuntimeDirectMLBackend()
    yield backend
    backend.close()


def test_batched_and_one_case_per_session_give_the_same_records_and_bytes(ort_dml):
    assert len(CASES) > 200 and len(GRAPHS) > 20
    sessions = ort_dml.stats["sessions"]
    batched = ort_dml.run_many([(c.descriptor, list(c.inputs), c.feature_level) for c in CASES])
    graphs = ort_dml.run_graphs([(g.graph, list(g.inputs), g.feature_level) for g in GRAPHS])
    in_batches = ort_dml.stats["sessions"] - sessions
    assert in_batches <= 6  # a handful of sessions, not one a case

    categories: Counter[str] = Counter()
    for case, together in zip(CASES, batched):
        alone = ort_dml.run(case.descriptor, list(case.inputs), case.feature_level)  # run_many([case]): its own session
        assert not isinstance(together, BaseException), (case.id, together)
        assert (together.status, together.reason) == (alone.status, alone.reason), case.id
        assert output_bytes(together) == output_bytes(alone), case.id
        records = [execute_case(Work(0, case), ort_dml, None, result) for result in (together, alone)]
        assert records[0].category == records[1].category, case.id
        categories[records[0].category.value] += 1
    assert {"pass", "observed", "unsupported"} <= set(categories), categories

    for unit, together in zip(GRAPHS, graphs):
        alone = ort_dml.run_graph(unit.graph, list(unit.inputs), unit.feature_level)
        assert (together.status, together.reason) == (alone.status, alone.reason), unit.id
        assert output_bytes(together) == output_bytes(alone), unit.id
    assert sum(r.status == "ok" for r in graphs) > len(GRAPHS) // 2


@pytest.fixture
def recycling(ort_dml):
    """The worker's HeapPool, opt-in (virtual heaps made it unneeded under Wine): on for one test."""
    sessions = ort_dml.sessions
    assert isinstance(sessions, WorkerSessions)
    sessions.recycle_descriptor_heaps = True
    yield sessions
    sessions.recycle_descriptor_heaps = False


def _gets_a_session(backend: OnnxRuntimeDirectMLBackend, case: Case) -> bool:
    """The case reaches a session: supported, lowered, its values taken (issue 32's examples: 4-D EyeLike and Range
    have no ONNX form, and are answered before any session)."""
    if backend.unsupported_reason(case.descriptor, case.feature_level) is not None:
        return False
    try:
        return lower(case.descriptor).refusal(list(case.inputs)) is None
    except Inexpressible:
        return False


def test_sessions_reuse_the_heaps_of_released_ones(ort_dml, recycling):
    runnable = [c for c in STORED if _gets_a_session(ort_dml, c)]
    ort_dml.run(runnable[0].descriptor, list(runnable[0].inputs), runnable[0].feature_level)  # the worker's first heap
    before = dict(recycling.heaps)
    sessions = ort_dml.stats["sessions"]
    for case in runnable[:5]:
        ort_dml.run(case.descriptor, list(case.inputs), case.feature_level)
    assert ort_dml.stats["sessions"] - sessions == 5
    after = recycling.heaps
    assert after["reused"] - before["reused"] >= 5 and after["created"] == before["created"]
    assert "recycled" in ort_dml.versions()["descriptor_heaps"]


def test_heaps_created_anew_give_the_same_bytes_as_recycled_ones(ort_dml, recycling):
    """Every heap ONNX Runtime asks for created anew, against heaps recycled by the worker, on two operators."""
    runnable = [c for c in STORED if ort_dml.unsupported_reason(c.descriptor, c.feature_level) is None]
    picked = [next(c for c in runnable if c.operator == op) for op in ("PADDING1", "JOIN")]
    recycled = [ort_dml.run(c.descriptor, list(c.inputs), c.feature_level) for c in picked]
    sessions = ort_dml.sessions
    assert isinstance(sessions, WorkerSessions)
    sessions.recycle_descriptor_heaps = False
    try:
        before = dict(sessions.heaps)
        fresh = [ort_dml.run(c.descriptor, list(c.inputs), c.feature_level) for c in picked]
        assert (
            sessions.heaps["created"] - before["created"] >= len(picked)
            and sessions.heaps["reused"] == before["reused"]
        )
    finally:
        sessions.recycle_descriptor_heaps = True
    for case, mine, theirs in zip(picked, fresh, recycled):
        assert mine.status == theirs.status == "ok", (case.id, mine.reason)
        assert output_bytes(mine) == output_bytes(theirs), case.id


def test_a_worker_killed_in_the_middle_of_a_batch_costs_exactly_that_case(ort_dml, monkeypatch):
    candidates = GENERATED[:40]
    answers = ort_dml.run_many([(c.descriptor, list(c.inputs), c.feature_level) for c in candidates])
    ran = [(c, r) for c, r in zip(candidates, answers) if not isinstance(r, BaseException) and r.status == "ok"][:12]
    cases = [c for c, _ in ran]
    inputs = Counter(np.ascontiguousarray(x).tobytes() for c in cases for x in c.inputs)
    victim = next(c for c in cases[5:] if inputs[np.ascontiguousarray(c.inputs[0]).tobytes()] == 1)
    doomed = np.ascontiguousarray(victim.inputs[0]).tobytes()
    sessions = ort_dml.sessions
    assert isinstance(sessions, WorkerSessions)
    run = sessions.run

    def killing_run(session, feeds, outputs):
        """The real worker, killed (SIGKILL) in any request that runs a model fed the victim's input: as the request
        is sent, once the program has taken this worker for it, so that the worker can neither answer first nor be
        started again before it.  (Killed before the request, it could be seen dead and started again, and the
        request then ran: a death between two requests is nobody's.  Killed once the request was sent, it had at
        times answered already.)"""
        if any(np.ascontiguousarray(x).tobytes() == doomed for x in feeds.values()):
            process = sessions.program.process
            assert process is not None and process._proc is not None
            pid, send = process._proc.pid, process.send

            def killed_then_sent(*args, **kwargs):
                os.kill(pid, signal.SIGKILL)
                return send(*args, **kwargs)

            monkeypatch.setattr(process, "send", killed_then_sent)
        return run(session, feeds, outputs)

    monkeypatch.setattr(sessions, "run", killing_run)
    reruns = ort_dml.stats["crash_reruns"]
    results = ort_dml.run_many([(c.descriptor, list(c.inputs), c.feature_level) for c in cases])
    assert [c.id for c, r in zip(cases, results) if isinstance(r, BaseException)] == [victim.id]
    assert ort_dml.stats["crash_reruns"] - reruns == len(cases)  # the batch answered nothing: each case again alone
    for (case, theirs), mine in zip(ran, results):
        if case is not victim:
            assert not isinstance(mine, BaseException)
            assert (mine.status, output_bytes(mine)) == (theirs.status, output_bytes(theirs)), case.id

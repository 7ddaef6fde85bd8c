"""A backend with batch_size > 1 gets its cases through run_many, several at a time, judged one by one."""

from __future__ import annotations

import numpy as np
from dml_test_backends import AllLevels, Batching
from runner_helpers import EXAMPLES, case_lines, cli, env

from conformance.backends.base import RunResult
from conformance.cases.corpus import CASES_DIR, load
from conformance.judging.expectations import ends_the_process as known_issue_ends
from conformance.run.dispatch import execute
from conformance.run.execute import prefetch
from conformance.run.record import Category
from conformance.run.units import Work

CASES = [c for c in load([CASES_DIR / "examples", CASES_DIR / "curated"]).cases]


def works():
    return [Work(i, c) for i, c in enumerate(CASES)]


def test_prefetch_asks_run_many_for_every_valid_supported_case_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("DML_TEST_CALLS", str(tmp_path / "calls"))
    backend = Batching()
    answers = prefetch(works(), backend, None)
    valid = [w for w in works() if w.unit.valid]
    assert set(answers) == {w.index for w in valid}  # invalid cases go to check_descriptor, not run_many
    assert (tmp_path / "calls").read_text().split() == [str(len(valid))]
    records = [execute(w, backend, None, prefetched=answers.get(w.index)) for w in works()]
    assert all(r.category is not Category.ERROR for r in records), [r.reason for r in records]
    assert {r.category for r in records} <= {Category.PASS, Category.OBSERVED}


def test_a_case_a_known_issue_says_ends_the_process_is_left_out_of_the_batch():
    """DML_GATHER's heap damage (dml-gather-heap-corruption) ends the runner: such a case runs alone (execute_case
    calls run()), so that the batch's other cases are not run again one by one."""
    ends = known_issue_ends("directml")
    dying = [w for w in works() if w.unit.valid and ends(w.unit.descriptor)]
    assert [w.unit.id for w in dying] == ["GATHER-index-dimensions-8", "GATHER-index-dimensions-past-axis"]
    answers = prefetch(works(), Batching(), None, alone=ends)
    assert not {w.index for w in dying} & set(answers)
    assert {w.index for w in works() if w.unit.valid} - set(answers) == {w.index for w in dying}
    assert not any(known_issue_ends("onnxruntime-cpu")(w.unit.descriptor) for w in works())  # no such issue there


def test_a_backend_without_batches_is_not_prefetched():
    assert prefetch(works(), AllLevels(), None) == {}


def test_a_case_that_raised_inside_run_many_is_that_case_s_crash():
    case = next(c for c in CASES if c.valid)
    record = execute(Work(0, case), Batching(), None, prefetched=RuntimeError("the device fell over"))
    assert record.category is Category.CRASH
    assert "run_many() raised for this case RuntimeError: the device fell over" in record.reason


def test_run_many_raising_altogether_leaves_each_case_to_run(monkeypatch):
    backend = Batching()
    monkeypatch.setattr(backend, "run_many", lambda items: (_ for _ in ()).throw(OSError("lost")))
    assert prefetch(works(), backend, None) == {}
    record = execute(Work(0, next(c for c in CASES if c.valid)), backend, None)
    assert record.category is Category.ERROR and "not batched" in record.reason  # run() got it, alone


def test_a_prefetched_answer_is_judged_like_a_run_result():
    case = next(c for c in CASES if c.valid)
    wrong = [np.zeros_like(o) + 90 for o in case.expected.outputs]
    record = execute(Work(0, case), AllLevels(), None, prefetched=RunResult.ok(wrong))
    assert record.category is Category.FAIL


def test_through_the_cli_workers_get_whole_batches(tmp_path):
    calls = tmp_path / "calls"
    out = tmp_path / "out"
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:Batching",
        "--cases",
        str(EXAMPLES),
        "--jobs",
        "1",
        "--out",
        str(out),
        env_extra=env(DML_TEST_CALLS=str(calls)),
    )
    assert proc.returncode == 0, proc.stderr
    records = case_lines(next(out.glob("results-*.jsonl")))
    # None reached run() singly (that is an error); an example whose page leaves elements open (SCATTER-example-1's
    # repeated index, U-SCATTER-1) is observed.
    assert {r["category"] for r in records} <= {"pass", "observed"}
    assert "pass" in {r["category"] for r in records}
    sizes = [int(n) for n in calls.read_text().split()]
    assert sum(sizes) == len(records) and max(sizes) > 1


def test_live_examples_are_answered_in_one_batch(tmp_path, monkeypatch):
    from conformance.run.live import run_live
    from conformance.run.units import LiveUnit

    monkeypatch.setenv("DML_TEST_CALLS", str(tmp_path / "calls"))
    record = run_live(Work(0, LiveUnit("PADDING", 12, 0)), Batching(), level=None)
    assert record.category is Category.PASS, record.reason  # no example reached run() singly
    sizes = [int(n) for n in (tmp_path / "calls").read_text().split()]
    assert len(sizes) == 1 and sizes[0] >= 10


def test_an_unsupported_case_is_told_its_reason_by_prefetch_and_asked_once(monkeypatch):
    """prefetch asked unsupported_reason when choosing run_many's cases: the record says the backend's reason, as
    one never prefetched does, and the backend is not asked a second time (nor run)."""
    backend = Batching()
    asked: list[str] = []

    def unsupported_reason(descriptor, feature_level):
        asked.append(descriptor.operator)
        return "no PADDING here" if descriptor.operator.startswith("PADDING") else None

    monkeypatch.setattr(backend, "unsupported_reason", unsupported_reason)
    padding = [w for w in works() if w.unit.valid and w.unit.operator.startswith("PADDING")]
    assert padding
    answers = prefetch(padding, backend, None)
    assert len(asked) == len(padding)
    records = [execute(w, backend, None, prefetched=answers.get(w.index)) for w in padding]
    assert len(asked) == len(padding)
    assert {(r.category, r.reason) for r in records} == {(Category.UNSUPPORTED, "no PADDING here")}
    alone = execute(padding[0], backend, None)  # never prefetched: asked, and said the same
    assert (alone.category, alone.reason, len(asked)) == (Category.UNSUPPORTED, "no PADDING here", len(padding) + 1)

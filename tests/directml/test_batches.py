"""directml's batches against the fake runner (no Wine): a case's fault, refusal or stray write stays its own.

The run layer's path is followed as a worker follows it: `prefetch` (run_many over the valid cases), then
`execute_case` per case, which calls run() alone for a case its batch left without an answer.  The cases are
1-D FLOAT32 slices of the input's first elements, which the fake runner's echo answers right, so every case a
fault does not touch passes; FAKE_RUNNER_CASES picks the case that misbehaves by its input's length.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import oracle
from conformance.backends.base import BackendUnavailable
from conformance.backends.directml import DirectMLBackend
from conformance.backends.directml.process import RunnerProcess
from conformance.backends.directml.program import NativeProgram
from conformance.backends.directml.stack import Stack
from conformance.cases.corpus import Case, Expected
from conformance.run.execute import execute_case, prefetch
from conformance.run.record import Category
from conformance.run.units import Work
from oracle import FeatureLevel, TensorDesc

FAKE = Path(__file__).with_name("fake_runner.py")
LENGTHS = range(10, 20)  # case k's input has LENGTHS[k] elements: its name for FAKE_RUNNER_CASES
FAULTY = 4  # the case in the middle of the batch that misbehaves


class FakeNative(NativeProgram):
    """The runner's process layer, with the fake runner (this Python) as the child."""

    def __init__(self) -> None:  # no stack to find, nothing to build
        self.program, self.adapter, self.extra = "dml_runner", None, []
        self.stack = Stack(FAKE, "the fake runner")
        self.path, self.xserver, self.restarts, self.process, self.info = FAKE, None, 0, None, {}
        self.start()

    def _runner_process(self, display: str | None) -> RunnerProcess:
        return RunnerProcess([sys.executable, str(FAKE)], env=dict(os.environ), start_timeout=30)


def slice_case(n: int, *, valid: bool = True) -> Case:
    """DML_SLICE of the first n - 1 elements of [1, 1, 1, n]; invalid: an output tensor one too long (SLICE.3)."""
    x = (np.arange(n, dtype=np.float32) * np.float32(0.5)).reshape(1, 1, 1, n)
    out = TensorDesc.of("FLOAT32", (1, 1, 1, n - 1 if valid else n))
    desc = oracle.SliceDesc(TensorDesc.of("FLOAT32", x.shape), out, (0,) * 4, (1, 1, 1, n - 1), (1,) * 4)
    if valid:
        expected = Expected("valid", tuple(oracle.compute(desc, [x])))
    else:
        expected = Expected("invalid", clause="SLICE.3")
    return Case(
        f"SLICE-fake-{n}{'' if valid else '-invalid'}", "SLICE", FeatureLevel.parse("1.0"), desc, (x,), expected
    )


def name(n: int) -> str:
    """A case's name for FAKE_RUNNER_CASES: its input's sizes."""
    return f"1x1x1x{n}"


WORKS = [Work(k, slice_case(n)) for k, n in enumerate(LENGTHS)]


@pytest.fixture
def backend(request, monkeypatch):
    """The fake-runner backend; `request.param` (indirect): the faulty case's behaviour."""
    behaviour = getattr(request, "param", None)
    if behaviour:
        monkeypatch.setenv("FAKE_RUNNER_CASES", f'{{"{name(LENGTHS[FAULTY])}": "{behaviour}"}}')
    hang = behaviour == "hang"  # shorter limits, so that the hang costs seconds, not minutes
    dml = DirectMLBackend(native=FakeNative(), case_timeout=2.0 if hang else 30.0)
    dml.time_limit = 4.0 if hang else 60.0  # a batch may take half of it
    yield dml
    dml.close()


def run_as_a_worker(dml: DirectMLBackend, works: list[Work] = WORKS) -> tuple[list, dict]:
    answers = prefetch(works, dml, None)
    return [execute_case(w, dml, None, answers.get(w.index)) for w in works], answers


def test_a_batch_is_one_request_and_each_case_gets_its_own_answer(backend):
    records, answers = run_as_a_worker(backend)
    assert backend.stats["batches"] == 1 and backend.stats["requests"] == 0  # none ran alone
    assert set(answers) == {w.index for w in WORKS}
    assert [r.category for r in records] == [Category.PASS] * len(WORKS), [r.reason for r in records]
    assert all(r.timings["backend.batch"] == len(WORKS) for r in records)


@pytest.mark.parametrize(
    ("backend", "says"),
    [
        ("segfault", "killed by signal 11 (SIGSEGV)"),
        ("exit", "exit status 7"),
        ("hang", "did not answer run within the time limit"),
    ],
    indirect=["backend"],
)
def test_a_crash_in_the_middle_of_a_batch_costs_exactly_that_case(backend, says):
    records, answers = run_as_a_worker(backend)
    assert set(answers) == set(range(FAULTY))  # answered before the runner died; the rest ran alone
    assert backend.stats["requests"] == len(WORKS) - FAULTY
    faulty = records[FAULTY]
    assert faulty.category is Category.CRASH and says in faulty.reason, faulty.reason
    others = [r for r in records if r is not faulty]
    assert [r.category for r in others] == [Category.PASS] * (len(WORKS) - 1), [r.reason for r in others]


@pytest.mark.parametrize("backend", ["lost"], indirect=True)
def test_a_device_lost_in_a_batch_is_that_case_s_error_once_it_runs_alone(backend):
    records, answers = run_as_a_worker(backend)
    assert set(answers) == set(range(FAULTY))
    faulty = records[FAULTY]
    assert faulty.category is Category.ERROR and "0x887a0005 (DXGI_ERROR_DEVICE_REMOVED)" in faulty.reason
    assert "device lost; the runner is restarted" in faulty.reason
    assert all(r.category is Category.PASS for r in records if r is not faulty)


@pytest.mark.parametrize("backend", ["refuse"], indirect=True)
def test_a_refusal_in_a_batch_stays_that_case_s(backend):
    records, _ = run_as_a_worker(backend)
    assert backend.stats["batches"] == 1 and backend.stats["requests"] == 0  # nothing reran
    faulty = records[FAULTY]
    assert faulty.category is Category.REJECTED
    assert "IDMLDevice::CreateOperator returned 0x80070057 (E_INVALIDARG)" in faulty.reason
    assert all(r.category is Category.PASS for r in records if r is not faulty)


@pytest.mark.parametrize("backend", ["guard"], indirect=True)
def test_a_guard_byte_written_in_a_batch_is_judged_on_that_case_run_alone(backend):
    records, answers = run_as_a_worker(backend)
    assert set(answers) == {w.index for w in WORKS} - {FAULTY} and backend.stats["requests"] == 1
    faulty = records[FAULTY]
    n = LENGTHS[FAULTY] - 1  # elements in its output
    assert faulty.category is Category.FAIL
    assert (
        f"byte {4 * n} of its buffer was written (0xcd -> 0x01), past TotalTensorSizeInBytes={4 * n}" in faulty.reason
    )
    assert all(r.category is Category.PASS for r in records if r is not faulty)


@pytest.mark.parametrize("backend", ["clobber"], indirect=True)
def test_a_case_whose_inputs_were_overwritten_sends_its_whole_submission_to_run_alone(backend):
    records, answers = run_as_a_worker(backend)
    assert answers == {} and backend.stats["requests"] == len(WORKS)  # which case wrote there: each alone says
    assert all(r.category is Category.PASS for r in records)


def test_the_batch_size_follows_the_run_s_timeout(backend, monkeypatch):
    sent: list[int] = []
    original = backend.native.send
    monkeypatch.setattr(
        backend.native,
        "send",
        lambda header, payload=b"": (sent.append(len(header["cases"])), original(header, payload))[1],
    )
    backend.time_limit, backend.seconds_per_case = 1.0, 0.025  # a tenth of a second per batch: 4 cases
    records, _ = run_as_a_worker(backend)
    assert sent[0] == 4 and sum(sent) == len(WORKS)
    assert all(r.category is Category.PASS for r in records)


def test_one_by_one_sends_each_case_alone(monkeypatch):
    dml = DirectMLBackend(native=FakeNative(), one_by_one=True)
    try:
        records, answers = run_as_a_worker(dml)
        assert answers == {} and dml.stats == {**dml.stats, "batches": 0, "requests": len(WORKS)}
        assert all(r.category is Category.PASS for r in records)
    finally:
        dml.close()


def test_invalid_descriptors_are_checked_in_batches_each_refusal_its_own(monkeypatch):
    """check_only requests travel in batches too (check_many): a descriptor DirectML accepts fails alone."""
    invalid = [Work(k, slice_case(n, valid=False)) for k, n in enumerate(LENGTHS)]
    refused = {name(n): "refuse" for n in LENGTHS if n != LENGTHS[FAULTY]}  # the faulty one is accepted
    monkeypatch.setenv("FAKE_RUNNER_CASES", json.dumps(refused))
    dml = DirectMLBackend(native=FakeNative())
    try:
        records, answers = run_as_a_worker(dml, invalid)
        assert set(answers) == {w.index for w in invalid} and dml.stats["requests"] == 0
        assert all(
            r.category is Category.PASS and "rejected as expected (SLICE.3)" in r.reason
            for r in records
            if r is not records[FAULTY]
        )
        assert records[FAULTY].category is Category.FAIL and "accepted an invalid descriptor" in records[FAULTY].reason
    finally:
        dml.close()


def test_a_start_up_failure_names_the_display_the_child_had_and_its_last_stderr_lines(monkeypatch):
    """The display is the one the child was given (with a private Xvfb the message was once made after closing it:
    DISPLAY=None, in the one start-up failure CI has met), and Wine's last words are kept."""
    monkeypatch.setenv("FAKE_RUNNER_START", "fail-dxgi")

    class OnADisplay(FakeNative):
        def __init__(self) -> None:
            self.program, self.adapter, self.extra = "dml_runner", None, []
            self.stack = Stack(FAKE, "the fake runner", display=":73")
            self.path, self.xserver, self.restarts, self.process, self.info = FAKE, None, 0, None, {}
            self.start()

    with pytest.raises(BackendUnavailable) as raised:
        OnADisplay()
    message = str(raised.value)
    assert "dml_runner could not start: CreateDXGIFactory1 returned 0x887a0004 (DXGI_ERROR_UNSUPPORTED)" in message
    assert "(DISPLAY=:73, VK_ICD_FILENAMES=-)" in message
    assert "its last stderr lines: fake runner starting | err: a driver's own words" in message

"""Stop signals (conformance.run.stopping): noted, and acted on where the front end chooses."""

from __future__ import annotations

import os
import signal
import time

import pytest

from conformance.run.stopping import STOP_SIGNALS, Stop


def test_a_signal_is_only_noted_while_not_urgent_and_the_first_one_names_the_stop():
    previous = signal.getsignal(signal.SIGTERM)
    with Stop() as stop:
        assert stop() is None
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGINT)
        assert stop() == "SIGTERM"  # noted, nothing raised: the run decides where to stop
    assert signal.getsignal(signal.SIGTERM) is previous  # restored


def test_an_urgent_signal_interrupts_where_it_lands_and_is_noted_too():
    with Stop(urgent=lambda: True) as stop, pytest.raises(KeyboardInterrupt, match="SIGINT"):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)  # the handler runs here, at the latest
    assert stop.reason == "SIGINT"


def test_an_inherited_ignore_does_not_hide_a_stop():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with Stop() as stop:
            os.kill(os.getpid(), signal.SIGINT)
            assert stop() == "SIGINT"
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_sigint_and_sigterm_stop_a_run_everywhere():
    assert {signal.SIGINT, signal.SIGTERM} <= set(STOP_SIGNALS)


def test_exitfirst_records_exactly_one_failure_whatever_the_batch(tmp_path):
    """Issue 29: -x recorded 16 failures (a batch of 16 came back at once). It stops at the first: the rest of
    its batch is recorded `interrupted` saying why, never as failures of the run."""
    from runner_helpers import CURATED, cli

    from conformance.run.record import Category
    from conformance.run.results import read_results

    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:BatchedBitFlip",
        "--cases",
        str(CURATED),
        "-j",
        "1",
        "-x",
        "--out",
        str(tmp_path),
    )
    assert proc.returncode == 1, proc.stderr
    (results,) = tmp_path.glob("results-*.jsonl")
    run = read_results(results)
    failing = [r for r in run.records if r.category.failing]
    assert len(failing) == 1, [r.id for r in failing]
    held = [r for r in run.records if r.category is Category.INTERRUPTED and r.reason.startswith("-x: ran in the same")]
    assert held and all(failing[0].id in r.reason for r in held)
    assert run.footer is not None and run.footer.stopped == f"-x: stopped at the first failure ({failing[0].id})"

"""The runner process layer against a fake runner: frames, crashes, hangs, restarts (no Wine needed)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conformance.backends.directml.process import RunnerDied, RunnerProcess, RunnerTimeout, describe_exit

FAKE = [sys.executable, str(Path(__file__).with_name("fake_runner.py"))]


@pytest.fixture
def runner():
    process = RunnerProcess(FAKE, start_timeout=30)
    assert process.start() == {"status": "ready"}
    yield process
    process.kill()


def run(process: RunnerProcess, behaviour: str, payload: bytes = b"abc", timeout: float = 30):
    return process.request({"op": "run", "fields": {"fake": behaviour}}, payload, timeout=timeout)


def test_a_request_and_its_payload_come_back_whole(runner):
    payload = bytes(range(256)) * 4099  # larger than a pipe buffer: read in several chunks
    header, data = run(runner, "echo", payload)
    assert header["status"] == "ok" and header["output_bytes"] == [len(payload)]
    assert data == payload


@pytest.mark.parametrize(
    ("behaviour", "status"), [("segfault", "killed by signal 11 (SIGSEGV)"), ("exit", "exit status 7")]
)
def test_a_dying_runner_names_its_exit_status_and_last_stderr_lines(runner, behaviour, status):
    with pytest.raises(RunnerDied) as info:
        run(runner, behaviour)
    assert status in str(info.value)
    assert f"fake runner: {behaviour}" in info.value.stderr  # its last words are kept
    assert not runner.alive


@pytest.mark.skipif(sys.platform == "win32", reason="Windows: the reader ends at EOF (its pipes cannot be polled)")
def test_last_stderr_lines_are_kept_when_a_process_the_runner_started_holds_the_pipe(runner):
    # As under Wine, where the wineserver and Wine's services inherit the stderr of the runner that started them:
    # EOF never comes, and the lines are kept from the pipe once the runner has exited.
    with pytest.raises(RunnerDied) as info:
        run(runner, "exit-held")
    assert "exit status 9" in str(info.value)
    assert [line for line in info.value.stderr if "last words" in line] == [
        f"fake runner: last words {k}" for k in range(30)
    ]
    assert not runner.alive


def test_a_hung_runner_times_out_and_is_killed(runner):
    with pytest.raises(RunnerTimeout) as info:
        run(runner, "hang", timeout=1.0)
    assert isinstance(info.value, TimeoutError)
    assert "killed after the time limit" in str(info.value)
    assert not runner.alive


def test_a_stream_out_of_step_is_a_dead_runner_not_a_wrong_answer(runner):
    with pytest.raises(RunnerDied, match="not JSON"):
        run(runner, "garbage")
    assert not runner.alive


def test_after_a_crash_a_new_runner_serves_the_next_request(runner):
    with pytest.raises(RunnerDied):
        run(runner, "exit")
    assert runner.start() == {"status": "ready"}
    assert run(runner, "echo", b"xyz")[1] == b"xyz"


def test_start_up_that_hangs_is_a_timeout(monkeypatch):
    monkeypatch.setenv("FAKE_RUNNER_START", "hang")
    process = RunnerProcess(FAKE, env=dict(os.environ), start_timeout=1.0)
    with pytest.raises(RunnerTimeout, match="start-up"):
        process.start()
    assert not process.alive


def test_close_asks_the_runner_to_quit(runner):
    runner.close()
    assert not runner.alive


def test_a_missing_program_is_a_clear_error():
    with pytest.raises(RunnerDied, match="cannot start /nonexistent/runner"):
        RunnerProcess(["/nonexistent/runner"]).start()


def test_exit_statuses_are_described():
    assert describe_exit(-9) == "killed by signal 9 (SIGKILL)"
    assert describe_exit(0xC0000005) == "exit status 0xc0000005"
    assert describe_exit(None) == "still running"


def test_an_answer_larger_than_the_descriptor_allows_is_not_read(runner):
    with pytest.raises(
        RunnerDied,
        match=r"announced 1099511627776 bytes of outputs, but the descriptor's output "
        r"tensors hold at most 64: not read",
    ):
        runner.request({"op": "run", "fields": {"fake": "oversize"}}, b"", timeout=30, max_payload=64)
    assert not runner.alive

"""Cases in worker processes: whatever a backend does, the run finishes and every case has its record.

One run of `dml_test_backends:Hostile` over the worked examples, each example doing a different
harm (segfault, os._exit, sys.exit, SIGKILL, a hang releasing the GIL and one holding it,
raising, bad RunResults), shows that the fault lands on the right case, the other cases still
run, the process exits with the documented code, and the backend is never called twice at
once in one process.
"""

from __future__ import annotations

import contextlib
import io
import json
import time

import pytest
from processes import alive
from runner_helpers import EXAMPLES, TRACEBACK, case_lines, cli, example_category, faults_file, lines

from conformance.run.pool import Pool

FAULTS = {
    "SLICE-example-1": "segfault",
    "SLICE-example-2": "os_exit",
    "SLICE1-example-1": "hang",
    "SLICE1-example-2": "hang_gil",
    "PADDING-example-1": "sys_exit",
    "PADDING-example-2": "kill",
    "PADDING-example-3": "raise",
    "PADDING-example-4": "ok_none",
    "SPLIT-example-1": "nan_timing",
    "SPLIT-example-2": "surrogate",
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    waivers = tmp / "waivers.json"
    waivers.write_text(json.dumps({"waivers": [{"id": "SLICE-example-1", "reason": "known segfault, bug 7"}]}))
    calls = tmp / "calls.jsonl"
    started = time.monotonic()
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:Hostile",
        "--cases",
        str(EXAMPLES),
        "--out",
        str(tmp / "out"),
        "--timeout",
        "2",
        "--jobs",
        "2",
        "--expectations",
        str(waivers),
        env_extra={"DML_TEST_FAULTS": str(faults_file(tmp, FAULTS)), "DML_TEST_CALLS": str(calls)},
        timeout=90,
    )
    elapsed = time.monotonic() - started
    (results,) = (tmp / "out").glob("results-*.jsonl")
    records = {r["id"]: r for r in case_lines(results)}
    return proc, results, records, calls, elapsed


def test_the_run_finishes_with_one_record_per_case_and_exit_1(hostile):
    proc, results, records, _, elapsed = hostile
    assert proc.returncode == 1, proc.stderr
    assert sorted(records) == sorted(p.stem for p in EXAMPLES.glob("*.json"))
    assert len(case_lines(results)) == len(records)  # no duplicates
    assert lines(results)[-1]["kind"] == "footer"
    assert TRACEBACK not in proc.stderr
    assert elapsed < 60


@pytest.mark.parametrize(
    ("case_id", "category", "crash"),
    [
        ("SLICE-example-2", "crash", {"exit_code": 7}),
        ("PADDING-example-2", "crash", {"signal": 9, "signal_name": "SIGKILL"}),
    ],
)
def test_a_dying_worker_costs_the_case_in_flight(hostile, case_id, category, crash):
    record = hostile[2][case_id]
    assert record["category"] == category
    assert {k: record["crash"].get(k) for k in crash} == crash
    assert any("hostile: doing" in line for line in record["crash"]["stderr"])  # the worker's last stderr lines


def test_a_segfault_is_a_crash_and_a_waiver_matches_it(hostile):
    record = hostile[2]["SLICE-example-1"]
    assert record["category"] == "waived" and record["waived_category"] == "crash"
    assert record["crash"]["signal_name"] == "SIGSEGV" and "SIGSEGV" in record["reason"]


def test_sys_exit_and_raising_are_crashes_with_the_real_error(hostile):
    records = hostile[2]
    assert records["PADDING-example-1"]["category"] == "crash"
    assert "SystemExit: 5" in records["PADDING-example-1"]["reason"]
    assert records["PADDING-example-3"]["category"] == "crash"
    assert "backend.run() raised RuntimeError: driver exploded" in records["PADDING-example-3"]["reason"]


@pytest.mark.parametrize("case_id", ["SLICE1-example-1", "SLICE1-example-2"])
def test_hangs_time_out_whether_or_not_they_hold_the_gil(hostile, case_id):
    record = hostile[2][case_id]
    assert record["category"] == "timeout" and "no answer within 2 s" in record["reason"]
    assert "killed and replaced" in record["reason"]


def test_bad_run_results_are_errors_naming_what_is_wrong(hostile):
    records = hostile[2]
    assert records["PADDING-example-4"]["category"] == "error"
    assert "RunResult.outputs is None, not a list of numpy arrays" in records["PADDING-example-4"]["reason"]
    timing = records["SPLIT-example-1"]
    assert timing["category"] == "pass"  # timings and notes are informational: cleaned, never the verdict
    assert any("device_s" in n and "dropped" in n for n in timing["notes"])
    assert "backend.device_s" not in timing["timings"]


def test_a_lone_surrogate_and_control_characters_are_stored_and_rendered_safely(hostile):
    _, results, records, _, _ = hostile
    reason = records["SPLIT-example-2"]["reason"]
    assert records["SPLIT-example-2"]["category"] == "error"
    assert "\ufffd" in reason and "\\x1b[31mred" in reason and "\x1b" not in reason
    report = next(results.parent.glob("report-*.html")).read_text(encoding="utf-8")
    assert "driver said \ufffd" in report and "\x1b" not in report
    assert not [p for p in results.parent.iterdir() if p.name.endswith(".tmp")]


def test_never_two_calls_at_once_in_one_worker_and_no_worker_left(hostile):
    calls = [json.loads(line) for line in hostile[3].read_text().splitlines()]
    by_pid: dict[int, list[dict]] = {}
    for c in calls:
        by_pid.setdefault(c["pid"], []).append(c)
    for pid, events in by_pid.items():
        depth = 0
        for e in events:  # appended in time order by the one process
            depth += 1 if e["what"] == "start" else -1
            assert depth in (0, 1), f"worker {pid} entered the backend twice at once"
        assert not alive(pid), f"worker {pid} outlived the run"
    # Every fatal fault ended its worker: the cases after it ran in other processes.
    fatal = [
        c["pid"]
        for c in calls
        if c["what"] == "start" and c["fault"] in ("segfault", "os_exit", "sys_exit", "kill", "hang", "hang_gil")
    ]
    assert len(set(fatal)) == len(fatal) == 6


def test_a_slow_constructor_does_not_count_against_the_case_timeout(tmp_path):
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:SlowConstructor",
        "--cases",
        str(EXAMPLES / "SLICE-example-1.json"),
        "--out",
        str(tmp_path),
        "--timeout",
        "0.5",
        env_extra={"DML_TEST_CONSTRUCT": "1.5"},
    )
    assert proc.returncode == 0, proc.stderr
    assert [r["category"] for r in case_lines(next(tmp_path.glob("results-*.jsonl")))] == ["pass"]


@pytest.mark.parametrize(
    ("backend", "message"),
    [
        ("dml_test_backends:Unavailable", "unavailable needs the Acme driver: install acme-dml"),
        ("dml_test_backends:ExitsInConstructor", "called sys.exit(5)"),
        ("builtins:exit", "builtins:exit called sys.exit(None)"),
        ("dml_test_backends:DiesInConstructor", "exited with code 9 while constructing"),
        ("dml_test_backends:NotABackend", "not a subclass of conformance.backends.base.Backend"),
        ("no_such_module:Backend", "cannot import module 'no_such_module'"),
    ],
)
def test_a_backend_that_cannot_start_is_exit_2_with_its_message(tmp_path, backend, message):
    proc = cli("run", "--backend", backend, "--cases", str(EXAMPLES), "--out", str(tmp_path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr and TRACEBACK not in proc.stderr
    assert not list(tmp_path.glob("results-*"))  # no case ran, nothing to keep


def test_the_built_in_backends_are_the_entry_points_pyproject_registers():
    """A run naming a built-in backend imports registry.BUILT_IN's `module:Class` without reading the installed
    entry points: the two must name the same classes (and the installed metadata must have them too)."""
    from importlib.metadata import entry_points
    from pathlib import Path

    from conformance.backends.registry import BUILT_IN, resolve_backend

    tomllib = pytest.importorskip("tomllib")
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert pyproject["project"]["entry-points"]["dml_conformance.backends"] == BUILT_IN
    installed = {ep.name: ep.value for ep in entry_points(group="dml_conformance.backends")}
    assert {name: installed.get(name) for name in BUILT_IN} == BUILT_IN
    factory = resolve_backend("oracle")
    assert (factory.target, factory.factory.__name__, factory.name) == (BUILT_IN["oracle"], "OracleBackend", "oracle")


@pytest.mark.parametrize(
    ("backend", "message"),
    [
        ("../../x:Y", "backend '../../x:Y' is neither an installed backend's name nor module:Class"),
        ("C:\\dml\\mine.py:Backend", "is neither an installed backend's name nor module:Class"),
        ("dml_test_backends:", "is neither an installed backend's name nor module:Class"),
        ("dml_test_broken_module:Backend", "importing module 'dml_test_broken_module' of backend"),
        ("dml_test_backends:Nope.Deeper", "module 'dml_test_backends' has no attribute 'Nope.Deeper'"),
    ],
)
def test_a_backend_spec_that_names_nothing_importable_is_one_line_exit_2(tmp_path, backend, message):
    proc = cli("run", "--backend", backend, "--cases", str(EXAMPLES), "--out", str(tmp_path))
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not list(tmp_path.glob("results-*"))


def test_an_exhausted_backend_gets_a_fresh_worker_and_no_case_is_blamed(tmp_path):
    proc = cli(
        *("run", "--backend", "dml_test_backends:Exhausts", "--cases", str(EXAMPLES), "--out", str(tmp_path)),
        *("--jobs", "1", "--report", "none"),
    )
    assert proc.returncode == 0, proc.stderr
    records = lines(next(tmp_path.glob("results-*.jsonl")))
    cases = [r for r in records if r["kind"] == "case"]
    assert all(r["category"] == example_category(r["id"]) for r in cases)
    assert len(cases) == len(list(EXAMPLES.glob("*.json")))
    pids = {r["notes"][0] for r in cases if r.get("notes")}
    assert len(pids) >= 3  # 10 valid examples, a fresh worker after at most 3 valid ones each
    assert not records[-1].get("warnings"), records[-1]


def test_max_jobs_caps_the_workers(tmp_path):
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:OneAtATime",
        "--cases",
        str(EXAMPLES),
        "--out",
        str(tmp_path),
        "--jobs",
        "4",
    )
    assert proc.returncode == 0, proc.stderr
    assert "1 case worker(s)" in proc.stderr
    assert len({r["notes"][0] for r in case_lines(next(tmp_path.glob("results-*.jsonl")))}) == 1


def test_backend_options_reach_the_constructor_and_the_header(tmp_path):
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:WithOptions",
        "--dml-dll",
        "C:/dml/DirectML.dll",
        "--adapter",
        "1",
        "--cases",
        str(EXAMPLES / "SLICE-example-1.json"),
        "--out",
        str(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    header = lines(next(tmp_path.glob("results-*.jsonl")))[0]
    assert header["backend_options"] == {"dml_dll": "C:/dml/DirectML.dll", "adapter": "1"}
    assert header["backend_versions"] == {"dml_dll": "C:/dml/DirectML.dll", "adapter": "1"}
    assert "--dml-dll C:/dml/DirectML.dll --adapter 1" in header["repro"]


@pytest.mark.parametrize("option", [["--dml-dll", "x.dll"], ["--adapter", "0"]])
def test_an_option_the_backend_does_not_take_is_a_usage_error(tmp_path, option):
    proc = cli("run", "--backend", "oracle", *option, "--out", str(tmp_path))
    assert proc.returncode == 2
    assert f"{option[0]}: backend oracle does not take this option" in proc.stderr


def test_close_raising_and_odd_versions_are_warnings_not_a_lost_run(tmp_path):
    proc = cli("run", "--backend", "dml_test_backends:BadExtras", "--cases", str(EXAMPLES), "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "backend.close() raised RuntimeError: close exploded" in proc.stderr
    results = lines(next(tmp_path.glob("results-*.jsonl")))
    assert results[0]["backend_versions"]["nan"] == "nan" and results[-1]["kind"] == "footer"
    assert any("close exploded" in w for w in results[-1]["warnings"])


def test_a_construction_that_never_ends_is_stopped_by_its_own_limit():
    pool = Pool("dml_test_backends:SlowConstructor", {}, jobs=1, timeout=0.2, construct_timeout=0.5)
    import os

    os.environ["DML_TEST_CONSTRUCT"] = "30"
    try:
        from conformance.run.pool import BackendStartError

        with pytest.raises(BackendStartError, match=r"did not finish constructing within 0\.5 s"):
            pool.start()
    finally:
        del os.environ["DML_TEST_CONSTRUCT"]
        pool.close(grace=1)
    assert all(not alive(w.proc.pid) for w in pool.workers)


def test_a_segfault_in_a_live_hypothesis_example_is_that_example_s(tmp_path):
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:SegfaultsOnSplit",
        "--operators",
        "SPLIT",
        "--generated",
        "0",
        "--hypothesis-examples",
        "5",
        # The live example and the worked examples' SPLITs: every stored SPLIT would cost a worker each, and say the same.
        "-k",
        "hypothesis or example",
        "--out",
        str(tmp_path),
    )
    assert proc.returncode == 1, proc.stderr
    records = {r["id"]: r for r in case_lines(next(tmp_path.glob("results-*.jsonl")))}
    live = records["hypothesis-SPLIT"]
    assert live["category"] == "crash" and live["crash"]["signal_name"] == "SIGSEGV"
    assert live["case_json"]["operator"] == "SPLIT" and live["case_json"]["id"] in live["reason"]
    # Each stored SPLIT case on its own (the graph compositions around them go through run_graph, which is fine).
    valid = [r for r in records.values() if r["outcome"] == "valid" and ".graph-" not in r["id"]]
    assert len(valid) > 1 and all(r["category"] == "crash" for r in valid)


def test_a_worker_dying_in_a_batch_blames_only_the_case_that_dies_alone(tmp_path):
    """The backend runs a batch at once and dies on it: which case did it is unknown, so the batch's cases run again
    each on its own, and only the SPLITs (the ones that die alone) are crashes."""
    proc = cli(
        *("run", "--backend", "dml_test_backends:BatchSegfaultsOnSplit", "--jobs", "1"),
        *("--cases", str(EXAMPLES), "--out", str(tmp_path)),
    )
    assert proc.returncode == 1, proc.stderr
    records = case_lines(next(tmp_path.glob("results-*.jsonl")))
    assert len(records) == len(list(EXAMPLES.glob("*.json")))
    crashed = sorted(r["id"] for r in records if r["category"] == "crash")
    assert crashed == ["SPLIT-example-1", "SPLIT-example-2"]
    assert all(r["crash"]["signal_name"] == "SIGSEGV" for r in records if r["category"] == "crash")
    assert all(r["category"] == example_category(r["id"]) for r in records if r["category"] != "crash")


def test_a_selection_that_fails_stops_the_worker_started_beside_it(monkeypatch, tmp_path):
    """The CLI starts its first worker while the selection is built (Session(prestart=True)); a selection that
    ends in a usage error leaves no worker running."""
    from conformance.run.config import RunConfig, UsageError
    from conformance.run.session import Session

    prestarted: list[Pool] = []
    original = Pool.prestart

    def spy(pool: Pool, count: int = 1) -> None:
        original(pool, count)
        prestarted.append(pool)

    monkeypatch.setattr(Pool, "prestart", spy)
    config = RunConfig.from_values(
        {"backend": "dml_test_backends:AllLevels", "cases": [str(EXAMPLES)], "case": ["NOPE"], "out": str(tmp_path)}
    )
    with pytest.raises(UsageError, match="no case matches NOPE"):
        Session(config, prestart=True)
    (pool,) = prestarted
    assert len(pool.workers) == 1 and all(w.dead and w.proc.poll() is not None for w in pool.workers)


def test_the_cli_runs_on_its_spares_and_a_refused_run_leaves_none(monkeypatch, tmp_path):
    """The CLI starts spare workers before its checks (conformance.run.spawn): a run takes them as its workers (its
    pool starts no other); a run refused for a bad option ends them, says one line and writes nothing."""
    from conformance import cli as front_end
    from conformance.run import pool as pool_module
    from conformance.run import spawn
    from conformance.run.spawn import default_jobs

    started: list[list] = []  # each Spares' processes, as started
    original = spawn.Spares.__init__

    def spy(self: spawn.Spares, count: int) -> None:
        original(self, count)
        started.append(list(self.trees))

    monkeypatch.setattr(spawn.Spares, "__init__", spy)
    monkeypatch.setattr(pool_module, "start_worker", lambda: pytest.fail("the pool started a worker of its own"))
    base = ["run", "--backend", "dml_test_backends:AllLevels", "--cases", str(EXAMPLES), "-j", "2"]
    assert front_end.main([*base, "--out", str(tmp_path / "ok"), "--report", "none"]) == 0
    assert len(started[0]) == min(2, default_jobs())
    assert all(t.proc.poll() is not None for t in started[0])  # the pool closed them at the run's end

    out = tmp_path / "refused"
    code, err = _main_err(front_end, [*base, "--out", str(out), "--expectations", str(tmp_path / "missing.json")])
    assert code == 2 and len(err.splitlines()) == 1 and "--expectations" in err
    assert not out.exists() and len(started[1]) == len(started[0])
    assert all(t.proc.poll() is not None for t in started[1])


def _main_err(front_end, argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = front_end.main(argv)
    return code, err.getvalue()


def test_a_worker_with_nothing_left_to_run_closes_before_the_last_one_ends(monkeypatch):
    """close_idle (Session.run, once every unit is submitted): the idle worker closes its backend and exits while the
    other still runs, so that a run's end waits for the last worker only; the run's records are all there."""
    from conformance.cases.corpus import load
    from conformance.run.units import Work

    monkeypatch.setenv("DML_TEST_DELAY", "1.0")
    works = [Work(i, c) for i, c in enumerate(load([EXAMPLES]).cases[:2])]
    pool = Pool("dml_test_backends:Slow", {}, jobs=2, timeout=60)
    try:
        pool.start()
        while not all(w.ready for w in pool.workers):
            pool.poll(0.1)
        pool.submit(works)  # a batch of both for one worker: the other has nothing
        idle = [w for w in pool.workers if not w.assigned]
        assert len(idle) == 1
        pool.close_idle()
        assert idle[0].proc.wait(timeout=1.5) == 0 and pool.busy
        records = []
        while pool.busy:
            records += pool.poll(0.1)
    finally:
        warnings = pool.close(grace=5)
    assert sorted(r.index for r in records) == [0, 1] and warnings == []
    assert all(not alive(w.proc.pid) for w in pool.workers)

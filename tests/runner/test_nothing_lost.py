"""Nothing lost: concurrent runs, reports that never replace results, signals, a full disk, and bad inputs.

Every bad input exits 2 with a message naming the file, option or JSON path, and no traceback.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import alive
from runner_helpers import EXAMPLES, TRACEBACK, case_lines, cli, env, lines

from conformance.run.results import read_results

GOOD = EXAMPLES / "SLICE-example-1.json"


def _popen(*args: str, **env_extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(**env_extra),
    )


def _wait_for_cases(folder: Path, n: int, proc: subprocess.Popen, limit: float = 60) -> Path:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        files = list(folder.glob("results-*.jsonl"))
        if files and files[0].read_text().count('"kind":"case"') >= n:
            return files[0]
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError(f"fewer than {n} cases recorded in {limit} s")


def test_two_runs_started_together_into_one_folder_both_keep_everything(tmp_path):
    args = ("run", "--backend", "dml_test_backends:Slow", "--cases", str(EXAMPLES), "--out", str(tmp_path))
    procs = [_popen(*args, DML_TEST_DELAY="0.01") for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    results = sorted(tmp_path.glob("results-*.jsonl"))
    reports = sorted(tmp_path.glob("report-*.html"))
    assert len(results) == 2 and len(reports) == 2
    for path in results:
        run = read_results(path)
        assert run.complete and len(run.records) == len(list(EXAMPLES.glob("*.json")))
    assert not list(tmp_path.glob(".*.tmp")) and not list(tmp_path.glob("*.tmp"))


def test_report_never_replaces_results_or_other_files(good_run, tmp_path):
    results = good_run[1]
    before = results.read_bytes()
    onto_results = cli("report", str(results), "-o", str(results))
    assert onto_results.returncode == 2 and "is an input of this command (RESULTS)" in onto_results.stderr
    assert results.read_bytes() == before
    notes = tmp_path / "notes.html"
    notes.write_text("<!DOCTYPE html><p>my notes</p>")
    onto_other = cli("report", str(results), "-o", str(notes))
    assert onto_other.returncode == 2 and "is not a dml-conformance report" in onto_other.stderr
    assert notes.read_text() == "<!DOCTYPE html><p>my notes</p>"
    fresh = tmp_path / "missing" / "folder" / "r.html"
    assert cli("report", str(results), "-o", str(fresh)).returncode == 0
    assert cli("report", str(results), "-o", str(fresh)).returncode == 0  # a report may replace a report
    onto_folder = cli("report", str(results), "-o", str(tmp_path))
    assert onto_folder.returncode == 2 and "is a folder" in onto_folder.stderr and TRACEBACK not in onto_folder.stderr
    assert not list(fresh.parent.glob(".*tmp"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_report_into_a_read_only_folder_is_exit_2(good_run, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    proc = cli("report", str(good_run[1]), "-o", str(locked / "r.html"))
    assert proc.returncode == 2 and "permission denied" in proc.stderr and TRACEBACK not in proc.stderr


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_workers_and_leaves_a_partial_report(tmp_path, signum):
    # The third case hangs once started: the signal arrives with it in flight, two finished, seven not started.
    mark = tmp_path / "third-case-started"
    proc = _popen(
        *("run", "--backend", "dml_test_backends:Hangs", "--cases", str(EXAMPLES), "--out", str(tmp_path)),
        *("--jobs", "1"),
        DML_TEST_MARK=str(mark),
    )
    deadline = time.monotonic() + 120
    while not mark.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    workers = _worker_pids(proc.pid)
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1, stderr
    assert TRACEBACK not in stderr
    records = lines(next(tmp_path.glob("results-*.jsonl")))
    footer = records[-1]
    assert footer["kind"] == "footer" and footer["interrupted"] and footer["stopped"] == signum.name
    categories = sorted(r["category"] for r in records if r["kind"] == "case")
    assert categories == ["interrupted", "pass", "pass"]
    assert footer["not_run"] == len(list(EXAMPLES.glob("*.json"))) - 3
    report = next(tmp_path.glob("report-*.html")).read_text()
    assert "v-INCOMPLETE" in report and "interrupted" in report
    assert workers and not any(alive(p) for p in workers)


def test_a_full_disk_stops_the_run_with_a_clear_message_and_readable_results(tmp_path):
    def limit_file_size() -> None:  # a disk that fills up after the header and a few records
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        # the header alone is 55 KB at 26 operators (the clause and errata texts the report reads from it)
        resource.setrlimit(resource.RLIMIT_FSIZE, (62_000, 62_000))

    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "run",
            "--backend",
            "dml_test_backends:AllLevels",
            "--cases",
            str(EXAMPLES),
            "--cases",
            str(EXAMPLES.parent / "curated"),
            "--out",
            str(tmp_path),
            "--jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        env=env(),
        preexec_fn=limit_file_size,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "cannot write" in proc.stderr and "File too large" in proc.stderr and TRACEBACK not in proc.stderr
    assert "the lines written before are readable" in proc.stderr
    (results,) = tmp_path.glob("results-*.jsonl")
    run = read_results(results)
    assert 0 < len(run.records) < 40 and run.verdict().value == "INCOMPLETE"
    assert {r.category.value for r in run.records} <= {"pass", "observed"}  # no innocent case blamed


def _cases_dir(tmp_path: Path, **files: str | bytes) -> Path:
    folder = tmp_path / "cases"
    folder.mkdir(exist_ok=True)
    (folder / "good.json").write_text(GOOD.read_text())
    for name, content in files.items():
        path = folder / name
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
    return folder


def _case_with(**changes) -> str:
    obj = json.loads(GOOD.read_text())
    for dotted, value in changes.items():
        target = obj
        *head, last = dotted.split("__")
        for key in head:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value
    obj["id"] = "SLICE-changed"
    return json.dumps(obj)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"deep.json": "[" * 100_000}, "deep.json: $: JSON nested too deeply"),
        (
            {"null.json": _case_with(inputs__0__data_type=None)},
            "null.json: $.inputs[0].data_type: expected a data type name",
        ),
        (
            {"wrong.json": _case_with(expected__outputs__0__values=[1, 8, 11, 12, 15, 16])},
            "wrong.json: $.expected.outputs[0]: element [0,0,0,0] is 1.0 (0x3f800000), but the oracle computes 7.0 "
            "(0x40e00000); 1 element(s) differ",
        ),
        ({"bom.json": b"\xef\xbb\xbf" + GOOD.read_bytes()}, "bom.json: $: the file is UTF-8 with a byte-order mark"),
    ],
)
def test_bad_case_files_are_named_and_the_good_cases_still_run(tmp_path, files, message):
    proc = cli(
        "run", "--backend", "oracle", "--cases", str(_cases_dir(tmp_path, **files)), "--out", str(tmp_path / "o")
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr and TRACEBACK not in proc.stderr
    records = case_lines(next((tmp_path / "o").glob("results-*.jsonl")))
    assert [(r["id"], r["category"]) for r in records] == [("SLICE-example-1", "pass")]


def test_a_fifo_among_the_case_files_does_not_hang_the_load(tmp_path):
    folder = _cases_dir(tmp_path)
    os.mkfifo(folder / "pipe.json")
    proc = cli("run", "--backend", "oracle", "--cases", str(folder), "--out", str(tmp_path / "o"), timeout=60)
    assert proc.returncode == 2 and "pipe.json: $: is a FIFO, not a JSON file" in proc.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "--seed", "-1"], "--seed: -1 is out of range: expected 0.."),
        (["run", "--timeout", "inf"], "expected a finite number of seconds"),
        (["run", "--timeout", "nan"], "expected a finite number of seconds"),
        (["run", "--timeout", "-1"], "expected a finite number of seconds"),
        (["run", "--jobs", "0"], "--jobs: 0 is out of range: expected 1..1024"),
        (["run", "--shard", "4/3"], "expected I/N with 1 <= I <= N"),
        (["run", "--shard", "x"], "expected I/N with 1 <= I <= N"),
        (["run", "--out", "{afile}"], "--out: {afile} is a file, not a folder"),
        (["run", "--results", "{afile}"], "exists; results files are never overwritten"),
        (["run", "--report", "{tmp}"], "--report: {tmp} is a folder"),
        (["cases", "list", "--operators", "BAD"], "'BAD' is not one of SLICE, SLICE1, PADDING, SPLIT"),
        (["cases", "generate", "--out", "{afile}"], "--out: {afile} is a file, not a folder"),
        (["cases", "generate", "--count", "-5"], "-5 is out of range: expected a count >= 1"),
        (["explain", "X", "--seed", "-3"], "--seed: -3 is out of range"),
        (["run", "--expectations", "{u16}"], "--expectations: {u16}: the file is UTF-16"),
    ],
)
def test_bad_options_exit_2_naming_the_option(tmp_path, args, message):
    afile = tmp_path / "afile"
    afile.write_text("x")
    u16 = tmp_path / "u16.json"
    u16.write_text('{"waivers": []}', encoding="utf-16")
    fill = {"afile": str(afile), "tmp": str(tmp_path), "u16": str(u16)}
    proc = cli(
        *[a.format(**fill) for a in args], *(["--backend", "oracle", "--cases", str(GOOD)] if args[0] == "run" else [])
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message.format(**fill) in proc.stderr and TRACEBACK not in proc.stderr


def _results_file(tmp_path: Path, header: dict | None = None, record: dict | None = None) -> Path:
    path = tmp_path / "r.jsonl"
    head = {"kind": "header", "format": "dml-conformance-results", "format_version": 2, "backend": "x"}
    rows = [
        {**head, **(header or {})},
        {"kind": "case", "id": "SLICE-1", "operator": "SLICE", "category": "pass", **(record or {})},
    ]
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if v is not ...}) + "\n" for r in rows))
    return path


_MISMATCH = {"output": "0", "coordinate": [0], "expected": "1", "actual": "2", "expected_hex": "1", "actual_hex": "2"}


@pytest.mark.parametrize(
    ("header", "record", "message"),
    [
        ({"format_version": "2"}, None, "r.jsonl:1: $.format_version: expected an integer, got '2'"),
        ({"format_version": None}, None, "r.jsonl:1: $.format_version: expected an integer, got None"),
        ({"format_version": 9}, None, "format_version 9 is newer than this reader"),
        (None, {"id": ...}, "r.jsonl:2: $: missing field 'id'"),
        (None, {"operator": ...}, "r.jsonl:2: $: missing field 'operator'"),
        (None, {"rank": "x"}, "r.jsonl:2: $.rank: expected an integer, got 'x'"),
        (None, {"category": "great"}, "r.jsonl:2: $.category: expected one of pass, fail"),
        (None, {"clauses": [1]}, "r.jsonl:2: $.clauses[0]: expected a string, got 1"),
        (None, {"mismatch": {"equal": False, "first": [_MISMATCH]}}, "r.jsonl:2: $.mismatch.first[0].output"),
        (None, {"mismatch": {"equal": False, "first": [{}]}}, "r.jsonl:2: $.mismatch.first[0]: missing fields"),
        ({"backend_versions": []}, None, "r.jsonl:1: $.backend_versions: expected an object"),
    ],
)
def test_malformed_results_files_are_exit_2_naming_line_and_field(tmp_path, header, record, message):
    proc = cli("report", str(_results_file(tmp_path, header, record)), "-o", str(tmp_path / "r.html"))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr and TRACEBACK not in proc.stderr


def test_a_version_1_results_file_still_reads(tmp_path):
    path = tmp_path / "v1.jsonl"
    header = {
        "kind": "header",
        "format": "dml-conformance-results",
        "format_version": 1,
        "backend": "old",
        "backend_spec": "old",
        "tables": {"operators": ["SLICE"]},
    }
    rows = [
        header,
        {"kind": "start", "id": "SLICE-a"},
        {
            "kind": "case",
            "id": "SLICE-a",
            "operator": "SLICE",
            "data_type": "FLOAT32",
            "rank": 1,
            "clauses": [],
            "tags": [],
            "unspecified": [],
            "category": "pass",
            "reason": "bit-exact",
            "mismatch": {"equal": True, "problems": [], "count": 0, "nan_payload_only": False, "first": []},
        },
        {"kind": "start", "id": "SLICE-b"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    run = read_results(path)
    assert [(r.id, r.category.value) for r in run.records] == [("SLICE-a", "pass"), ("SLICE-b", "crash")]
    assert cli("report", str(path), "-o", str(tmp_path / "r.html")).returncode == 1  # a crash: FAIL


def test_workers_die_with_a_killed_parent_and_the_file_stays_readable(tmp_path):
    calls = tmp_path / "calls.jsonl"
    proc = _popen(
        "run",
        "--backend",
        "dml_test_backends:Slow",
        "--cases",
        str(EXAMPLES),
        "--out",
        str(tmp_path / "o"),
        "--jobs",
        "2",
        DML_TEST_DELAY="0.3",
        DML_TEST_CALLS=str(calls),
    )
    (tmp_path / "o").mkdir(exist_ok=True)
    results = _wait_for_cases(tmp_path / "o", 2, proc)
    workers = _worker_pids(proc.pid)
    assert workers
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in workers), "a worker outlived its killed parent"
    run = read_results(results)
    assert run.footer is None and run.verdict().value == "INCOMPLETE"
    assert {r.category.value for r in run.records} == {"pass"}  # the parent's death blames no case


def _worker_pids(parent: int) -> list[int]:
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            pids.append(int(stat.parent.name))
    return pids

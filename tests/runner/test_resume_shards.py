"""Resume and shards: each gives exactly the cases of one full run, and the report merges shards into one run."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from runner_helpers import CURATED, EXAMPLES, cli, env, lines

from conformance.run.results import read_results

CASES = ["--cases", str(EXAMPLES), "--cases", str(CURATED)]


def _categories(path: Path) -> dict[str, str]:
    return {r.id: r.category.value for r in read_results(path).records}


@pytest.fixture(scope="module")
def full_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("full")
    proc = cli(
        "run", "--backend", "dml_test_backends:Slow", *CASES, "--out", str(out), env_extra={"DML_TEST_DELAY": "0"}
    )
    assert proc.returncode == 0, proc.stderr
    return next(out.glob("results-*.jsonl"))


def _start_slow(out: Path, delay: str = "0.2") -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "run",
            "--backend",
            "dml_test_backends:Slow",
            *CASES,
            "--out",
            str(out),
            "--jobs",
            "2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env(DML_TEST_DELAY=delay),
    )


def _stop_after(proc: subprocess.Popen, out: Path, cases: int, signum: int) -> Path:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        files = list(out.glob("results-*.jsonl"))
        if files and files[0].read_text().count('"kind":"case"') >= cases:
            proc.send_signal(signum)
            proc.wait(timeout=30)
            return files[0]
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the run never got going")


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGINT])
def test_resume_gives_exactly_the_cases_of_one_full_run(full_run, tmp_path, signum):
    results = _stop_after(_start_slow(tmp_path), tmp_path, 5, signum)
    before = read_results(results)
    assert not before.complete and 5 <= len(before.records) < len(_categories(full_run))
    proc = cli("run", "--resume", str(results), "--jobs", "2", env_extra={"DML_TEST_DELAY": "0"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    after = read_results(results)
    assert after.complete and after.verdict().value == "PASS"
    assert _categories(results) == _categories(full_run)
    kinds = [line["kind"] for line in lines(results)]
    assert kinds.count("header") == 1 and kinds.count("resume") == 1 and kinds[-1] == "footer"
    finished_before = {r.id for r in before.records if r.category.value != "interrupted"}
    rerun = [line["id"] for line in lines(results)[len(before.records) + 1 :] if line["kind"] == "case"]
    assert not finished_before & set(rerun)  # only what had no finished record ran again
    assert list(tmp_path.glob("report-*.html"))


def test_resume_refuses_another_configuration(full_run, tmp_path):
    copy = tmp_path / "r.jsonl"
    copy.write_bytes(full_run.read_bytes())
    proc = cli("run", "--resume", str(copy), "--seed", "3")
    assert proc.returncode == 2
    assert "--resume" in proc.stderr and "--seed 3 (the file has 0)" in proc.stderr
    assert copy.read_bytes() == full_run.read_bytes()


def test_resume_of_a_finished_run_runs_nothing_and_keeps_it_complete(full_run, tmp_path):
    copy = tmp_path / "r.jsonl"
    copy.write_bytes(full_run.read_bytes())
    proc = cli("run", "--resume", str(copy), env_extra={"DML_TEST_DELAY": "0"})
    assert proc.returncode == 0, proc.stderr
    assert _categories(copy) == _categories(full_run) and read_results(copy).complete


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> list[Path]:
    out = tmp_path_factory.mktemp("shards")
    files = []
    for i in (1, 2, 3):
        proc = cli(
            "run",
            "--backend",
            "dml_test_backends:Slow",
            *CASES,
            "--out",
            str(out / str(i)),
            "--shard",
            f"{i}/3",
            env_extra={"DML_TEST_DELAY": "0"},
        )
        assert proc.returncode == 0, proc.stderr
        files.append(next((out / str(i)).glob("results-*.jsonl")))
    return files


def test_three_shards_are_exactly_one_full_run(full_run, shards):
    parts = [_categories(path) for path in shards]
    assert all(parts) and sum(len(p) for p in parts) == len(_categories(full_run))
    assert {k: v for p in parts for k, v in p.items()} == _categories(full_run)
    assert [lines(p)[0]["shard"] for p in shards] == [{"index": i, "count": 3} for i in (1, 2, 3)]


def test_report_merges_the_shards_of_one_run_and_keeps_other_runs_apart(full_run, shards, tmp_path):
    out = tmp_path / "merged.html"
    proc = cli("report", *map(str, shards), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert "1 run(s)" in text and "Comparison grid" not in text and "v-PASS" in text
    assert "3 of 3 shards merged" in proc.stderr
    both = cli("report", str(full_run), *map(str, shards), "-o", str(tmp_path / "both.html"))
    assert both.returncode == 0 and "2 run(s)" in (tmp_path / "both.html").read_text()


def test_a_missing_shard_makes_the_merged_run_incomplete(shards, tmp_path):
    out = tmp_path / "partial.html"
    proc = cli("report", str(shards[0]), str(shards[2]), "-o", str(out))
    # INCOMPLETE exits 1, as the run that stopped early does (issue 29: report said 0); --no-fail says 0.
    assert proc.returncode == 1 and "verdict: INCOMPLETE" in proc.stdout
    assert "shard 2/3 is missing" in proc.stderr and "v-INCOMPLETE" in out.read_text()
    assert cli("report", str(shards[0]), str(shards[2]), "-o", str(out), "--no-fail").returncode == 0
    twice = cli("report", str(shards[0]), str(shards[0]), "-o", str(out))
    assert twice.returncode == 2 and "shard 1/3 of this run configuration is already given" in twice.stderr

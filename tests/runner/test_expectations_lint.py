"""`dml-conformance expectations lint` and `expires` (issue 23, item 2 in part): an expectations file whose
entries name nothing, lack a tracker, or have expired says so, instead of waiving silently."""

from __future__ import annotations

import json

import pytest
from runner_helpers import EXAMPLES, cli

from conformance.judging.expectations import KNOWN_ISSUES_DIR
from conformance.run.results import read_results


def write(tmp_path, waivers, name="expectations.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"schema_version": 1, "waivers": waivers}))
    return path


def test_the_shipped_known_issue_files_lint_clean():
    proc = cli("expectations", "lint", *map(str, sorted(KNOWN_ISSUES_DIR.glob("*.json"))))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 problem(s)" in proc.stdout


def test_a_typo_a_missing_tracker_and_a_when_that_matches_nothing_are_each_named(tmp_path):
    tracker = "https://bugs.example/1"
    path = write(
        tmp_path,
        [
            {"id": "PADDING-exmaple-1", "reason": "typo in the id", "tracker": tracker},
            {"id": "PADDING-example-1", "reason": "no tracker"},
            {
                "prefix": "SLICE1-",
                "when": {"operator": "PADDING"},
                "reason": "when names another operator",
                "tracker": tracker,
            },
            {"prefix": "SPLIT-", "reason": "fine", "tracker": tracker, "expires": "2031-13-40"},
            {"prefix": "JOIN-", "reason": "fine", "tracker": tracker},
        ],
    )
    proc = cli("expectations", "lint", str(path))
    assert proc.returncode == 1
    out = proc.stdout
    assert "$.waivers[0] (PADDING-exmaple-1): id 'PADDING-exmaple-1' matches no case" in out
    assert "$.waivers[1] (PADDING-example-1): no tracker link" in out
    assert "$.waivers[2] (SLICE1-*): when {'operator': 'PADDING'} matches none" in out
    assert "$.waivers[3] (SPLIT-*): expires='2031-13-40' is not a date" in out
    assert "$.waivers[4]" not in out and "4 problem(s)" in out
    untracked = cli("expectations", "lint", "--allow-untracked", str(path))
    assert (
        untracked.returncode == 1 and "no tracker link" not in untracked.stdout and "3 problem(s)" in untracked.stdout
    )


def test_an_expired_waiver_no_longer_waives_and_the_run_says_so(tmp_path):
    """BitFlip fails every worked example; a waiver that expired yesterday excuses none of them."""
    waiver = {"prefix": "PADDING-example-", "reason": "old bug", "tracker": "https://bugs.example/2"}
    for expires, waived in (("2000-01-01", False), ("2999-01-01", True)):
        path = write(tmp_path, [{**waiver, "expires": expires}], f"e-{expires}.json")
        out = tmp_path / expires
        proc = cli(
            "run",
            "--backend",
            "dml_test_backends:BitFlip",
            "--cases",
            str(EXAMPLES),
            "--out",
            str(out),
            "--expectations",
            str(path),
        )
        (results,) = out.glob("results-*.jsonl")
        run = read_results(results)
        padding = [r for r in run.records if r.id.startswith("PADDING-example-")]
        assert padding and all((r.category.value == "waived") == waived for r in padding), proc.stderr
        expired_notes = [n for n in run.header.notes if "expired on 2000-01-01" in n]
        assert bool(expired_notes) == (not waived)


def _run(tmp_path, backend, expectations, *args, name="run"):
    out = tmp_path / name
    proc = cli(
        "run",
        "--backend",
        backend,
        "--cases",
        str(EXAMPLES),
        "--out",
        str(out),
        "--expectations",
        str(expectations),
        *args,
    )
    return proc, out


@pytest.mark.parametrize("backend", ["oracle", "onnxruntime-cpu"])
def test_a_run_refuses_a_waiver_naming_no_case_of_the_suite_before_anything_runs(tmp_path, backend):
    """A typo'd id would waive nothing, silently: the run stops at load (exit 2), naming the entry by its index
    in the user's file, even where the backend's own known issues come before it (onnxruntime-cpu)."""
    tracker = "https://bugs.example/3"
    path = write(
        tmp_path,
        [
            {"prefix": "PADDING-example-", "reason": "fine", "tracker": tracker},
            # a case of the suite outside this run's selection (cases/curated): accepted
            {"id": "SPLIT-inner-axis", "reason": "fine", "tracker": tracker},
            {"id": "SLICE-exmaple-1", "reason": "typo", "tracker": tracker},
        ],
    )
    proc, out = _run(tmp_path, backend, path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert (
        f"{path}: $.waivers[2] (SLICE-exmaple-1): id 'SLICE-exmaple-1' matches no case of the suite's full profile"
        in (proc.stderr)
    )
    assert "$.waivers[1]" not in proc.stderr and "$.waivers[0]" not in proc.stderr
    assert not list(out.glob("results-*.jsonl"))  # refused before the run: nothing half-written


def test_update_expectations_removes_the_waivers_a_run_proves_stale_and_adds_nothing(tmp_path):
    """BeyondFlip fails DML_PADDING1 and WRAP cases and passes the rest. Of four waivers, only the one whose every
    case passed in this run goes; one still needed, one for cases outside the run, one half outside stay."""
    tracker = "https://bugs.example/4"
    waivers = [
        {"id": "PADDING1-example-1", "reason": "still failing", "tracker": tracker},
        {"id": "SLICE-example-1", "reason": "fixed since", "tracker": tracker},
        {"id": "SPLIT-inner-axis", "reason": "not in this run", "tracker": tracker},
        {"prefix": "SPLIT-", "reason": "most SPLIT cases are not in this run", "tracker": tracker},
    ]
    path = write(tmp_path, waivers)
    document = json.loads(path.read_text())
    updated = tmp_path / "updated.json"
    proc, out = _run(tmp_path, "dml_test_backends:BeyondFlip", path, "--update-expectations", str(updated))
    assert proc.returncode == 1, proc.stdout + proc.stderr  # the other PADDING1 failures are not waived
    (results,) = out.glob("results-*.jsonl")
    run = read_results(results)
    assert next(r for r in run.records if r.id == "SLICE-example-1").category.value == "pass"
    written = json.loads(updated.read_text())
    assert written["waivers"] == [waivers[0], waivers[2], waivers[3]]
    assert written["schema_version"] == document["schema_version"]
    assert "removed $.waivers[1] (SLICE-example-1): its 1 case(s) all passed" in proc.stdout
    removed_lines = [line for line in proc.stdout.splitlines() if line.startswith("-") and not line.startswith("---")]
    assert removed_lines and all(
        "SLICE-example-1" in line
        or "fixed since" in line
        or "tracker" in line
        or line.strip() in ("-  {", "-  },", "-  }")
        for line in removed_lines
    )
    failing = sum(1 for r in run.records if r.category.failing)
    assert failing > 0 and f"{failing} failing case(s) have no waiver and were not added" in proc.stdout
    # The written file is what the next run takes: it loads and lints clean.
    assert cli("expectations", "lint", str(updated)).returncode == 0


def test_update_expectations_needs_expectations_and_a_new_name(tmp_path):
    path = write(tmp_path, [{"prefix": "PADDING-", "reason": "r", "tracker": "https://bugs.example/5"}])
    no_file = cli(
        "run",
        "--backend",
        "oracle",
        "--cases",
        str(EXAMPLES),
        "--out",
        str(tmp_path / "a"),
        "--update-expectations",
        str(tmp_path / "new.json"),
    )
    assert no_file.returncode == 2 and "--update-expectations needs --expectations" in no_file.stderr
    other = tmp_path / "other.json"
    other.write_text("{}")
    proc, _ = _run(tmp_path, "oracle", path, "--update-expectations", str(other), name="b")
    assert proc.returncode == 2 and f"--update-expectations: {other} exists" in proc.stderr
    assert other.read_text() == "{}"

"""`dml-conformance expectations lint` and `expires` (issue 23, item 2 in part): an expectations file whose
entries name nothing, lack a tracker, or have expired says so, instead of waiving silently."""

from __future__ import annotations

import json

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

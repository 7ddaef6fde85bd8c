"""The pytest plugin end to end, as a vendor's pytest run would use it (pytester, in a subprocess)."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prerequisite import require

from conformance.cases.corpus import CASES_DIR

pytest_plugins = ["pytester"]

HERE = Path(__file__).resolve().parent
EXAMPLES = CASES_DIR / "examples"


@pytest.fixture
def tester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTHONPATH", str(HERE))  # dml_test_backends for module:Class
    return pytester


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_inert_without_backend(tester):
    tester.makepyfile("def test_own(): pass")
    result = tester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "dml-conformance:" not in result.stdout.str()  # no header lines, no items
    help_text = tester.runpytest_subprocess("--help").stdout.str()
    assert "--dml-backend" in help_text and "--dml-expectations" in help_text


def test_broken_backend_fails_each_case_with_repro(tester):
    results = tester.path / "r.jsonl"
    result = tester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--dml-backend",
        "dml_test_backends:BitFlip",
        "--dml-cases",
        str(EXAMPLES),
        "--dml-results",
        str(results),
        "--dml-report",
        str(tester.path / "rep.html"),
        "--dml-seed",
        "7",
    )
    n = len(list(EXAMPLES.glob("*.json")))
    result.assert_outcomes(failed=n)
    assert result.ret == 1
    out = result.stdout.str()
    assert "dml-conformance: backend dml_test_backends:BitFlip" in out and "seed 7," in out
    assert (
        f"reproduce: dml-conformance run --backend dml_test_backends:BitFlip --cases {EXAMPLES} --seed 7 "
        "--case SLICE1-example-2"
    ) in out
    records = _records(results)
    assert records[0]["kind"] == "header" and records[0]["backend_versions"]["bit-flip"].startswith("1.0")
    assert records[-1]["kind"] == "footer" and records[-1]["counts"] == {"fail": n}
    cases = [r for r in records if r["kind"] == "case"]
    assert len(cases) == n and all(r["category"] == "fail" for r in cases)
    assert (tester.path / "rep.html").stat().st_size > 1000


def test_selection_waivers_and_unmatched_warning(tester):
    waivers = tester.path / "waivers.json"
    waivers.write_text(
        json.dumps(
            {
                "waivers": [
                    {"prefix": "PADDING-", "reason": "known padding bug", "tracker": "https://bugs.example/1"},
                    # a case of the suite (cases/curated) that this run (the worked examples) does not hold
                    {"id": "SPLIT-inner-axis", "reason": "stale"},
                ]
            }
        )
    )
    results = tester.path / "r.jsonl"
    result = tester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--dml-backend",
        "dml_test_backends:BitFlip",
        "--dml-cases",
        str(EXAMPLES),
        "--dml-results",
        str(results),
        "--dml-report",
        "none",
        "--dml-expectations",
        str(waivers),
        "-k",
        "PADDING or SLICE1",
    )
    padding = len(list(EXAMPLES.glob("PADDING-*.json")))  # waived: the prefix is "PADDING-"
    failing = len(list(EXAMPLES.glob("SLICE1-*.json"))) + len(list(EXAMPLES.glob("PADDING1-*.json")))  # -k matches
    result.assert_outcomes(failed=failing, xfailed=padding)
    assert "waiver 'SPLIT-inner-axis' (stale) matches no case of this run" in result.stdout.str()
    records = [r for r in _records(results) if r["kind"] == "case"]
    waived = [r for r in records if r["category"] == "waived"]
    assert len(waived) == padding and all(r["waived_category"] == "fail" for r in waived)


def test_unknown_backend_is_a_usage_error(tester):
    result = tester.runpytest_subprocess("--dml-backend", "no-such-backend")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "cannot load backend 'no-such-backend'" in result.stderr.str()
    assert "installed backends:" in result.stderr.str()


def test_bad_option_value_names_the_option(tester):
    result = tester.runpytest_subprocess("--dml-backend", "oracle", "--dml-operators", "SLICE,CONV")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--dml-operators" in result.stderr.str()


def test_hypothesis_item_shrinks_a_failure_to_a_minimal_case(tester):
    results = tester.path / "r.jsonl"
    result = tester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--dml-backend",
        "dml_test_backends:BitFlip",
        "--dml-operators",
        "SLICE1",
        "--dml-generated",
        "0",
        "--dml-hypothesis-examples",
        "25",
        "--dml-results",
        str(results),
        "--dml-report",
        "none",
        "-k",
        "hypothesis",
    )
    result.assert_outcomes(failed=1)
    (record,) = [r for r in _records(results) if r["kind"] == "case"]
    assert record["hypothesis"] and record["category"] == "fail"
    # Any SLICE1 output is broken by the bit flip, so the minimal case is the smallest one.
    assert record["case_json"]["descriptor"]["input_tensor"]["sizes"] == [1]


def _ids_and_categories(path: Path) -> dict[str, str]:
    return {r["id"]: r["category"] for r in _records(path) if r["kind"] == "case"}


def test_xdist_gives_what_one_process_gives(tester):
    require(importlib.util.find_spec("xdist") is not None, "pytest-xdist is in the [test] extra")
    # Six operators of both halves of the family (about 950 cases, unsupported ones among them): the
    # assertion is about the plugin's sharding and merging, not the operators' breadth (test_corpus's).
    args = [
        *("-p", "no:cacheprovider", "--dml-backend", "onnxruntime-cpu", "--dml-generated", "300"),
        *("--dml-operators", "SLICE1,PADDING1,SPLIT,JOIN,TILE,CAST", "--dml-hypothesis-examples", "3"),
    ]
    one = tester.runpytest_subprocess(*args, "--dml-results", "one.jsonl")
    two = tester.runpytest_subprocess(*args, "--dml-results", "two.jsonl", "-n", "2")
    assert one.ret == two.ret == 0, two.stdout.str()
    single, merged = _ids_and_categories(tester.path / "one.jsonl"), _ids_and_categories(tester.path / "two.jsonl")
    assert len(single) > 300 and merged == single
    assert sorted(tester.path.glob("*.jsonl")) == [tester.path / "one.jsonl", tester.path / "two.jsonl"]
    lines = _records(tester.path / "two.jsonl")
    assert lines[0]["kind"] == "header" and lines[0]["backend_versions"]["onnxruntime"]
    assert lines[-1]["kind"] == "footer" and sum(lines[-1]["counts"].values()) == len(single)
    assert (tester.path / "two.html").stat().st_size > 1000


def test_report_onto_the_results_file_is_refused(tester):
    result = tester.runpytest_subprocess(
        "--dml-backend", "oracle", "--dml-results", "x.jsonl", "--dml-report", "x.jsonl"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--dml-report: x.jsonl is also --dml-results; give each output its own file" in result.stderr.str()
    assert not (tester.path / "x.jsonl").exists()


def test_an_unwritable_report_is_found_before_any_case_runs(tester):
    (tester.path / "afile").write_text("not a folder")
    result = tester.runpytest_subprocess("--dml-backend", "oracle", "--dml-report", "afile/report.html")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--dml-report: afile is a file, not a folder" in result.stderr.str()
    assert "passed" not in result.stdout.str()


def test_nothing_tested_is_not_a_pass(tester):
    result = tester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--dml-backend",
        "dml_test_backends:NothingSupported",
        "--dml-cases",
        str(EXAMPLES),
        "--dml-results",
        "r.jsonl",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "verdict: UNTESTED: no case executed" in result.stdout.str()


def test_every_plugin_option_is_in_the_table_and_in_help(tester):
    from conformance.run.options import OPTIONS

    help_text = tester.runpytest_subprocess("--help").stdout.str()
    for option in OPTIONS:
        if option.plugin:
            assert option.plugin in help_text, option.plugin
    assert "--dml-dll" in help_text and "--dml-adapter" in help_text and "--dml-jobs" in help_text


def _ignore_sigint() -> None:  # as a shell's background job starts: SIGINT ignored, inherited by pytest
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize(
    ("signum", "inherited"),
    [(signal.SIGINT, None), (signal.SIGTERM, None), (signal.SIGINT, _ignore_sigint)],
    ids=["SIGINT", "SIGTERM", "SIGINT-inherited-ignored"],
)
def test_a_signal_to_pytest_leaves_a_footer_and_a_partial_report(tmp_path, signum, inherited):
    # The third case hangs once it has started, so the signal always arrives with exactly that case in
    # flight, two finished and seven never started: no race with the end of the run.
    results, mark = tmp_path / "r.jsonl", tmp_path / "third-case-started"
    log = (tmp_path / "pytest.log").open("w")
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"),
            *("--dml-backend", "dml_test_backends:Hangs", "--dml-cases", str(EXAMPLES)),
            *("--dml-results", str(results), "--dml-jobs", "1", "--rootdir", str(tmp_path), str(tmp_path)),
        ],
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(HERE), "DML_TEST_MARK": str(mark)},
        preexec_fn=inherited,
    )
    deadline = time.monotonic() + 120
    while not mark.exists():
        assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "pytest.log").read_text()
        time.sleep(0.05)
    proc.send_signal(signum)
    returncode = proc.wait(timeout=60)
    output = (tmp_path / "pytest.log").read_text()
    records = _records(results)
    footer = records[-1]
    assert footer["kind"] == "footer" and footer["interrupted"], output
    assert footer["stopped"] == signum.name and footer["exitstatus"] == pytest.ExitCode.INTERRUPTED
    assert returncode == pytest.ExitCode.INTERRUPTED, output
    categories = sorted(r["category"] for r in records if r["kind"] == "case")
    assert categories == ["interrupted", "pass", "pass"] and footer["not_run"] == len(list(EXAMPLES.glob("*.json"))) - 3
    assert "v-INCOMPLETE" in (tmp_path / "r.html").read_text()


def test_keyword_and_exclude_options_select_in_the_plugin_too(tester):
    results = tester.path / "r.jsonl"
    result = tester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--dml-backend",
        "dml_test_backends:AllLevels",
        "--dml-cases",
        str(EXAMPLES),
        "--dml-results",
        str(results),
        "--dml-report",
        "none",
        "--dml-keyword",
        "SLICE or SPLIT",
        "--dml-exclude",
        "SLICE1-*",
        "--dml-exclude",
        "SPLIT-example-2",
    )
    records = _records(results)
    ids = sorted(r["id"] for r in records if r["kind"] == "case")
    # -k matches words inside ids, as pytest's does: SLICE_GRAD-example-1 holds SLICE
    assert ids == ["SLICE-example-1", "SLICE-example-2", "SLICE_GRAD-example-1", "SPLIT-example-1"]
    result.assert_outcomes(passed=4)
    assert records[0]["selection"]["exclude"] == ["SLICE1-*", "SPLIT-example-2"]


@pytest.mark.parametrize("flaky_fails", [False, True])
def test_retries_in_the_plugin_make_a_flake_flaky(tester, monkeypatch, flaky_fails):
    state = tester.path / "state"
    state.mkdir()
    monkeypatch.setenv("DML_TEST_STATE", str(state))
    result = tester.runpytest_subprocess(
        *("-p", "no:cacheprovider", "--dml-backend", "dml_test_backends:FailsInFirstWorker"),
        *("--dml-cases", str(EXAMPLES), "--dml-operators", "SPLIT", "--dml-jobs", "1"),
        *("--dml-results", "r.jsonl", "--dml-report", "none", "--dml-retries", "1"),
        *(["--dml-flaky-fails"] if flaky_fails else []),
    )
    splits = len(list(EXAMPLES.glob("SPLIT-*.json")))
    final = {r["id"]: r for r in _records(tester.path / "r.jsonl") if r["kind"] == "case"}  # the last line wins
    assert [r["category"] for r in final.values()] == ["flaky"] * splits
    assert all(r["attempts"][0]["category"] == "fail" for r in final.values())
    if flaky_fails:
        result.assert_outcomes(failed=splits)
    else:
        result.assert_outcomes(passed=splits)

"""A vendor's nightly loop (issue 14): retries and flakes, baselines, JUnit XML, -k and --exclude, report exit codes."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from runner_helpers import EXAMPLES, TRACEBACK, cli, env, faults_file, lines

from conformance.judging.expectations import KNOWN_ISSUES_DIR, is_known_issue
from conformance.report.heatmap import heat_cell
from conformance.run.keyword import parse_keyword
from conformance.run.results import read_results

DATA = Path(__file__).resolve().parent / "data"
HOSTILE = "dml_test_backends:Hostile"


def _hostile(tmp_path: Path, faults: dict[str, str], *args: str, name: str = "run") -> tuple:
    """A Hostile run on the examples with `faults`; (process, results file, calls log)."""
    out = tmp_path / name
    state = tmp_path / f"{name}-state"
    state.mkdir()
    calls = tmp_path / f"{name}-calls.jsonl"
    proc = cli(
        "run",
        "--backend",
        HOSTILE,
        "--cases",
        str(EXAMPLES),
        "--out",
        str(out),
        "-j",
        "2",
        *args,
        env_extra={
            "DML_TEST_FAULTS": str(faults_file(tmp_path, faults)),
            "DML_TEST_STATE": str(state),
            "DML_TEST_CALLS": str(calls),
        },
    )
    assert TRACEBACK not in proc.stderr, proc.stderr
    (results,) = out.glob("results-*.jsonl")
    return proc, results, calls


def _categories(results: Path) -> dict[str, str]:
    return {r.id: r.category.value for r in read_results(results).records}


# --- retries and flakes ----------------------------------------------------------------------------------


def test_a_case_failing_once_is_flaky_with_retries_and_the_run_passes(tmp_path):
    proc, results, calls = _hostile(tmp_path, {"SLICE1-example-2": "garbage_once"}, "--retries", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = read_results(results)
    categories = Counter(r.category.value for r in run.records)
    assert categories == {"pass": len(run.records) - 2, "flaky": 1, "observed": 1}  # observed: E-SCATTER-1
    (flaky,) = [r for r in run.records if r.category.value == "flaky"]
    assert flaky.id == "SLICE1-example-2"
    assert [(a.category.value, "differ" in a.reason) for a in flaky.attempts] == [("fail", True)]
    assert "FLAKY SLICE1-example-2" in proc.stdout and "verdict: PASS" in proc.stdout
    assert run.header.retries == 2 and run.header.flaky_fails is False
    # The retry ran in a fresh worker: the case's two runs were in two processes.
    bad = [c["pid"] for c in map(json.loads, calls.read_text().splitlines()) if c["fault"] and c["what"] == "start"]
    assert len(bad) == 2 and bad[0] != bad[1]
    valid = cli("schema", "results", "--validate", str(results))
    assert valid.returncode == 0, valid.stderr  # attempts, retries, selection: all in the results schema
    report = next(results.parent.glob("report-*.html")).read_text()
    flaky_section = report[report.index("<h2 id='flaky'>") : report.index("<h2 id='cases'>")]
    assert "SLICE1-example-2" in flaky_section
    assert re.search(r'attempt 1: <span class="c-fail">fail</span> \d+ element\(s\) differ', flaky_section)
    assert 'attempt 2: <span class="c-flaky">flaky</span>' in flaky_section


def test_a_live_hypothesis_failure_is_retried_as_the_case_it_shrank_to(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    proc = cli(
        *("run", "--backend", "dml_test_backends:FailsInFirstWorker", "--operators", "SPLIT", "-k", "hypothesis"),
        *("--generated", "0", "--hypothesis-examples", "5", "--retries", "1", "-j", "1", "--out", str(tmp_path)),
        env_extra={"DML_TEST_STATE": str(state)},
    )
    assert proc.returncode == 0, proc.stderr
    (record,) = read_results(next(tmp_path.glob("results-*.jsonl"))).records
    assert record.id == "hypothesis-SPLIT" and record.hypothesis and record.category.value == "flaky"
    assert [a.category.value for a in record.attempts] == ["fail"]
    assert record.case_json and record.case_json["operator"] == "SPLIT"
    assert f"the shrunk example {record.case_json['id']} again" in record.reason


def test_flaky_fails_makes_a_flake_fail_the_run_and_no_retries_leaves_it_failing(tmp_path):
    junit = tmp_path / "strict.xml"
    proc, results, _ = _hostile(
        tmp_path,
        {"SLICE1-example-2": "garbage_once"},
        "--retries",
        "1",
        "--flaky-fails",
        "--junit-xml",
        str(junit),
        name="strict",
    )
    assert proc.returncode == 1 and "verdict: FAIL" in proc.stdout
    assert _categories(results)["SLICE1-example-2"] == "flaky"
    failures = ET.parse(junit).findall(".//testcase/failure")
    assert [f.get("type") for f in failures] == ["flaky"] and "earlier attempt: fail" in (failures[0].text or "")
    proc, results, _ = _hostile(tmp_path, {"SLICE1-example-2": "garbage_once"}, name="once")
    assert proc.returncode == 1 and _categories(results)["SLICE1-example-2"] == "fail"


def test_a_case_failing_every_time_keeps_failing_with_every_attempt_listed(tmp_path):
    proc, results, calls = _hostile(tmp_path, {"PADDING-example-1": "garbage"}, "--retries", "2")
    assert proc.returncode == 1
    record = next(r for r in read_results(results).records if r.id == "PADDING-example-1")
    assert record.category.value == "fail" and [a.category.value for a in record.attempts] == ["fail", "fail"]
    starts = [c for c in map(json.loads, calls.read_text().splitlines()) if c["fault"] and c["what"] == "start"]
    assert len(starts) == 3


def test_a_retry_cut_short_by_a_signal_leaves_the_earlier_result(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    calls = tmp_path / "calls.jsonl"
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "conformance.cli", "run", "--backend", HOSTILE, "--cases", str(EXAMPLES)),
            *("--out", str(tmp_path / "out"), "--retries", "2", "-j", "1", "--timeout", "0"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(
            DML_TEST_FAULTS=str(faults_file(tmp_path, {"SPLIT-example-1": "garbage_then_hang"})),
            DML_TEST_STATE=str(state),
            DML_TEST_CALLS=str(calls),
        ),
    )
    deadline = time.monotonic() + 60
    while not (calls.exists() and calls.read_text().count('"fault": "garbage_then_hang"') >= 3):  # 2 starts, 1 end
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 1 and TRACEBACK not in stderr
    (results,) = (tmp_path / "out").glob("results-*.jsonl")
    record = next(r for r in read_results(results).records if r.id == "SPLIT-example-1")
    assert record.category.value == "fail" and "differ" in record.reason


def test_a_known_flake_in_the_expectations_is_waived_under_flaky_fails(tmp_path):
    waivers = tmp_path / "flakes.json"
    waivers.write_text(
        json.dumps(
            {"waivers": [{"id": "SLICE1-example-2", "when": {"category": "flaky"}, "reason": "known flake, bug 7"}]}
        )
    )
    proc, results, _ = _hostile(
        tmp_path,
        {"SLICE1-example-2": "garbage_once"},
        "--retries",
        "1",
        "--flaky-fails",
        "--expectations",
        str(waivers),
    )
    assert proc.returncode == 0, proc.stdout
    record = next(r for r in read_results(results).records if r.id == "SLICE1-example-2")
    assert record.category.value == "waived" and record.waived_category is not None
    assert record.waived_category.value == "flaky"


# --- baselines ----------------------------------------------------------------------------------------------


def test_baseline_of_a_retried_run_gives_a_known_flake_its_rate_and_lint_asks_for_one(tmp_path):
    """SLICE1-example-2 fails once, then passes on its retry: 1 failing attempt of 2, what its waiver carries."""
    proc, results, _ = _hostile(tmp_path, {"SLICE1-example-2": "garbage_once"}, "--retries", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    baseline = tmp_path / "flakes.json"
    assert cli("baseline", str(results), "-o", str(baseline)).returncode == 0
    (waiver,) = json.loads(baseline.read_text())["waivers"]
    assert waiver["id"] == "SLICE1-example-2" and waiver["when"] == {"category": "flaky"}
    assert waiver["flaky_rate"] == {"failed": 1, "attempts": 2}
    lint = cli("expectations", "lint", "--allow-untracked", str(baseline))
    assert lint.returncode == 0, lint.stdout
    del waiver["flaky_rate"]
    baseline.write_text(json.dumps({"waivers": [waiver]}))
    lint = cli("expectations", "lint", "--allow-untracked", str(baseline))
    assert lint.returncode == 1 and "$.waivers[0] (SLICE1-example-2): a known flake without flaky_rate" in lint.stdout


def test_a_heat_map_cell_counts_flaky_as_failing_only_under_flaky_fails():
    counts = Counter({"pass": 3, "flaky": 1, "unsupported": 1})
    lenient, strict = heat_cell(counts), heat_cell(counts, flaky_fails=True)
    assert lenient and strict  # a cell with cases
    assert (lenient.ok, lenient.total, lenient.bad, lenient.klass, lenient.rate) == (4, 5, 0, "cell-part", "1.0000")
    assert (strict.ok, strict.total, strict.bad, strict.klass, strict.rate) == (3, 5, 1, "cell-bad", "0.7500")
    assert lenient.hatched and strict.hatched  # one case unsupported: counted in the total, never a pass


def test_a_known_issue_is_told_by_its_place_in_the_package_on_any_machine():
    # A results file from another machine or checkout names its own absolute path.
    assert is_known_issue("/opt/ci/venv/site-packages/conformance/known_issues/directml.json")
    assert is_known_issue(str(KNOWN_ISSUES_DIR / "onnxruntime-cpu.json"))
    assert not is_known_issue("/home/vendor/expectations.json")
    assert not is_known_issue("/home/vendor/known_issues/directml.json")
    assert not is_known_issue("")


def test_baseline_never_writes_over_a_results_file_it_reads(broken_run, tmp_path):
    results = tmp_path / "results.jsonl"
    results.write_bytes(broken_run[1].read_bytes())
    before = results.read_bytes()
    # The same file named two ways (absolute in, relative out), even with --force.
    proc = cli("baseline", str(results.resolve()), "-o", "results.jsonl", "--force", cwd=tmp_path)
    assert proc.returncode == 2
    assert "-o: results.jsonl is an input of this command (RESULTS)" in proc.stderr
    assert results.read_bytes() == before


def test_baseline_then_rerun_passes_with_every_former_failure_waived(broken_run, tmp_path):
    expectations = tmp_path / "expectations.json"
    made = cli("baseline", str(broken_run[1]), "-o", str(expectations))
    assert made.returncode == 0, made.stderr
    failing = {r.id: r.category.value for r in read_results(broken_run[1]).records if r.category.failing}
    waivers = json.loads(expectations.read_text())["waivers"]
    assert {w["id"]: w["when"]["category"] for w in waivers} == failing
    assert len(failing) == len(list(EXAMPLES.glob("*.json")))  # BitFlip fails every worked example
    assert {(w["backend"], w["label"]) for w in waivers} == {("bit-flip", "bit-flip build")}
    assert all(w["reason"].startswith("TODO") for w in waivers)
    valid = cli("schema", "expectations", "--validate", str(expectations))
    assert valid.returncode == 0, valid.stderr  # what baseline writes is a valid expectations file
    out = tmp_path / "again"
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:BitFlip",
        "--cases",
        str(EXAMPLES),
        "--out",
        str(out),
        "--expectations",
        str(expectations),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (results,) = out.glob("results-*.jsonl")
    records = read_results(results).records
    assert {r.id for r in records if r.category.value == "waived"} == set(failing)
    assert all(r.waived_category and r.waived_category.value == failing[r.id] for r in records if r.id in failing)
    again = cli("baseline", str(broken_run[1]), "-o", str(expectations))
    assert again.returncode == 2 and "give --force to replace it" in again.stderr
    assert cli("baseline", str(broken_run[1]), "-o", str(expectations), "--force").returncode == 0


def test_a_changed_category_is_not_waived_and_a_fix_shows_as_a_stale_waiver(tmp_path):
    _, first, _ = _hostile(tmp_path, {"PADDING-example-1": "garbage", "SLICE-example-1": "garbage"}, name="first")
    expectations = tmp_path / "expectations.json"
    assert cli("baseline", str(first), "-o", str(expectations)).returncode == 0
    proc, results, _ = _hostile(
        tmp_path, {"PADDING-example-1": "raise"}, "--expectations", str(expectations), name="second"
    )
    assert proc.returncode == 1
    records = {r.id: r for r in read_results(results).records}
    assert records["PADDING-example-1"].category.value == "crash"  # was `fail`: a regression, not waived
    assert records["SLICE-example-1"].category.value == "pass" and records["SLICE-example-1"].waived_but_passed


def test_a_waiver_for_another_backend_does_not_apply(broken_run, tmp_path):
    expectations = tmp_path / "expectations.json"
    assert cli("baseline", str(broken_run[1]), "-o", str(expectations)).returncode == 0
    proc, _, _ = _hostile(tmp_path, {"PADDING-example-1": "garbage"}, "--expectations", str(expectations))
    assert proc.returncode == 1 and "FAIL PADDING-example-1" in proc.stdout


# --- JUnit XML ----------------------------------------------------------------------------------------------


def _schema():
    etree = pytest.importorskip("lxml.etree", reason="lxml is in the [test] extra")
    return etree, etree.XMLSchema(etree.parse(str(DATA / "JUnit.xsd")))


def test_junit_xml_is_valid_against_the_junit_schema_and_counts_equal_the_results(tmp_path):
    etree, schema = _schema()
    junit = tmp_path / "junit.xml"
    out = tmp_path / "run"
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:NoInvalidChecks",
        "--cases",
        str(EXAMPLES),
        "--out",
        str(out),
        "--junit-xml",
        str(junit),
    )
    (results,) = out.glob("results-*.jsonl")
    document = etree.parse(str(junit))
    assert schema.validate(document), schema.error_log
    counts = Counter(r.category.value for r in read_results(results).records)
    (suite,) = document.getroot()
    assert int(suite.get("tests")) == sum(counts.values()) == len(suite.findall("testcase"))
    assert int(suite.get("skipped")) == counts["unsupported"] > 0
    assert int(suite.get("failures")) == counts["fail"] + counts["rejected"]
    assert int(suite.get("errors")) == counts["error"] + counts["crash"] + counts["timeout"]
    skipped = suite.find("testcase[@name='PADDING-example-1']")
    assert skipped.get("classname") == "PADDING" and "PADDING" in skipped.find("skipped").get("message")
    assert proc.returncode in (0, 1)


def test_junit_failures_carry_the_summary_and_the_repro_command(broken_run, tmp_path):
    etree, schema = _schema()
    junit = tmp_path / "junit.xml"
    proc = cli("report", str(broken_run[1]), "-o", str(tmp_path / "r.html"), "--junit-xml", str(junit))
    assert proc.returncode == 1  # the verdict is FAIL
    document = etree.parse(str(junit))
    assert schema.validate(document), schema.error_log
    case = document.find(".//testcase[@name='SLICE1-example-2']")
    failure = case.find("failure")
    assert case.get("classname") == "SLICE1" and failure.get("type") == "fail"
    assert "1 element(s) differ" in failure.get("message")
    assert "reproduce: dml-conformance run --backend dml_test_backends:BitFlip" in failure.text
    assert failure.text.rstrip().endswith("--case SLICE1-example-2")
    assert len(document.findall(".//failure")) == len(list(EXAMPLES.glob("*.json")))  # every worked example


# --- selection: -k and --exclude ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "words", "expected"),
    [
        ("PADDING", ["PADDING-example-1", "PADDING", "FLOAT32"], True),
        ("padding and not float32", ["PADDING-example-1", "PADDING", "FLOAT32"], False),
        ("SLICE1 or (PADDING and FLOAT16)", ["PADDING-x", "PADDING", "FLOAT16"], True),
        ("not (SLICE or SPLIT)", ["PADDING-x", "PADDING", "UINT8"], True),
        ("not not edge", ["SLICE-x", "SLICE", "INT8", "edge-case"], True),
    ],
)
def test_keyword_expressions(expression, words, expected):
    assert parse_keyword(expression)(words) is expected


@pytest.mark.parametrize("expression", ["", "and", "(SLICE", "SLICE or", "SLICE )", "SLICE $"])
def test_malformed_keyword_expressions_are_usage_errors(expression, tmp_path):
    with pytest.raises(ValueError):
        parse_keyword(expression)
    proc = cli("run", "--backend", "oracle", "--cases", str(EXAMPLES), "--out", str(tmp_path), "-k", expression)
    assert proc.returncode == 2 and "-k" in proc.stderr and TRACEBACK not in proc.stderr


def test_keyword_and_exclude_select_cases_and_the_header_and_report_say_so(tmp_path):
    out = tmp_path / "sel"
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:AllLevels",
        "--cases",
        str(EXAMPLES),
        "--out",
        str(out),
        "-k",
        "SLICE and not SPLIT",
        "--exclude",
        "SLICE1-*",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (results,) = out.glob("results-*.jsonl")
    run = read_results(results)
    # SLICE matches inside SLICE_GRAD-example-1 too (words inside ids, as pytest's -k)
    assert [r.id for r in run.records] == ["SLICE-example-1", "SLICE-example-2", "SLICE_GRAD-example-1"]
    assert run.header.selection == {
        "case": [],
        "exclude": ["SLICE1-*"],
        "keyword": "SLICE and not SPLIT",
        "selected": 3,
    }
    assert run.header.config["exclude"] == ["SLICE1-*"] and run.header.config["keyword"] == "SLICE and not SPLIT"
    report = next(out.glob("report-*.html")).read_text()
    assert "3 cases selected" in report and "-k SLICE and not SPLIT" in report
    resumed = cli("run", "--resume", str(results), "-k", "PADDING", "--report", "none")
    assert resumed.returncode == 2 and "--keyword 'PADDING' (the file has 'SLICE and not SPLIT')" in resumed.stderr


def test_cases_list_previews_a_keyword_and_exclude_selection():
    proc = cli("cases", "list", "--cases", str(EXAMPLES), "-k", "slice and not slice1", "--exclude", "SLICE-example-2")
    assert proc.returncode == 0, proc.stderr
    assert [line.split("\t")[0] for line in proc.stdout.splitlines()] == ["SLICE-example-1", "SLICE_GRAD-example-1"]


def test_old_results_files_without_the_new_fields_still_load(good_run, tmp_path):
    rows = lines(good_run[1])
    for row in rows:
        for key in ("selection", "retries", "flaky_fails", "attempts"):
            row.pop(key, None)
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    run = read_results(path)
    assert run.header.retries == 0 and run.header.selection == {} and run.verdict().value == "PASS"


# --- report exit code ------------------------------------------------------------------------------------


def test_report_exits_1_on_a_failing_verdict_unless_no_fail(broken_run, good_run, tmp_path):
    assert cli("report", str(good_run[1]), "-o", str(tmp_path / "g.html")).returncode == 0
    failing = cli("report", str(broken_run[1]), "-o", str(tmp_path / "b.html"))
    assert failing.returncode == 1 and "verdict: FAIL" in failing.stdout
    assert cli("report", str(broken_run[1]), "-o", str(tmp_path / "b.html"), "--no-fail").returncode == 0


# --- beyond the seed pages: a verdict of its own ------------------------------------------------------------


def test_cases_past_the_seed_pages_get_a_verdict_apart_from_the_four_pages(tmp_path):
    out = tmp_path / "beyond"
    proc = cli("run", "--backend", "dml_test_backends:BeyondFlip", "--cases", str(EXAMPLES), "--out", str(out))
    assert proc.returncode == 1, proc.stderr  # a failure past the seed pages is still a failure of the run
    assert "verdict: FAIL (the four seed pages: PASS; beyond them: FAIL)" in proc.stdout
    results = read_results(next(out.glob("results-*.jsonl")))
    failing = {r.id for r in results.records if r.category.failing}
    assert failing == {p.stem for p in EXAMPLES.glob("PADDING1-*.json")}  # DML_PADDING1's worked examples only
    html = next(out.glob("report-*.html")).read_text(encoding="utf-8")
    assert "the four seed pages: <span class='part-PASS'>PASS</span>" in html
    assert "beyond the seed pages</span>: <span class='part-FAIL'>FAIL</span>" in html
    assert re.search(r"<td>PAD1\.1<span class='beyond'", html) and not re.search(r"<td>PAD\.1<span", html)
    # A run of the four pages alone says nothing about a part it does not hold.
    seeds = cli(
        "run",
        "--backend",
        "oracle",
        "--cases",
        str(EXAMPLES),
        "--out",
        str(tmp_path / "s"),
        "--operators",
        "SLICE,SLICE1,PADDING,SPLIT",  # the four seed pages' operators only
    )
    assert seeds.returncode == 0 and "verdict: PASS\n" in seeds.stdout, seeds.stdout

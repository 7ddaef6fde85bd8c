"""`dml-conformance` as a user runs it: exit codes, files written, an interrupted run still reported."""

from __future__ import annotations

import pytest
from runner_helpers import EXAMPLES, TRACEBACK, case_lines, cli, example_category, lines

from conformance.cli import _Progress
from conformance.run.record import Category, Record
from conformance.run.results import read_results


def test_broken_backend_run_exits_1_and_writes_results_and_report(broken_run):
    proc, results = broken_run
    assert proc.returncode == 1, proc.stderr
    assert "verdict: FAIL" in proc.stdout
    report = next(results.parent.glob("report-*.html")).read_text()
    assert "SLICE1-example-2" in report and "<script>alert(1)</script>" not in report
    # The terminal lists the first 20 failures in the selection's order (every example fails here): the first.
    first = next(line.split()[1].rstrip(":") for line in proc.stdout.splitlines() if line.startswith("FAIL "))
    assert first == "DEPTH_TO_SPACE-example-1"  # the examples' files in name order
    assert f"FAIL {first}: 1 element(s) differ" in proc.stdout
    assert "reproduce: dml-conformance run --backend dml_test_backends:BitFlip" in proc.stdout
    # A vendor's own backend drives DirectML: its failures are offered the C++ reproducer, from this results file.
    assert (
        f"standalone: dml-conformance repro {first} --results {results} --cpp {results.parent}/repro/{first} --run"
        in proc.stdout
    )
    # The report offers the same command beside the Python one.
    assert (
        f"standalone reproducer: <code class='repro standalone'>dml-conformance repro SLICE1-example-2 --results {results} --cpp "
        f"{results.parent}/repro/SLICE1-example-2 --run</code>" in report
    )


def test_good_backend_run_exits_0(good_run):
    proc, results = good_run
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = read_results(results)
    assert run.verdict().value == "PASS"
    assert all(r.category.value == example_category(r.id) for r in run.records)
    assert [r.index for r in run.records] == list(range(len(run.records)))  # selection order, whatever the workers


def test_case_filter_and_unknown_case(tmp_path):
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:BitFlip",
        "--cases",
        str(EXAMPLES),
        "--out",
        str(tmp_path),
        "--case",
        "SLICE1-example-2",
    )
    assert proc.returncode == 1
    (results,) = tmp_path.glob("results-*.jsonl")
    assert [r.id for r in read_results(results).records] == ["SLICE1-example-2"]
    missing = cli(
        "run", "--backend", "oracle", "--cases", str(EXAMPLES), "--out", str(tmp_path), "--case", "SLICE-nope"
    )
    assert missing.returncode == 2 and "--case: no case matches SLICE-nope" in missing.stderr


def test_usage_errors_exit_2(tmp_path):
    bad = cli("run", "--backend", "no-such", "--out", str(tmp_path))
    assert bad.returncode == 2 and "--backend" in bad.stderr and "installed backends" in bad.stderr
    waivers = tmp_path / "w.json"
    waivers.write_text('{"waivers": [{"id": "X-1"}]}')
    bad = cli("run", "--backend", "oracle", "--expectations", str(waivers), "--out", str(tmp_path))
    assert bad.returncode == 2 and "w.json: $.waivers[0]: missing field 'reason'" in bad.stderr
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    bad = cli("report", str(notes), "-o", str(tmp_path / "r.html"))
    assert bad.returncode == 2 and "notes.txt" in bad.stderr


def test_bad_option_values_name_the_valid_ones(tmp_path):
    bad = cli("run", "--backend", "oracle", "--operators", "SLICE2", "--out", str(tmp_path))
    assert bad.returncode == 2 and "'SLICE2' is not one of SLICE, SLICE1, PADDING, SPLIT" in bad.stderr
    bad = cli("run", "--backend", "oracle", "--feature-level", "9.9", "--out", str(tmp_path))
    assert bad.returncode == 2 and "unknown feature level '9.9'" in bad.stderr


def test_malformed_case_file_exits_2_and_loses_nothing(tmp_path):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "bad.json").write_text('{"id": "SLICE-x", "operator": "SLICE"\n')
    (cases / "good.json").write_text((EXAMPLES / "SLICE-example-1.json").read_text())
    proc = cli(
        "run",
        "--backend",
        "oracle",
        "--cases",
        str(cases),
        "--out",
        str(tmp_path / "out"),
        "--generated",
        "0",
        "--hypothesis-examples",
        "0",
    )
    assert proc.returncode == 2
    assert "bad.json: $: not valid JSON" in proc.stderr
    (results,) = (tmp_path / "out").glob("results-*.jsonl")
    run = read_results(results)
    assert {r.id: r.category.value for r in run.records} == {"SLICE-example-1": "pass"}  # the good file still ran
    assert run.verdict().value == "FAIL" and "bad.json" in run.header.input_errors[0]


def test_report_side_by_side(broken_run, good_run, tmp_path):
    out = tmp_path / "both.html"
    proc = cli("report", str(good_run[1]), str(broken_run[1]), "-o", str(out))
    assert proc.returncode == 1, proc.stderr  # the verdict is FAIL
    text = out.read_text()
    assert "Comparison grid" in text and "1: oracle build" in text and "2: bit-flip build" in text


def test_explain_cases_list_backends():
    explain = cli("explain", "SLICE1-example-2", "--cases", str(EXAMPLES))
    assert explain.returncode == 0 and explain.stdout.count("\n") >= 5
    listed = cli("cases", "list", "--cases", str(EXAMPLES), "--operators", "PADDING")
    ids = [line.split("\t")[0] for line in listed.stdout.splitlines()]
    assert ids and all(i.startswith("PADDING-") for i in ids)
    backends = cli("backends")
    assert backends.returncode == 0
    assert any(line.startswith("oracle:") for line in backends.stdout.splitlines())


def test_explain_a_generated_case_and_an_unknown_id():
    listed = cli("cases", "list", "--operators", "SPLIT")
    generated = next(
        line.split("\t")[0]
        for line in listed.stdout.splitlines()
        if "-example-" not in line
        and line.split("\t")[0].count("-") == 1
        and len(line.split("\t")[0]) == len("SPLIT-01234567")
    )
    explain = cli("explain", generated)
    assert explain.returncode == 0 and explain.stdout.startswith(f"{generated}: DML_SPLIT")
    nope = cli("explain", "NOPE", "--cases", str(EXAMPLES))
    assert nope.returncode == 2 and "no case 'NOPE'" in nope.stderr and TRACEBACK not in nope.stderr


def test_unsupported_everywhere_is_untested_exit_3(tmp_path):
    proc = cli(
        "run", "--backend", "dml_test_backends:NothingSupported", "--cases", str(EXAMPLES), "--out", str(tmp_path)
    )
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "verdict: UNTESTED" in proc.stdout
    assert {r["category"] for r in case_lines(next(tmp_path.glob("results-*.jsonl")))} == {"unsupported"}
    assert "v-UNTESTED" in next(tmp_path.glob("report-*.html")).read_text()


def test_header_and_footer_say_what_the_run_was(good_run):
    records = lines(good_run[1])
    header, footer = records[0], records[-1]
    assert header["format_version"] == 2 and header["backend_spec"] == "dml_test_backends:AllLevels"
    assert header["config"]["backend"] == "dml_test_backends:AllLevels" and header["jobs"] >= 1
    assert footer["kind"] == "footer" and footer["counts"] == {"pass": len(records) - 3, "observed": 1}


def test_every_run_option_comes_from_the_one_table():
    from conformance.cli import build_parser
    from conformance.run.config import RunConfig
    from conformance.run.options import OPTIONS

    parser = build_parser()
    run = next(a for a in parser._subparsers._group_actions[0].choices.values() if a.prog.endswith(" run"))
    actions = {a.dest: a for a in run._actions if a.dest != "help"}
    assert set(actions) == {o.name for o in OPTIONS if o.cli}
    assert all(actions[o.name].type is o.type for o in OPTIONS if o.cli and o.type)
    args = parser.parse_args(
        [
            "run",
            "--backend",
            "oracle",
            "--operators",
            "slice1,DML_PADDING_OPERATOR_DESC",
            "--shard",
            "2/3",
            "-j",
            "3",
            "--timeout",
            "0",
            "--case",
            "A-1",
            "--case",
            "B-*",
        ]
    )
    config = RunConfig.from_values(vars(args))
    assert (config.operators, str(config.shard), config.jobs, config.timeout_s, config.case) == (
        ("SLICE1", "PADDING"),
        "2/3",
        3,
        None,
        ("A-1", "B-*"),
    )
    assert config.given == {"backend", "operators", "shard", "jobs", "timeout", "case"}


def test_the_repro_command_gives_a_switch_passed_to_the_backend_as_a_flag():
    from conformance.run.config import RunConfig

    config = RunConfig.from_values({"backend": "directml", "one_by_one": True, "dml_path": "graph"})
    assert config.backend_kwargs == {"one_by_one": True, "dml_path": "graph"}
    assert config.repro() == "dml-conformance run --backend directml --dml-path graph --one-by-one --case {id}"


# A value other than the default for each option that can change a case's verdict (store_true ones need none).
VERDICT_SAMPLES = {
    "dml_dll": "x.dll",
    "directml_version": "1.13.1",
    "adapter": "0",
    "adapter_kind": "npu",
    "ort_performance_preference": "minimum_power",
    "ort_host": "python",
    "dml_path": "graph",
    "ort_graph_optimization": "basic",
    "ort_dml_graph_fusion": "off",
    "profile": "full",
    "feature_level": "5.0",
    "cases": "my cases",
    "seed": "7",
    "generated": "30000",
    "expectations": "w.json",
    "timeout": "5",
    "max_bytes": "1",
    "retries": "2",
}


def _verdict_options():
    from conformance.run.options import OPTIONS

    return [o for o in OPTIONS if (o.verdict or o.backend_kwarg) and o.cli]


@pytest.mark.parametrize("option", _verdict_options(), ids=lambda o: o.cli)
def test_the_repro_command_carries_every_option_that_changes_a_verdict(option):
    """Issue 29: under --no-known-issues the printed command lacked it, and ran the case to PASS. Each option
    the table marks as changing a verdict, set alone, is in the command, and the command read back gives it
    the same value."""
    import shlex

    from conformance.cli import build_parser
    from conformance.run.config import RunConfig

    assert option.action == "store_true" or option.name in VERDICT_SAMPLES, f"a sample value for {option.cli}"
    argv = ["run", option.cli] if option.action == "store_true" else ["run", option.cli, VERDICT_SAMPLES[option.name]]
    config = RunConfig.from_values(vars(build_parser().parse_args(argv)))
    command = config.repro()
    assert option.cli in shlex.split(command)
    again = RunConfig.from_values(vars(build_parser().parse_args(shlex.split(command.format(id="X-1"))[1:])))
    assert getattr(again, option.name) == getattr(config, option.name) and again.case == ("X-1",)


def test_progress_counts_a_retried_case_once_by_its_latest_record(capsys):
    progress = _Progress(2)
    progress.on = True  # as on a terminal
    for record in (
        Record("SLICE-a", "SLICE", Category.FAIL, "x", index=0),
        Record("SLICE-b", "SLICE", Category.PASS, "x", index=1),
        Record("SLICE-a", "SLICE", Category.FLAKY, "x", index=0),  # its retry passed
    ):
        progress.last = 0.0
        progress.update([record])
    lines = capsys.readouterr().err.split("\r")
    assert lines[1:] == ["1/2 cases, 1 failing", "2/2 cases, 1 failing", "2/2 cases, 0 failing"]


def test_a_reader_that_stops_early_ends_the_command_quietly():
    """`dml-conformance cases list | head -1`: the command's own exit (conformance.cli.console: its streams flushed,
    nothing freed) still ends with 0 and no traceback once the reader has gone."""
    import subprocess
    import sys

    from runner_helpers import env

    proc = subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "cases", "list", "--profile", "quick"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and TRACEBACK not in err, err


def test_the_command_s_exit_status_and_last_lines_survive_its_quick_exit(tmp_path):
    """console() ends the process without the interpreter's shutdown: the exit status is main()'s and every line
    printed before it (the summary's verdict last) reaches the reader."""
    proc = cli("run", "--backend", "dml_test_backends:BitFlip", "--cases", str(EXAMPLES), "--out", str(tmp_path))
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.rstrip().splitlines()[-1].startswith("verdict: FAIL")

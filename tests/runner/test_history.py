"""`dml-conformance history`: five real runs of one backend across driver builds, and what it must show.

The runs (dml_test_backends:DriverBuilds on the worked examples, a driver build each, labels
build-8 .. build-12 so that `--order label` must compare numbers as numbers):

    run  label     faults (garbage output)                    expected categories
    1    build-8   none                                       everything passes
    2    build-9   PADDING-example-1; JOIN-example-1 excluded  FLIP fails, ABSENT absent
    3    build-10  SLICE1-example-2 (the seeded regression)    REGRESSION fails
    4    build-11  PADDING-example-1                           REGRESSION fixed, FLIP fails
    5    build-12  none, run as two shards (merged)            everything passes

so the history holds exactly two changed cases: FLIP (pass fail pass fail pass: a candidate flake,
first changed in run 2) and REGRESSION (pass pass fail pass pass: regressed in 3, fixed in 4, no
flake); ABSENT is absent from run 2 and passes elsewhere: no change.
"""

from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import pytest
from runner_helpers import EXAMPLES, cli, faults_file

from conformance.cases.corpus import load
from conformance.report.history import build_history, history_page, history_text
from conformance.run.record import FORMAT, FORMAT_VERSION, Category, Footer, Header, Record, Resume
from conformance.run.results import ResultsWriter, _lean, read_outcomes, read_results

BACKEND = "dml_test_backends:DriverBuilds"
FLIP, REGRESSION, ABSENT = "PADDING-example-1", "SLICE1-example-2", "JOIN-example-1"
LABELS = [f"build-{n}" for n in range(8, 13)]
DRIVERS = [f"31.0.101.{n}" for n in range(8, 13)]
FAULTS: list[list[str]] = [[], [FLIP], [REGRESSION], [FLIP], []]


def _run(tmp: Path, k: int, *extra: str, name: str = "") -> Path:
    """Run k (0-based) of the table above, with its faults and driver build; its results file."""
    folder = tmp / f"run{k + 1}{name}"
    folder.mkdir()
    faults = faults_file(folder, {case: "garbage" for case in FAULTS[k]})
    results = folder / "results.jsonl"
    proc = cli(
        *("run", "--backend", BACKEND, "--cases", str(EXAMPLES), "--label", LABELS[k], "-j", "1"),
        *("--results", str(results), "--report", str(folder / "report.html"), *extra),
        env_extra={"DML_TEST_FAULTS": str(faults), "DML_TEST_DRIVER": DRIVERS[k]},
    )
    assert proc.returncode == (1 if FAULTS[k] else 0), proc.stderr
    return results


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> list[Path]:
    """The five runs' results files, in run order (the fifth is two shard files)."""
    tmp = tmp_path_factory.mktemp("history")
    files = [_run(tmp, 0), _run(tmp, 1, "--exclude", ABSENT), _run(tmp, 2), _run(tmp, 3)]
    files += [_run(tmp, 4, "--shard", "1/2", name="a"), _run(tmp, 4, "--shard", "2/2", name="b")]
    return files


def _css(node, selector: str) -> list:
    """The elements `tag#id`, `tag.class` or `tag[attr]` steps select (lxml's cssselect is not installed)."""
    path = "."
    for step in selector.split():
        tag, _, rest = step.partition("[")
        tag, _, cls = tag.partition(".")
        tag, _, ident = tag.partition("#")
        test = [f"@id='{ident}'"] if ident else []
        test += [f"contains(concat(' ', @class, ' '), ' {cls} ')"] if cls else []
        test += ["@" + rest.rstrip("]")] if rest else []
        path += f"//{tag or '*'}" + "".join(f"[{t}]" for t in test)
    return node.xpath(path)


def _data_type(case_id: str) -> str:
    (case,) = [c for c in load([EXAMPLES]).cases if c.id == case_id]
    return case.data_type.value


def test_the_runs_are_what_the_history_is_checked_against(runs):
    """The fixture's own premise, read from the results files with the full reader: the seeded faults landed."""
    categories = [{r.id: r.category.value for r in read_results(f).records} for f in runs]
    assert [c.get(FLIP) for c in categories[:4]] == ["pass", "fail", "pass", "fail"]
    assert [c.get(REGRESSION) for c in categories[:4]] == ["pass", "pass", "fail", "pass"]
    assert ABSENT not in categories[1] and ABSENT in categories[0]
    assert "fail" not in categories[4].values() and "fail" not in categories[5].values()
    assert len(categories[4]) + len(categories[5]) == 56  # the shards split the examples (the pages typed 56)


def test_text_shows_exactly_the_seeded_transitions(runs):
    shuffled = [runs[2], runs[5], runs[0], runs[3], runs[4], runs[1]]  # the order given does not matter
    proc = cli("history", *map(str, shuffled), "--order", "label")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0] == "history: 5 runs of driver-builds, by label"
    for k in range(5):  # each run by its label and identity's short form; the driver changed in each after the first
        line = out[1 + k]
        assert line.startswith(f"  run {k + 1}: {LABELS[k]}, ") and f"Test GPU, driver {DRIVERS[k]}" in line
        assert (f"changed: driver_version {DRIVERS[k - 1]} -> {DRIVERS[k]}" in line) is (k > 0)
    assert out[6] == (
        "2 of 56 cases changed category (2 regressed, 2 fixed, 1 candidate flake); 1 absent from some run "
        "(absent is not a change)"
    )
    listed = out[out.index("changed cases (. pass, F fail):") + 1 :]
    assert listed == [
        f"  .F.F.  {FLIP}  first changed in run 2 (build-9); regressed in runs 2, 4; fixed in runs 3, 5; "
        "candidate flake",
        f"  ..F..  {REGRESSION}   first changed in run 3 (build-10); regressed in run 3; fixed in run 4",
    ]
    assert ABSENT not in proc.stdout
    # The tables count the two cases under their operators, nothing else (the examples: 4 PADDING, 2 SLICE1).
    heading = next(i for i, line in enumerate(out) if line.startswith("  operator "))
    assert out[heading].split() == ["operator", "cases", "changed", "regressed", "fixed", "flakes"]
    assert [row.split() for row in out[heading + 1 : heading + 3]] == [
        ["PADDING", "4", "1", "1", "1", "1"],
        ["SLICE1", "2", "1", "1", "1", "0"],
    ]
    assert out[heading + 3].startswith("  data type ")


def test_default_order_is_the_start_time(runs, tmp_path):
    """Runs whose start times (rewritten here: runs made within a second would tie) order them against their labels."""
    copies = []
    for k, f in enumerate(runs[:4]):
        lines = f.read_text().splitlines()
        header = json.loads(lines[0])
        header["started"] = f"2026-0{4 - k}-01T12:00:00+0000"  # run 1 the latest, run 4 the earliest
        copy = tmp_path / f"run{k + 1}.jsonl"
        copy.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
        copies.append(copy)
    proc = cli("history", *map(str, copies))
    assert proc.returncode == 0, proc.stderr
    assert [line.split(",")[0] for line in proc.stdout.splitlines()[1:5]] == [
        "  run 1: build-11",
        "  run 2: build-10",
        "  run 3: build-9",
        "  run 4: build-8",
    ]
    assert f"  F.F.  {FLIP}" in proc.stdout  # reversed: fail pass fail pass
    assert f"  .F..  {REGRESSION}" in proc.stdout
    # Given as they are, in that order: the run numbers follow the arguments.
    given = cli("history", *map(str, reversed(copies)), "--order", "given")
    assert given.stdout.splitlines()[1].startswith("  run 1: build-11")


def test_page_shows_the_same_transitions(runs, tmp_path):
    out = tmp_path / "history.html"
    proc = cli("history", *map(str, runs), "-o", str(out), "--order", "label")
    assert proc.returncode == 0, proc.stderr
    assert f"history: {out}" in proc.stdout
    page = lxml.html.fromstring(out.read_text())
    assert page.findtext(".//title") == "DirectML conformance history"
    run_rows = _css(page, "#hist-runs tr[data-run]")
    assert [_css(r, "td")[1].text_content() for r in run_rows] == LABELS
    assert all(f"driver {d}" in _css(r, "td.identity")[0].text_content() for r, d in zip(run_rows, DRIVERS))
    rows = _css(page, "#hist-changes tr[data-id]")
    assert [r.get("data-id") for r in rows] == [FLIP, REGRESSION]
    flip, regression = rows
    assert [td.text_content() for td in _css(flip, "td.seq")] == ["pass", "fail", "pass", "fail", "pass"]
    assert [td.get("class") for td in _css(regression, "td.seq")] == [
        "seq c-pass",
        "seq c-pass",
        "seq c-fail",
        "seq c-pass",
        "seq c-pass",
    ]
    assert _css(flip, "td.first")[0].text_content() == "run 2"
    assert _css(regression, "td.first")[0].text_content() == "run 3"
    assert _css(regression, "td.regressed")[0].text_content() == "run 3"
    assert _css(regression, "td.fixed")[0].text_content() == "run 4"
    assert _css(flip, "td.flake-mark")[0].text_content() == "candidate flake"
    assert _css(regression, "td.flake-mark")[0].text_content() == ""
    # The failing cell carries the run's reason.
    assert _css(regression, "td.seq")[2].get("title").startswith("run 3 (build-10): fail: ")
    ops = {
        r.get("data-name"): [td.text_content() for td in _css(r, "td.num")]
        for r in _css(page, "#hist-operators tr[data-name]")
    }
    assert ops["PADDING"] == ["4", "1", "1", "1", "1"] and ops["SLICE1"] == ["2", "1", "1", "1", "0"]
    assert ops["JOIN"][1:] == ["0", "0", "0", "0"]
    types = {
        r.get("data-name"): [td.text_content() for td in _css(r, "td.num")]
        for r in _css(page, "#hist-data-types tr[data-name]")
    }
    flip_type, regression_type = _data_type(FLIP), _data_type(REGRESSION)
    changed_by_type = {t: int(v[1]) for t, v in types.items() if int(v[1])}
    expected = {flip_type: 1, regression_type: 1} if flip_type != regression_type else {flip_type: 2}
    assert changed_by_type == expected
    assert _css(page, "#hist-summary b")[0].text_content() == "2"


# --- bad input ------------------------------------------------------------------------------------


def test_one_run_is_not_a_history(runs):
    proc = cli("history", str(runs[4]), str(runs[5]))  # two shards: one run
    assert proc.returncode == 2
    assert "history needs at least 2 runs; 1 given" in proc.stderr and "shards of one run are one run" in proc.stderr


def test_runs_of_two_backends_are_refused(runs, tmp_path):
    other = tmp_path / "oracle.jsonl"
    proc = cli("run", "--backend", "oracle", "--cases", str(EXAMPLES), "--results", str(other), "-j", "1")
    assert proc.returncode == 0, proc.stderr
    proc = cli("history", str(runs[0]), str(other), str(runs[1]))
    assert proc.returncode == 2
    assert "these are runs of 2: driver-builds" in proc.stderr and f"oracle ({other})" in proc.stderr
    assert str(runs[0]) in proc.stderr and str(runs[1]) in proc.stderr


def test_the_same_run_twice_is_refused(runs):
    proc = cli("history", str(runs[0]), str(runs[1]), str(runs[0]))
    assert proc.returncode == 2 and f"{runs[0]} is the same run as {runs[0]}" in proc.stderr


def test_a_malformed_results_file_is_named(runs, tmp_path):
    lines = runs[1].read_text().splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([lines[0], lines[1], lines[2][:40], *lines[3:]]) + "\n")
    proc = cli("history", str(runs[0]), str(broken))
    assert proc.returncode == 2 and f"{broken}:3: not JSON" in proc.stderr
    edited = tmp_path / "edited.jsonl"
    case = json.loads(lines[2])
    edited.write_text("\n".join([lines[0], lines[1], json.dumps({**case, "category": "passed"}), *lines[3:]]) + "\n")
    proc = cli("history", str(runs[0]), str(edited))
    assert proc.returncode == 2 and f"{edited}:3" in proc.stderr and "$.category" in proc.stderr
    missing = tmp_path / "missing.jsonl"
    proc = cli("history", str(runs[0]), str(missing))
    assert proc.returncode == 2 and str(missing) in proc.stderr


def test_a_torn_last_line_is_a_note_and_its_case_absent(runs, tmp_path):
    """A run stopped while writing its last case: read as read_results reads it (the case is absent there)."""
    lines = runs[2].read_text().splitlines()
    torn = tmp_path / "torn.jsonl"
    cut = json.loads(lines[-2])["id"] if json.loads(lines[-1])["kind"] == "footer" else None
    assert cut is not None
    torn.write_text("\n".join([*lines[:-2], lines[-2][:100]]))  # the footer gone, the last case torn
    proc = cli("history", str(runs[0]), str(torn), "--order", "given")
    assert proc.returncode == 0, proc.stderr
    assert "is torn" in proc.stderr and "no footer" in proc.stderr
    assert "1 absent from some run" in proc.stdout
    out = proc.stdout.splitlines()
    heading = [i for i, line in enumerate(out) if line.startswith("changed cases (")]
    changed = [line.split()[1] for line in out[heading[0] + 1 :]] if heading else []
    assert changed == ([] if cut == REGRESSION else [REGRESSION])  # the torn case: absent, not a change


def test_output_never_replaces_a_results_file(runs):
    proc = cli("history", str(runs[0]), str(runs[1]), "-o", str(runs[1]))
    assert proc.returncode == 2 and "is an input of this command (RESULTS)" in proc.stderr


# --- the lean reader and the page, without a run -------------------------------------------------


def _write(path: Path, records: list[Record], label: str = "x", started: str = "2026-01-01T00:00:00+0000") -> Path:
    path.touch()
    writer = ResultsWriter(path)
    writer.header(Header(FORMAT, FORMAT_VERSION, backend="b", label=label, started=started, run_id=label))
    writer.records(records)
    writer.close()
    return path


def test_read_outcomes_agrees_with_read_results_on_hard_text(tmp_path):
    """Escapes, quotes, non-ASCII and a surrogate in the fields the lean reader takes: the same text as the full one."""
    hard = 'a "quoted" \\ back\\slash, caf\u00e9 \u2192 \udc80 and \x1b[31m, {"kind":"case"}'
    records = [
        Record("SLICE-1", "SLICE", Category.FAIL, reason=hard, data_type="FLOAT16", index=0),
        Record('odd "id" \u00e9', "PADDING", Category.PASS, index=1),  # no reason, no data type: left out
        Record("SPLIT-2", "SPLIT", Category.UNSUPPORTED, reason="needs FL 6.3", data_type="INT8", index=2),
    ]
    path = _write(tmp_path / "hard.jsonl", records)
    full = [(r.id, r.operator, r.category, r.data_type, r.reason) for r in read_results(path).records]
    lean = [(o.id, o.operator, o.category, o.data_type, o.reason) for o in read_outcomes(path).records]
    assert lean == full
    # ... read from the lines' first fields (the writer's form), not by the full reader they fall back on.
    assert all(_lean(line) is not None for line in path.read_text().splitlines()[1:])
    assert full[0][4].endswith('\ufffd and \\x1b[31m, {"kind":"case"}')  # cleaned, as every reader cleans


def test_page_escapes_what_the_results_say(tmp_path):
    """A label and a reason holding markup are text on the page, never markup."""
    evil = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    a = _write(tmp_path / "a.jsonl", [Record("SLICE-1", "SLICE", Category.PASS, data_type="INT8")], label=evil)
    b = _write(
        tmp_path / "b.jsonl",
        [Record("SLICE-1", "SLICE", Category.ERROR, reason=evil, data_type="INT8")],
        label="b",
        started="2026-01-02T00:00:00+0000",
    )
    html = history_page(build_history([read_outcomes(a), read_outcomes(b)]))
    page = lxml.html.fromstring(html)
    assert not _css(page, "script") and not _css(page, "img")
    assert evil in _css(page, "#hist-runs tr[data-run='1'] td")[1].text_content()
    assert evil in _css(page, "#hist-changes td.seq")[1].get("title")


@pytest.mark.parametrize(
    ("sequence", "first", "regressed", "fixed", "flake"),
    [
        ("pass fail pass", 1, [1], [2], False),
        ("pass fail pass fail", 1, [1, 3], [2], True),
        ("fail pass fail", 1, [2], [1], False),
        ("pass fail error pass", 1, [1], [3], False),
        ("pass pass flaky pass", 2, [], [], True),
        ("pass - fail - fail", 2, [2], [], False),
        ("unsupported unsupported pass", 2, [], [], False),
        ("pass interrupted fail", 2, [2], [], False),
        # A waived case is a known failure (issue 29): waiving it fixes nothing; a fix is a pass.
        ("fail waived", 1, [], [], False),
        ("fail waived pass", 1, [], [2], False),
        ("pass waived", 1, [1], [], False),
    ],
)
def test_transitions_and_flakes(tmp_path, sequence, first, regressed, fixed, flake):
    """Hand-written sequences (`-`: absent from that run): where a case first changed, regressed, was fixed,
    and whether it flips."""
    runs = []
    for k, word in enumerate(sequence.split()):
        records = [] if word == "-" else [Record("C-1", "SLICE", Category(word), data_type="INT8")]
        runs.append(read_outcomes(_write(tmp_path / f"{k}.jsonl", records, f"r{k}", f"2026-01-0{k + 1}T00:00:00+0000")))
    (change,) = build_history(runs).changes
    assert (change.first_changed, change.regressed, change.fixed, change.flake) == (first, regressed, fixed, flake)
    assert change.letters == "".join(
        {
            "-": "-",
            "pass": ".",
            "fail": "F",
            "error": "E",
            "flaky": "k",
            "unsupported": "u",
            "interrupted": "i",
            "waived": "w",
        }[w]
        for w in sequence.split()
    )


def test_absent_alone_is_no_change(tmp_path):
    runs = [
        read_outcomes(_write(tmp_path / f"{k}.jsonl", records, f"r{k}", f"2026-01-0{k + 1}T00:00:00+0000"))
        for k, records in enumerate(
            [
                [Record("C-1", "SLICE", Category.FAIL)],
                [],
                [Record("C-1", "SLICE", Category.INTERRUPTED)],
                [Record("C-1", "SLICE", Category.FAIL)],
            ]
        )
    ]
    history = build_history(runs)
    assert history.changes == [] and history.absent == 1 and history.total.cases == 1


def test_read_outcomes_reads_version_1_and_resumed_files_as_read_results_does(tmp_path):
    """A format-1 file (`start` lines, a case never recorded: crash) and a resumed run (a later record replaces
    an earlier one; a resume line reopens the run its footer closed)."""
    v1 = tmp_path / "v1.jsonl"
    rows = [
        {"kind": "header", "format": FORMAT, "format_version": 1, "backend": "old"},
        {"kind": "start", "id": "SLICE-a"},
        {"kind": "case", "id": "SLICE-a", "operator": "SLICE", "category": "pass", "data_type": "INT8"},
        {"kind": "start", "id": "SLICE-b"},
    ]
    v1.write_text("".join(json.dumps(r) + "\n" for r in rows))
    resumed = _write(tmp_path / "resumed.jsonl", [Record("A-1", "JOIN", Category.FAIL, reason="first try")])
    writer = ResultsWriter(resumed)
    writer.footer(Footer(interrupted=True))
    writer.resume(Resume(started="later"))
    writer.records([Record("A-1", "JOIN", Category.PASS, reason="bit-exact"), Record("A-2", "JOIN", Category.PASS)])
    writer.close()
    for path, expected in [
        (v1, [("SLICE-a", "pass"), ("SLICE-b", "crash")]),
        (resumed, [("A-1", "pass"), ("A-2", "pass")]),
    ]:
        lean, full = read_outcomes(path), read_results(path)
        assert sorted((o.id, o.category.value) for o in lean.records) == expected
        assert sorted((o.id, o.operator, o.category, o.data_type, o.reason) for o in lean.records) == sorted(
            (r.id, r.operator, r.category, r.data_type, r.reason) for r in full.records
        )
        assert lean.notes == full.notes and (lean.footer is None) == (full.footer is None)


def test_a_long_flip_names_its_first_runs_and_counts_the_rest(tmp_path):
    runs = [
        read_outcomes(
            _write(
                tmp_path / f"{k}.jsonl",
                [Record("C-1", "SLICE", Category.FAIL if k % 2 else Category.PASS, data_type="INT8")],
                f"r{k}",
                f"2026-01-{k + 1:02d}T00:00:00+0000",
            )
        )
        for k in range(12)
    ]
    text = history_text(build_history(runs))
    assert text.splitlines()[-1] == (
        "  .F.F.F.F.F.F  C-1  first changed in run 2 (r1); regressed in runs 2, 4, 6, 8 and 2 more; "
        "fixed in runs 3, 5, 7, 9 and 1 more; candidate flake"
    )

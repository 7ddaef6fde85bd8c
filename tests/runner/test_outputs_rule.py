"""Nothing lost, as a rule: every output option of every command (and of the pytest plugin) refuses a results
file, an expectations file, a package, a user's file, and an input or another output of the same command, before
any work, with exit 2 and one line naming the option, the target's bytes unchanged; it replaces a file of its own
kind that the suite made; and every file is written whole (a full disk leaves the old file, no temporary file).

The table of options is checked against the parsers: a new output option without a row fails
`test_every_output_option_has_a_row`.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from runner_helpers import EXAMPLES, HERE, TRACEBACK

from conformance import cli as cli_module
from conformance.run.options import OPTIONS
from conformance.run.results import ResultsWriter, read_results
from conformance.support import outputs

GOOD = EXAMPLES / "SLICE-example-1.json"
CASE_ID = "SLICE-example-1"


@dataclass(frozen=True)
class Row:
    """One output option: the command line that gives it (TARGET where it points; {x} the fixtures), the file
    kind it writes, and a command line where it points at one of the command's inputs or another output."""

    command: str  # the subcommand path as the parser names it ("cases generate"); "plugin" for the plugin
    option: str
    argv: tuple[str, ...]
    collide: tuple[str, ...] | None  # the same option at an input or another output
    replaces: bool = True  # an existing file of its kind made by the suite is replaced (run --results: never)
    force: bool = False  # that replacement needs --force
    folder: bool = False


RUN = ("run", "--backend", "oracle", "--cases", "{case}", "--out", "{tmp}/o")
PLUGIN = ("--dml-backend", "oracle", "--dml-cases", "{case}")
ROWS = (
    Row("run", "--results", (*RUN, "--results", "TARGET"), (*RUN, "--results", "{case}"), replaces=False),
    Row(
        "run",
        "--report",
        (*RUN, "--report", "TARGET"),
        (*RUN, "--results", "{tmp}/n.jsonl", "--report", "{tmp}/n.jsonl"),
    ),
    Row("run", "--junit-xml", (*RUN, "--junit-xml", "TARGET"), (*RUN, "--report", "{tmp}/j", "--junit-xml", "{tmp}/j")),
    Row(
        "run",
        "--update-expectations",
        (*RUN, "--expectations", "{mine}", "--update-expectations", "TARGET"),
        (*RUN, "--expectations", "{mine}", "--update-expectations", "{case}"),
    ),
    Row("run", "--out", (*RUN[:-2], "--out", "TARGET"), (*RUN[:-2], "--out", "{case}"), replaces=False, folder=True),
    Row("report", "--output", ("report", "{results}", "-o", "TARGET"), ("report", "{results}", "-o", "{results}")),
    Row(
        "report",
        "--junit-xml",
        ("report", "{results}", "-o", "{tmp}/r.html", "--junit-xml", "TARGET"),
        ("report", "{results}", "-o", "{tmp}/r.html", "--junit-xml", "{tmp}/r.html"),
    ),
    Row(
        "baseline",
        "--output",
        ("baseline", "{results}", "-o", "TARGET"),
        ("baseline", "{results}", "-o", "{results}"),
        force=True,
    ),
    Row(
        "package",
        "--output",
        ("package", "{results}", "-o", "TARGET"),
        ("package", "{results}", "-o", "{results}"),
        force=True,
    ),
    Row(
        "history",
        "--output",
        ("history", "{results3}", "{results2}", "-o", "TARGET"),
        ("history", "{results3}", "{results2}", "-o", "{results2}"),
    ),
    Row(
        "repro",
        "--cpp",
        ("repro", CASE_ID, "--cpp", "TARGET"),
        ("repro", CASE_ID, "--results", "{results}", "--cpp", "{results}"),
        force=True,
        folder=True,
    ),
    Row(
        "repro",
        "--onnx",
        ("repro", CASE_ID, "--onnx", "TARGET"),
        ("repro", CASE_ID, "--results", "{results}", "--onnx", "{results}"),
        force=True,
        folder=True,
    ),
    Row("cases generate", "--out", ("cases", "generate", "--count", "3", "--out", "TARGET"), None, folder=True),
    Row(
        "plugin",
        "--dml-results",
        (*PLUGIN, "--dml-results", "TARGET"),
        (*PLUGIN, "--dml-results", "{case}"),
        replaces=False,
    ),
    Row(
        "plugin",
        "--dml-report",
        (*PLUGIN, "--dml-report", "TARGET"),
        (*PLUGIN, "--dml-results", "{tmp}/p.jsonl", "--dml-report", "{tmp}/p.jsonl"),
    ),
    Row(
        "plugin",
        "--dml-update-expectations",
        (*PLUGIN, "--dml-expectations", "{mine}", "--dml-update-expectations", "TARGET"),
        (*PLUGIN, "--dml-expectations", "{mine}", "--dml-update-expectations", "{case}"),
    ),
)
ROW_IDS = [f"{r.command}:{r.option}" for r in ROWS]

# Options that name a file or folder the command only reads (an output in other commands' words).
INPUTS = {("repro", "--results"), ("run", "--resume"), ("run", "--expectations"), ("package", "--expectations")}
# What marks an option as an output: its flag's name, or its help saying it writes.
OUTPUT_NAMES = {"output", "out", "junit_xml", "report", "results", "update_expectations", "cpp", "onnx"}


def _subcommands(parser: argparse.ArgumentParser, path: str = ""):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _subcommands(sub, f"{path} {name}".strip())
    if path:
        yield path, parser


def _declared_outputs() -> set[tuple[str, str]]:
    """Every option of every subcommand (and of the plugin) that writes a file or folder, from the parsers."""
    found = set()
    for command, parser in _subcommands(cli_module.build_parser()):
        for action in parser._actions:
            if not action.option_strings or action.nargs == 0:
                continue
            flag = max(action.option_strings, key=len)
            writes = action.dest in OUTPUT_NAMES or "write" in (action.help or "").split(",")[0].lower()
            if writes and (command, flag) not in INPUTS and (command, action.dest) != ("run", "report_off"):
                found.add((command, flag))
    found |= {("plugin", o.plugin) for o in OPTIONS if o.plugin and o.name in OUTPUT_NAMES}
    return found


def test_every_output_option_has_a_row():
    assert _declared_outputs() == {(r.command, r.option) for r in ROWS}


# --- the fixtures: one of each kind of file a user may point an output at ----------------------------------


@pytest.fixture(scope="module")
def made(good_run, tmp_path_factory) -> dict[str, Path]:
    """A results file, a package of it, a user's expectations file and a user's notes: the files to protect."""
    folder = tmp_path_factory.mktemp("made")
    results = folder / "results-a.jsonl"
    shutil.copyfile(good_run[1], results)
    for name in ("results-b.jsonl", "results-c.jsonl"):  # two runs of one backend: what `history` reads
        run = ["run", "--backend", "oracle", "--cases", str(GOOD), "--results", str(folder / name)]
        assert cli_module.main([*run, "--report", "none"]) == 0
    package = folder / "package.zip"
    assert cli_module.main(["package", str(results), "-o", str(package)]) == 0
    mine = folder / "mine.json"
    mine.write_text('{"waivers": []}\n')
    notes = folder / "notes.txt"
    notes.write_text("my notes, not the suite's\n")
    return {
        "results": results,
        "package": package,
        "mine": mine,
        "notes": notes,
        "results-b": folder / "results-b.jsonl",
        "results-c": folder / "results-c.jsonl",
    }


def _fill(args: tuple[str, ...], target: Path | str, tmp: Path, made: dict[str, Path]) -> list[str]:
    results2 = tmp / "results-b.jsonl"  # a copy: a command's inputs are never written
    if not results2.exists():
        shutil.copyfile(made["results-b"], results2)
    mine = tmp / "in.json"
    if not mine.exists():
        mine.write_text('{"waivers": []}\n')
    case = tmp / "case.json"
    if not case.exists():
        shutil.copyfile(GOOD, case)
    values = {"tmp": str(tmp), "case": str(case), "results": str(made["results"]), "results2": str(results2)}
    values["results3"] = str(made["results-c"])
    values["mine"] = str(mine)
    return [str(target) if a == "TARGET" else a.format(**values) for a in args]


def _invoke(row: Row, argv: list[str], tmp: Path, capsys) -> tuple[int, str]:
    """Exit status and stderr: the CLI in this process; the plugin in a pytest subprocess."""
    if row.command != "plugin":
        code = cli_module.main(argv)
        return code, capsys.readouterr().err
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *argv],
        capture_output=True,
        text=True,
        cwd=tmp,
        env={**os.environ, "PYTHONPATH": str(HERE)},
        timeout=300,
    )
    return proc.returncode, proc.stderr + proc.stdout


def _assert_refused(row: Row, code: int, err: str) -> None:
    errors = [line for line in err.splitlines() if "error" in line.lower()]
    assert code in (2, pytest.ExitCode.USAGE_ERROR), err
    named = ("-o:", "--output:") if row.option == "--output" else (f"{row.option}:",)
    assert len(errors) == 1 and any(n in errors[0] for n in named), err
    assert TRACEBACK not in err


NOUNS = {"results": "a results file", "package": "a dml-conformance package", "mine": "an expectations file"}
NOUNS["notes"] = "not"


@pytest.mark.parametrize("what", ["results", "package", "mine", "notes"])
@pytest.mark.parametrize("row", ROWS, ids=ROW_IDS)
def test_an_output_never_replaces_another_kind_of_file(row, what, made, tmp_path, capsys):
    target = tmp_path / made[what].name
    shutil.copyfile(made[what], target)
    before = target.read_bytes()
    own_kind = row.command == "package" and what == "package"  # the one fixture of a row's own kind: needs --force
    for force in (False, True) if row.force and not own_kind else (False,):
        argv = _fill(row.argv, target, tmp_path, made) + (["--force"] if force else [])
        code, err = _invoke(row, argv, tmp_path, capsys)
        _assert_refused(row, code, err)
        assert target.read_bytes() == before
        if (row.command, row.option) not in {("run", "--results"), ("plugin", "--dml-results"), ("run", "--out")}:
            assert NOUNS[what] in err, err  # the file is named for what it is
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize("row", [r for r in ROWS if r.collide], ids=[i for r, i in zip(ROWS, ROW_IDS) if r.collide])
def test_an_output_never_is_an_input_or_another_output(row, made, tmp_path, capsys):
    argv = _fill(row.collide or (), tmp_path / "unused", tmp_path, made)
    inputs = {p: p.read_bytes() for p in (tmp_path / "case.json", made["results"], tmp_path / "in.json")}
    code, err = _invoke(row, argv, tmp_path, capsys)
    _assert_refused(row, code, err)
    assert {p: p.read_bytes() for p in inputs} == inputs
    assert not (tmp_path / "n.jsonl").exists() and not (tmp_path / "j").exists() and not (tmp_path / "o").exists()


def _marker_file(row: Row, target: Path) -> Path:
    if not row.folder:
        return target
    return target / {"--cpp": "repro.cpp", "--onnx": "run_onnx.py", "--out": "SLICE.json"}[row.option]


@pytest.mark.parametrize("row", [r for r in ROWS if r.replaces], ids=[i for r, i in zip(ROWS, ROW_IDS) if r.replaces])
def test_an_output_replaces_its_own_kind_made_by_the_suite(row, made, tmp_path, capsys):
    capsys.readouterr()
    target = tmp_path / ("out" if row.folder else "out.file")
    argv = _fill(row.argv, target, tmp_path, made)
    if row.option.endswith("update-expectations"):  # a new name is never reused: in place, the file it was given
        target = tmp_path / "in.json"
        argv = _fill(row.argv, target, tmp_path, made)
    if not target.exists():
        code, err = _invoke(row, argv, tmp_path, capsys)
        assert code in (0, 1), err  # written (a report of a failing run exits 1)
    first = _marker_file(row, target).stat().st_ino
    if row.force:  # without --force an earlier file of its kind is kept, and said so
        code, err = _invoke(row, argv, tmp_path, capsys)
        _assert_refused(row, code, err)
        assert "--force" in err
        argv = [*argv, "--force"]
    code, err = _invoke(row, argv, tmp_path, capsys)
    assert code in (0, 1) and TRACEBACK not in err, err
    assert _marker_file(row, target).stat().st_ino != first  # a new file renamed over the old one
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_folder_holding_a_users_file_of_a_reproducers_name_is_refused_even_with_force(made, tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "repro.cpp").write_text("// my own program\n")
    code = cli_module.main(["repro", CASE_ID, "--cpp", str(folder), "--force"])
    err = capsys.readouterr().err
    assert code == 2 and "--cpp:" in err and "never overwritten" in err
    assert (folder / "repro.cpp").read_text() == "// my own program\n"


# --- written whole ----------------------------------------------------------------------------------------


def _full_disk(monkeypatch) -> None:
    """The disk fills while the temporary file is being flushed: fsync raises ENOSPC."""

    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(outputs.os, "fsync", fsync)


@pytest.mark.parametrize(
    "row",
    [r for r in ROWS if r.replaces and r.command != "plugin"],
    ids=[i for r, i in zip(ROWS, ROW_IDS) if r.replaces and r.command != "plugin"],
)
def test_a_full_disk_leaves_the_old_file_and_no_temporary_file(row, made, tmp_path, capsys, monkeypatch):
    target = tmp_path / ("out" if row.folder else "out.file")
    if row.option.endswith("update-expectations"):
        target = tmp_path / "in.json"
    argv = _fill(row.argv, target, tmp_path, made) + (["--force"] if row.force else [])
    if not target.exists():
        assert cli_module.main(argv) in (0, 1)
    marker = _marker_file(row, target)
    before = marker.read_bytes()
    _full_disk(monkeypatch)
    code = cli_module.main(argv)
    err = capsys.readouterr().err
    assert code != 0 and TRACEBACK not in err and "No space left on device" in err, err
    assert marker.read_bytes() == before
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]


# --- a full disk under the results file: one count -----------------------------------------------------------


def test_a_full_disk_under_the_results_file_gives_one_count(tmp_path, capsys, monkeypatch):
    """The disk fills in the middle of a write of several records: the error line, the summary and the report
    all give the cases the file holds, which a reader of the file gets too."""
    budget = [3000]  # bytes the disk still takes after the header: a few records, then a torn line

    def send(self, data: bytes) -> int:
        if data.startswith(b'{"kind":"header"'):
            return os.write(self._fd, data)
        if budget[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = min(len(data), budget[0])
        budget[0] -= n
        return os.write(self._fd, data[:n])

    monkeypatch.setattr(ResultsWriter, "_send", send)
    out = tmp_path / "o"
    code = cli_module.main(["run", "--backend", "oracle", "--cases", str(EXAMPLES), "--out", str(out), "--jobs", "1"])
    captured = capsys.readouterr()
    assert code == 1 and TRACEBACK not in captured.err
    (results,) = out.glob("results-*.jsonl")
    held = len(read_results(results).records)
    assert 0 < held < len(list(EXAMPLES.glob("*.json")))
    (error,) = [line for line in captured.err.splitlines() if "error" in line]
    assert "No space left on device" in error and f"the run stopped with {held} case(s) in the results file" in error
    counts = next(line for line in captured.out.splitlines() if line.startswith(("pass:", "fail:", "observed:")))
    assert sum(int(n) for n in re.findall(r": (\d+)", counts)) == held, counts
    (report,) = out.glob("report-*.html")
    assert len(read_results(results).records) == held and report.stat().st_size > 0


# --- a results file still being written -------------------------------------------------------------------------


def test_a_results_file_open_for_writing_reads_as_being_written(tmp_path):
    path = tmp_path / "r.jsonl"
    path.touch()
    writer = ResultsWriter(path)
    try:
        assert outputs.being_written(path)
    finally:
        writer.close()
    assert not outputs.being_written(path)


def test_report_of_a_running_file_says_it_is_still_being_written_and_of_a_dead_one_that_it_died(tmp_path):
    out = tmp_path / "o"
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "conformance.cli", "run", "--backend", "dml_test_backends:Slow"),
            *("--cases", str(EXAMPLES), "--out", str(out), "--jobs", "1"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(HERE), "DML_TEST_DELAY": "1"},
    )
    try:
        deadline = time.monotonic() + 120
        while (
            not list(out.glob("results-*.jsonl"))
            or '"kind":"case"' not in next(out.glob("results-*.jsonl")).read_text()
        ):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        results = next(out.glob("results-*.jsonl"))
        running = cli_module_report(results, tmp_path / "running.html")
        assert "a run is still writing this file" in running and "interrupted or crashed" not in running
        resumed = subprocess.run(
            [sys.executable, "-m", "conformance.cli", "run", "--resume", str(results)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(HERE)},
            timeout=120,
        )
        assert resumed.returncode == 2 and "--resume: " in resumed.stderr and "is still being written" in resumed.stderr
    finally:
        proc.kill()
        proc.wait()
    dead = cli_module_report(results, tmp_path / "dead.html")
    assert "interrupted or crashed" in dead and "still writing" not in dead


def cli_module_report(results: Path, report: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "report", str(results), "-o", str(report)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(HERE)},
        timeout=120,
    )
    return proc.stderr

"""The rule of issue 29's class 2: every input, however large or malformed, is exit 2 and one line naming it.

The options come from the parser itself (every subcommand, every option that takes a value), so an option
added later is covered without editing this file. Each is given every hostile value of VALUES on top of a
base command that is itself refused (a case id that matches nothing), so no value, accepted or not, starts
a run; the assertion is the same either way: exit 2 (or the command's own documented code for an invalid
file), no traceback, one error line. In-process `main()` calls: the whole table takes seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
from pathlib import Path

import pytest
from runner_helpers import TRACEBACK

from conformance import cli

NESTED = "(" * 3000 + "a" + ")" * 3000  # issue 29: a RecursionError traceback from -k


def _values(tmp: Path) -> list[str]:
    """Hostile text for any option: empty, numbers out of every range, deep nesting, NUL bytes, lone
    surrogates (an undecodable argv), names past the system's limit, and files of every wrong kind."""
    (tmp / "binary").write_bytes(bytes(range(256)) * 4)
    (tmp / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp / "bad.json").write_text("{nope")
    (tmp / "digits.json").write_text('{"waivers": [{"id": ' + "9" * 5000 + "}]}")
    (tmp / "empty.json").write_text("")
    (tmp / "folder").mkdir()
    return [
        "",
        "-1",
        "nan",
        "1e999",
        "9" * 5000,
        "1/0",
        NESTED,
        "not " * 300 + "a",
        "a" * 5000,
        "a\x00b",
        "\udcff",
        "(?",
        str(tmp / "missing" / "x.json"),
        str(tmp / "binary"),
        str(tmp / "deep.json"),
        str(tmp / "bad.json"),
        str(tmp / "digits.json"),
        str(tmp / "empty.json"),
        str(tmp / "folder"),
    ]


# Each command with the arguments it needs, refused on their own (exit 2) whatever the option under test.
NO_CASE = ["--case", "NO-SUCH-CASE", "--exclude", "*"]
BASE: dict[str, list[str]] = {
    "run": ["run", "--profile", "stress", *NO_CASE],
    "report": ["report", "{bad}", "-o", "{tmp}/r.html"],
    "baseline": ["baseline", "{bad}", "-o", "{tmp}/b.json"],
    "history": ["history", "{bad}", "{bad}"],
    "expectations lint": ["expectations", "lint", "{bad}"],
    "package": ["package", "{bad}", "-o", "{tmp}/p.zip"],
    "verify": ["verify", "{bad}"],
    "explain": ["explain", "{bad}"],  # a case file: a case id would generate the full profile to look it up
    "cases list": ["cases", "list", "--profile", "stress", *NO_CASE],
    "cases generate": ["cases", "generate", "--count", "1", "--out", "{bad}"],
    "cases coverage": ["cases", "coverage", "--profile", "stress", *NO_CASE],
    "setup": ["setup", "directml", "--directml-version", "0.0.0"],
    "repro": ["repro", "{bad}", "--cpp", "{tmp}/repro"],
    "schema": ["schema", "case", "--validate", "{bad}"],
}
# Where a hostile value may also be a good one, or the command documents another code: `cases generate --out`
# takes any folder name (written in the test's own folder), `schema --validate` answers 1 for an invalid file.
OTHER_EXITS = {"cases generate": {0}, "schema": {1}}


def _commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*prefix, name))
            return
    yield " ".join(prefix), parser


def _options() -> list[tuple[str, str]]:
    return [
        (command, action.option_strings[-1])
        for command, parser in _commands(cli.build_parser())
        for action in parser._actions
        if action.option_strings and action.nargs != 0 and action.dest != "help"
    ]


def test_every_command_has_a_refused_base():
    """A new subcommand must be added to BASE, so that its options are thrown the hostile values too."""
    assert {command for command, _ in _commands(cli.build_parser())} - {"backends"} <= set(BASE)


def _main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as e:  # argparse's own usage errors
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def quiet(monkeypatch):
    """No worker process or machine setup: the refusals come before either."""
    import conformance.backends.directml.setup as setup
    from conformance.run import spawn
    from conformance.run.pool import Pool

    monkeypatch.setattr(Pool, "prestart", lambda self, count=1: None)
    monkeypatch.setattr(spawn.Spares, "__init__", lambda self, count: setattr(self, "trees", []))  # none started
    monkeypatch.setattr(setup, "run_setup", lambda **kw: pytest.fail("setup ran on a hostile value"))


@pytest.mark.parametrize(("command", "option"), _options(), ids=lambda v: v)
def test_hostile_values_are_one_line_and_exit_2(command, option, tmp_path, quiet, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a relative folder name a command accepts is made here
    base = [a.format(tmp=tmp_path, bad=tmp_path / "bad.json") for a in BASE[command]]
    expected = {2} | OTHER_EXITS.get(command, set())
    problems = []
    for value in _values(tmp_path):
        code, out, err = _main([*base, option, value])
        errors = [line for line in err.splitlines() if "error" in line]
        if code not in expected or TRACEBACK in out + err or len(errors) > 1 or (code == 2 and len(errors) != 1):
            problems.append(f"{command} {option} {value[:30]!r}: exit {code}, {errors[:3] or err[-300:]!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "-k", NESTED],
        ["run", "-k", "not " * 3000 + "a"],
        ["cases", "list", "-k", NESTED],
        ["run", "--data-types", "9" * 5000],
        ["run", "--expectations", "a\x00b"],
        ["run", "--out", "a" * 5000],
        ["report", "a" * 5000],
    ],
    ids=["parentheses", "nots", "cases-list", "data-type-digits", "nul", "long-name", "long-positional"],
)
def test_the_examples_name_their_option(argv, quiet):
    code, out, err = _main(argv)
    assert code == 2 and TRACEBACK not in out + err
    (line,) = [line for line in err.splitlines() if "error" in line]
    assert argv[-2] in line or (argv[0] == "report" and "results" in line)


def test_cases_on_a_folder_without_case_files(tmp_path, quiet):
    code, _, err = _main(["run", "--cases", str(tmp_path), "--out", str(tmp_path / "out")])
    assert code == 2 and f"--cases: no case file (*.json) in the folder {tmp_path}" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--clause", "NOPE.9"], "--clause 'NOPE.9': no such clause"),
        (["--tag", "NOPE"], "--tag 'NOPE': neither an errata id nor a tag"),
        (["--case", "SLICE-nope"], "--case: no case matches SLICE-nope"),
    ],
)
def test_cases_list_names_a_typo(args, message, quiet):
    code, out, err = _main(["cases", "list", "--profile", "stress", *args])
    assert code == 2 and message in err and not out


def test_cases_list_of_a_known_clause_without_cases_says_none(quiet):
    code, out, err = _main(["cases", "list", "--profile", "stress", "--operators", "SLICE", "--clause", "PAD1.1"])
    assert code == 0 and not out and "no case of this selection matches" in err
    code, out, _ = _main(["cases", "list", "--profile", "stress", "--tag", "E-PAD-1", "--operators", "SLICE"])
    assert code == 0 and not out


pytest_plugins = ["pytester"]


def test_the_plugin_refuses_hostile_values_as_usage_errors(pytester: pytest.Pytester, tmp_path, quiet):
    """The plugin's --dml-* options (the same table) are pytest usage errors (exit 4, one line), never a traceback."""
    from conformance.run.options import OPTIONS

    problems = []
    for option in (o.plugin for o in OPTIONS if o.plugin and o.action != "store_true"):
        for value in ("", NESTED, "9" * 5000, "a\x00b", "a" * 5000, str(tmp_path / "bad.json")):
            (tmp_path / "bad.json").write_text("{nope")
            args = ["--dml-backend", "oracle", "--dml-profile", "stress", "--dml-case", "NO-SUCH-CASE", option, value]
            result = pytester.runpytest_inprocess(*args)
            text = "\n".join(result.outlines + result.errlines)
            # pytest's usage errors: "ERROR: usage: ..." then argparse's "...: error: argument ..."; or "ERROR: ..."
            errors = [line for line in result.errlines if re.match(r"^(ERROR: (?!usage:)|\S+: error: )", line)]
            if result.ret != pytest.ExitCode.USAGE_ERROR or TRACEBACK in text or len(errors) != 1:
                problems.append(f"{option} {value[:30]!r}: exit {result.ret}, {errors[:3] or text[-300:]!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("variable", ["DML_CONFORMANCE_GENERATED", "DML_CONFORMANCE_CACHE"])
def test_hostile_environment_variables_are_no_traceback(variable, tmp_path, monkeypatch, quiet):
    """The suite's cache folders from the environment: a name past the limit, a file, a folder that cannot be
    made. The cache is an optimisation: the command still answers (here: no such case, exit 2, one line); a
    `~user` of no such user is named as the variable's fault."""
    (tmp_path / "file").write_text("not a folder")
    for value in ("a" * 5000, str(tmp_path / "file"), "/proc/no/such", "~nosuchuser/x"):
        monkeypatch.setenv(variable, value)
        if variable == "DML_CONFORMANCE_CACHE":
            monkeypatch.delenv("DML_CONFORMANCE_GENERATED", raising=False)
        code, out, err = _main(["cases", "list", "--operators", "SLICE", "--generated", "10", "--case", "NO-SUCH"])
        assert code == 2 and TRACEBACK not in out + err, (value[:30], err[-300:])
        (line,) = [line for line in err.splitlines() if "error" in line]
        expected = f"${variable}='~nosuchuser/x'" if value.startswith("~") else "--case: no case matches NO-SUCH"
        assert line.startswith(f"dml-conformance: error: {expected}"), line

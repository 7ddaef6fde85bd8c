"""The CI recipes in docs/ci/ use only commands and options dml-conformance has.

The YAML is read with a few regexes (block scalars joined into one logical line), not a YAML
library: the check is on the `dml-conformance ...` command lines, which is where a renamed
option would silently break a vendor's nightly.
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from conformance.cli import build_parser

RECIPES = sorted((Path(__file__).resolve().parents[1] / "docs" / "ci").glob("*.yml"))
BLOCK = re.compile(r"^(\s*(?:- )?)(run|script):\s*[>|][-+]?\s*$")
SHELL = re.compile(r"^\s*(?:- )?(?:run|script):\s*(.+)$")
CI_VARIABLE = re.compile(r"\$\{\{[^}]*\}\}|\$\([^)]*\)|\$\{[^}]*\}")


def shell_lines(text: str) -> list[str]:
    """The shell commands of a workflow: `run:`/`script:` values, a block scalar (`run: >`) joined into one line."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        match = BLOCK.match(lines[i])
        if not match:
            single = SHELL.match(lines[i])
            if single:
                out.append(single.group(1))
            i += 1
            continue
        indent = len(match.group(1))  # the key's column: the block is what is indented past it
        body = []
        i += 1
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
            body.append(lines[i].strip())
            i += 1
        out.append(" ".join(b for b in body if b))
    return out


def commands(text: str) -> list[list[str]]:
    """Every `dml-conformance ...` command, as arguments (CI variables replaced by a placeholder)."""
    found = []
    for line in shell_lines(text):
        for match in re.finditer(r"(?:^|\s)dml-conformance\s+(.*)", line):
            args = shlex.split(CI_VARIABLE.sub("X", match.group(1)))
            found.append(args)
    return found


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def unknown_options(args: list[str]) -> list[str]:
    """The options of one command line that its (sub)command does not have; the command if it is unknown."""
    parser = build_parser()
    rest = list(args)
    while rest and _subparsers(parser):
        name = rest.pop(0)
        if name not in _subparsers(parser):
            return [f"command {name!r}"]
        parser = _subparsers(parser)[name]
    known = set(parser._option_string_actions)
    return [a for a in rest if a.startswith("-") and a.split("=", 1)[0] not in known]


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda p: p.name)
def test_every_option_a_recipe_uses_exists(recipe):
    found = commands(recipe.read_text())
    assert found, f"{recipe.name}: no dml-conformance command found"
    bad = {" ".join(args): unknown_options(args) for args in found if unknown_options(args)}
    assert not bad, f"{recipe.name}: {bad}"


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda p: p.name)
def test_each_recipe_runs_real_directml_on_windows_and_linux_with_the_vendor_loop(recipe):
    found = [" ".join(args) for args in commands(recipe.read_text())]
    runs = [c for c in found if c.startswith("run ")]
    assert len(runs) == 2 and all("--backend directml" in c for c in runs)
    assert all("--junit-xml" in c and "--retries" in c and "--expectations" in c for c in runs)
    assert "setup directml --install" in found
    assert any(c.startswith("report ") for c in found)
    text = recipe.read_text()
    assert "windows" in text.lower() and ("self-hosted" in text)


def test_the_checker_finds_a_misspelt_option_and_an_unknown_command():
    text = "steps:\n  - run: >\n      dml-conformance run --backend directml\n      --retires 2\n  - run: dml-conformance frobnicate\n"
    found = commands(text)
    assert found == [["run", "--backend", "directml", "--retires", "2"], ["frobnicate"]]
    assert unknown_options(found[0]) == ["--retires"] and unknown_options(found[1]) == ["command 'frobnicate'"]
    assert unknown_options(["setup", "directml", "--install"]) == []
    assert RECIPES and {p.name for p in RECIPES} == {"github-actions.yml", "azure-pipelines.yml"}

"""Every option's "Default: ..." in `dml-conformance run --help` and `pytest --help` is RunConfig's own default."""

from __future__ import annotations

import argparse
import ast
import dataclasses
import re

import pytest

from conformance.cli import build_parser
from conformance.run.config import RunConfig
from conformance.run.options import OPTIONS, add_plugin_options, plugin_dest

FIELD_DEFAULTS = {f.name: f.default for f in dataclasses.fields(RunConfig)}
VALUED = [o for o in OPTIONS if FIELD_DEFAULTS[o.name] is not None and FIELD_DEFAULTS[o.name] is not False]


def _run_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["run"]


def _helps(parser) -> dict[str, str]:
    return {a.dest: a.help for a in parser._actions if a.help}


class _Group:
    """Collects what add_plugin_options gives pytest's OptionGroup.addoption."""

    def __init__(self) -> None:
        self.helps: dict[str, str] = {}

    def addoption(self, *flags: str, dest: str, **kw) -> None:
        self.helps[dest] = kw["help"]


def _shown_default(help_text: str) -> str:
    match = re.search(r"Default: (.*)$", help_text)
    assert match, f"no 'Default:' in {help_text!r}"
    return match.group(1)


def test_some_options_default_to_a_value():
    assert {o.name for o in VALUED} >= {"backend", "profile", "seed", "timeout", "out", "retries"}


@pytest.mark.parametrize("option", VALUED, ids=lambda o: o.name)
def test_the_help_shows_runconfigs_default(option):
    group = _Group()
    add_plugin_options(group)
    helps = [_helps(_run_parser()).get(option.name)] if option.cli else []
    helps += [group.helps[plugin_dest(option)]] if option.plugin else []
    assert helps
    for text in helps:
        assert ast.literal_eval(_shown_default(text)) == FIELD_DEFAULTS[option.name], text


def test_no_default_is_typed_by_hand_into_the_table():
    """Defaults are composed (Option.help_text), never written into an option's help: two sources drift."""
    assert [o.name for o in OPTIONS if "Default:" in o.help] == []


def test_an_option_without_a_value_default_says_what_not_giving_it_means():
    described = {o.name: o.help_text() for o in OPTIONS if o.default is not None}
    assert "Default: the backend's own level" in described["feature_level"]
    assert all(FIELD_DEFAULTS[name] is None or FIELD_DEFAULTS[name] is False for name in described)

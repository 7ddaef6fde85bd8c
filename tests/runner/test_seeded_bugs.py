"""Seeded bugs the default profiles must catch (benchmarks/mutants.py; the whole table: benchmarks/bench_mutants.py).

The one the quick profile missed before the reach set: a SPLIT that loses its outputs past the
eighth.  A correct implementation through the same selection must stay clean (no false alarm).
Every bug of mutants.ONE_CLASS_MUTANTS (one value class of one operator in one data type, issue 29)
must be caught by a reach case, made for that class by construction, not by a generated one that a
new GENERATOR_VERSION may move: a new such mutant the quick profile misses fails here.  They run a
group at a time (mutants.ONE_CLASS_GROUPS: one run, each member acting only in its own operator and
type), and each is judged by the records of its own operator and type alone.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest
from runner_helpers import cli

import oracle

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _mutants_module():
    spec = importlib.util.spec_from_file_location("mutants", BENCHMARKS / "mutants.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MUTANTS = _mutants_module()
ONE_CLASS_MUTANTS = MUTANTS.ONE_CLASS_MUTANTS


def _run(tmp_path: Path, backend: str, *args: str) -> tuple[int, list[dict]]:
    proc = cli(
        *("run", "--backend", f"mutants:{backend}", "--out", str(tmp_path), "--report", "none", *args),
        env_extra={"PYTHONPATH": os.pathsep.join([str(BENCHMARKS), os.environ.get("PYTHONPATH", "")])},
        timeout=300,
    )
    results = next(tmp_path.glob("results-*.jsonl"), None)
    assert results is not None, proc.stderr
    return proc.returncode, [json.loads(line) for line in results.read_text().splitlines()]


@pytest.mark.parametrize(
    ("mutant", "caught_by"),
    [("SplitDropsPast8", "SPLIT-reach-outputs-9-"), ("SplitDropsPast64", "SPLIT-reach-outputs-65-")],
)
def test_the_quick_profile_catches_a_split_that_loses_outputs_past_a_table_size(tmp_path, mutant, caught_by):
    code, lines = _run(tmp_path, mutant, "--operators", "SPLIT", "--hypothesis-examples", "0")
    failing = [r["id"] for r in lines if r.get("kind") == "case" and r["category"] == "fail"]
    assert code == 1 and any(i.startswith(caught_by) for i in failing), failing


def test_a_correct_implementation_is_not_flagged_by_the_same_selection(tmp_path):
    code, lines = _run(tmp_path, "CorrectViaLiteral", "--operators", "SPLIT", "--hypothesis-examples", "0")
    assert code == 0, [r for r in lines if r.get("category") not in (None, "pass", "observed")][:3]


def test_there_are_a_dozen_one_class_bugs_across_the_operators():
    assert len(ONE_CLASS_MUTANTS) >= 12
    assert {m.operator for m in ONE_CLASS_MUTANTS} == set(oracle.OPERATORS)  # each operator has its own


def test_each_one_class_bug_is_in_one_group_alone_in_its_operator_and_data_type():
    members = [m for g in MUTANTS.ONE_CLASS_GROUPS for m in g.members]
    assert sorted(members, key=lambda m: m.__name__) == sorted(ONE_CLASS_MUTANTS, key=lambda m: m.__name__)
    for group in MUTANTS.ONE_CLASS_GROUPS:
        assert len({(m.operator, m.data_type) for m in group.members}) == len(group.members), group.__name__
        assert len({m().capabilities() for m in group.members}) == 1, group.__name__


@pytest.fixture(scope="module")
def group_run(tmp_path_factory):
    """A group's exit code and case records: its one run (the union of its operators and types) made when first asked."""
    runs: dict[type, tuple[int, list[dict]]] = {}

    def run(group: type) -> tuple[int, list[dict]]:
        if group not in runs:
            operators = ",".join(sorted({m.operator for m in group.members}))
            data_types = ",".join(sorted({m.data_type for m in group.members}))
            args = ("--operators", operators, "--data-types", data_types, "--hypothesis-examples", "0")
            code, lines = _run(tmp_path_factory.mktemp(group.__name__), group.__name__, *args)
            runs[group] = code, [r for r in lines if r.get("kind") == "case"]
        return runs[group]

    return run


@pytest.mark.parametrize("mutant", ONE_CLASS_MUTANTS, ids=lambda m: m.__name__)
def test_the_quick_profile_catches_a_bug_in_one_value_class_of_one_data_type_by_a_reach_case(group_run, mutant):
    """Only the records of the mutant's operator and type count: its group's other members act nowhere there."""
    (group,) = [g for g in MUTANTS.ONE_CLASS_GROUPS if mutant in g.members]
    code, cases = group_run(group)
    mine = [r for r in cases if (r["operator"], r["data_type"]) == (mutant.operator, mutant.data_type)]
    failing = [r["id"] for r in mine if r["category"] == "fail"]
    assert code == 1 and any("-reach-" in i for i in failing), (mutant.value_class, failing)

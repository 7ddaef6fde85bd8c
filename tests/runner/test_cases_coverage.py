"""`dml-conformance cases coverage`: the value-class grid of a selection (conformance.cases.value_classes)."""

from __future__ import annotations

from runner_helpers import EXAMPLES, cli


def test_the_coverage_command_prints_the_grid_and_fails_on_an_empty_cell(tmp_path):
    full = cli("cases", "coverage", "--operators", "SPLIT")
    assert full.returncode == 0, full.stderr
    assert "SPLIT" in full.stdout and "axis middle" in full.stdout and "JOIN" not in full.stdout
    assert "99 of 99 cells covered" in full.stdout
    partial = cli("cases", "coverage", "--operators", "SPLIT", "--cases", str(EXAMPLES))
    assert partial.returncode == 1, partial.stderr
    assert " of 99 cells covered" in partial.stdout and "99 of 99" not in partial.stdout
    one_type = cli("cases", "coverage", "--operators", "PADDING1", "--data-types", "INT8")
    assert one_type.returncode == 0, one_type.stdout
    header = one_type.stdout.splitlines()[1].split()
    assert header == ["I8"] and "value -0.0" in one_type.stdout and "21 of 21 cells covered" in one_type.stdout
    bad = cli("cases", "coverage", "--operators", "NOPE")
    assert bad.returncode == 2 and "--operators" in bad.stderr.strip().splitlines()[-1]

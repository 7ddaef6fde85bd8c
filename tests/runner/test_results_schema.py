"""Results files against their JSON Schema: every line a fresh run writes is valid, broken lines are
named by file, line and JSON path, and the schema covers every field and category of the record."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from prerequisite import require
from runner_helpers import CURATED, EXAMPLES, cli, lines

from conformance.run import record
from conformance.support import formats


@pytest.fixture(scope="module")
def oracle_results(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("oracle")
    proc = cli("run", "--backend", "oracle", "--cases", str(EXAMPLES), "--cases", str(CURATED), "--out", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (results,) = out.glob("results-*.jsonl")
    return results


def test_every_line_of_a_fresh_results_file_validates(oracle_results):
    rows = lines(oracle_results)
    assert rows[0]["kind"] == "header" and rows[-1]["kind"] == "footer" and len(rows) > 20
    proc = cli("schema", "results", "--validate", str(oracle_results))
    assert proc.returncode == 0, proc.stderr
    assert f"{oracle_results}: valid results file" in proc.stdout


def test_failing_records_validate_too(broken_run):
    """Mismatches, stored tensors and waivers: the parts a passing run never writes."""
    _, results = broken_run
    assert any(r.get("mismatch") for r in lines(results))
    assert cli("schema", "results", "--validate", str(results)).returncode == 0


def test_jsonschema_agrees_line_by_line(oracle_results, broken_run):
    try:
        import jsonschema
    except ImportError:
        require(False, "jsonschema is not installed (pip install -e '.[test]')")
    reference = jsonschema.Draft7Validator(formats.schema("results"))
    for path in (oracle_results, broken_run[1]):
        for row in lines(path):
            assert reference.is_valid(row), row
            assert formats.violation("results", row) is None
        bad = dict(lines(path)[1], rank="x")
        assert not reference.is_valid(bad) and formats.violation("results", bad) == (
            "$.rank",
            "expected an integer, got 'x'",
        )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            {"kind": "case", "id": "SLICE-a", "operator": "SLICE", "category": "great"},
            ":2: $.category: expected one of",
        ),
        ({"kind": "case", "id": "SLICE-a", "operator": "SLICE", "category": "pass", "rank": "x"}, ":2: $.rank:"),
        ({"kind": "case", "operator": "SLICE", "category": "pass"}, ":2: $: missing field 'id'"),
        ({"kind": "footer", "counts": {"pass": "1"}}, ":2: $.counts.pass: expected an integer"),
        ({"kind": "finale"}, ":2: $.kind: expected one of header, case, footer, resume, start"),
        ([1], ":2: $: expected a dml-conformance results line (an object), got [1]"),
    ],
)
def test_a_broken_line_fails_naming_file_line_and_path(oracle_results, tmp_path, line, message):
    path = tmp_path / "r.jsonl"
    text = oracle_results.read_text().splitlines()
    path.write_text("\n".join([text[0], json.dumps(line), *text[1:]]) + "\n")
    proc = cli("schema", "results", "--validate", str(path))
    assert proc.returncode == 1 and f"{path}{message}" in proc.stderr, proc.stderr


def test_a_header_that_is_not_one_fails(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"kind": "header", "format": "something-else", "format_version": 2}) + "\n")
    proc = cli("schema", "results", "--validate", str(path))
    assert proc.returncode == 1 and f"{path}:1: $.format:" in proc.stderr, proc.stderr


def test_the_schema_covers_every_record_field_and_category():
    definitions = formats.schema("results")["definitions"]
    for kind, cls in record.KINDS.items():
        assert set(definitions[kind]["properties"]) == {"kind"} | {f.name for f in dataclasses.fields(cls)}
    assert definitions["case"]["properties"]["category"]["enum"] == [c.value for c in record.Category]
    assert definitions["header"]["properties"]["format"] == {"const": record.FORMAT}

"""The file formats' JSON Schemas: shipped as the builder makes them, valid draft-07, derived from
the code, and what `dml-conformance schema` prints and validates with."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path

import pytest
from prerequisite import require

import oracle
from conformance import cli, schema_build
from conformance.cases.corpus import CASES_DIR, CaseFileError
from conformance.judging import expectations
from conformance.judging.expectations import KNOWN_ISSUES_DIR, ExpectationsError, known_issues, load_expectations
from conformance.run.results import ResultsFileError
from conformance.support import formats
from conformance.support.jsonfile import read_json

CASE_FILES = sorted(CASES_DIR.rglob("*.json"))


def _jsonschema():
    try:
        import jsonschema
    except ImportError:
        require(False, "jsonschema is not installed (pip install -e '.[test]')")
    return jsonschema


@pytest.mark.parametrize("name", formats.FORMATS)
def test_shipped_schema_is_what_the_builder_makes(name):
    shipped = (formats.SCHEMAS_DIR / f"{name}.schema.json").read_text(encoding="utf-8")
    assert shipped == schema_build.text(name), (
        f"conformance/schemas/{name}.schema.json is stale: run `python -m conformance.schema_build`"
    )


@pytest.mark.parametrize("name", formats.FORMATS)
def test_shipped_schema_is_valid_draft_07(name):
    jsonschema = _jsonschema()
    document = formats.schema(name)
    assert document["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(document)


def test_builder_writes_every_schema(tmp_path):
    assert schema_build.main([str(tmp_path)]) == 0
    for name in formats.FORMATS:
        assert json.loads((tmp_path / f"{name}.schema.json").read_text()) == formats.schema(name)


def test_case_schema_follows_the_descriptor_dataclasses():
    definitions = formats.schema("case")["definitions"]
    for operator, cls in oracle.DESCRIPTOR_TYPES.items():
        body = definitions[f"{operator}_descriptor"]
        fields = dataclasses.fields(cls)
        assert list(body["properties"]) == [f.name for f in fields]
        assert body["required"] == [f.name for f in fields if f.default is dataclasses.MISSING]
    assert definitions["data_type"]["enum"] == [t.value for t in oracle.DataType]
    assert definitions["PADDING_descriptor"]["properties"]["padding_mode"]["enum"] == [
        m.value for m in oracle.PaddingMode
    ]
    assert set(definitions["case"]["properties"]["clauses"]["items"]["enum"]) == set(oracle.CLAUSES)


def test_builder_derives_a_new_field_from_its_type_hint():
    """A field added to a record or descriptor reaches the schema by rebuilding, never by hand."""

    @dataclasses.dataclass
    class Extra:
        attempts: int = 1
        labels: list[str] = dataclasses.field(default_factory=list)
        flaky: bool | None = None

    hints = schema_build.TypeSchemas(closed=False)
    name = hints.define(Extra)
    assert hints.definitions[name]["properties"] == {
        "attempts": {"type": "integer"},
        "labels": {"type": "array", "items": {"type": "string"}},
        "flaky": {"type": ["boolean", "null"]},
    }
    assert hints.definitions[name]["required"] == []


def test_expectations_schema_follows_the_waiver_and_when_fields():
    document = formats.schema("expectations")
    waiver = document["definitions"]["waiver"]["allOf"][0]
    code_fields = {f.name for f in dataclasses.fields(expectations.Waiver)} - set(expectations.INTERNAL_WAIVER_FIELDS)
    assert set(waiver["properties"]) == code_fields
    assert set(document["definitions"]["when"]["properties"]) == expectations.WHEN_FIELDS
    assert set(document["definitions"]["when"]["properties"]["mismatch"]["enum"]) == expectations.MISMATCH_KINDS


# --- the CLI ---------------------------------------------------------------------------------------


def _schema_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["schema", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", formats.FORMATS)
def test_schema_prints_the_shipped_schema(capsys, name):
    code, out, _ = _schema_cli(capsys, name)
    assert code == 0 and json.loads(out) == formats.schema(name)


def test_every_packaged_case_file_validates(capsys):
    assert len(CASE_FILES) > 10
    code, out, err = _schema_cli(capsys, "case", "--validate", *map(str, CASE_FILES))
    assert code == 0, err
    assert out.count("valid case file") == len(CASE_FILES)


def test_known_issues_files_validate(capsys):
    files = sorted(map(str, KNOWN_ISSUES_DIR.glob("*.json")))
    assert files
    code, out, err = _schema_cli(capsys, "expectations", "--validate", *files)
    assert code == 0, err
    assert out.count("valid expectations file") == len(files)
    # What known_issues() leaves unchecked at run time (the schema, each `versions` range): checked here in full.
    for path in files:
        assert load_expectations(path).waivers == known_issues(Path(path).stem).waivers


def _broken_case_list(tmp_path: Path) -> Path:
    cases = read_json(CASES_DIR / "examples" / "SLICE-example-1.json")
    good, bad = copy.deepcopy(cases), copy.deepcopy(cases)
    bad["descriptor"]["offsets"][0] = "1"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"schema_version": 1, "cases": [good, bad]}))
    return path


def test_a_broken_case_file_fails_naming_file_and_path(capsys, tmp_path):
    good = CASES_DIR / "examples" / "SLICE-example-1.json"
    broken = _broken_case_list(tmp_path)
    code, out, err = _schema_cli(capsys, "case", "--validate", str(good), str(broken))
    assert code == 1
    assert f"{good}: valid case file" in out
    assert f"{broken}: $.cases[1].descriptor.offsets[0]: expected an integer, got '1'" in err
    assert "1 of 2 file(s) are not valid case files" in err


def test_the_loader_and_schema_validate_give_the_same_error_for_every_broken_item(capsys, tmp_path):
    """One per-item check (formats.case_violation) behind both: they cannot disagree about a file."""
    from conformance.cases.corpus import load_file

    broken = _broken_case_list(tmp_path)
    _, _, err = _schema_cli(capsys, "case", "--validate", str(broken))
    loaded = load_file(broken)
    assert loaded.errors and all(str(e) in err for e in loaded.errors), (err, [str(e) for e in loaded.errors])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"waivers": [{"id": "X-1", "reason": "r", "when": {"operator": "CONV"}}]}', "$.waivers[0].when.operator:"),
        ('{"waivers": [{"reason": "r"}]}', "$.waivers[0]: expected exactly one of 'id'"),
        ('{"waivers": {}}', "$.waivers: expected a list, got {}"),
        ('{"waivers": [], "schema_version": 2}', "$.schema_version: expected one of 1, got 2"),
        ("{", "not valid JSON"),
    ],
)
def test_a_broken_expectations_file_fails_naming_file_and_path(capsys, tmp_path, text, message):
    path = tmp_path / "w.json"
    path.write_text(text)
    code, _, err = _schema_cli(capsys, "expectations", "--validate", str(path))
    assert code == 1 and f"{path}" in err and message in err, err


def test_schema_rejects_an_unknown_format(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["schema", "report"])
    assert info.value.code == 2


# --- validation agrees with a second implementation ---------------------------------------------------


def _sample_cases() -> list[dict]:
    """Every hand-written case and the first few of each generated file (jsonschema is slow on thousands)."""
    out = []
    for path in CASE_FILES:
        obj = read_json(path)
        out.extend(obj["cases"][:25] if "cases" in obj else [obj])
    return out


def _first_input(case: dict) -> dict:
    """The descriptor's (first) input tensor desc: JOIN has a list of them."""
    d = case["descriptor"]
    return d["input_tensor"] if "input_tensor" in d else (d["input_tensors"] or [d["output_tensor"]])[0]


def _mutations(case: dict) -> list[dict]:
    """Broken copies of a good case, each breaking one rule of the schema."""
    out = []
    for change in (
        lambda c: c.update(operator="CONV"),
        lambda c: c.update(feature_level="7.0"),
        lambda c: c.update(typo=1),
        lambda c: c["descriptor"].update(window=[1]),
        lambda c: _first_input(c).update(data_type="FLOAT8"),
        lambda c: c["inputs"][0].update(data_b64="AAAA", values=[1]),
        lambda c: c["expected"].update(outcome="invalid"),
        lambda c: _first_input(c)["sizes"].append(1.5),
        lambda c: c.pop("expected"),
    ):
        broken = copy.deepcopy(case)
        change(broken)
        out.append(broken)
    return out


def test_fastjsonschema_and_jsonschema_agree_on_cases():
    jsonschema = _jsonschema()
    reference = jsonschema.Draft7Validator(formats.schema("case"))
    samples = _sample_cases()
    valid = [c for c in samples if c["expected"]["outcome"] == "valid" and c.get("inputs")]
    assert len(samples) > 100 and valid
    for case in samples:
        assert formats.violation("case", case) is None
        assert reference.is_valid(case), case["id"]
    for broken in _mutations(valid[0]):
        assert formats.violation("case", broken) is not None, broken
        assert not reference.is_valid(broken), broken


def test_one_error_class_per_format():
    for cls in (CaseFileError, ExpectationsError, ResultsFileError):
        assert issubclass(cls, formats.FormatError)
    error = ResultsFileError("r.jsonl", "$.rank", "expected an integer, got 'x'", line=5)
    assert str(error) == "r.jsonl:5: $.rank: expected an integer, got 'x'"
    assert (error.path, error.line, error.json_path) == ("r.jsonl", 5, "$.rank")


@pytest.mark.parametrize(
    ("value", "where", "message"),
    [
        ({"data_type": "INT8", "shape": [1]}, "$", "expected exactly one of 'values' or 'data_b64'"),
        ({"data_type": "INT8", "shape": [-1], "values": []}, "$.shape[0]", "expected at least 0, got -1"),
        ({"data_type": "INT8", "shape": [1], "values": [True]}, "$.values[0]", "got True"),
        ({"data_type": "INT8", "shape": [1], "values": ["one"]}, "$.values[0]", "expected a number, or 'nan'"),
        ({"data_type": "INT8", "shape": [1], "value": [1]}, "$", "unknown field(s) value"),
        ({"shape": [1], "values": [1]}, "$", "missing field 'data_type'"),
        ([1], "$", "expected a tensor object, got [1]"),
    ],
)
def test_tensor_violations_name_the_path(value, where, message):
    found = formats.violation("case", value, definition="tensor")
    assert found is not None and found[0] == where and message in found[1], found


@pytest.mark.parametrize(("level", "valid"), [("3.1", True), ("DML_FEATURE_LEVEL_3_1", True), ("3.2", False)])
def test_feature_levels_as_the_readme_writes_them(level, valid):
    case = read_json(CASES_DIR / "examples" / "SLICE-example-1.json")
    case["feature_level"] = level
    found = formats.violation("case", case)
    assert (found is None) is valid, found
    if not valid:
        assert found == (
            "$.feature_level",
            "expected a feature level, 1.0 to 6.4 (or DML_FEATURE_LEVEL_x_y), got '3.2'",
        )

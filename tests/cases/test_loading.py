"""Loading case files: each kind of bad file is one clear error naming file and JSON path; the rest still loads."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import oracle
from conformance.cases import corpus

GOOD = {
    "id": "SLICE-good",
    "operator": "SLICE",
    "feature_level": "3.0",
    "clauses": ["SLICE.1"],
    "unspecified": [],
    "descriptor": {
        "input_tensor": {"data_type": "INT32", "sizes": [3]},
        "output_tensor": {"data_type": "INT32", "sizes": [2]},
        "offsets": [1],
        "sizes": [2],
        "strides": [1],
    },
    "inputs": [{"data_type": "INT32", "shape": [3], "values": [1, 2, 3]}],
    "expected": {"outcome": "valid", "outputs": [{"data_type": "INT32", "shape": [2], "values": [2, 3]}]},
}


def _case(case_id: str = "SLICE-good", **changes) -> dict:
    case = copy.deepcopy(GOOD)
    case["id"] = case_id
    case.update(changes)
    return case


def _write(folder: Path, name: str, content) -> Path:
    path = folder / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def _load_one_bad(tmp_path: Path, bad) -> corpus.CaseFileError:
    """Write a good file and a bad one; the good case loads, the bad one gives exactly one error."""
    _write(tmp_path, "good.json", _case("SLICE-neighbour"))
    bad_path = _write(
        tmp_path,
        "bad.json",
        {"schema_version": 1, "cases": [_case("SLICE-first-ok"), bad]} if isinstance(bad, dict) else bad,
    )
    result = corpus.load([tmp_path])
    ids = {c.id for c in result.cases}
    assert "SLICE-neighbour" in ids, "a bad file stopped another file from loading"
    assert len(result.errors) == 1, [str(e) for e in result.errors]
    error = result.errors[0]
    assert error.path == str(bad_path) and str(bad_path) in str(error)
    if isinstance(bad, dict):
        assert "SLICE-first-ok" in ids, "a bad case stopped the good case before it in the same file"
    return error


def test_malformed_json(tmp_path):
    error = _load_one_bad(tmp_path, '{"id": "SLICE-x", ')
    assert error.json_path == "$" and "not valid JSON" in error.message and "line 1" in error.message


def test_unknown_case_field(tmp_path):
    error = _load_one_bad(tmp_path, _case("SLICE-bad", expcted={}))
    assert error.json_path == "$.cases[1]" and "expcted" in error.message


def test_unknown_tensor_field(tmp_path):
    bad = _case("SLICE-bad")
    bad["inputs"][0]["valeus"] = bad["inputs"][0].pop("values")
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].inputs[0]" and "valeus" in error.message


def test_unknown_descriptor_field(tmp_path):
    bad = _case("SLICE-bad")
    bad["descriptor"]["window_offsets"] = [0]
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].descriptor" and "window_offsets" in error.message


def test_wrong_data_type_in_a_tensor(tmp_path):
    bad = _case("SLICE-bad")
    bad["inputs"][0]["data_type"] = "FLOAT8"
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].inputs[0].data_type" and "FLOAT8" in error.message


def test_wrong_data_type_in_a_descriptor(tmp_path):
    bad = _case("SLICE-bad")
    bad["descriptor"]["output_tensor"]["data_type"] = "BFLOAT16"
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].descriptor.output_tensor.data_type" and "BFLOAT16" in error.message


def test_tensor_desc_missing_sizes(tmp_path):
    bad = _case("SLICE-bad")
    del bad["descriptor"]["input_tensor"]["sizes"]
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].descriptor.input_tensor" and "sizes" in error.message


def test_data_type_differs_from_the_descriptor(tmp_path):
    bad = _case("SLICE-bad")
    bad["inputs"][0]["data_type"] = "UINT32"
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].inputs[0]" and "UINT32" in error.message and "INT32" in error.message


def test_shape_does_not_match_the_values(tmp_path):
    bad = _case("SLICE-bad")
    bad["inputs"][0]["shape"] = [4]
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].inputs[0].values" and "3 values" in error.message


def test_shape_does_not_match_the_base64_bytes(tmp_path):
    bad = _case("SLICE-bad")
    bad["inputs"][0] = {"data_type": "INT32", "shape": [3], "data_b64": "AQAAAAIAAAA="}  # 8 bytes, needs 12
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].inputs[0].data_b64" and "12" in error.message


def test_shape_does_not_match_the_descriptor(tmp_path):
    bad = _case("SLICE-bad")
    bad["expected"]["outputs"][0] = {"data_type": "INT32", "shape": [1, 2], "values": [2, 3]}
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].expected.outputs[0]"


def test_value_not_representable(tmp_path):
    bad = _case("SLICE-bad")
    bad["inputs"][0]["values"][1] = 2.5
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].inputs[0].values[1]" and "2.5" in error.message


def test_hash_id_that_does_not_match_the_content(tmp_path):
    error = _load_one_bad(tmp_path, _case("SLICE-0123abcd"))
    assert error.json_path == "$.cases[1].id" and "does not match its content" in error.message


def test_a_correct_hash_id_loads(tmp_path):
    case = corpus.case_from_json(_case("SLICE-good"))
    right = corpus.case_id("SLICE", case.feature_level, case.descriptor, case.inputs)
    _write(tmp_path, "one.json", _case(right))
    result = corpus.load([tmp_path])
    assert not result.errors and [c.id for c in result.cases] == [right]


def test_id_of_another_operator(tmp_path):
    error = _load_one_bad(tmp_path, _case("SLICE1-bad"))
    assert error.json_path == "$.cases[1].id" and "SLICE-" in error.message


def test_duplicate_ids_across_files(tmp_path):
    _write(tmp_path, "a.json", _case("SLICE-same"))
    _write(tmp_path, "b.json", _case("SLICE-same", description="another file, same id"))
    result = corpus.load([tmp_path])
    assert [c.id for c in result.cases] == ["SLICE-same"]
    assert len(result.errors) == 1
    error = result.errors[0]
    assert error.path.endswith("b.json") and "duplicate" in error.message and "a.json" in error.message


def test_valid_case_with_an_invalid_descriptor(tmp_path):
    bad = _case("SLICE-bad")
    bad["descriptor"]["strides"] = [2]  # last read 1 + 2*1 = 3 > 2
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].descriptor" and "SLICE.4" in error.message


def test_invalid_case_whose_descriptor_is_valid(tmp_path):
    error = _load_one_bad(tmp_path, _case("SLICE-bad", expected={"outcome": "invalid", "clause": "SLICE.4"}))
    assert error.json_path == "$.cases[1].expected" and "valid" in error.message


def test_invalid_case_naming_the_wrong_clause(tmp_path):
    bad = _case("SLICE-bad", expected={"outcome": "invalid", "clause": "SLICE.3"})
    bad["descriptor"]["strides"] = [2]
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].expected.clause" and "SLICE.4" in error.message


def test_unknown_clause_id(tmp_path):
    error = _load_one_bad(tmp_path, _case("SLICE-bad", clauses=["SLICE.99"]))
    assert error.json_path == "$.cases[1].clauses[0]" and "SLICE.99" in error.message


def test_unspecified_list_must_match_the_oracle(tmp_path):
    error = _load_one_bad(tmp_path, _case("SLICE-bad", unspecified=["U-SLICE-1"]))
    assert error.json_path == "$.cases[1].unspecified"


def test_inputs_not_a_list(tmp_path):
    error = _load_one_bad(tmp_path, _case("SLICE-bad", inputs=5))
    assert error.json_path == "$.cases[1].inputs"


def test_scalar_field_of_the_wrong_type(tmp_path):
    bad = _case("SLICE-bad")
    bad["descriptor"]["dimension_count"] = "1"
    error = _load_one_bad(tmp_path, bad)
    assert error.json_path == "$.cases[1].descriptor.dimension_count"


def test_list_file_with_an_unknown_top_level_key(tmp_path):
    error = _load_one_bad(tmp_path, json.dumps({"schema_version": 1, "cases": [], "generater": {}}))
    assert error.json_path == "$" and "generater" in error.message


@pytest.mark.parametrize("top", ["[1, 2]", '"text"', "42"])
def test_top_level_that_is_not_a_case(tmp_path, top):
    error = _load_one_bad(tmp_path, top)
    assert error.json_path == "$" and "case object" in error.message


def test_errors_carry_the_file_and_path_in_their_text(tmp_path):
    error = _load_one_bad(tmp_path, _case("SLICE-bad", operator="CONV"))
    assert str(error) == f"{error.path}: $.cases[1].operator: {error.message}"


def _stored_cases() -> list[dict]:
    out = []
    for path in sorted(corpus.CASES_DIR.rglob("*.json")):
        obj = json.loads(path.read_text(encoding="utf-8"))
        out += obj["cases"] if isinstance(obj, dict) and "cases" in obj else [obj]
    return out


# Fields a file may leave out: the descriptor type writes their default (the length of its tensor array).
DEFAULTED = {"dimension_count", "input_count", "output_count"}


def test_every_stored_descriptor_is_written_back_as_the_file_states_it():
    """Each descriptor type owns its JSON form (oracle.descriptor_json): every stored case's descriptor, read and
    written again, keeps the file's keys in its order with their JSON text (case ids are hashed from it), adds
    only defaulted fields, and reads back to the same JSON.  PaddingValue's other spellings (9 for 9.0, float
    bits) are the same value: the same bits in the struct."""
    cases = _stored_cases()
    assert len(cases) > 1000, "the stored corpus was not found"
    for case in cases:
        operator, written = case["operator"], case["descriptor"]
        descriptor = oracle.descriptor_from_json(operator, written)
        out = oracle.descriptor_to_json(descriptor)
        assert [k for k in out if k in written] == list(written), case["id"]
        assert set(out) - set(written) <= DEFAULTED, case["id"]
        for key, value in written.items():
            if key == "padding_value" and json.dumps(value) != json.dumps(out[key]):
                again = oracle.descriptor_from_json(operator, {**written, key: out[key]})
                assert again.struct_fields() == descriptor.struct_fields(), (case["id"], value, out[key])
            else:
                assert json.dumps(out[key]) == json.dumps(value), (case["id"], key)
        assert json.dumps(oracle.descriptor_to_json(oracle.descriptor_from_json(operator, out))) == json.dumps(out)


@pytest.mark.parametrize("operator", oracle.OPERATORS)
def test_a_descriptor_type_names_its_unknown_and_missing_fields(operator):
    written = next(c["descriptor"] for c in _stored_cases() if c["operator"] == operator)
    with pytest.raises(KeyError, match=rf"unknown field\(s\) bogus for {operator}; expected "):
        oracle.descriptor_from_json(operator, {**written, "bogus": 1})
    first = next(iter(written))
    with pytest.raises(KeyError, match=rf"missing field\(s\) {first} for {operator}"):
        oracle.descriptor_from_json(operator, {k: v for k, v in written.items() if k != first})

"""Executing one case in-process (what a worker does): categories, honest verdicts, bad answers."""

from __future__ import annotations

import json

import numpy as np
import pytest
from dml_test_backends import AllLevels, BitFlip, Garbage, NoInvalidChecks

from conformance.backends.base import RunResult
from conformance.cases.corpus import CASES_DIR, load
from conformance.cases.generation.corpus import generate
from conformance.judging.expectations import ExpectationsError, load_expectations
from conformance.run.execute import execute_case
from conformance.run.record import MAX_STORED_ELEMENTS, Category, Record, TensorData, repro_command
from conformance.run.units import FACTS, Work, completed, outcome_of


@pytest.fixture(scope="module")
def cases():
    loaded = load([CASES_DIR / "examples", CASES_DIR / "curated"])
    assert not loaded.errors
    return {c.id: c for c in loaded.cases}


def run(case, backend, level=None) -> Record:
    return execute_case(Work(0, case), backend, level)


def test_oracle_passes_every_example(cases):
    for case in cases.values():
        if case.id.startswith(tuple(f"{op}-example" for op in ("SLICE", "SLICE1", "PADDING", "SPLIT"))):
            assert run(case, AllLevels()).category is Category.PASS, case.id


def test_bit_flip_is_a_fail_with_hex_mismatch(cases):
    record = run(cases["SLICE1-example-2"], BitFlip())
    assert record.category is Category.FAIL
    assert record.mismatch is not None and record.mismatch.count == 1
    first = record.mismatch.first[0]
    assert first.coordinate == [0, 0, 0, 0]
    assert (first.expected, first.expected_hex, first.actual_hex) == ("14.0", "0x41600000", "0x41600001")
    assert record.tensors is not None and record.tensors.expected[0].values == [14.0, 16.0, 6.0, 8.0]
    assert record.reached_operator == "DML_SLICE1"


def test_dropped_output_is_a_fail(cases):
    record = run(cases["SPLIT-example-1"], BitFlip())
    assert record.category is Category.FAIL and "output(s)" in record.reason


class _Raising(AllLevels):
    def run(self, descriptor, inputs, feature_level):
        raise RuntimeError("driver exploded")


class _Refusing(AllLevels):
    def run(self, descriptor, inputs, feature_level):
        return RunResult.rejected("E_INVALIDARG")


class _Accepting(AllLevels):
    def check_descriptor(self, descriptor, feature_level):
        return RunResult.ok([])


class _ReasonRaises(AllLevels):
    def unsupported_reason(self, descriptor, feature_level):
        raise KeyError("no such table")


class _CapabilitiesRaise(AllLevels):
    def capabilities(self):
        raise OSError("device lost")


class _UnknownStatus(AllLevels):
    def run(self, descriptor, inputs, feature_level):
        return RunResult("maybe")


def test_raise_is_crash_refusal_is_rejected(cases):
    crash = run(cases["SLICE1-example-2"], _Raising())
    assert crash.category is Category.CRASH and "backend.run() raised RuntimeError: driver exploded" in crash.reason
    assert run(cases["SLICE1-example-2"], _Refusing()).category is Category.REJECTED


def test_every_backend_method_raising_is_reported_as_itself(cases):
    reason = run(cases["SLICE1-example-2"], _ReasonRaises())
    assert reason.category is Category.CRASH and "backend.unsupported_reason() raised KeyError" in reason.reason
    invalid = _invalid_case()
    caps = run(invalid, _CapabilitiesRaise())
    assert caps.category is Category.CRASH and "backend.capabilities() raised OSError: device lost" in caps.reason
    status = run(cases["SLICE1-example-2"], _UnknownStatus())
    assert status.category is Category.ERROR and "unknown status 'maybe'" in status.reason


def _invalid_case():
    return next(c for c in generate(seed=3, count=60, operators=("SLICE1",)) if not c.valid)


def test_invalid_descriptor_categories():
    case = _invalid_case()
    rejected = run(case, AllLevels())
    assert rejected.category is Category.PASS and rejected.clause_matched is True
    assert run(case, _Accepting()).category is Category.FAIL
    unsupported = run(case, NoInvalidChecks())
    assert unsupported.category is Category.UNSUPPORTED and "U-ALL-2" in unsupported.reason


def test_outside_capabilities_is_unsupported_without_running(cases):
    record = run(cases["PADDING-example-1"], NoInvalidChecks())
    assert record.category is Category.UNSUPPORTED and "DML_PADDING" in record.reason
    assert "backend_s" not in record.timings


def _without_timings(record: Record) -> dict:
    line = json.loads(record.to_line())
    line.pop("timings", None)
    return line


def test_a_workers_outcome_completed_by_its_parent_is_the_whole_record(cases):
    """A worker sends what it found (outcome_of) and none of what the case says of itself; the parent's record,
    completed from its own unit, is line for line the one executing in place makes (timings aside), whatever
    the verdict."""
    units = [*cases.values(), _invalid_case()]
    categories = set()
    for backend in (AllLevels(), BitFlip(), _Raising(), _Refusing(), NoInvalidChecks(), _Accepting()):
        for index, case in enumerate(units):
            whole = execute_case(Work(index, case), backend, None)
            outcome = outcome_of(execute_case(Work(index, case), backend, None, facts=False))
            assert _without_timings(completed(Work(index, case), outcome)) == _without_timings(whole), case.id
            categories.add(whole.category)
    assert {Category.PASS, Category.FAIL, Category.CRASH, Category.REJECTED, Category.UNSUPPORTED} <= categories
    # None of what the case says of itself crosses: its descriptor, clauses, tags, source, layout.
    assert {"descriptor", "clauses", "tags", "source", "layout", "data_type", "id", "index"} <= FACTS


# --- honest verdicts: only what the spec leaves open is exempt ----------------------------------------


class _OnlyElement0(AllLevels):
    """Gives another PaddingValue conversion (element 0) and everything else right."""

    def run(self, descriptor, inputs, feature_level):
        result = super().run(descriptor, inputs, feature_level)
        out = result.outputs[0].copy()
        out.reshape(-1)[0] = 255
        return RunResult.ok([out])


def test_garbage_where_only_one_element_is_open_fails(cases):
    # PADDING-negative-into-uint8: input [1, 2], expected [0, 1, 2]; only element 0 is open (U-PAD-1).
    record = run(cases["PADDING-negative-into-uint8"], Garbage())
    assert record.category is Category.FAIL
    assert record.mismatch is not None and (record.mismatch.count, record.mismatch.open_count) == (3, 1)
    assert "2 element(s) differ where the spec fixes the value; first at output 0 [1]" in record.reason


def test_a_different_choice_in_the_open_element_is_observed(cases):
    record = run(cases["PADDING-negative-into-uint8"], _OnlyElement0())
    assert record.category is Category.OBSERVED
    assert (
        record.observed is not None and record.observed.matches_policy is False and record.observed.open_elements == 1
    )


def test_matching_the_policy_is_observed_and_says_how_much_was_open(cases):
    record = run(cases["PADDING-negative-into-uint8"], AllLevels())
    assert record.category is Category.OBSERVED and record.observed.matches_policy is True
    assert "in 1 open element(s)" in record.reason


def test_unmatched_waivers_by_prefix_in_any_order() -> None:
    """The ids come unsorted; a prefix matches where the ids starting with it begin (after shorter ids, before
    longer ones), an empty prefix matches any case, and exact ids match only themselves."""
    from conformance.judging.expectations import Expectations, Waiver

    waivers = [
        Waiver("a", prefix="PADDING-"),
        Waiver("b", prefix="PADDING1-"),
        Waiver("c", prefix="PAD"),
        Waiver("d", prefix="SPLIT-"),
        Waiver("e", prefix="Z"),
        Waiver("f", id="SLICE-1"),
        Waiver("g", id="SLICE-"),
        Waiver("h", prefix=""),
    ]
    ids = ["SPLIT", "SLICE-1", "PADDING1-x", "PADDING", "SPLIT-"]
    assert [w.reason for w in Expectations("w.json", waivers).unmatched(ids)] == ["a", "e", "g"]
    assert [w.reason for w in Expectations("w.json", waivers).unmatched([])] == list("abcdefgh")


def test_expectations_waive_match_and_warn(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(
        json.dumps(
            {
                "waivers": [
                    {"id": "SLICE1-example-2", "reason": "bug 1", "tracker": "https://bugs/1"},
                    {"prefix": "PADDING-", "reason": "no padding yet"},
                    {"id": "SPLIT-nothing", "reason": "stale"},
                ]
            }
        )
    )
    exp = load_expectations(path)
    assert [w.pattern for w in exp.unmatched(["SLICE1-example-2", "PADDING-example-1"])] == ["SPLIT-nothing"]
    failed = exp.apply(Record("SLICE1-example-2", "SLICE1", Category.FAIL, "x"))
    assert failed.category is Category.WAIVED and failed.waived_category is Category.FAIL
    crashed = exp.apply(Record("PADDING-example-1", "PADDING", Category.CRASH, "segfault"))
    assert crashed.category is Category.WAIVED and crashed.waived_category is Category.CRASH
    passed = exp.apply(Record("PADDING-example-2", "PADDING", Category.PASS, "ok"))
    assert passed.category is Category.PASS and passed.waived_but_passed is True


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("{", "not valid JSON"),
        ('{"waivers": [{"id": "A-1"}]}', "$.waivers[0]: missing field 'reason'"),
        ('{"waivers": [{"id": "A-1", "reason": " "}]}', "$.waivers[0].reason: expected a reason"),
        ('{"waivers": [{"id": "A-1", "prefix": "A", "reason": "r"}]}', "exactly one of"),
        ('{"waivers": [], "extra": 1}', "unknown field(s) extra"),
        (
            '{"waivers": [{"prefix": "P", "reason": "r", "when": {"mismatch": ["nan-payload-only"]}}]}',
            "$.waivers[0].when.mismatch: expected one of ",
        ),
        (
            '{"waivers": [{"prefix": "P", "reason": "r", "when": {"data_type": [["FLOAT16"]]}}]}',
            "$.waivers[0].when.data_type",
        ),
        ("[" * 100_000, "nested too deeply"),
    ],
)
def test_expectations_errors_name_the_field(tmp_path, text, where):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ExpectationsError) as info:
        load_expectations(path)
    assert str(path) in str(info.value) and where in str(info.value)


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b'\xef\xbb\xbf{"waivers": []}', "UTF-8 with a byte-order mark"),
        ('{"waivers": []}'.encode("utf-16"), "UTF-16"),
        ('{"waivers": []}'.encode("utf-16-le"), "UTF-16 or UTF-32"),
        (b'{"waivers": [{"id": "A-1", "reason": "caf\xe9"}]}', "is not UTF-8"),
    ],
)
def test_expectations_in_another_encoding_are_named(tmp_path, data, what):
    path = tmp_path / "enc.json"
    path.write_bytes(data)
    with pytest.raises(ExpectationsError, match=what):
        load_expectations(path)


def test_tensor_data_marks_nan_and_truncates():
    t = TensorData.of(np.array([np.nan, 1.0], dtype=np.float32))
    assert t.values == ["nan", 1.0] and t.hex == ["7fc00000", "3f800000"]
    assert TensorData.of(np.zeros(MAX_STORED_ELEMENTS + 1, np.uint8)).truncated is True


# --- known deviations and open validity (conformance.judging.deviations, oracle.errata refusal_observed) ------


class _MergesAxes(AllLevels):
    """Computes DML_SLICE1 as the dml-slice1-merged-axes model says DirectML does."""

    def run(self, descriptor, inputs, feature_level):
        from conformance.judging.deviations import dml_slice1_merged_axes

        predicted = dml_slice1_merged_axes(descriptor, inputs)
        return RunResult.ok(predicted) if predicted is not None else super().run(descriptor, inputs, feature_level)


class _RefusesZeroStrides(AllLevels):
    def run(self, descriptor, inputs, feature_level):
        if 0 in getattr(descriptor, "strides", ()):
            return RunResult.rejected("CreateOperator returned 0x80070057 (E_INVALIDARG)")
        return super().run(descriptor, inputs, feature_level)


def test_a_failure_a_deviation_model_predicts_is_named_and_waivable_in_that_form_only(cases):
    from conformance.judging.expectations import known_issues

    record = run(cases["SLICE1-output-shorter-than-full-window"], _MergesAxes())
    assert record.category is Category.FAIL and record.mismatch.explained_by == ["dml-slice1-merged-axes"]
    assert known_issues("directml").apply(record).category is Category.WAIVED
    other = run(cases["SLICE1-output-shorter-than-full-window"], Garbage())  # wrong, but not that way
    assert other.mismatch.explained_by == [] and known_issues("directml").apply(other).category is Category.FAIL


def test_refusing_where_validity_is_open_is_observed_and_a_waiver_names_its_category(cases):
    from conformance.judging.expectations import known_issues

    open_validity = run(cases["SLICE-stride-zero"], _RefusesZeroStrides())
    assert open_validity.category is Category.OBSERVED and open_validity.observed.refused
    refused = run(cases["SLICE-zero-stride-size-1"], _RefusesZeroStrides())  # stride 0 on a size-1 axis: valid
    assert refused.category is Category.REJECTED
    waived = known_issues("directml").apply(refused)  # when: category rejected, descriptor_contains strides 0
    assert waived.category is Category.WAIVED and waived.waived_category is Category.REJECTED
    assert known_issues("directml").apply(run(cases["SLICE-zero-stride-size-1"], Garbage())).category is Category.FAIL


def test_a_waiver_applies_to_a_live_failure_by_its_shrunk_case_id():
    from conformance.judging.expectations import Expectations, Waiver

    exp = Expectations("w.json", [Waiver("known", prefix="SLICE-")])
    live = Record("hypothesis-SLICE", "SLICE", Category.REJECTED, hypothesis=True, case_json={"id": "SLICE-f41ed246"})
    assert exp.apply(live).category is Category.WAIVED
    assert (
        exp.apply(
            Record("hypothesis-SPLIT", "SPLIT", Category.FAIL, hypothesis=True, case_json={"id": "SPLIT-0000aaaa"})
        ).category
        is Category.FAIL
    )


def test_repro_command_replaces_only_the_id_and_has_none_for_a_live_example():
    template = "dml-conformance run --backend oracle --cases 'cases/{x}.json' --case {id}"
    failed = Record("SLICE1-example-2", "SLICE1", Category.FAIL, "x")
    assert repro_command(template, failed) == (
        "dml-conformance run --backend oracle --cases 'cases/{x}.json' --case SLICE1-example-2"
    )
    assert repro_command("", failed) is None  # a results file from before the header kept its command
    live = Record("hypothesis-SLICE", "SLICE", Category.FAIL, hypothesis=True, case_json={"id": "SLICE-f41ed246"})
    assert repro_command(template, live) is None  # its case file is kept instead

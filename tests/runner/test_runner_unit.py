"""The runner's categories, the expectations file and the results reader, without pytest in between."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from dml_test_backends import AllLevels, BitFlip, NoInvalidChecks

from conformance import runner
from conformance.backends.base import RunResult
from conformance.corpus import CASES_DIR, load
from conformance.expectations import ExpectationsError, load_expectations
from conformance.results import ResultsFileError, ResultsWriter, make_header, read_results


@pytest.fixture(scope="module")
def examples():
    loaded = load([CASES_DIR / "examples"])
    assert not loaded.errors
    return {c.id: c for c in loaded.cases}


def test_oracle_passes_every_example(examples):
    for case in examples.values():
        record = runner.execute(case, AllLevels())
        assert record["category"] == "pass", record


def test_bit_flip_is_a_fail_with_hex_mismatch(examples):
    case = examples["SLICE1-example-2"]
    record = runner.execute(case, BitFlip())
    assert record["category"] == "fail"
    assert record["mismatch"]["count"] == 1
    first = record["mismatch"]["first"][0]
    assert first["coordinate"] == [0, 0, 0, 0]
    assert (first["expected"], first["expected_hex"], first["actual_hex"]) == ("14.0", "0x41600000", "0x41600001")
    assert record["tensors"]["expected"][0]["values"] == [14.0, 16.0, 6.0, 8.0]
    assert record["reached_operator"] == "DML_SLICE1"


def test_dropped_output_is_a_fail(examples):
    split = next(c for c in examples.values() if c.operator == "SPLIT")
    record = runner.execute(split, BitFlip())
    assert record["category"] == "fail"
    assert "output(s)" in record["reason"]


class _Raising(AllLevels):
    def run(self, descriptor, inputs, feature_level):
        raise RuntimeError("driver exploded")


class _Hanging(AllLevels):
    def run(self, descriptor, inputs, feature_level):
        time.sleep(2)
        return super().run(descriptor, inputs, feature_level)


class _Refusing(AllLevels):
    def run(self, descriptor, inputs, feature_level):
        return RunResult.rejected("E_INVALIDARG")


class _Accepting(AllLevels):
    def check_descriptor(self, descriptor, feature_level):
        return RunResult.ok([])


def test_raise_is_crash_hang_is_timeout_refusal_is_rejected(examples):
    case = examples["SLICE1-example-2"]
    crash = runner.execute(case, _Raising())
    assert crash["category"] == "crash" and "driver exploded" in crash["reason"]
    t0 = time.perf_counter()
    watchdog = runner.Watchdog(0.2)
    timeout = runner.execute(case, _Hanging(), watchdog=watchdog)
    assert timeout["category"] == "timeout" and time.perf_counter() - t0 < 1.5
    # The watchdog recovers: the next case runs on a fresh worker.
    assert runner.execute(case, AllLevels(), watchdog=watchdog)["category"] == "pass"
    watchdog.close()
    assert runner.execute(case, _Refusing())["category"] == "rejected"


def _invalid_case():
    from conformance.generate import generate_cases

    for items in generate_cases(seed=3, count=60, operators=("SLICE1",)).values():
        for obj in items:
            if obj["expected"]["outcome"] == "invalid":
                from conformance.corpus import case_from_json

                return case_from_json(obj)
    raise AssertionError("no invalid case generated")


def test_invalid_descriptor_categories():
    case = _invalid_case()
    rejected = runner.execute(case, AllLevels())
    assert rejected["category"] == "pass" and rejected["clause_matched"] is True
    assert runner.execute(case, _Accepting())["category"] == "fail"
    unsupported = runner.execute(case, NoInvalidChecks())
    assert unsupported["category"] == "unsupported" and "U-ALL-2" in unsupported["reason"]


def test_outside_capabilities_is_unsupported_without_running(examples):
    case = next(c for c in examples.values() if c.operator == "PADDING")
    record = runner.execute(case, NoInvalidChecks())
    assert record["category"] == "unsupported" and "DML_PADDING" in record["reason"]
    assert "backend_s" not in record["timings"]


def test_unspecified_difference_is_observed_not_failed(examples):
    import dataclasses

    case = examples["SLICE1-example-2"]
    observed_case = dataclasses.replace(case, unspecified=("U-PAD-1",))
    record = runner.execute(observed_case, BitFlip())
    assert record["category"] == "observed" and record["observed"] == {"matches_policy": False}


def test_expectations_waive_match_and_warn(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"waivers": [
        {"id": "SLICE1-example-2", "reason": "bug 1", "tracker": "https://bugs/1"},
        {"prefix": "PADDING-", "reason": "no padding yet"},
        {"id": "SPLIT-nothing", "reason": "stale"}]}))
    exp = load_expectations(path)
    exp.note_selected(["SLICE1-example-2", "PADDING-example-1"])
    assert [w.pattern for w in exp.unmatched()] == ["SPLIT-nothing"]
    failed = exp.apply({"id": "SLICE1-example-2", "category": "fail", "reason": "x"})
    assert failed["category"] == "waived" and failed["waived_category"] == "fail"
    passed = exp.apply({"id": "PADDING-example-1", "category": "pass", "reason": "ok"})
    assert passed["category"] == "pass" and passed["waived_but_passed"] is True


@pytest.mark.parametrize(("text", "where"), [
    ("{", "not valid JSON"),
    ('{"waivers": [{"id": "A-1"}]}', "$.waivers[0].reason"),
    ('{"waivers": [{"id": "A-1", "prefix": "A", "reason": "r"}]}', "exactly one of"),
    ('{"waivers": [], "extra": 1}', "unknown field(s) extra"),
])
def test_expectations_errors_name_the_field(tmp_path, text, where):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ExpectationsError) as info:
        load_expectations(path)
    assert str(path) in str(info.value) and where in str(info.value)


def test_reader_repairs_an_interrupted_file(tmp_path, examples):
    path = tmp_path / "r.jsonl"
    writer = ResultsWriter(path, make_header(backend="x"))
    case = examples["SLICE1-example-2"]
    writer.start(case.id)
    writer.record(runner.execute(case, AllLevels()))
    writer.start("PADDING-example-1")
    writer._file.write('{"kind":"case","id":"PADD')  # torn mid-line, as by a kill
    writer._file.flush()
    results = read_results(path)
    assert [r["category"] for r in results.records] == ["pass", "crash"]
    assert results.records[1]["id"] == "PADDING-example-1"
    assert results.verdict() == "FAIL" and not results.complete
    assert any("torn" in n for n in results.notes)


def test_reader_rejects_what_is_not_a_results_file(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"hello": 1}\n')
    with pytest.raises(ResultsFileError, match="header"):
        read_results(path)


def test_tensor_record_marks_nan_and_truncates():
    t = runner.tensor_record(np.array([np.nan, 1.0], dtype=np.float32))
    assert t["values"] == ["nan", 1.0] and t["hex"] == ["7fc00000", "3f800000"]
    assert runner.tensor_record(np.zeros(runner.MAX_STORED_ELEMENTS + 1, np.uint8))["truncated"] is True

"""Every worked example and curated case through onnxruntime-cpu and onnx-reference, bit-exact.

Each case either passes or is unsupported with a reason; invalid-outcome cases are
unsupported by construction (ONNX backends cannot observe DirectML validation, U-ALL-2).
"""

from __future__ import annotations

import re

import pytest
from backend_helpers import BACKENDS, EXPECTED_UNSUPPORTED, check

from conformance.cases.corpus import CASES_DIR, load

LOADED = load([p for p in (CASES_DIR / "examples", CASES_DIR / "curated") if p.is_dir()])
CASES = LOADED.cases


def test_corpus_loads_without_errors():
    assert not LOADED.errors, "\n".join(map(str, LOADED.errors))
    assert any(c.id.startswith("SLICE1-example") for c in CASES)


@pytest.mark.parametrize("backend_name", sorted(BACKENDS))
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case, backend_name):
    backend = BACKENDS[backend_name]
    if not case.valid:
        result = backend.check_descriptor(case.descriptor, case.feature_level)
        assert result.status == "unsupported" and "U-ALL-2" in result.reason
        return
    outcome = check(backend_name, case.descriptor, case.inputs, list(case.expected.outputs), case.feature_level)
    if outcome.startswith("known"):
        pytest.xfail(outcome)


def test_worked_examples_reach_expected_outcomes():
    """The worked examples (PADDING's and PADDING1's are the same four): all pass on both, except SYMMETRIC
    (inexpressible in ONNX) and ORT's reflect limit (example 3 pads 4 on a size-4 axis: ORT refuses, the
    reference folds)."""
    outcomes = {}
    for case in CASES:
        if "example" not in case.id:
            continue
        for name in BACKENDS:
            result = BACKENDS[name].run(case.descriptor, list(case.inputs), case.feature_level)
            outcomes[case.id, name] = result.status if result.status != "unsupported" else result.reason
    for (case_id, name), outcome in outcomes.items():
        if case_id in ("PADDING-example-4", "PADDING1-example-4"):
            assert "no symmetric mode" in outcome
        elif case_id.startswith("DEPTH_TO_SPACE") and name == "onnxruntime-cpu":  # UINT32: ORT CPU has no kernel
            assert outcome == "ok" or "Could not find an implementation for DepthToSpace(13)" in outcome
        elif case_id.startswith("SLICE_GRAD-"):
            assert "SLICE_GRAD has no ONNX form" in outcome  # no Slice gradient in ONNX
        elif case_id.startswith("REVERSE_SUBSEQUENCES-"):  # 4-D along axis 3 and 2: past ReverseSequence's axes
            assert "ONNX ReverseSequence reverses along axis 0 or 1" in outcome
        elif case_id in ("PADDING-example-3", "PADDING1-example-3") and name == "onnxruntime-cpu":
            assert "reflect Pad needs every pad < the dimension's size" in outcome and "exceeds maximum" in outcome
        else:
            assert outcome == "ok", (case_id, name, outcome)


GENERATED = load([CASES_DIR / "generated"]) if (CASES_DIR / "generated").is_dir() else None


@pytest.mark.skipif(GENERATED is None, reason="no generated corpus in this checkout")
@pytest.mark.parametrize("backend_name", sorted(BACKENDS))
def test_generated_corpus(backend_name):
    """The frozen generated corpus: every valid case passes, is unsupported for a listed reason, or is ORT's
    known FLOAT16 Pad NaN-payload change; one test per backend (thousands of cases in seconds)."""
    assert not GENERATED.errors
    outcomes: dict[str, list[str]] = {}
    for case in GENERATED.cases:
        if not case.valid:
            continue
        try:
            outcome = check(backend_name, case.descriptor, case.inputs, list(case.expected.outputs), case.feature_level)
        except AssertionError as e:
            outcome = f"FAILED: {e}"
        if outcome == "unsupported":
            reason = BACKENDS[backend_name].run(case.descriptor, list(case.inputs), case.feature_level).reason
            if not any(re.search(p, reason) for p in EXPECTED_UNSUPPORTED[backend_name]):
                outcome = f"FAILED: unexpected reason {reason}"
        outcomes.setdefault(outcome.split(":")[0], []).append(case.id if "FAILED" not in outcome else outcome)
    assert "FAILED" not in outcomes, "\n".join(outcomes["FAILED"][:10])
    assert len(outcomes["pass"]) > len(GENERATED.cases) // 2

"""Every worked example and curated case through onnxruntime-cpu and onnx-reference, bit-exact.

Each case either passes or is unsupported with a reason; invalid-outcome cases are
unsupported by construction (ONNX backends cannot observe DirectML validation, U-ALL-2).
"""

from __future__ import annotations

import pytest
from backend_helpers import BACKENDS, check

from conformance.corpus import CASES_DIR, load

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
    """The ten worked examples: all pass on both, except SYMMETRIC (inexpressible in ONNX) and
    ORT's reflect limit (example 3 pads 4 on a size-4 axis: ORT refuses, the reference folds)."""
    outcomes = {}
    for case in CASES:
        if "example" not in case.id:
            continue
        for name in BACKENDS:
            result = BACKENDS[name].run(case.descriptor, list(case.inputs), case.feature_level)
            outcomes[case.id, name] = result.status if result.status != "unsupported" else result.reason
    for (case_id, name), outcome in outcomes.items():
        if case_id == "PADDING-example-4":
            assert "no symmetric mode" in outcome
        elif case_id == "PADDING-example-3" and name == "onnxruntime-cpu":
            assert "reflect Pad needs every pad < the dimension's size" in outcome and "exceeds maximum" in outcome
        else:
            assert outcome == "ok", (case_id, name, outcome)

"""Live Hypothesis checks against a backend: draw a descriptor, run it, shrink a failure to a minimal case.

Draws from conformance.strategies with a small element cap so a shrunk failure is readable;
the big, systematic generation lives in the stored and run-time generated corpus.
The failing minimal case is written into its record as a case file a vendor can save and
re-run with `--cases`.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from oracle import FeatureLevel

from .. import runner
from ..corpus import Case, case_from_json, case_to_json
from ..generate import case_json
from ..strategies import valid_cases

# Small on purpose: a shrunk counterexample should fit on a screen.  The builders are the
# ones the frozen corpus uses (conformance.strategies), so live runs reach the same corners.
MAX_ELEMENTS = 64


@st.composite
def cases(draw, operator: str, level: FeatureLevel) -> Case:
    """One valid case of `operator` at `level`; shrinks toward rank 1, FLOAT32, size-1 axes."""
    spec = draw(valid_cases(operator, feature_level=level, max_elements=MAX_ELEMENTS), label="case")
    return case_from_json(case_json(spec, source="hypothesis (live)"), where="$", path="hypothesis (live)")


def run_live(operator: str, backend, *, level: FeatureLevel, watchdog: runner.Watchdog, max_examples: int,
             seed: int) -> dict:
    """Run `max_examples` drawn cases; return one record: the shrunk failure, or a summary of what ran."""
    seen: Counter[str] = Counter()
    last_failure: list[tuple[Case, dict]] = []

    @settings(max_examples=max_examples, database=None, deadline=None, print_blob=False,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink])
    @hypothesis_seed(seed)
    @given(st.data())
    def check(data) -> None:
        case = data.draw(cases(operator, level), label="case")
        record = runner.execute(case, backend, feature_level=level, watchdog=watchdog)
        seen[record["category"]] += 1
        if record["category"] in runner.FAILING:
            last_failure[:] = [(case, record)]
            raise AssertionError(record["reason"])

    try:
        check()
    except AssertionError:
        if not last_failure:
            raise
        case, record = last_failure[0]  # Hypothesis replays the minimal example last
        record["hypothesis"] = True
        record["reason"] = f"shrunk by Hypothesis (seed {seed}, {max_examples} examples): {record['reason']}"
        record["case_json"] = case_to_json(case, compact=False)
        return record
    total = sum(seen.values())
    summary = ", ".join(f"{k} {v}" for k, v in sorted(seen.items()))
    category = "pass" if seen["pass"] or seen["observed"] else "unsupported"
    return {"kind": "case", "id": f"hypothesis-{operator}", "operator": operator, "data_type": "*", "rank": 0,
            "feature_level": str(level), "outcome": "valid", "clauses": [], "tags": ["hypothesis"], "unspecified": [],
            "source": "hypothesis (live)", "hypothesis": True, "category": category,
            "reason": f"{total} live examples (seed {seed}): {summary}"}

"""Live Hypothesis checks against a backend: draw a descriptor, run it, shrink a failure to a minimal case.

Draws from conformance.cases.strategies with a small element cap so a shrunk failure is readable;
the big, systematic generation lives in the stored and run-time generated corpus.  The
failing minimal case is written into its record as a case file a vendor can save and re-run
with `--cases`.  Each example is announced (`on_example`) before it runs, so a worker that
dies or hangs in the middle of one is reported with that example, not with nothing.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from oracle import FeatureLevel

from ..backends.base import Backend
from ..cases.corpus import Case, case_to_json
from ..cases.generation.corpus import case_from_spec
from ..cases.strategies import valid_cases
from .execute import Prefetched, execute_case, prefetch_results
from .record import Category, Record
from .units import LIVE_SOURCE, LiveUnit, Work, blank_record

# Small on purpose: a shrunk counterexample should fit on a screen.  The builders are the
# ones the frozen corpus uses (conformance.cases.strategies), so live runs reach the same corners.
MAX_ELEMENTS = 64


@st.composite
def cases(draw, operator: str, level: FeatureLevel) -> Case:
    """One valid case of `operator` at `level`; shrinks toward rank 1, FLOAT32, size-1 axes."""
    spec = draw(valid_cases(operator, feature_level=level, max_elements=MAX_ELEMENTS), label="case")
    return case_from_spec(spec, LIVE_SOURCE)


def _settings(unit: LiveUnit, phases: list[Phase]):
    return settings(
        max_examples=unit.examples,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
        phases=phases,
    )


def _answered_in_one_batch(unit: LiveUnit, backend: Backend, level: FeatureLevel) -> dict[str, Prefetched]:
    """For a batching backend: draw the unit's examples first and run them in one run_many, by case id.

    Drawn with the same seed and the same draws, the real check meets the same examples in the same
    order until a failure, so it is served from here; only examples drawn anew while shrinking a
    failure go to run() one by one.  A session per example would cost seconds each.
    """
    drawn: list[Case] = []

    @_settings(unit, [Phase.generate])
    @hypothesis_seed(unit.seed)
    @given(st.data())
    def draw_only(data) -> None:
        drawn.append(data.draw(cases(unit.operator, level), label="case"))

    draw_only()
    return {w.unit.id: r for w, r in prefetch_results([Work(i, c) for i, c in enumerate(drawn)], backend, level)}


def run_live(
    work: Work, backend: Backend, *, level: FeatureLevel | None, on_example: Callable[[Case], None] | None = None
) -> Record:
    """Run the unit's examples; return one record: the shrunk failure, or a summary of what ran."""
    unit = work.unit
    assert isinstance(unit, LiveUnit)
    started = time.perf_counter()
    level = level or backend.capabilities().feature_level
    seen: Counter[Category] = Counter()
    last_failure: list[tuple[Case, Record]] = []
    answers = _answered_in_one_batch(unit, backend, level) if getattr(backend, "batch_size", 1) > 1 else {}

    @_settings(unit, [Phase.generate, Phase.shrink])
    @hypothesis_seed(unit.seed)
    @given(st.data())
    def check(data) -> None:
        case = data.draw(cases(unit.operator, level), label="case")
        if on_example is not None:
            on_example(case)
        # .get, not .pop: Hypothesis may draw the same case twice (an id is its content), and both get its answer.
        record = execute_case(Work(work.index, case), backend, level, answers.get(case.id))
        seen[record.category] += 1
        if record.category.failing:
            last_failure[:] = [(case, record)]
            raise AssertionError(record.reason)

    try:
        check()
    except AssertionError:
        if not last_failure:
            raise
        case, record = last_failure[0]  # Hypothesis replays the minimal example last
        record.id, record.hypothesis, record.index = unit.id, True, work.index
        record.reason = (
            f"shrunk by Hypothesis (seed {unit.seed}, {unit.examples} examples) to {case.id}: {record.reason}"
        )
        record.case_json = case_to_json(case, compact=False)
        return record
    total = sum(seen.values())
    summary = ", ".join(f"{k.value} {v}" for k, v in sorted(seen.items(), key=lambda kv: kv[0].value))
    category = Category.PASS if seen[Category.PASS] or seen[Category.OBSERVED] else Category.UNSUPPORTED
    record = blank_record(work, str(level)).set(category, f"{total} live examples (seed {unit.seed}): {summary}")
    record.timings["total_s"] = round(time.perf_counter() - started, 6)
    return record

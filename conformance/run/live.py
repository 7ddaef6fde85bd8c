"""Live Hypothesis checks against a backend: draw a descriptor, run it, shrink a failure to a minimal case.

Draws from conformance.cases.strategies with a small element cap so a shrunk failure is readable;
the big, systematic generation lives in the stored and run-time generated corpus.  The
failing minimal case is written into its record as a case file a vendor can save and re-run
with `--cases`.  Each example is announced (`on_example`) before it runs, so a worker that
dies or hangs in the middle of one is reported with that example, not with nothing.

The draws are made without Hypothesis's local constants (`fixed_constants`), so a seed draws the same
examples whatever else is loaded; a passing unit's examples are then kept (conformance.run.live_cache) and
later runs replay them without importing Hypothesis at all: this module is imported only to draw.  A failing
unit's draws are kept too, and the example its failure shrank to on the backend build that failed
(conformance.run.live_cache says when a later run uses it instead of shrinking again).
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Callable, Iterator

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Flaky

from oracle import FeatureLevel

from ..backends.base import Backend
from ..cases.corpus import Case
from ..cases.generation.corpus import case_from_spec
from ..cases.strategies import valid_cases
from . import live_cache
from .execute import Prefetched, execute_case
from .record import Category, Record
from .units import LIVE_SOURCE, LiveUnit, Work

# Small on purpose: a shrunk counterexample should fit on a screen.  The builders are the
# ones the frozen corpus uses (conformance.cases.strategies), so live runs reach the same corners.
MAX_ELEMENTS = 64


@st.composite
def cases(draw, operator: str, level: FeatureLevel) -> Case:
    """One valid case of `operator` at `level`; shrinks toward rank 1, FLOAT32, size-1 axes."""
    spec = draw(valid_cases(operator, feature_level=level, max_elements=MAX_ELEMENTS), label="case")
    return case_from_spec(spec, LIVE_SOURCE)


@contextlib.contextmanager
def fixed_constants() -> Iterator[None]:
    """Draw with an empty pool of local constants: the same examples from a seed, whatever is loaded.

    Hypothesis mixes into its draws the literals of every module loaded from outside site-packages
    (hypothesis.internal.conjecture.providers._get_local_constants, parsed with `ast` per new provider):
    the suite's own modules in a checkout but not in an installed wheel, a backend module, whatever a host
    imported.  There is no setting for it, so the function is replaced for the duration of the draws and
    restored after; the constants cache built from it is cleared both ways.  A Hypothesis without it
    (before local constants, or one that renamed them) draws unpatched; tests/runner/test_live.py fails then.
    """
    from hypothesis.internal.conjecture import providers

    original = getattr(providers, "_get_local_constants", None)
    if original is None or not hasattr(providers, "Constants"):
        yield
        return
    empty = providers.Constants()

    def _clear() -> None:
        cache = getattr(providers, "CONSTANTS_CACHE", None)
        if cache is not None:
            cache.cache.clear()

    providers._get_local_constants = lambda: empty
    _clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        _clear()


def _settings(unit: LiveUnit, phases: list[Phase]):
    return settings(
        max_examples=unit.examples,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
        phases=phases,
    )


def drawn_examples(unit: LiveUnit, level: FeatureLevel) -> list[Case]:
    """The examples the unit's check draws until a failure, in order (duplicates included), without running them."""
    drawn: list[Case] = []

    @_settings(unit, [Phase.generate])
    @hypothesis_seed(unit.seed)
    @given(st.data())
    def draw_only(data) -> None:
        drawn.append(data.draw(cases(unit.operator, level), label="case"))

    with fixed_constants():
        draw_only()
    return drawn


def _answered_in_one_batch(
    unit: LiveUnit, backend: Backend, level: FeatureLevel
) -> tuple[list[Case], dict[str, Prefetched]]:
    """For a batching backend: draw the unit's examples first and run them in one run_many, by case id.

    Drawn with the same seed and the same draws, the real check meets the same examples in the same
    order until a failure, so it is served from here; only examples drawn anew while shrinking a
    failure go to run() one by one.  A session per example would cost seconds each.
    """
    drawn = drawn_examples(unit, level)
    return drawn, live_cache.answered_in_one_batch(drawn, backend, level)


def run_live(
    work: Work,
    backend: Backend,
    *,
    level: FeatureLevel | None,
    on_example: Callable[[Case], None] | None = None,
    answers: dict[str, Prefetched] | None = None,
) -> Record:
    """Draw and run the unit's examples; return one record: the shrunk failure, or a summary of what ran.

    A passing unit's examples, as run, go into the live cache (conformance.run.live_cache.replay runs them next
    time); a failing one's draws and the example it shrank to on this backend build, which a replay that fails
    first at the same draw runs again.  `answers`: a batching backend's answers to the unit's examples, by case
    id, when the replay of its kept ones got them.
    """
    unit = work.unit
    assert isinstance(unit, LiveUnit)
    started = time.perf_counter()
    level = level or backend.capabilities().feature_level
    seen: Counter[Category] = Counter()
    ran: list[Case] = []
    last_failure: list[tuple[Case, Record]] = []
    first_failure: list[str] = []  # the id of the first example that failed (a draw of the generate phase)
    drawn: list[Case] | None = None
    if answers is None:
        batching = getattr(backend, "batch_size", 1) > 1
        drawn, answers = _answered_in_one_batch(unit, backend, level) if batching else (None, {})
    served = answers

    @_settings(unit, [Phase.generate, Phase.shrink])
    @hypothesis_seed(unit.seed)
    @given(st.data())
    def check(data) -> None:
        case = data.draw(cases(unit.operator, level), label="case")
        ran.append(case)
        if on_example is not None:
            on_example(case)
        # .get, not .pop: Hypothesis may draw the same case twice (an id is its content), and both get its answer.
        record = execute_case(Work(work.index, case), backend, level, served.get(case.id))
        seen[record.category] += 1
        if record.category.failing:
            last_failure[:] = [(case, record)]
            first_failure[:] = first_failure or [case.id]
            raise AssertionError(record.reason)

    try:
        with fixed_constants():
            check()
    except (AssertionError, Flaky) as e:
        if not last_failure:
            raise
        case, record = last_failure[0]  # Hypothesis replays the minimal example last
        if drawn is not None:
            # The draws, which the check met in this order until its failure: kept, a later run replays them
            # (one run_many) up to the failure without drawing them again.
            live_cache.save(unit, level, drawn)
        if not isinstance(e, Flaky) and first_failure:
            # And where this build's failure shrank to: a replay failing first at the same draw runs it again.
            live_cache.save_shrunk(unit, level, backend, first_failure[0], case)
        return live_cache.shrunk_record(work, case, record, flaky=isinstance(e, Flaky))
    live_cache.save(unit, level, ran)
    return live_cache.summary(work, level, seen, started)

"""One unit, whatever its kind: a case (stored, generated or stress: conformance.run.execute) or a live
Hypothesis batch (conformance.run.live, which executes each of its examples as a case).  What a worker
calls; above both, so neither needs the other's dispatcher.  A live unit replays its kept examples
(conformance.run.live_cache) when it can; Hypothesis is imported only when one must draw."""

from __future__ import annotations

from collections.abc import Callable

from oracle import FeatureLevel

from ..backends.base import Backend
from ..cases.corpus import Case
from .execute import Prefetched, execute_case
from .live_cache import replay
from .record import Record
from .units import LiveUnit, Work


def execute(
    work: Work,
    backend: Backend,
    level: FeatureLevel | None,
    on_example: Callable[[Case], None] | None = None,
    prefetched: Prefetched = None,
    max_bytes: int | None = None,
    *,
    facts: bool = True,
) -> Record:
    """Run one unit; the record carries the unit's index.  `on_example` sees each live example before it runs.

    A case whose tensors would not fit in `max_bytes` (conformance.run.large) is `unsupported`.  Without
    `facts`, a case's record leaves out what the case says of itself (a worker's: units.outcome_of).
    """
    if isinstance(work.unit, LiveUnit):
        record, answers = replay(work, backend, level, on_example)
        if record is not None:
            return record
        from .live import run_live  # Hypothesis: a tenth of a second of imports a worker on a warm cache skips

        return run_live(work, backend, level=level, on_example=on_example, answers=answers)
    return execute_case(work, backend, level, prefetched, max_bytes, facts=facts)

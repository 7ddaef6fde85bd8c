"""--retries: run a run's failing units again, each round in fresh workers, and record each attempt.

A retry's record replaces the unit's earlier one (a results file's last record per case wins) and lists
every earlier attempt; a pass on a retry is `flaky`.  A live Hypothesis unit is retried as the minimal case
it shrank to (rerunning the unit would draw the same examples and shrink again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..cases.corpus import case_from_json
from .config import RunConfig
from .pool import BackendStartError, Pool
from .record import Attempt, Category, Record
from .units import LiveUnit, Work


class RetryHost(Protocol):
    """What the rounds run in: the run's session (conformance.run.session.Session)."""

    config: RunConfig
    jobs: int
    done: dict[int, Record]
    retrying: dict[int, Record]
    retired_warnings: list[str]

    @property
    def stop_reason(self) -> str | None: ...

    def accept(self, *records: Record) -> None: ...

    def new_pool(self, jobs: int) -> Pool: ...


def retry_rounds(
    session: RetryHost,
    works: list[Work],
    stop: Callable[[], str | None],
    on_records: Callable[[list[Record]], None] | None,
) -> str | None:
    """Up to --retries rounds over the failing `works`, each in fresh workers; why it stopped early, or None."""
    for _ in range(session.config.retries):
        works = [w for w in works if session.done[w.index].category.failing]
        if not works:
            return None
        earlier = session.retrying = {w.index: session.done[w.index] for w in works}
        pool = session.new_pool(min(session.jobs, len(works)))
        try:
            try:
                if pool.start(stop) is None:
                    return stop() or "stopped"
            except BackendStartError as e:
                return f"the backend could not be started again for a retry: {e}"
            pool.submit(retry_work(w, earlier[w.index]) for w in works)
            while pool.busy:
                records = [retried(earlier[r.index], r) for r in pool.poll(0.1, 0.05) if r.index in earlier]
                session.accept(*records)
                if on_records is not None and records:
                    on_records(records)
                reason = stop() or session.stop_reason
                if reason:
                    session.accept(*(r for r in pool.interrupt(reason)[0] if r.index not in earlier))
                    return reason
        finally:
            session.retired_warnings += pool.close()
            session.retrying = {}
    return session.stop_reason


def retry_work(work: Work, earlier: Record) -> Work:
    """What a retry runs: the unit itself, or for a live Hypothesis unit the minimal case it shrank to."""
    if isinstance(work.unit, LiveUnit) and earlier.case_json:
        return Work(work.index, case_from_json(earlier.case_json, f"{work.id}: the shrunk example"))
    return work


def retried(earlier: Record, record: Record) -> Record:
    """A retry's record: every earlier attempt listed; `flaky` if this one passed.  A live unit's retry ran its
    shrunk example: the record keeps the unit's id and that example."""
    record.attempts = [*earlier.attempts, Attempt(earlier.category, earlier.reason)]
    if record.category is Category.PASS:
        first = record.attempts[0]
        record.set(
            Category.FLAKY,
            f"passed on attempt {len(record.attempts) + 1} after {len(record.attempts)} failure(s); "
            f"first: {first.category.value}: {first.reason}",
        )
    if earlier.hypothesis:
        record.id, record.hypothesis, record.case_json = earlier.id, True, earlier.case_json
        shrunk = earlier.case_json.get("id") if earlier.case_json else "?"
        record.reason = f"the shrunk example {shrunk} again: {record.reason}"
    return record

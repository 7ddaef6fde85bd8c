"""A run: select its units, run them in worker processes, write every record, end with a footer and a report.

Both front ends drive a Session.  The CLI: `Session(config)`, `start()`, `run(stop)`,
`finish()`.  The pytest plugin maps the session's units to items and asks for each one's
record (`submit`, `wait_for`); under pytest-xdist each xdist worker executes (`write=False`)
and the controller writes (`execute=False`, `accept`).

Every check a user's input can fail is done in `__init__`, before a file is created, and raises
UsageError naming the option or file (conformance.run.checks): the backend spec and the options passed
to it, the expectations file, the case paths, where results and report go.  No worker starts before those
checks; with `prestart` (the CLI) they then start while the selection is built (a backend's start-up,
seconds for a device, overlaps it; only the first where --case names the cases), and are stopped if the
selection fails.  The CLI's
`spares` (conformance.run.spawn) are processes started before the checks that only import what every worker
needs: the pool takes them as its workers, and no backend is constructed before the checks all the same.  The parent
is the only writer of the results file; a failed write (a full disk) stops the run with
everything written before it readable.  The header it writes is conformance.run.header's; --retries'
rounds are conformance.run.retries'.
"""

from __future__ import annotations

import gc
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from ..support import collector
from . import checks
from .config import RunConfig, UsageError
from .header import now, platform_info, run_header
from .identity import identity as identity_of
from .options import flag
from .pool import BackendStartError, Pool, WorkerInfo
from .record import Category, Footer, Header, Record, Resume
from .results import (
    Results,
    ResultsWriteError,
    ResultsWriter,
    create_results_file,
    final_records,
    report_path_for,
)
from .retries import retry_rounds
from .selection import Selection, select
from .spawn import Spares, default_jobs
from .units import LiveUnit, Work, blank_record


class Session:
    """One run of one configuration (or one shard of it, or the rest of a resumed one)."""

    def __init__(
        self,
        config: RunConfig,
        *,
        execute: bool = True,
        write: bool = True,
        plugin: bool = False,
        jobs_default: int | None = None,
        prestart: bool = False,
        spares: Spares | None = None,
    ):
        self.plugin = plugin  # messages name the plugin's --dml-* flags
        self.prior: list[Record] = []  # a resumed file's records
        self.prior_header: Header | None = None
        finished: set[str] = set()
        if config.resume:
            config, finished, previous = checks.resume_config(config, plugin)
            self.prior, self.prior_header = previous.records, previous.header
        self.config = config
        self.factory = checks.backend_factory(config, plugin)
        self.expectations = checks.run_expectations(config, self.factory, plugin)
        self.identity: dict[str, str] = {}
        self.identity_mismatch: str | None = None  # applied anyway (--allow-identity-mismatch): the report says so
        self.versions_applied = False  # the waivers' `versions` ranges, checked once the backend's versions are known
        self.write = write
        self.results_path, self.report_path = checks.output_paths(config, plugin) if write else (None, None)
        wanted = config.jobs or config.profile_data.jobs or jobs_default or default_jobs()
        self.jobs = max(1, min(wanted, self.factory.max_jobs or wanted))
        self.execute = execute
        self.spares = spares  # worker processes the CLI started before its checks: the pool's first workers
        self.pool: Pool | None = None
        if execute and prestart:  # the workers construct their backends while the selection is built
            self.pool = self.new_pool(self.jobs)
            # All of them; one where --case names the cases (a few, often one: a second device would be for nothing).
            self.pool.prestart(1 if config.case else self.jobs)
        try:
            with collector.paused():  # walking the cases again and again as they are unpickled costs as much
                self.selection: Selection = select(config, finished)
                gc.freeze()  # they live until the run ends: out of the collector's sight (as the worker's start-up)
            checks.check_vendor_waivers(config, self.expectations, self.selection, plugin)
            checks.check_update_target(config, plugin)
            if config.case and not self.selection.works and not finished:
                raise UsageError(
                    f"{self._flag('case')}: no case matches {', '.join(config.case)} (profile "
                    f"{config.profile}, seed {config.seed}); see `dml-conformance cases list`"
                )
        except BaseException:
            if self.pool is not None:
                self.pool.close(grace=1.0)
            raise
        self.jobs = min(self.jobs, len(self.selection.works) or 1)
        if self.pool is not None:
            self.pool.jobs = self.jobs
        self.retired_warnings: list[str] = []  # from the pools --retries replaced
        self.retrying: dict[int, Record] = {}  # the round of retries in flight: each case's record before it
        self.info: WorkerInfo | None = None
        self.writer: ResultsWriter | None = None
        self.records: list[Record] = []  # this session's
        self.done: dict[int, Record] = {}
        self.write_error: ResultsWriteError | None = None
        self.written_header: Header | None = None
        self.started = time.monotonic()
        self.run_id = uuid.uuid4().hex[:12]
        self.first_failure: str | None = None  # -x: the case it stopped at

    # --- checks ---------------------------------------------------------------------------------------
    def _flag(self, name: str) -> str:
        return flag(name, self.plugin)

    # --- running --------------------------------------------------------------------------------------
    def start(self, stop: Callable[[], str | None] = lambda: None) -> bool:
        """Start the workers and write the header; False if `stop` said so before a backend was constructed.

        Raises BackendStartError when no worker can construct the backend.
        """
        if self.execute:
            self.pool = self.pool or self.new_pool(self.jobs)
            try:
                self.info = self.pool.start(stop)
            except BackendStartError:
                self.pool.close(grace=1.0)
                raise
            if self.info is None:
                self.pool.interrupt(stop() or "stopped")
                self.pool.close(grace=1.0)
                return False
        self._narrow_waivers()
        if self.info is not None:
            self.identity = identity_of(self.info.name, self.info.versions, platform_info())
            try:
                self.identity_mismatch = checks.check_identity(
                    self.config, self.expectations, self.identity, self.plugin
                )
            except UsageError:
                self.write = False  # refused before any case: no results file to leave behind
                if self.pool is not None:
                    self.pool.close(grace=1.0)
                raise
        if self.write and self.info is not None:
            self._open()
        return True

    def _narrow_waivers(self) -> None:
        """Keep the waivers whose `versions` ranges hold for this backend (a deviation of some releases only)."""
        if not self.versions_applied and self.info is not None:
            self.expectations = self.expectations.for_versions(self.info.versions)
            self.versions_applied = True

    def new_pool(self, jobs: int) -> Pool:
        return Pool(
            self.config.backend,
            self.config.backend_kwargs,
            jobs=jobs,
            timeout=self.config.timeout_s,
            batch_size=self.factory.batch_size,
            max_bytes=self.config.max_bytes_budget,
            feature_level=str(self.config.feature_level) if self.config.feature_level else None,
            target=self.factory.target,
            spares=self.spares,
        )

    def _open(self) -> None:
        """Create (or reopen) the results file and write the header (or the resume line)."""
        try:
            if self.results_path is None:
                Path(self.config.out).mkdir(parents=True, exist_ok=True)
                self.results_path = create_results_file(
                    Path(self.config.out), self.info.name if self.info else self.factory.name
                )
                if self.report_path is None and not self.config.report_off:
                    self.report_path = report_path_for(self.results_path)
            elif not self.config.resume:
                self.results_path.parent.mkdir(parents=True, exist_ok=True)
                self.results_path.touch(exist_ok=False)
            self.writer = ResultsWriter(self.results_path, resume=bool(self.config.resume))
            if self.config.resume:
                self.writer.resume(Resume(now(), self.run_id))
            else:
                self.written_header = self.header()
                self.writer.header(self.written_header)
        except (ResultsWriteError, OSError) as e:
            raise UsageError(f"cannot create the results file: {e}") from None

    def _open_late(self) -> None:
        try:
            self._open()
        except UsageError as e:
            self.write_error = ResultsWriteError(str(e))

    def header(self) -> Header:
        return run_header(self)

    def ordered(self, works: Iterable[Work] | None = None) -> list[Work]:
        """The order to run in: live Hypothesis batches first (long: started first, they do not finish last),
        then the cases grouped by operator, data type, rank and mode, so that a worker's batch mostly shares
        what a backend compiles once and caches (a session per graph signature): each worker then compiles
        fewer of them.  Records keep their selection index, so results are reported in selection order.
        """
        works = list(self.selection.works if works is None else works)
        live = [w for w in works if isinstance(w.unit, LiveUnit)]
        cases = sorted((w for w in works if not isinstance(w.unit, LiveUnit)), key=_signature)
        return live + cases

    def submit(self, works: Iterable[Work]) -> None:
        assert self.pool is not None, "start() first"
        self.pool.submit(works)

    def accept(self, *records: Record) -> None:
        """Finished records: waivers applied, written at once (a failed write stops the run)."""
        self._narrow_waivers()
        for record in records:
            self.expectations.apply(record)
            self.records.append(record)
            if record.index is not None:
                self.done[record.index] = record
        if self.write and self.writer is None and self.write_error is None:
            self._open_late()  # the xdist controller: the header once it has something to write
        if self.writer is not None and self.write_error is None:
            try:
                self.writer.records(list(records))
            except ResultsWriteError as e:
                self.write_error = e

    def pump(self, wait: float = 0.1, linger: float = 0.0) -> list[Record]:
        assert self.pool is not None
        records = self.pool.poll(wait, linger)
        self.accept(*records)
        return records

    def _until_first_failure(self, records: list[Record]) -> tuple[list[Record], str | None]:
        """-x: take `records` in order up to the first failing one (after waivers); the rest, which ran in the
        same batch or worker poll (and what the workers return once stopped, in `finish`), are recorded
        `interrupted` saying so, never as failures of the run. So -x records exactly one failure, whatever
        the batch size or the number of workers. Returns the records taken and the failing case's id."""
        for i, record in enumerate(records):
            self.accept(record)
            if record.category.failing:
                works = {w.index: w for w in self.selection.works}
                held = [self._held_back(works[r.index], record.id) for r in records[i + 1 :] if r.index in works]
                self.accept(*held)
                return records[: i + 1] + held, record.id
        return records, None

    @staticmethod
    def _held_back(work: Work, first: str) -> Record:
        record = blank_record(work)
        record.set(
            Category.INTERRUPTED, f"-x: ran in the same batch as the first failure ({first}), after it: not judged"
        )
        return record

    @property
    def write_failure(self) -> str | None:
        """The one line that says the results file could not be written, and how many cases it holds (the count
        the summary and the report give too: what a reader of the file gets)."""
        if self.write_error is None:
            return None
        kept = self.writer.kept if self.writer is not None else []
        held = len(final_records(self.prior + kept))
        return (
            f"{self.write_error}; the run stopped with {held} case(s) in the results file; the lines written before "
            "are readable"
        )

    @property
    def stop_reason(self) -> str | None:
        """Why the run cannot go on, if it cannot: the results file cannot be written, or no backend starts."""
        if self.write_error is not None:
            return f"the results file cannot be written ({self.write_error})"
        if self.pool is not None and self.pool.broken:
            return f"the backend could not be started again: {self.pool.broken}"
        return None

    def run(
        self, stop: Callable[[], str | None] = lambda: None, on_records: Callable[[list[Record]], None] | None = None
    ) -> str | None:
        """Run every unit; returns why it stopped early (a signal's name, -x, a failed write), or None."""
        self.submit(self.ordered())
        assert self.pool is not None
        while self.pool.busy:
            if self.config.exitfirst:
                records, first = self._until_first_failure(self.pool.poll(0.1, 0.05))
            else:
                records, first = self.pump(0.1, linger=0.05), None
            if on_records is not None and records:
                on_records(records)
            self.pool.close_idle()  # every unit is submitted: a worker with nothing left to run closes now
            reason = stop() or self.stop_reason
            if reason is None and first is not None:
                self.first_failure = first
                reason = f"-x: stopped at the first failure ({first})"
            if reason:
                return reason
        if self.stop_reason is None and self.config.retries:
            return self.retry(stop, on_records)
        return self.stop_reason

    def retry(
        self, stop: Callable[[], str | None] = lambda: None, on_records: Callable[[list[Record]], None] | None = None
    ) -> str | None:
        """--retries: run the failing units again, each round in fresh workers; a pass on a retry is `flaky`.

        A retry's record replaces the unit's earlier one (a results file's last record per case
        wins) and lists every earlier attempt.  A live Hypothesis unit is retried as the minimal
        case it shrank to (rerunning the unit would draw the same examples and shrink again).
        """
        works = [w for w in self.selection.works if w.index in self.done and self.done[w.index].category.failing]
        if not works:
            return None
        assert self.pool is not None
        self.retired_warnings += self.pool.close()
        self.pool = None
        return retry_rounds(self, works, stop, on_records)

    def retry_now(self, work: Work, stop: Callable[[], str | None] = lambda: None) -> Record:
        """The pytest plugin's --dml-retries: retry one failing unit at once, in fresh workers of its own (the
        run's own workers go on); its final record."""
        retry_rounds(self, [work], stop, None)
        return self.done[work.index]

    def wait_for(self, work: Work, stop: Callable[[], str | None] = lambda: None) -> Record | None:
        """The record of `work` (already submitted), pumping the pool until it arrives; None as soon as `stop`
        gives a reason (a signal), checked between pumps, so that no record is ever half taken in."""
        while work.index not in self.done:
            if stop():
                return None
            if self.pool is None or not self.pool.busy or self.stop_reason:
                self.accept(
                    blank_record(work).set(Category.INTERRUPTED, f"not run: {self.stop_reason or 'the run stopped'}")
                )
                break
            self.pump(0.1)
        return self.done[work.index]

    # --- the end --------------------------------------------------------------------------------------
    def finish(
        self, *, stopped: str | None = None, interrupted: bool = False, exitstatus: int | None = None
    ) -> Results:
        """Stop what still runs, write the footer, render the report; the run's results (in memory)."""
        not_run = 0
        warnings: list[str] = list(self.retired_warnings)
        if self.pool is not None:
            if self.pool.busy:
                records, not_run = self.pool.interrupt(stopped or "the run ended")
                if self.first_failure is not None:  # -x: what its batch returned after the first failure
                    works = {w.index: w for w in self.selection.works}
                    records = [
                        r
                        if r.category is Category.INTERRUPTED or r.index not in works
                        else self._held_back(works[r.index], self.first_failure)
                        for r in records
                    ]
                # a retry cut short leaves the case's earlier result standing, not `interrupted`
                self.accept(*(r for r in records if r.index not in self.retrying))
            warnings += self.pool.close()
        if self.write and self.writer is None and self.write_error is None and self.info is not None:
            self._open_late()
        # After a failed write, the run's records are the file's: the summary, the report and the error agree.
        kept = self.writer.kept if self.writer is not None else []
        records = final_records(self.prior + (kept if self.write_error is not None else self.records))
        ids = {w.id for w in self.selection.works} | {r.id for r in self.prior}
        footer = Footer(
            now(),
            round(time.monotonic() - self.started, 3),
            {k.value: v for k, v in sorted(Counter(r.category for r in records).items())},
            interrupted=interrupted,
            stopped=stopped,
            not_run=not_run,
            unmatched_waivers=[w.to_json() for w in self.expectations.unmatched(sorted(ids))],
            warnings=warnings,
            exitstatus=exitstatus,
        )
        if self.writer is not None:
            if self.write_error is None:
                try:
                    self.writer.footer(footer)
                except ResultsWriteError as e:
                    self.write_error = e
            self.writer.close()
        return Results(
            str(self.results_path), self.prior_header or self.written_header or self.header(), records, footer
        )


def _signature(work: Work) -> tuple:
    case = work.unit
    if isinstance(case, LiveUnit):
        raise TypeError(f"{case!r}: only cases have a signature (live units are never batched by signature)")
    mode = getattr(case.descriptor, "padding_mode", None)
    return (case.operator, case.data_type.value, case.rank, mode.value if mode else "", work.index)

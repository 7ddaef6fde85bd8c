"""A run: select its units, run them in worker processes, write every record, end with a footer and a report.

Both front ends drive a Session.  The CLI: `Session(config)`, `start()`, `run(stop)`,
`finish()`.  The pytest plugin maps the session's units to items and asks for each one's
record (`submit`, `wait_for`); under pytest-xdist each xdist worker executes (`write=False`)
and the controller writes (`execute=False`, `accept`).

Every check a user's input can fail is done in `__init__`, before a file is created, and raises
UsageError naming the option or file: the backend spec and the options passed to it, the
expectations file, the case paths, where results and report go.  No worker starts before those
checks; with `prestart` (the CLI) the first one then starts while the selection is built (a
backend's start-up, seconds for a device, overlaps it), and is stopped if the selection fails.  The parent
is the only writer of the results file; a failed write (a full disk) stops the run with
everything written before it readable.
"""

from __future__ import annotations

import dataclasses
import platform
import re
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import oracle
from oracle.version import VERSION

from ..backends.registry import BackendFactory, BackendNotFound, resolve_backend
from ..cases.corpus import case_from_json
from ..judging.expectations import Expectations, ExpectationsError, known_issues, load_expectations
from ..support.host import wine_version
from ..support.outputs import EXPECTATIONS, JUNIT, REPORT, RESULTS, Output, being_written, check_folder, check_outputs
from .config import RunConfig, UsageError
from .identity import differences as identity_differences
from .identity import identity as identity_of
from .identity import short as identity_short
from .options import BACKEND_KWARGS, conflicts, default_jobs, flag
from .pool import BackendStartError, Pool, WorkerInfo
from .record import FORMAT, FORMAT_VERSION, Attempt, Category, Footer, Header, Record, Resume
from .results import (
    Results,
    ResultsFileError,
    ResultsWriteError,
    ResultsWriter,
    create_results_file,
    final_records,
    read_results,
    report_path_for,
)
from .selection import Selection, select
from .units import LiveUnit, Work, blank_record


def suite_version() -> str:
    return VERSION


def platform_info() -> dict[str, str]:
    """The host the run's Python ran on; a Windows Python under Wine says so, with Wine's version."""
    info = {
        "python": sys.version.split()[0],
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "node": platform.node(),
    }
    wine = wine_version()
    if wine:
        info["wine"] = wine
    return info


def spec_tables() -> dict:
    """The spec tables this run judged against, embedded so a report never needs the suite's code."""
    return {
        "clauses": dict(oracle.CLAUSES),
        "errata": [dataclasses.asdict(e) for e in oracle.ERRATA.values()],
        "operators": list(oracle.OPERATORS),
        "data_types": [d.value for d in oracle.ALL_DATA_TYPES],
    }


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


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
    ):
        self.plugin = plugin  # messages name the plugin's --dml-* flags
        self.prior: list[Record] = []  # a resumed file's records
        self.prior_header: Header | None = None
        finished: set[str] = set()
        if config.resume:
            config, finished = self._resume(config)
        self.config = config
        self.factory = self._backend()
        self.expectations = self._expectations()
        self.identity: dict[str, str] = {}
        self.identity_mismatch: str | None = None  # applied anyway (--allow-identity-mismatch): the report says so
        self.versions_applied = False  # the waivers' `versions` ranges, checked once the backend's versions are known
        self.write = write
        self.results_path, self.report_path = self._outputs() if write else (None, None)
        wanted = config.jobs or config.profile_data.jobs or jobs_default or default_jobs()
        self.jobs = max(1, min(wanted, self.factory.max_jobs or wanted))
        self.execute = execute
        self.pool: Pool | None = None
        if execute and prestart:  # the first worker constructs its backend while the selection is built
            self.pool = self._new_pool(self.jobs)
            self.pool.prestart()
        try:
            self.selection: Selection = select(config, finished)
            self._check_vendor_waivers()
            self._check_update_target()
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

    # --- checks ---------------------------------------------------------------------------------------
    def _flag(self, name: str) -> str:
        return flag(name, self.plugin)

    def _resume(self, config: RunConfig) -> tuple[RunConfig, set[str]]:
        where = self._flag("resume")
        if being_written(str(config.resume)):  # two writers would interleave their lines
            raise UsageError(f"{where}: {config.resume} is still being written by a run; resume it once that run ends")
        try:
            previous = read_results(config.resume)  # type: ignore[arg-type]
        except ResultsFileError as e:
            raise UsageError(f"{where}: {e}") from None
        if not previous.header.config:
            raise UsageError(
                f"{where}: {config.resume} was written by an older dml-conformance (format version "
                f"{previous.header.format_version}) and names no run configuration to resume"
            )
        try:
            resumed = config.with_identity(previous.header.config, str(config.resume))
        except (TypeError, ValueError, KeyError) as e:
            raise UsageError(f"{where}: {config.resume}: the header's run configuration is malformed: {e}") from None
        if config.shard and previous.header.shard and str(config.shard) != str(previous.header.shard):
            raise UsageError(f"{where}: {config.resume} is shard {previous.header.shard}, not {config.shard}")
        resumed = dataclasses.replace(resumed, shard=previous.header.shard)
        self.prior, self.prior_header = previous.records, previous.header
        return resumed, {r.id for r in previous.records if r.category is not Category.INTERRUPTED and not r.synthesized}

    def _check_vendor_waivers(self) -> None:
        """A vendor's waiver that names no case of the suite (a typo, a case since renamed) would waive nothing,
        silently: refuse the file, naming the entry (`dml-conformance expectations lint` says the same)."""
        if not self.config.expectations:
            return
        from .lint import case_keys, load_problems

        source = str(self.config.expectations)
        problems = load_problems(self.expectations, source, case_keys(w.unit for w in self.selection.works))
        if problems:
            raise UsageError(
                f"{self._flag('expectations')}: {source}: " + "; ".join(problems) + " (`dml-conformance expectations "
                "lint` checks a file without running)"
            )

    def _check_update_target(self) -> None:
        """--update-expectations needs --expectations (its target is checked with the other outputs)."""
        if self.config.update_expectations and not self.config.expectations:
            raise UsageError(
                f"{self._flag('update_expectations')} needs {self._flag('expectations')}: it writes that file "
                "without its stale waivers"
            )

    def _backend(self) -> BackendFactory:
        for problem in conflicts(self.config.given, self.plugin):
            raise UsageError(problem)
        try:
            factory = resolve_backend(self.config.backend)
        except BackendNotFound as e:
            raise UsageError(f"{self._flag('backend')}: cannot load backend {self.config.backend!r}: {e}") from None
        for o in BACKEND_KWARGS:
            if getattr(self.config, o.name) is not None and factory.accepts(o.backend_kwarg or "") is False:
                raise UsageError(
                    f"{self._flag(o.name)}: backend {self.config.backend} does not take this option "
                    f"(its constructor has no {o.backend_kwarg} parameter)"
                )
        return factory

    def _expectations(self) -> Expectations:
        # A built-in backend's known deviations (conformance/known_issues/<name>.json) are waived
        # by default, visibly: every such case reports `waived` with the reason, never `pass`.
        try:
            expectations = Expectations() if self.config.no_known_issues else known_issues(self.factory.name)
            if self.config.expectations:
                vendor = load_expectations(self.config.expectations)
                expectations = expectations.extend(vendor.for_backend(self.factory.name, self.config.backend))
        except ExpectationsError as e:
            raise UsageError(f"{self._flag('expectations')}: {e}") from None
        return expectations

    def _outputs(self) -> tuple[Path | None, Path | None]:
        """Where results and report go, checked before anything runs (conformance.support.outputs: no output
        replaces an input, another output, or a file that is not its own kind made by this suite); the results
        file is created in `start`.  A new run never writes into an existing file, even a results file this
        suite made: that file is another run's record (only --resume continues it, appending)."""
        c = self.config
        outputs: list[Output] = []
        results: Path | None
        if c.resume:
            results = Path(c.resume)
            folder = results.parent
        elif c.results:
            results = Path(c.results)
            if results.exists() or results.is_symlink():
                raise UsageError(
                    f"{self._flag('results')}: {results} exists; results files are never overwritten "
                    f"(continue it with {self._flag('resume')}, or choose another name)"
                )
            outputs.append(Output(self._flag("results"), results, RESULTS))
            folder = results.parent
        else:
            results, folder = None, Path(c.out)
            check_folder(folder, self._flag("out"))
        report = None if c.report_off else Path(c.report) if c.report else None
        if report is None and results is not None and not c.report_off:
            report = report_path_for(results)
        if report is not None:
            outputs.append(Output(self._flag("report"), report, REPORT))
        if c.junit_xml:
            outputs.append(Output(self._flag("junit_xml"), Path(c.junit_xml), JUNIT))
        if c.update_expectations:  # in place (the file it was given) or a new name
            update = Path(c.update_expectations)
            keep = Path(c.expectations) if c.expectations else None
            outputs.append(Output(self._flag("update_expectations"), update, EXPECTATIONS, keep=keep))
        inputs = [(self._flag("expectations"), Path(c.expectations))] if c.expectations else []
        inputs += [(self._flag("resume"), Path(c.resume))] if c.resume else []
        inputs += [(self._flag("cases"), Path(p)) for p in c.cases or ()]
        check_outputs(outputs, inputs)
        if report is None and results is None and not c.report_off:
            check_folder(folder, self._flag("out"))
        return results, report

    # --- running --------------------------------------------------------------------------------------
    def start(self, stop: Callable[[], str | None] = lambda: None) -> bool:
        """Start the workers and write the header; False if `stop` said so before a backend was constructed.

        Raises BackendStartError when no worker can construct the backend.
        """
        if self.execute:
            self.pool = self.pool or self._new_pool(self.jobs)
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
                self._check_identity()
            except UsageError:
                self.write = False  # refused before any case: no results file to leave behind
                if self.pool is not None:
                    self.pool.close(grace=1.0)
                raise
        if self.write and self.info is not None:
            self._open()
        return True

    def _check_identity(self) -> None:
        """--expect-adapter, and the identity an expectations file was made on (exit 2 before any case)."""
        c = self.config
        adapter = self.identity.get("adapter", "")
        if c.expect_adapter and not re.search(c.expect_adapter, adapter):
            raise UsageError(
                f"{self._flag('expect_adapter')} {c.expect_adapter!r}: this run's adapter is "
                f"{adapter or '(none: the backend reports no adapter)'!r}; nothing was run"
            )
        made_on = self.expectations.identities.get(self.identity.get("backend", ""))
        if made_on and made_on.get("fingerprint") != self.identity.get("fingerprint"):
            differ = identity_differences(made_on, self.identity)
            text = (
                f"{self.expectations.identity_source} was made on {identity_short(made_on)}, this run is "
                f"{identity_short(self.identity)}; they differ in " + "; ".join(differ)
            )
            if not c.allow_identity_mismatch:
                raise UsageError(f"{text}. Give {self._flag('allow_identity_mismatch')} to apply it anyway")
            self.identity_mismatch = text

    def _narrow_waivers(self) -> None:
        """Keep the waivers whose `versions` ranges hold for this backend (a deviation of some releases only)."""
        if not self.versions_applied and self.info is not None:
            self.expectations = self.expectations.for_versions(self.info.versions)
            self.versions_applied = True

    def _new_pool(self, jobs: int) -> Pool:
        return Pool(
            self.config.backend,
            self.config.backend_kwargs,
            jobs=jobs,
            timeout=self.config.timeout_s,
            batch_size=self.factory.batch_size,
            max_bytes=self.config.max_bytes_budget,
            feature_level=str(self.config.feature_level) if self.config.feature_level else None,
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
                self.writer.resume(Resume(_now(), self.run_id))
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
        c, info = self.config, self.info
        return Header(
            FORMAT,
            FORMAT_VERSION,
            suite_version(),
            _now(),
            self.run_id,
            platform_info(),
            backend=info.name if info else self.factory.name,
            backend_spec=c.backend,
            backend_options=c.backend_kwargs,
            backend_versions=info.versions if info else {},
            identity=self.identity,
            label=c.label,
            feature_level=str(c.feature_level) if c.feature_level else (info.feature_level if info else ""),
            profile=c.profile,
            seed=c.seed,
            hypothesis_examples=c.hypothesis_count,
            generated=c.generated_count,
            filters={
                "operators": list(c.operators or ()),
                "data_types": [d.value for d in c.data_types or ()],
                "cases": list(c.case or ()),
            },
            case_paths=[str(p) for p in c.cases or ()],
            case_count=len(self.selection.works),
            selection={
                "case": list(c.case or ()),
                "exclude": list(c.exclude or ()),
                "keyword": c.keyword,
                "selected": self.selection.total,
            },
            retries=c.retries,
            flaky_fails=c.flaky_fails,
            shard=c.shard,
            config=c.identity(),
            expectations={"path": self.expectations.path, "waivers": [w.to_json() for w in self.expectations.waivers]},
            repro=c.repro(),
            notes=self._notes(),
            input_errors=[str(e) for e in self.selection.errors],
            jobs=self.jobs,
            timeout_s=c.timeout_s or 0.0,
            max_bytes=c.max_bytes_budget,
            tables=spec_tables(),
        )

    def _notes(self) -> list[str]:
        """What a reader of the header must know: an identity mismatch applied anyway, expired waivers."""
        notes = [f"identity mismatch, applied anyway (--allow-identity-mismatch): {self.identity_mismatch}"]
        notes = notes if self.identity_mismatch else []
        notes += [
            f"waiver {w.pattern} ({w.source}) expired on {w.expires}: it no longer waives"
            for w in self.expectations.waivers
            if w.expired()
        ]
        return notes

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
            records = self.pump(0.1, linger=0.05)
            if on_records is not None and records:
                on_records(records)
            reason = stop() or self.stop_reason
            if reason is None and self.config.exitfirst and any(r.category.failing for r in records):
                reason = "-x: stopped at the first failure"
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
        return self._retry_rounds(works, stop, on_records)

    def retry_now(self, work: Work, stop: Callable[[], str | None] = lambda: None) -> Record:
        """The pytest plugin's --dml-retries: retry one failing unit at once, in fresh workers of its own (the
        run's own workers go on); its final record."""
        self._retry_rounds([work], stop, None)
        return self.done[work.index]

    def _retry_rounds(
        self, works: list[Work], stop: Callable[[], str | None], on_records: Callable[[list[Record]], None] | None
    ) -> str | None:
        for _ in range(self.config.retries):
            works = [w for w in works if self.done[w.index].category.failing]
            if not works:
                return None
            earlier = self.retrying = {w.index: self.done[w.index] for w in works}
            pool = self._new_pool(min(self.jobs, len(works)))
            try:
                try:
                    if pool.start(stop) is None:
                        return stop() or "stopped"
                except BackendStartError as e:
                    return f"the backend could not be started again for a retry: {e}"
                pool.submit(_retry_work(w, earlier[w.index]) for w in works)
                while pool.busy:
                    records = [_retried(earlier[r.index], r) for r in pool.poll(0.1, 0.05) if r.index in earlier]
                    self.accept(*records)
                    if on_records is not None and records:
                        on_records(records)
                    reason = stop() or self.stop_reason
                    if reason:
                        self.accept(*(r for r in pool.interrupt(reason)[0] if r.index not in earlier))
                        return reason
            finally:
                self.retired_warnings += pool.close()
                self.retrying = {}
        return self.stop_reason

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
            _now(),
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


def _retry_work(work: Work, earlier: Record) -> Work:
    """What a retry runs: the unit itself, or for a live Hypothesis unit the minimal case it shrank to."""
    if isinstance(work.unit, LiveUnit) and earlier.case_json:
        return Work(work.index, case_from_json(earlier.case_json, f"{work.id}: the shrunk example"))
    return work


def _retried(earlier: Record, record: Record) -> Record:
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


def _signature(work: Work) -> tuple:
    case = work.unit
    if isinstance(case, LiveUnit):
        raise TypeError(f"{case!r}: only cases have a signature (live units are never batched by signature)")
    mode = getattr(case.descriptor, "padding_mode", None)
    return (case.operator, case.data_type.value, case.rank, mode.value if mode else "", work.index)

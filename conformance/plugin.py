"""pytest plugin (entry point pytest11 `dml_conformance`): a session's units as test items.

Inert unless `--dml-backend` is given.  Then a conformance.run.Session does the work, exactly
as for `dml-conformance run`: the options are the same table (`pytest --help` lists them as
`--dml-*`), the cases run in worker processes, the parent writes the results file and the
report.  This module only maps units to items (named by case id, so `-k` works) and records
to outcomes: failing categories fail, `unsupported` skips, `waived` xfails.

Under pytest-xdist (`-n N`) each xdist worker executes the items it is given (with one case
worker of its own unless --dml-jobs says more) and sends each record back with its test
report; the controller writes the one results file and the one report.

    pytest --dml-backend onnxruntime-cpu --dml-profile quick
    pytest --dml-backend mypkg.backend:MyBackend --dml-expectations waivers.json -n 4
"""

from __future__ import annotations

import enum
import json
from pathlib import Path

import pytest

from .cases.corpus import CaseFileError
from .run.config import RunConfig, UsageError
from .run.options import OPTIONS, add_plugin_options, plugin_dest
from .run.pool import BackendStartError, WorkerInfo
from .run.record import Category, Record, Verdict, fails_run, parse_line, repro_command
from .run.results import Results
from .run.session import Session
from .run.stopping import Stop
from .run.summary import Level, banner_lines, summary_lines
from .run.units import Work

SESSION_NAME = "dml_session"
RECORD_PROPERTY = "dml_record"  # a test report's user property carrying the record (xdist worker -> controller)
INFO_PROPERTY = "dml_worker_info"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dml-conformance", "DirectML data-movement conformance (inert without --dml-backend)")
    add_plugin_options(group)


class Role(enum.Enum):
    """Where this pytest process stands in a run: alone, or an xdist controller or worker."""

    SINGLE = "single"  # executes and writes
    CONTROLLER = "controller"  # writes what the xdist workers send; executes nothing
    WORKER = "worker"  # executes the items it is given; writes nothing

    @property
    def executes(self) -> bool:
        return self is not Role.CONTROLLER

    @property
    def writes(self) -> bool:
        return self is not Role.WORKER


def _role(config: pytest.Config) -> Role:
    if hasattr(config, "workerinput"):
        return Role.WORKER
    option = config.option
    if getattr(option, "dist", "no") != "no" and (getattr(option, "numprocesses", None) or getattr(option, "tx", None)):
        return Role.CONTROLLER
    return Role.SINGLE


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "dml_case: a DirectML conformance case")
    if config.getoption("dml_backend", None):
        config.pluginmanager.register(DmlPlugin(config, _role(config)), SESSION_NAME)


# --- items --------------------------------------------------------------------------------------


class CaseFailed(Exception):
    """A failing category: the item's failure text is the record's summary, not a traceback."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class DmlCollector(pytest.Collector):
    def collect(self):  # items are made by DmlPlugin; nothing to discover
        return []


class _Item(pytest.Item):
    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return excinfo.value.text
        return super().repr_failure(excinfo, style=style)


class UnitItem(_Item):
    """One unit of the session: a case, or a live Hypothesis batch."""

    def __init__(self, *, work: Work, dml: DmlPlugin, **kwargs):
        super().__init__(**kwargs)
        self.work = work
        self.dml = dml
        self.add_marker("dml_case")

    def runtest(self) -> None:
        self.dml.run_item(self)

    def reportinfo(self):
        return getattr(self.work.unit, "path", "") or "dml-conformance", None, self.work.id


class CorpusErrorItem(_Item):
    """A malformed case file stays visible as a failing item (nothing is lost silently)."""

    def __init__(self, *, error: CaseFileError, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def runtest(self) -> None:
        raise CaseFailed(f"malformed case file: {self.error}")

    def reportinfo(self):
        return self.error.path, None, self.name


# --- the adapter --------------------------------------------------------------------------------


class DmlPlugin:
    """Maps one conformance Session to pytest: options in, items out, records to outcomes."""

    def __init__(self, config: pytest.Config, role: Role):
        self.config, self.role = config, role
        values = {o.name: config.getoption(plugin_dest(o)) for o in OPTIONS if o.plugin}
        try:
            # Under xdist the parallelism is the xdist workers': one case worker each, unless --dml-jobs.
            self.session = Session(
                RunConfig.from_values(values),
                execute=role.executes,
                write=role.writes,
                plugin=True,
                jobs_default=1 if role is not Role.SINGLE else None,
            )
        except UsageError as e:
            raise pytest.UsageError(str(e)) from None
        self.by_id = {w.id: w for w in self.session.selection.works}
        self.submitted = False
        self.info_sent = False
        # Ctrl-C and SIGTERM: while this plugin waits for a record, a signal is only noted and acted on
        # between records (the wait ends, KeyboardInterrupt); anywhere else (a test of the user's own,
        # pytest's own code) it interrupts at once, as pytest's own.  Either way the footer says so.
        self.waiting = False
        self.stop = Stop(urgent=lambda: not self.waiting)
        # What the end of the session makes (pytest_sessionfinish) and the terminal summary prints.
        self.results: Results | None = None
        self.report: Path | None = None
        self.errors: list[str] = []  # the report or the expectations update could not be written
        self.update_lines: list[str] = []

    # -- start and header --------------------------------------------------------------------------
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        if self.role is Role.CONTROLLER or self.config.getoption("collectonly"):
            return
        try:
            self.session.start()
        except BackendStartError as e:
            raise pytest.UsageError(f"--dml-backend {self.session.config.backend} cannot start: {e}") from None
        if self.role is Role.SINGLE:
            self.stop.install()

    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        return [line.text for line in banner_lines(self.session, per_xdist_worker=self.role is Role.CONTROLLER)]

    # -- collection -----------------------------------------------------------------------------------
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config, items: list) -> None:
        # tryfirst: our items are in place before -k/-m deselection and reordering plugins see the list.
        parent = DmlCollector.from_parent(session, name="dml-conformance")
        new: list[pytest.Item] = [
            UnitItem.from_parent(parent, name=w.id, work=w, dml=self) for w in self.session.selection.works
        ]
        for i, error in enumerate(self.session.selection.errors):
            new.append(CorpusErrorItem.from_parent(parent, name=f"corpus-error-{i}", error=error))
        items[:0] = new

    # -- running --------------------------------------------------------------------------------------
    def run_item(self, item: UnitItem) -> None:
        s = self.session
        if self.role is Role.SINGLE and not self.submitted:
            # Everything left to run, in pytest's order: the workers run ahead of the items.
            s.submit(s.ordered([i.work for i in item.session.items if isinstance(i, UnitItem)]))
            self.submitted = True
        elif self.role is Role.WORKER:
            s.submit([item.work])
        self.waiting = True
        try:
            record = s.wait_for(item.work, self.stop)
            if record is not None and record.category.failing and s.config.retries and s.execute:
                record = s.retry_now(item.work, self.stop)  # --dml-retries: fresh workers, at once
        finally:
            self.waiting = False
        if record is None or self.stop.reason:
            raise KeyboardInterrupt(self.stop.reason)
        if self.role is Role.WORKER:
            item.user_properties.append((RECORD_PROPERTY, record.to_line()))
            if not self.info_sent and s.info is not None:
                item.user_properties.append((INFO_PROPERTY, json.dumps(s.info.__dict__)))
                self.info_sent = True
        self._outcome(record)

    def _outcome(self, record: Record) -> None:
        failing = fails_run(record.category, self.session.config.flaky_fails)
        if failing or record.category is Category.INTERRUPTED:
            raise CaseFailed(self._failure_text(record))
        if record.category is Category.UNSUPPORTED:
            pytest.skip(f"unsupported: {record.reason}")
        if record.category is Category.WAIVED:
            pytest.xfail(record.reason)

    def _failure_text(self, record: Record) -> str:
        lines = [f"{record.id}: {record.category.value}: {record.reason}"]
        if record.reached_operator:
            lines.append(f"reached operator: {record.reached_operator}")
        if record.crash and record.crash.stderr:
            lines += ["worker's last stderr lines:", *(f"  {line}" for line in record.crash.stderr)]
        for m in (record.mismatch.first if record.mismatch else [])[:5]:
            lines.append(
                f"  output {m.output} [{','.join(map(str, m.coordinate))}]: expected {m.expected} "
                f"({m.expected_hex}), got {m.actual} ({m.actual_hex})"
            )
        command = repro_command(self.session.config.repro(), record)
        if command:
            lines.append("reproduce: " + command)
        return "\n".join(lines)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """The controller under xdist: write what the workers send (or a crash for an item whose worker died)."""
        if self.role is not Role.CONTROLLER:
            return
        props = dict(report.user_properties)
        if INFO_PROPERTY in props and self.session.info is None:
            self.session.info = WorkerInfo(**json.loads(str(props[INFO_PROPERTY])))
        if RECORD_PROPERTY in props and report.when == "call":
            item = parse_line(json.loads(str(props[RECORD_PROPERTY])), "$")
            assert isinstance(item, Record)
            self.session.accept(item)
        elif report.failed and RECORD_PROPERTY not in props and report.when != "teardown":
            work = self.by_id.get(report.nodeid.rpartition("::")[2])
            if work is not None and work.index not in self.session.done:
                from .run.units import blank_record

                self.session.accept(
                    blank_record(work).set(
                        Category.CRASH, f"the pytest-xdist worker running this case died: {report.longreprtext[-300:]}"
                    )
                )

    # -- the end --------------------------------------------------------------------------------------
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self.waiting = True  # a second signal now is only noted: the footer and the report are written whole
        interrupted = int(exitstatus) == int(pytest.ExitCode.INTERRUPTED) or self.stop.reason is not None
        if interrupted and int(exitstatus) in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            # the signal came after the last record, or its KeyboardInterrupt was swallowed where it landed
            session.exitstatus = exitstatus = pytest.ExitCode.INTERRUPTED
        stopped = (
            self.stop.reason or "interrupted"
            if interrupted
            else ("pytest stopped early" if session.shouldstop or session.shouldfail else None)
        )
        self.results = self.session.finish(stopped=stopped, interrupted=interrupted, exitstatus=int(exitstatus))
        if self.role is Role.WORKER or (self.session.writer is None and not self.session.records):
            return
        from .report.html import ReportError, write_report

        try:
            if self.session.report_path is not None:
                self.report = write_report([self.results], self.session.report_path)
        except ReportError as e:
            self.errors.append(str(e))
        if self.results.verdict() is Verdict.UNTESTED and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED  # nothing tested is not a pass
        self.update_lines = self._update_expectations()

    def _update_expectations(self) -> list[str]:
        """--dml-update-expectations: written here, printed in the summary (an error as the line it says)."""
        config = self.session.config
        if not config.update_expectations or self.results is None:
            return []
        from .report.baseline import BaselineError, update_lines

        try:
            return update_lines(self.results, Path(config.expectations or ""), Path(config.update_expectations))
        except BaselineError as e:
            self.errors.append(str(e))
            return []

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.stop.restore()

    def pytest_terminal_summary(self, terminalreporter, exitstatus: int, config: pytest.Config) -> None:
        if self.role is Role.WORKER or self.results is None or self.session.writer is None:
            return
        tr = terminalreporter
        tr.section("dml-conformance")
        lines = summary_lines(
            self.session, self.results, self.report, errors=self.errors, update_lines=self.update_lines
        )
        for line in lines:
            tr.write_line(line.text, yellow=line.level is Level.WARNING, red=line.level is Level.ERROR)

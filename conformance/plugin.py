"""pytest plugin (entry point pytest11 `dml_conformance`): every case is one test item.

Inert unless `--dml-backend` is given: then a DmlSession is registered with the plugin
manager; it adds one item per case (named by the case id) and, optionally, one live
Hypothesis item per operator, writes the results file as items finish, and renders the
HTML report at the end.  A vendor's own pytest run can use it as is:

    pytest --dml-backend onnxruntime-cpu --dml-profile quick
    pytest --dml-backend mypkg.backend:MyBackend --dml-expectations waivers.json
"""

from __future__ import annotations

import argparse
import importlib
import re
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

import oracle
from oracle import DataType, FeatureLevel

from . import runner
from .backends.base import Backend
from .corpus import CASES_DIR, Case, CaseFileError
from .expectations import Expectations, ExpectationsError, known_issues, load_expectations
from .results import ResultsWriter, make_header

PROFILES = ("quick", "full")
SESSION_NAME = "dml_session"
# Hypothesis examples per operator item, by profile ("many more" in full).
HYPOTHESIS_EXAMPLES = {"quick": 20, "full": 500}
# Cases generated at run time (deterministic by seed) on top of the stored ones, by profile.
GENERATED_AT_RUN_TIME = {"quick": 5000, "full": 20000}
DEFAULT_TIMEOUT_S = 60.0


# --- option types: validated at parse time, with messages naming the option ----------------

def _csv(parse, what: str):
    def convert(text: str) -> tuple:
        items = [t.strip() for t in text.split(",") if t.strip()]
        if not items:
            raise argparse.ArgumentTypeError(f"expected a comma-separated list of {what}")
        try:
            return tuple(parse(t) for t in items)
        except ValueError as e:  # argparse shows an ArgumentTypeError's text, not a ValueError's
            raise argparse.ArgumentTypeError(str(e)) from e
    convert.__name__ = what  # argparse names the type in its error message
    return convert


def _operator(text: str) -> str:
    name = text.upper().removeprefix("DML_").removesuffix("_OPERATOR_DESC")
    if name not in oracle.OPERATORS:
        raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(oracle.OPERATORS)}")
    return name


def _feature_level(text: str) -> FeatureLevel:
    try:
        return FeatureLevel.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def _profile(text: str) -> str:
    if text not in PROFILES:
        raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(PROFILES)}")
    return text


def _non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} < 0")
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dml-conformance", "DirectML data-movement conformance (inert without --dml-backend)")
    group.addoption("--dml-backend", default=None, metavar="NAME|module:Class",
                    help="run the conformance cases on this backend: an entry point name of "
                         "'dml_conformance.backends' or module:Class. Default: %(default)r (plugin inert)")
    group.addoption("--dml-feature-level", type=_feature_level, default=None, metavar="X.Y",
                    help="the level the run targets; cases needing more are unsupported. "
                         "Default: the backend's own level")
    group.addoption("--dml-operators", type=_csv(_operator, "operators"), default=None, metavar="OP,...",
                    help="only these operators (SLICE, SLICE1, PADDING, SPLIT). Default: all")
    group.addoption("--dml-data-types", type=_csv(DataType.parse, "data types"), default=None, metavar="T,...",
                    help="only these data types (FLOAT32, UINT8, ...). Default: all")
    group.addoption("--dml-profile", type=_profile, default="quick", metavar="quick|full",
                    help="quick: examples, curated and a bounded generated set; full: everything, "
                         "incl. the frozen corpus, and many more Hypothesis examples. Default: %(default)r")
    group.addoption("--dml-cases", action="append", default=None, metavar="PATH",
                    help="case files or folders to run instead of the packaged corpus (repeatable)")
    group.addoption("--dml-case", action="append", default=None, metavar="ID",
                    help="only this case id (repeatable; 'PREFIX*' for a prefix)")
    group.addoption("--dml-hypothesis-examples", type=_non_negative_int, default=None, metavar="N",
                    help="live Hypothesis examples per operator, 0 to skip. Default: "
                         f"{HYPOTHESIS_EXAMPLES['quick']} (quick), {HYPOTHESIS_EXAMPLES['full']} (full)")
    group.addoption("--dml-generated", type=_non_negative_int, default=None, metavar="N",
                    help="cases generated at run time from --dml-seed. Default: "
                         f"{GENERATED_AT_RUN_TIME['quick']} (quick), {GENERATED_AT_RUN_TIME['full']} (full)")
    group.addoption("--dml-seed", type=int, default=0, help="seed for generation and Hypothesis. Default: %(default)r")
    group.addoption("--dml-expectations", default=None, metavar="FILE",
                    help="a JSON expectations file of waivers (see conformance/expectations.py)")
    group.addoption("--dml-no-known-issues", action="store_true", default=False,
                    help="do not apply the backend's shipped known-issues waivers (conformance/known_issues/)")
    group.addoption("--dml-timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
                    help="per-case limit; 0 runs inline without a limit. Default: %(default)r")
    group.addoption("--dml-results", default=None, metavar="FILE",
                    help="results JSONL. Default: reports/results-<backend>-<time>.jsonl")
    group.addoption("--dml-report", default=None, metavar="FILE",
                    help="HTML report written at the end ('none' to skip). Default: report.html next to the results")
    group.addoption("--dml-label", default=None, help="a name for this run in comparison grids (e.g. a driver build)")
    group.addoption("--dml-dll", default=None, metavar="PATH",
                    help="directml backend: the DirectML.dll to test. Default: the pinned wheel's")
    group.addoption("--dml-adapter", default=None, metavar="INDEX|NAME",
                    help="directml backend: the GPU, by index or part of its name. Default: the first")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "dml_case: a DirectML conformance case")
    if config.getoption("dml_backend", None) and not hasattr(config, "workerinput"):
        config.pluginmanager.register(DmlSession(config), SESSION_NAME)


# --- backends and case selection -------------------------------------------------------------

class BackendLoadError(Exception):
    pass


def backend_options(dml_dll: str | None, adapter: str | None) -> dict[str, str]:
    """Constructor options the user gave (--dml-dll, --adapter): passed only when given."""
    return {k: v for k, v in {"dml_dll": dml_dll, "adapter": adapter}.items() if v}


def load_backend_spec(spec: str, options: dict[str, str] | None = None) -> Backend:
    """An entry point name, or `module:Class` for a backend that is not installed as an entry point."""
    from .backends.base import BackendUnavailable
    from .backends.registry import load_backend

    try:
        if ":" in spec:
            module_name, _, attr = spec.partition(":")
            factory = getattr(importlib.import_module(module_name), attr)
            backend = factory(**(options or {}))
            if not isinstance(backend, Backend):
                raise TypeError(f"{spec} did not produce a conformance.backends.base.Backend")
            return backend
        return load_backend(spec, **(options or {}))
    except BackendUnavailable as e:
        raise BackendLoadError(f"backend {spec!r} cannot run here: {e}") from e
    except Exception as e:
        raise BackendLoadError(f"cannot load backend {spec!r}: {type(e).__name__}: {e}") from e


def _generated_cases(seed: int, count: int, operators) -> tuple[list[Case], str]:
    """Cases generated at run time, deterministic by seed (conformance.generate); ([], why) if unavailable."""
    if count <= 0:
        return [], ""
    try:
        from .generate import generate_cases
    except ImportError as e:
        return [], f"no run-time generation ({e})"
    from .corpus import case_from_json

    objs = generate_cases(seed=seed, count=count, operators=tuple(operators or oracle.OPERATORS))
    where = f"generated at run time (--dml-seed {seed}, --dml-generated {count})"
    # Parsed like a stored case, so a generator bug is caught by the same checks as a bad file.
    return [case_from_json(obj, f"$.{op}[{i}]", where) for op, items in objs.items() for i, obj in enumerate(items)], ""


def select_cases(*, profile: str = "quick", paths: Sequence[str] | None = None, operators=None, data_types=None,
                 case_ids: Sequence[str] | None = None, seed: int = 0,
                 generated: int | None = None) -> tuple[list[Case], list[CaseFileError], list[str]]:
    """The run's cases, in a stable order: (cases, corpus errors, notes).

    quick: cases/examples + cases/curated (+ run-time generated); full: every file under cases/.
    """
    from .corpus import load

    notes: list[str] = []
    if paths:
        roots = [Path(p) for p in paths]
    elif profile == "full":
        roots = [CASES_DIR]
    else:
        roots = [p for p in (CASES_DIR / "examples", CASES_DIR / "curated") if p.is_dir()]
    for root in roots:
        if not root.exists():
            raise FileNotFoundError(f"case path {root} does not exist")
    loaded = load(roots)
    cases = list(loaded.cases)
    count = GENERATED_AT_RUN_TIME[profile] if generated is None else generated
    if not paths:
        extra, why = _generated_cases(seed, count, operators)
        if why:
            notes.append(why)
        seen = {c.id for c in cases}
        cases.extend(c for c in extra if c.id not in seen)
    if operators:
        cases = [c for c in cases if c.operator in operators]
    if data_types:
        cases = [c for c in cases if c.data_type in data_types]
    if case_ids:
        exact = {i for i in case_ids if not i.endswith("*")}
        prefixes = tuple(i[:-1] for i in case_ids if i.endswith("*"))
        cases = [c for c in cases if c.id in exact or (prefixes and c.id.startswith(prefixes))]
    return cases, loaded.errors, notes


# --- items --------------------------------------------------------------------------------------

class CaseFailed(Exception):
    """A failing category: the item's failure text is the record's summary, not a traceback."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class DmlCollector(pytest.Collector):
    def collect(self):  # items are made by DmlSession; nothing to discover
        return []


class CaseItem(pytest.Item):
    def __init__(self, *, case: Case, dml: DmlSession, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        self.dml = dml
        self.add_marker("dml_case")

    def runtest(self) -> None:
        self.dml.run_case(self.case)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return excinfo.value.text
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.case.path or "dml-conformance", None, self.case.id


class CorpusErrorItem(pytest.Item):
    """A malformed case file stays visible as a failing item (nothing is lost silently)."""

    def __init__(self, *, error: CaseFileError, dml: DmlSession, **kwargs):
        super().__init__(**kwargs)
        self.error = error
        self.dml = dml

    def runtest(self) -> None:
        self.dml.record_corpus_error(self.nodeid_name, self.error)

    @property
    def nodeid_name(self) -> str:
        return self.name

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return excinfo.value.text
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.error.path, None, self.name


class HypothesisItem(pytest.Item):
    def __init__(self, *, operator: str, dml: DmlSession, **kwargs):
        super().__init__(**kwargs)
        self.operator = operator
        self.dml = dml

    def runtest(self) -> None:
        self.dml.run_hypothesis(self.operator)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return excinfo.value.text
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return "dml-conformance", None, self.name


# --- the session -------------------------------------------------------------------------------

def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)


class DmlSession:
    """The plugin's state for one pytest session: backend, cases, expectations, results writer."""

    def __init__(self, config: pytest.Config):
        self.config = config
        opt = config.getoption
        self.backend_spec: str = opt("dml_backend")
        try:
            self.backend = load_backend_spec(self.backend_spec,
                                             backend_options(opt("dml_dll"), opt("dml_adapter")))
        except BackendLoadError as e:
            raise pytest.UsageError(str(e)) from e
        caps = self.backend.capabilities()
        self.level: FeatureLevel = opt("dml_feature_level") or caps.feature_level
        self.profile: str = opt("dml_profile")
        self.seed: int = opt("dml_seed")
        self.hypothesis_examples: int = (HYPOTHESIS_EXAMPLES[self.profile] if opt("dml_hypothesis_examples") is None
                                         else opt("dml_hypothesis_examples"))
        self.operators = opt("dml_operators")
        self.data_types = opt("dml_data_types")
        self.case_ids = opt("dml_case")
        self.case_paths = opt("dml_cases")
        self.generated = opt("dml_generated")
        self.label = opt("dml_label")
        # A built-in backend's known deviations (conformance/known_issues/<name>.json) are waived
        # by default, visibly: every such case reports `waived` with the reason, never `pass`.
        self.expectations = Expectations() if opt("dml_no_known_issues") else known_issues(self.backend.name)
        if opt("dml_expectations"):
            try:
                self.expectations = self.expectations.extend(load_expectations(opt("dml_expectations")))
            except ExpectationsError as e:
                raise pytest.UsageError(f"--dml-expectations: {e}") from e
        stamp = time.strftime("%Y%m%d-%H%M%S")
        results = opt("dml_results") or f"reports/results-{_safe(self.backend.name or self.backend_spec)}-{stamp}.jsonl"
        self.results_path = Path(results)
        report = opt("dml_report")
        self.report_path = None if report == "none" else Path(report) if report else self.results_path.with_name("report.html")
        self.watchdog = runner.Watchdog(opt("dml_timeout"))
        try:
            self.cases, self.corpus_errors, self.notes = select_cases(
                profile=self.profile, paths=self.case_paths, operators=self.operators, data_types=self.data_types,
                case_ids=self.case_ids, seed=self.seed, generated=self.generated)
        except FileNotFoundError as e:
            raise pytest.UsageError(f"--dml-cases: {e}") from e
        self.writer: ResultsWriter | None = None
        self.hypothesis_records: list[dict] = []

    # -- what the run is -----------------------------------------------------------------------
    def repro(self) -> str:
        parts = ["dml-conformance", "run", "--backend", self.backend_spec]
        if self.profile != "quick":
            parts += ["--profile", self.profile]
        if self.seed:
            parts += ["--seed", str(self.seed)]
        if self.config.getoption("dml_feature_level"):
            parts += ["--feature-level", str(self.level)]
        for p in self.case_paths or ():
            parts += ["--cases", str(p)]
        return " ".join(parts) + " --case {id}"

    def header(self) -> dict:
        return make_header(
            backend=self.backend.name or self.backend_spec, backend_spec=self.backend_spec, label=self.label,
            backend_versions=self.backend.versions(), feature_level=str(self.level), profile=self.profile,
            seed=self.seed, hypothesis_examples=self.hypothesis_examples,
            filters={"operators": list(self.operators or ()), "data_types": [d.value for d in self.data_types or ()],
                     "cases": list(self.case_ids or ())},
            case_paths=[str(p) for p in self.case_paths or ()], case_count=len(self.cases),
            expectations={"path": self.expectations.path, "waivers": [w.to_json() for w in self.expectations.waivers]},
            repro=self.repro(), notes=self.notes,
        )

    # -- hooks -------------------------------------------------------------------------------------
    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        versions = ", ".join(f"{k} {v}" for k, v in self.backend.versions().items()) or "no versions reported"
        lines = [
            f"dml-conformance: backend {self.backend_spec} ({versions})",
            f"dml-conformance: feature level {self.level}, profile {self.profile}, --dml-seed={self.seed}, "
            f"{len(self.cases)} cases, {self.hypothesis_examples} Hypothesis examples per operator",
            f"dml-conformance: results {self.results_path}" + (f", report {self.report_path}" if self.report_path else ""),
        ]
        from .report import device_line

        device = device_line(self.backend.versions())
        if device:
            lines.insert(1, f"dml-conformance: device {device}")
        lines += [f"dml-conformance: note: {n}" for n in self.notes]
        return lines

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config, items: list) -> None:
        # tryfirst: our items are in place before -k/-m deselection and reordering plugins see the list.
        parent = DmlCollector.from_parent(session, name="dml-conformance")
        new: list[pytest.Item] = [CaseItem.from_parent(parent, name=c.id, case=c, dml=self) for c in self.cases]
        for i, error in enumerate(self.corpus_errors):
            new.append(CorpusErrorItem.from_parent(parent, name=f"corpus-error-{i}[{Path(error.path).name}]",
                                                   error=error, dml=self))
        if self.hypothesis_examples and not self.case_ids and not self.case_paths:
            for op in self.operators or oracle.OPERATORS:
                new.append(HypothesisItem.from_parent(parent, name=f"hypothesis-{op}", operator=op, dml=self))
        items[:0] = new
        self.expectations.note_selected([c.id for c in self.cases])

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.writer = ResultsWriter(self.results_path, self.header())

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self.watchdog.close()
        self.backend.close()  # releases cached sessions (ORT) or a vendor's device
        if self.writer is None:
            return
        unmatched = [w.to_json() for w in self.expectations.unmatched()]
        self.writer.close(exitstatus=int(exitstatus), interrupted=int(exitstatus) == int(pytest.ExitCode.INTERRUPTED),
                          unmatched_waivers=unmatched)
        if self.report_path is not None:
            from .report import write_report
            from .results import read_results

            write_report([read_results(self.results_path)], self.report_path)

    def pytest_terminal_summary(self, terminalreporter, exitstatus: int, config: pytest.Config) -> None:
        if self.writer is None:
            return
        tr = terminalreporter
        tr.section("dml-conformance")
        counts = self.writer.counts
        tr.write_line("  ".join(f"{c}: {counts[c]}" for c in runner.CATEGORIES if counts[c]) or "no cases run")
        for w in self.expectations.unmatched():
            tr.write_line(f"warning: waiver {w.pattern!r} ({w.reason}) matches no case of this run", yellow=True)
        tr.write_line(f"results: {self.results_path}")
        if self.report_path is not None:
            tr.write_line(f"report:  {self.report_path}")

    # -- running -----------------------------------------------------------------------------------
    def _finish(self, record: dict) -> None:
        self.expectations.apply(record)
        assert self.writer is not None
        self.writer.record(record)
        category = record["category"]
        if category in runner.FAILING:
            raise CaseFailed(self._failure_text(record))
        if category == "unsupported":
            pytest.skip(f"unsupported: {record['reason']}")
        if category == "waived":
            pytest.xfail(record["reason"])

    def _failure_text(self, record: dict) -> str:
        lines = [f"{record['id']}: {record['category']}: {record.get('reason', '')}"]
        if record.get("reached_operator"):
            lines.append(f"reached operator: {record['reached_operator']}")
        for m in (record.get("mismatch") or {}).get("first", [])[:5]:
            lines.append(f"  output {m['output']} [{','.join(map(str, m['coordinate']))}]: expected {m['expected']} "
                         f"({m['expected_hex']}), got {m['actual']} ({m['actual_hex']})")
        if not record.get("hypothesis"):
            lines.append("reproduce: " + self.repro().format(id=record["id"]))
        return "\n".join(lines)

    def run_case(self, case: Case) -> None:
        assert self.writer is not None
        self.writer.start(case.id)
        self._finish(runner.execute(case, self.backend, feature_level=self.level, watchdog=self.watchdog))

    def record_corpus_error(self, name: str, error: CaseFileError) -> None:
        assert self.writer is not None
        record = {"kind": "case", "id": name, "operator": "?", "data_type": "?", "rank": 0, "clauses": [], "tags": [],
                  "unspecified": [], "category": "error", "source": error.path,
                  "reason": f"malformed case file: {error}"}
        self.writer.record(record)
        raise CaseFailed(record["reason"])

    def run_hypothesis(self, operator: str) -> None:
        from .suite.live import run_live

        assert self.writer is not None
        record = run_live(operator, self.backend, level=self.level, watchdog=self.watchdog,
                          max_examples=self.hypothesis_examples, seed=self.seed)
        self.writer.start(record["id"])
        self._finish(record)

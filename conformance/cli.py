"""dml-conformance: the command line (run, report, baseline, history, package, verify, explain, repro, cases,
backends, schema).

Exit codes: 0 the run passed; 1 it has failures (fail, rejected, error, crash, timeout; flaky
under --flaky-fails), or did not finish (interrupted, stopped, the results file could not be written); 2 usage or input
error (bad options, unknown backend or one that cannot start here, malformed case, results
or expectations files, no case matching --case); 3 nothing was tested (every case
unsupported or deselected: verdict UNTESTED).  `report` exits as `run` does for the same verdict (0 PASS,
1 FAIL or INCOMPLETE, e.g. one shard of two, 3 UNTESTED; --no-fail: 0 once written), so a
merged report never says less than the run did.  `verify`: 0 the package is valid, 1 it is not (each
problem named), 2 it cannot be read as a package.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: `dml-conformance --help` stays fast
    from .run.results import Results
    from .run.spawn import Spares

EXIT_OK, EXIT_FAILURES, EXIT_USAGE, EXIT_UNTESTED = 0, 1, 2, 3
MAX_LISTED_FAILURES = 20


def _error(message: str) -> int:
    print(f"dml-conformance: error: {message}", file=sys.stderr)
    return EXIT_USAGE


# --- run ---------------------------------------------------------------------------------------


class _Progress:
    """One updating line on a terminal (nothing in a log): how far the run is."""

    def __init__(self, total: int):
        self.total, self.last = total, 0.0
        self.latest: dict[object, bool] = {}  # case (selection index) -> whether its latest record fails
        self.on = sys.stderr.isatty()

    def update(self, records) -> None:
        import time

        for r in records:  # a retried case comes back again: its latest record counts, once
            self.latest[r.id if r.index is None else r.index] = r.category.failing
        done, failing = len(self.latest), sum(self.latest.values())
        now = time.monotonic()
        if self.on and (now - self.last > 0.2 or done == self.total):
            self.last = now
            print(f"\r{done}/{self.total} cases, {failing} failing", end="", file=sys.stderr, flush=True)

    def end(self) -> None:
        if self.on and self.latest:
            print(file=sys.stderr)


def _run(args: argparse.Namespace) -> int:
    from .run.spawn import Spares, default_jobs

    # Worker processes started by `main` before its parser (`_EARLY`), or now: they import on the cores this one's
    # imports and checks leave idle; the run's pool takes them (a run refused below kills them: they construct
    # nothing and write nothing).  More than -j asks for are ended here.
    spares = _EARLY.pop() if _EARLY else Spares(default_jobs())
    spares.keep(min(args.jobs or default_jobs(), default_jobs()))
    try:
        return _run_with(args, spares)
    finally:
        spares.close()


def _run_with(args: argparse.Namespace, spares: Spares) -> int:
    from .report.html import ReportError, write_report
    from .run.config import RunConfig, UsageError
    from .run.pool import BackendStartError
    from .run.session import Session
    from .run.stopping import Stop
    from .run.summary import banner_lines, failure_lines, summary_lines

    try:
        session = Session(RunConfig.from_values(vars(args)), prestart=True, spares=spares)
    except UsageError as e:
        return _error(str(e))
    for error in session.selection.errors:
        print(f"dml-conformance: error: {error}", file=sys.stderr)
    with Stop() as stop:
        try:
            if not session.start(stop):
                print(f"dml-conformance: interrupted ({stop.reason}) before the backend started", file=sys.stderr)
                return EXIT_FAILURES
        except BackendStartError as e:
            return _error(f"backend {session.config.backend} cannot start: {e}")
        except UsageError as e:
            session.finish(stopped=str(e))
            return _error(str(e))
        _print_lines(banner_lines(session), stream=sys.stderr)
        progress = _Progress(len(session.selection.works))
        stopped = session.run(stop, progress.update)
        progress.end()
        results = session.finish(stopped=stopped, interrupted=stop.reason is not None)
    if _KEPT is not None:
        _KEPT.extend((session, results))  # to the process's end (console): freeing them is time for nothing
    report, errors, report_failed = None, [], False
    try:
        report = write_report([results], session.report_path) if session.report_path is not None else None
    except ReportError as e:
        errors.append(str(e))
        report_failed = True  # an output asked for and not written: never exit 0
    junit_failed = _write_junit(session.config.junit_xml, [results])
    update_lines, update_error = _update_expectations(session.config, results)
    update_failed = update_error is not None
    errors += [update_error] if update_error is not None else []
    _print_lines(failure_lines(session, results))
    _print_lines(summary_lines(session, results, report, errors=errors, update_lines=update_lines))
    if session.write_error is not None:
        return EXIT_FAILURES
    if stop.reason is not None or junit_failed or update_failed or report_failed:
        return EXIT_FAILURES
    if session.selection.errors:
        return EXIT_USAGE  # malformed case files: every good case still ran, but the input needs fixing
    return results.verdict().exit_code


def _update_expectations(config, results) -> tuple[list[str], str | None]:
    """--update-expectations: write the file; (what was removed and the diff, the error if it could not be written)."""
    if not config.update_expectations:
        return [], None
    from .report.baseline import BaselineError, update_lines

    try:
        return update_lines(results, Path(config.expectations), Path(config.update_expectations)), None
    except BaselineError as e:
        return [], str(e)


def _write_junit(path: str | None, runs) -> bool:
    """--junit-xml: write it; True if it could not be written (said on stderr)."""
    if not path:
        return False
    from .report.junit import write_junit

    try:
        print(f"junit:   {write_junit(runs, path)}")
    except OSError as e:
        print(f"dml-conformance: error: --junit-xml: cannot write {path}: {e.strerror or e}", file=sys.stderr)
        return True
    return False


def _print_lines(lines, stream=None) -> None:
    """The run layer's lines (conformance.run.summary): warnings and errors on stderr, the rest on `stream`."""
    from .run.summary import Level

    for line in lines:
        print(line.text, file=sys.stderr if line.level is not Level.INFO else stream or sys.stdout)


# --- report, explain, cases, backends ----------------------------------------------------------


def _read_runs(paths: list[str]) -> list[Results]:
    """The results files as runs (shards of one run merged), each file's notes (a torn line, a missing
    shard) printed: what `report` and `baseline` read."""
    from .run.results import merge_shards, read_results

    runs = merge_shards([read_results(p) for p in paths])
    for run in runs:
        for note in run.notes:
            print(f"{run.path}: {note}", file=sys.stderr)
    return runs


def _report(args: argparse.Namespace) -> int:
    from .report.html import ReportError, overall_verdict, write_report
    from .run.config import UsageError
    from .run.results import ResultsFileError
    from .support.outputs import JUNIT, REPORT, Output, check_outputs

    try:
        output = Path(args.output)
        outputs = [Output("-o", output, REPORT)] + (
            [Output("--junit-xml", Path(args.junit_xml), JUNIT)] if args.junit_xml else []
        )
        check_outputs(outputs, [("RESULTS", Path(p)) for p in args.results])
        runs = _read_runs(args.results)
        print(write_report(runs, output))
    except (ResultsFileError, UsageError, ReportError) as e:
        return _error(str(e))
    if _write_junit(args.junit_xml, runs):
        return EXIT_FAILURES
    verdict = overall_verdict(runs)
    print(f"verdict: {verdict.value}")
    return EXIT_OK if args.no_fail else verdict.exit_code


def _baseline(args: argparse.Namespace) -> int:
    from .report.baseline import BaselineError, write_baseline
    from .run.config import UsageError
    from .run.results import ResultsFileError
    from .support.outputs import EXPECTATIONS, check_output

    try:
        # Before anything is read: the paths as given (a merged run's path names all its shards).
        check_output(
            "-o", args.output, EXPECTATIONS, inputs=[("RESULTS", Path(p)) for p in args.results], force=args.force
        )
        runs = _read_runs(args.results)
        count = write_baseline(runs, Path(args.output), force=args.force)
    except (UsageError, ResultsFileError, BaselineError) as e:
        return _error(str(e))
    print(f"{args.output}: {count} waiver(s); replace each reason placeholder with the bug and its tracker link")
    return EXIT_OK


def _history(args: argparse.Namespace) -> int:
    from .report.history import HistoryError, build_history, history_text, write_history
    from .run.config import UsageError
    from .run.outputs import ReportError
    from .run.results import ResultsFileError, merge_shards, read_outcomes
    from .support.outputs import HISTORY, check_output

    try:
        output = Path(args.output) if args.output else None
        if output is not None:
            check_output("-o", output, HISTORY, inputs=[("RESULTS", Path(p)) for p in args.results])
        runs = merge_shards([read_outcomes(p) for p in args.results])
        for run in runs:
            for note in run.notes:
                print(f"{run.path}: {note}", file=sys.stderr)
        history = build_history(runs, order=args.order)
        print(history_text(history, limit=args.limit))
        if output is not None:
            print(f"history: {write_history(history, output)}")
    except (ResultsFileError, UsageError, HistoryError, ReportError) as e:
        return _error(str(e))
    return EXIT_OK


def _lint(args: argparse.Namespace) -> int:
    from .judging.expectations import ExpectationsError, load_expectations
    from .run.lint import full_profile_cases, lint

    try:
        files = [load_expectations(f) for f in args.files]
    except ExpectationsError as e:
        return _error(str(e))
    cases = full_profile_cases()
    problems = [f"{e.path}: {p}" for e in files for p in lint(e, cases, allow_untracked=args.allow_untracked)]
    for problem in problems:
        print(problem)
    waivers = sum(len(e.waivers) for e in files)
    print(
        f"{len(args.files)} file(s), {waivers} waiver(s), {len(problems)} problem(s); {len(cases)} cases in the full profile"
    )
    return EXIT_FAILURES if problems else EXIT_OK


def _package(args: argparse.Namespace) -> int:
    from .report.package import NOT_VALID, PackageError, build_package
    from .run.results import ResultsFileError

    try:
        path, statement = build_package(args.results, args.output, expectations=args.expectations, force=args.force)
    except (PackageError, ResultsFileError) as e:
        return _error(str(e))
    if not statement.valid:
        for problem in statement.problems:
            print(f"problem: {problem}", file=sys.stderr)
        print(f"dml-conformance: warning: {path} is stamped {NOT_VALID!r}", file=sys.stderr)
    print(f"package: {path}")
    print(f"verdict: {statement.verdict}; {statement.conclusion}")
    return EXIT_OK


def _verify(args: argparse.Namespace) -> int:
    from .report.verify import PackageError, verify

    try:
        statement = verify(args.package)
    except PackageError as e:
        return _error(str(e))
    for problem in statement.problems:
        print(f"problem: {problem}")
    print(statement.text())
    return EXIT_OK if statement.valid else EXIT_FAILURES


def _explain_target(args: argparse.Namespace):
    """The case `args.case_id` names: a case file (its first case), or an id in the corpus or generated."""
    from .cases.corpus import first_case
    from .run.selection import find_case

    path = Path(args.case_id)
    if path.is_file():
        try:
            return first_case(path)
        except ValueError as e:
            raise _ExplainError(str(e)) from None
    if path.suffix == ".json" or path.is_dir():
        raise _ExplainError(f"{args.case_id}: not a case file")
    from .cases.stress import STRESS_CASES

    # Asked before the lookup, which generates the full profile's cases to find an id that is not stored.
    if any(c.id == args.case_id for c in STRESS_CASES):  # millions of derivation lines help nobody
        raise _ExplainError(
            f"{args.case_id} is a stress case (its tensors are made when it runs): explain covers stored and "
            f"generated cases; run it with `dml-conformance run --profile stress --case {args.case_id}`"
        )
    case = find_case(args.case_id, paths=args.cases, seed=args.seed)
    if case is None:
        raise _ExplainError(f"no case {args.case_id!r} in the corpus (or generated with seed {args.seed})")
    return case


class _ExplainError(Exception):
    """What `explain` cannot show: an unknown id, an unreadable file."""


def _explain(args: argparse.Namespace) -> int:
    import json

    import oracle

    from .run.config import UsageError

    try:
        case = _explain_target(args)
    except (UsageError, _ExplainError) as e:
        return _error(str(e))
    print(f"{case.id}: DML_{case.operator}, {case.data_type.value}, rank {case.rank}, FL {case.feature_level}")
    print(f"clauses: {', '.join(case.clauses)}")
    print(f"descriptor: {json.dumps(oracle.descriptor_to_json(case.descriptor))}")
    if not case.valid:
        try:
            oracle.validate(case.descriptor, case.feature_level)
            print(f"expected invalid [{case.expected.clause}], but the oracle accepts it")
        except oracle.InvalidDescriptor as e:
            print(f"invalid descriptor: expected [{case.expected.clause}]: {e}")
        return EXIT_OK
    if case.unspecified:
        open_count = sum(int(m.sum()) for m in oracle.unspecified_mask(case.descriptor, case.inputs))
        print(
            f"unspecified (observed, not judged): {', '.join(case.unspecified)}; {open_count} output element(s) "
            "left open"
        )
    lines = oracle.explain(case.descriptor, list(case.inputs), case.feature_level)
    shown = lines if args.all or len(lines) <= args.limit else lines[: args.limit]
    print("\n".join(shown))
    if len(shown) < len(lines):
        print(f"... {len(lines) - len(shown)} more lines (--all)")
    return EXIT_OK


def _selected_units(args: argparse.Namespace):
    """The units the selection options of `cases list`/`cases coverage` select, as `run` would (no live units);
    a --case that matches nothing is a usage error, as for `run`."""
    from .run.config import RunConfig, UsageError
    from .run.options import SELECTION_OPTIONS
    from .run.selection import all_units

    config = RunConfig.from_values({**{k: getattr(args, k) for k in SELECTION_OPTIONS}, "hypothesis_examples": 0})
    units, errors = all_units(config)
    if config.case and not units:
        raise UsageError(
            f"--case: no case matches {', '.join(config.case)} (profile {config.profile}, seed {config.seed})"
        )
    return config, units, errors


def _cases_list(args: argparse.Namespace) -> int:
    from .run.config import UsageError
    from .run.selection import listed

    try:
        _, units, errors = _selected_units(args)
        cases = listed(units, args.clause, args.tag)
    except UsageError as e:
        return _error(str(e))
    for c in cases:
        print(f"{c.id}\t{c.operator}\t{c.data_type.value}\trank {c.rank}\t{c.expected.outcome}\t{','.join(c.clauses)}")
    if not cases:
        print("no case of this selection matches", file=sys.stderr)
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    return EXIT_USAGE if errors else EXIT_OK


def _cases_coverage(args: argparse.Namespace) -> int:
    """The value-class grid of a selection (conformance.cases.value_classes): exit 1 when a cell is empty."""
    from .cases.corpus import Case
    from .cases.value_classes import grid
    from .run.config import UsageError

    try:
        config, units, errors = _selected_units(args)
    except UsageError as e:
        return _error(str(e))
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if errors:
        return EXIT_USAGE
    result = grid((u for u in units if isinstance(u, Case)), config.operators or None, config.data_types or None)
    print(result.render())
    return EXIT_FAILURES if result.empty() else EXIT_OK


def _add_coverage_parser(cases: argparse._SubParsersAction) -> None:
    """`cases coverage`: the value-class x data-type grid, per operator, of the cases a run would select."""
    from .run.options import SELECTION_OPTIONS, add_cli_options

    cov = cases.add_parser(
        "coverage",
        help="which value classes of each operator's parameters (padding values, strides, offsets, sizes, axes, "
        "counts) the selection holds, in each data type",
        description="One table per operator: a row per value class, a column per data type, each cell the number "
        "of valid cases holding it ('.': none; '-': the class cannot occur in that type). Exit 0 when every cell "
        "is covered, 1 when one is not, 2 on bad input.",
    )
    add_cli_options(cov, SELECTION_OPTIONS)  # the same selection as `run` and `cases list`
    cov.set_defaults(func=_cases_coverage)


def _cases_generate(args: argparse.Namespace) -> int:
    from .cases.generation.corpus import COMMITTED_PER_OPERATOR, corpus_files, generate_corpus
    from .run.config import UsageError
    from .support.outputs import CORPUS, Output, check_outputs

    if args.count is None and args.per_operator is None:
        args.per_operator = COMMITTED_PER_OPERATOR
    out = Path(args.out)
    try:
        check_outputs([Output("--out", out, CORPUS, files=corpus_files())])
    except UsageError as e:
        return _error(str(e))
    try:
        written = generate_corpus(seed=args.seed, out_dir=out, count=args.count, per_operator=args.per_operator)
    except OSError as e:
        return _error(f"--out: cannot write in {out}: {e.strerror or e}")
    for path in written:
        print(path)
    return EXIT_OK


def _setup(args: argparse.Namespace) -> int:
    from .backends.directml.setup import run_setup

    return run_setup(install=args.install, directml_versions=tuple(dict.fromkeys(args.directml_version or ())))


def _backends(args: argparse.Namespace) -> int:
    from .backends.registry import backend_names, load_backend

    for name in backend_names():
        try:
            backend = load_backend(name)
            caps = backend.capabilities()
        except Exception as e:  # a backend that cannot load here is listed with why, not hidden
            print(f"{name}: cannot load: {type(e).__name__}: {e}")
            continue
        versions = ", ".join(f"{k} {v}" for k, v in backend.versions().items())
        max_jobs = f"; at most {type(backend).max_jobs} at once" if type(backend).max_jobs else ""
        print(
            f"{name}: {versions or 'no versions reported'}\n"
            f"  operators {', '.join(sorted(caps.operators))}; {len(caps.data_types)} data types "
            f"({', '.join(sorted(d.value for d in caps.data_types))}); ranks {min(caps.ranks)}-{max(caps.ranks)}; "
            f"padding modes {', '.join(sorted(caps.padding_modes))}; feature level {caps.feature_level}; "
            f"invalid descriptors {'checked' if caps.checks_invalid_descriptors else 'not observable (U-ALL-2)'}"
            f"{max_jobs}"
        )
    return EXIT_OK


def _schema(args: argparse.Namespace) -> int:
    """Print a format's JSON Schema, or validate files against it (exit 0 all valid, 1 any not)."""
    from .support.formats import schema, validate_file

    if not args.validate:
        print(json.dumps(schema(args.format), indent=2))
        return EXIT_OK
    invalid = 0
    for path in args.validate:
        errors = validate_file(args.format, path)
        for error in errors[:MAX_LISTED_FAILURES]:
            print(error, file=sys.stderr)
        if len(errors) > MAX_LISTED_FAILURES:
            print(f"{path}: ... and {len(errors) - MAX_LISTED_FAILURES} more", file=sys.stderr)
        if errors:
            invalid += 1
        else:
            print(f"{path}: valid {args.format} file")
    if invalid:
        print(f"{invalid} of {len(args.validate)} file(s) are not valid {args.format} files", file=sys.stderr)
    return EXIT_FAILURES if invalid else EXIT_OK


# --- the parser: one function per subcommand -----------------------------------------------------


def _add_run(sub) -> None:
    from .run.options import add_cli_options

    run = sub.add_parser("run", help="run the suite on a backend; write results and the HTML report")
    add_cli_options(run)
    run.set_defaults(func=_run)


def _add_report(sub) -> None:
    from .run.options import PATH_TYPE

    rep = sub.add_parser(
        "report",
        help="render the HTML report from results files (shards of one run are merged; other runs side by side)",
    )
    rep.add_argument("results", nargs="+", type=PATH_TYPE)
    rep.add_argument(
        "-o",
        "--output",
        type=PATH_TYPE,
        default="reports/report.html",
        help="never a results file; an existing file only if it is a report. Default: %(default)r",
    )
    rep.add_argument(
        "--junit-xml",
        type=PATH_TYPE,
        metavar="FILE",
        help="also write the results as JUnit XML (one testcase per case)",
    )
    rep.add_argument(
        "--no-fail",
        action="store_true",
        help="exit 0 once the report is written, whatever the verdict (without it: as `run` exits)",
    )
    rep.set_defaults(func=_report)


def _add_baseline(sub) -> None:
    from .run.options import PATH_TYPE

    base = sub.add_parser(
        "baseline",
        help="write an expectations file waiving a run's failing cases (each in the category it had)",
    )
    base.add_argument("results", nargs="+", type=PATH_TYPE, metavar="RESULTS.jsonl")
    base.add_argument(
        "-o", "--output", required=True, type=PATH_TYPE, metavar="FILE", help="the expectations file to write"
    )
    base.add_argument(
        "--force", action="store_true", help="replace an expectations file an earlier `baseline` wrote (nothing else)"
    )
    base.set_defaults(func=_baseline)


def _add_history(sub) -> None:
    from .run.options import COUNT_TYPE, PATH_TYPE

    hi = sub.add_parser(
        "history",
        help="the cases whose category changed across runs of one backend (driver builds, DirectML versions)",
        description="Reads results files only (shards of one run are merged). Lists each case whose category "
        "changed, with its category in every run, the first run where it changed, and a candidate-flake mark for "
        "a case that flips back and forth; counts per operator and data type. A case missing from a run is "
        "absent there, not a change. Exit 0 when written, 2 on bad input (an unreadable results file, fewer "
        "than 2 runs, runs of several backends).",
    )
    hi.add_argument("results", nargs="+", type=PATH_TYPE, metavar="RESULTS.jsonl")
    hi.add_argument("-o", "--output", type=PATH_TYPE, metavar="FILE", help="also write the history as an HTML page")
    hi.add_argument(
        "--order",
        choices=("time", "label", "given"),
        default="time",
        help="the runs by their header's start time, by --label (numbers in it compared as numbers: build-9 "
        "before build-10), or as given. Default: %(default)r",
    )
    hi.add_argument(
        "--limit",
        type=COUNT_TYPE,
        default=40,
        help="changed cases listed on the terminal (0: all; the page lists them all). Default: %(default)r",
    )
    hi.set_defaults(func=_history)


def _add_expectations(sub) -> None:
    from .run.options import PATH_TYPE

    ex = sub.add_parser("expectations", help="check an expectations file").add_subparsers(
        dest="expectations_command", required=True
    )
    li = ex.add_parser(
        "lint",
        help="every waiver names a case of the full profile, has a tracker link and a valid expires date",
        description="Exit 0 when every file is clean, 1 listing each problem with its entry, 2 on a malformed file.",
    )
    li.add_argument("files", nargs="+", type=PATH_TYPE, metavar="FILE")
    li.add_argument("--allow-untracked", action="store_true", help="do not require a tracker link on each waiver")
    li.set_defaults(func=_lint)


def _add_package(sub) -> None:
    from .run.options import PATH_TYPE

    pk = sub.add_parser(
        "package",
        help="bundle one run (every shard's results, the expectations applied, the report, the suite's hashes and "
        "the run's identity) into a zip with a SHA-256 manifest",
        description="Exit 0 when written (a quick, stress or filtered run is stamped 'not valid for conformance'), "
        "2 when it cannot be packaged (a missing shard, a file that is not a results file, an output that is one).",
    )
    pk.add_argument(
        "results", nargs="+", type=PATH_TYPE, metavar="RESULTS.jsonl", help="the run's results file, or all its shards"
    )
    pk.add_argument("-o", "--output", required=True, type=PATH_TYPE, metavar="NAME.zip")
    pk.add_argument(
        "--expectations",
        type=PATH_TYPE,
        metavar="FILE",
        help="the expectations file the run applied, where it is now (when not at the path the run read it from)",
    )
    pk.add_argument("--force", action="store_true", help="replace a package this suite wrote (nothing else)")
    pk.set_defaults(func=_package)


def _add_verify(sub) -> None:
    from .run.options import PATH_TYPE

    vf = sub.add_parser(
        "verify",
        help="check a conformance package offline against its manifest and the installed suite; print its statement",
        description="Exit 0 valid, 1 invalid (each problem listed, naming the file), 2 not a readable package.",
    )
    vf.add_argument("package", type=PATH_TYPE, metavar="NAME.zip")
    vf.set_defaults(func=_verify)


def _add_explain(sub) -> None:
    from .run.options import COUNT_TYPE, PATH_TYPE, SEED_TYPE

    exp = sub.add_parser("explain", help="the oracle's per-element derivation of a case")
    exp.add_argument("case_id", metavar="CASE_ID_OR_FILE", help="a case id (corpus or generated), or a case file")
    exp.add_argument("--cases", action="append", type=PATH_TYPE, metavar="PATH")
    exp.add_argument("--seed", type=SEED_TYPE, default=0)
    exp.add_argument("--limit", type=COUNT_TYPE, default=64)
    exp.add_argument("--all", action="store_true")
    exp.set_defaults(func=_explain)


def _add_cases(sub) -> None:
    from .run.options import PATH_TYPE, POSITIVE_COUNT_TYPE, SEED_TYPE, SELECTION_OPTIONS, add_cli_options

    cases = sub.add_parser("cases", help="list or generate cases").add_subparsers(dest="cases_command", required=True)
    lst = cases.add_parser(
        "list", help="case ids, operator, data type, rank, outcome, clauses: a run's selection previewed"
    )
    add_cli_options(lst, SELECTION_OPTIONS)  # the same options, types and help as `run`
    lst.add_argument("--clause", default=None, help="only cases exercising this clause (or breaking it)")
    lst.add_argument("--tag", default=None, help="a tag or an errata id")
    lst.set_defaults(func=_cases_list)
    _add_coverage_parser(cases)
    gen = cases.add_parser("generate", help="write a frozen corpus of generated cases, deterministically")
    gen.add_argument(
        "--seed",
        type=SEED_TYPE,
        default=2026,
        help="the committed corpus uses 2026 (runs generate from 0). Default: %(default)r",
    )
    amount = gen.add_mutually_exclusive_group()
    amount.add_argument(
        "--per-operator",
        type=POSITIVE_COUNT_TYPE,
        default=None,
        help="cases of each operator, >= 1 (the committed corpus: 120; an operator's file then does not change "
        "when another operator is added). Default: 120 unless --count is given",
    )
    amount.add_argument("--count", type=POSITIVE_COUNT_TYPE, default=None, help="cases in all, round-robin, >= 1")
    gen.add_argument("--out", type=PATH_TYPE, default="cases/generated", help="Default: %(default)r")
    gen.set_defaults(func=_cases_generate)


def _add_setup(sub) -> None:
    from .run.options import DIRECTML_VERSION_TYPE

    st = sub.add_parser("setup", help="prepare this machine for a backend (today: directml)")
    st.add_argument("target", choices=("directml",))
    st.add_argument(
        "--install",
        action="store_true",
        help="also install the Debian packages it needs (as root): wine64, mingw-w64, xvfb, Mesa",
    )
    st.add_argument(
        "--directml-version",
        action="append",
        type=DIRECTML_VERSION_TYPE,
        metavar="VERSION",
        help="also fetch this DirectML release (e.g. 1.13.1; repeatable) beside the default DirectML.dll, from the "
        "onnxruntime-directml wheel that ships it, and check it on the device: then `dml-conformance run --backend "
        "directml --directml-version VERSION` runs it. An unknown version lists the known ones",
    )
    st.set_defaults(func=_setup)


def _add_repro(sub) -> None:
    from .repro.command import add_parser

    add_parser(sub)


def _add_backends(sub) -> None:
    bk = sub.add_parser("backends", help="installed backends and what each can run")
    bk.set_defaults(func=_backends)


def _add_schema(sub) -> None:
    from .run.options import PATH_TYPE

    sc = sub.add_parser(
        "schema",
        help="print the JSON Schema of a file format (cases/README.md), or validate files against it",
        description="Without --validate, print the schema. With it, validate each file (a case file; every "
        "line of a results file; an expectations file): exit 0 if all are valid, 1 if any is not.",
    )
    sc.add_argument("format", choices=("case", "results", "expectations"))
    sc.add_argument("--validate", nargs="+", type=PATH_TYPE, metavar="FILE", default=None)
    sc.set_defaults(func=_schema)


# The subcommands in the order `--help` lists them.
SUBCOMMANDS = (
    _add_run,
    _add_report,
    _add_baseline,
    _add_history,
    _add_expectations,
    _add_package,
    _add_verify,
    _add_explain,
    _add_cases,
    _add_setup,
    _add_repro,
    _add_backends,
    _add_schema,
)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line (the documentation renders its CLI reference from this function)."""
    parser = argparse.ArgumentParser(
        prog="dml-conformance",
        description=__doc__.splitlines()[0],
        epilog="Exit codes: 0 passed; 1 failures or an unfinished run; 2 usage or input "
        "error; 3 nothing tested (UNTESTED). `run` and `report` give the same code for the same verdict "
        "(a report of one shard of two is INCOMPLETE: 1).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def _tolerant_streams() -> None:
    """A console or pipe in a narrow encoding (cp1252 on Windows) never stops a run: what it cannot show
    is written as escapes (a path or a backend's message in another script, the report's arrows)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a detached or closed stream: nothing to protect
                pass


# `run`'s workers, started by `main` before it builds its parser (whose imports take a few tenths of a second).
_EARLY: list[Spares] = []


def main(argv: list[str] | None = None) -> int:
    _tolerant_streams()
    if (sys.argv[1:] if argv is None else argv)[:1] == ["run"]:
        from .run.spawn import Spares, default_jobs

        _EARLY.append(Spares(default_jobs()))
    try:
        return _main(argv)
    finally:
        while _EARLY:  # `run --help`, a bad option: never taken
            _EARLY.pop().close()


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from .support.cache import CacheDirError

    try:
        return args.func(args)
    except CacheDirError as e:  # an environment variable the suite reads, wrong: named, whatever the command
        return _error(str(e))
    except KeyboardInterrupt:
        print("dml-conformance: interrupted", file=sys.stderr)
        return EXIT_FAILURES
    except BrokenPipeError:  # `cases list | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


# Set by `console`: this process ends when the command does, so what a run built is kept to the end, never freed.
_KEPT: list[object] | None = None


def console() -> None:
    """The `dml-conformance` command (and `python -m conformance.cli`): `main`, then an exit that frees nothing.

    A quick run's parent holds hundreds of thousands of objects (its cases, records and results); freeing them one
    by one, when `_run` returns and again as the interpreter shuts down, costs a few tenths of a second after the
    last line is printed, for a process about to end (mypy's console entry ends the same way).  Everything the
    command writes is closed by then; its two streams are flushed here.  `main` itself returns normally: tests and
    other callers in a process of their own keep it.
    """
    global _KEPT
    _KEPT = []
    from .support.processes import exit_now

    exit_now(main())


if __name__ == "__main__":
    console()

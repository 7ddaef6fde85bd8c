"""dml-conformance: the command line (run, report, explain, cases, backends).

Exit codes: 0 nothing failed; 1 the run has failures (fail, rejected, error, crash, timeout)
or did not finish; 2 usage or input error (bad arguments, malformed case or results files,
unknown backend, no case matching the filters).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

EXIT_OK, EXIT_FAILURES, EXIT_USAGE = 0, 1, 2
CORPUS_ERROR_PREFIX = "corpus-error-"  # ids the plugin gives malformed case files' items
SUITE_DIR = Path(__file__).resolve().parent / "suite"
DEFAULT_BACKEND = "onnxruntime-cpu"


def _error(message: str) -> int:
    print(f"dml-conformance: error: {message}", file=sys.stderr)
    return EXIT_USAGE


# --- run ---------------------------------------------------------------------------------------

def pytest_args(args: argparse.Namespace, results: Path, report: Path) -> list[str]:
    """The pytest command line a `run` amounts to (also what a vendor can paste into their own run)."""
    out = ["-q", "-p", "no:cacheprovider", "-c", str(SUITE_DIR / "pytest.ini"), "--rootdir", str(SUITE_DIR),
           "-rfE", "--dml-backend", args.backend, "--dml-profile", args.profile, "--dml-seed", str(args.seed),
           "--dml-results", str(results), "--dml-report", str(report), "--dml-timeout", str(args.timeout)]
    if args.feature_level:
        out += ["--dml-feature-level", args.feature_level]
    if args.operators:
        out += ["--dml-operators", args.operators]
    if args.data_types:
        out += ["--dml-data-types", args.data_types]
    if args.hypothesis_examples is not None:
        out += ["--dml-hypothesis-examples", str(args.hypothesis_examples)]
    if args.generated is not None:
        out += ["--dml-generated", str(args.generated)]
    if args.expectations:
        out += ["--dml-expectations", args.expectations]
    if args.no_known_issues:
        out.append("--dml-no-known-issues")
    if args.label:
        out += ["--dml-label", args.label]
    if args.dml_dll:
        out += ["--dml-dll", args.dml_dll]
    if args.adapter:
        out += ["--dml-adapter", args.adapter]
    for p in args.cases or ():
        out += ["--dml-cases", p]
    for c in args.case or ():
        out += ["--dml-case", c]
    if args.exitfirst:
        out.append("-x")
    return [*out, str(SUITE_DIR)]


def _run(args: argparse.Namespace) -> int:
    from .expectations import ExpectationsError, load_expectations
    from .plugin import BackendLoadError, backend_options, load_backend_spec, select_cases

    # Check what can be checked before starting pytest, so input errors say exactly what is wrong.
    try:
        load_backend_spec(args.backend, backend_options(args.dml_dll, args.adapter)).close()
    except BackendLoadError as e:
        return _error(f"--backend: {e}")
    if args.expectations:
        try:
            load_expectations(args.expectations)
        except ExpectationsError as e:
            return _error(f"--expectations: {e}")
    for p in args.cases or ():
        if not Path(p).exists():
            return _error(f"--cases: {p} does not exist")
    if args.case:
        # Cheap: filter the stored corpus and, if asked, the run-time generated set.
        cases, _, _ = select_cases(profile=args.profile, paths=args.cases, case_ids=args.case, seed=args.seed,
                                        generated=args.generated)
        if not cases:
            return _error(f"--case: no case matches {', '.join(args.case)} (profile {args.profile}, seed {args.seed}); "
                          "see `dml-conformance cases list`")
    out = Path(args.out)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    safe = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in args.backend)
    results = out / f"results-{safe}-{stamp}.jsonl"
    report = out / "report.html"
    command = [sys.executable, "-m", "pytest", *pytest_args(args, results, report)]
    rc = subprocess.call(command)
    if not results.exists():
        print(f"dml-conformance: pytest exited with {rc} before writing results", file=sys.stderr)
        return EXIT_USAGE
    from .report import write_report
    from .results import read_results

    run = read_results(results)
    if run.footer is None:
        # The pytest process died (crash or kill): render what it did, the in-flight case as a crash.
        write_report([run], report)
        for note in run.notes:
            print(f"dml-conformance: {note}", file=sys.stderr)
    from .report import device_line

    device = device_line(run.header.get("backend_versions") or {})
    print(f"results: {results}\nreport:  {report}\n" + (f"device:  {device}\n" if device else "") +
          f"verdict: {run.verdict()}")
    if rc in (4, 5) and run.footer is not None and not run.records:
        return EXIT_USAGE
    # Malformed case files: every good case still ran and is in the results; the input error
    # is named (file and JSON path) and the exit code says the input needs fixing.
    corpus_errors = [r for r in run.records if str(r.get("id", "")).startswith(CORPUS_ERROR_PREFIX)]
    for r in corpus_errors:
        print(f"dml-conformance: error: {r.get('reason')}", file=sys.stderr)
    if corpus_errors:
        return EXIT_USAGE
    return EXIT_OK if run.verdict() == "PASS" else EXIT_FAILURES


# --- report, explain, cases, backends ----------------------------------------------------------

def _report(args: argparse.Namespace) -> int:
    from .report import write_report
    from .results import ResultsFileError, read_results

    try:
        runs = [read_results(p) for p in args.results]
    except ResultsFileError as e:
        return _error(str(e))
    for run in runs:
        for note in run.notes:
            print(f"{run.path}: {note}", file=sys.stderr)
    print(write_report(runs, args.output))
    return EXIT_OK


def _find_case(case_id: str, paths, seed: int):
    from .plugin import select_cases

    for profile in ("quick", "full"):
        cases, _, _ = select_cases(profile=profile, paths=paths, case_ids=[case_id], seed=seed)
        if cases:
            return cases[0]
    return None


def _explain(args: argparse.Namespace) -> int:
    import oracle

    case = _find_case(args.case_id, args.cases, args.seed)
    if case is None:
        return _error(f"no case {args.case_id!r} in the corpus (or generated with seed {args.seed})")
    print(f"{case.id}: DML_{case.operator}, {case.data_type.value}, rank {case.rank}, FL {case.feature_level}")
    if not case.valid:
        try:
            oracle.validate(case.descriptor, case.feature_level)
        except oracle.InvalidDescriptor as e:
            print(f"invalid descriptor: {e}")
        return EXIT_OK
    if case.unspecified:
        print(f"unspecified (observed, not judged): {', '.join(case.unspecified)}")
    lines = oracle.explain(case.descriptor, list(case.inputs), case.feature_level)
    shown = lines if args.all or len(lines) <= args.limit else lines[: args.limit]
    print("\n".join(shown))
    if len(shown) < len(lines):
        print(f"... {len(lines) - len(shown)} more lines (--all)")
    return EXIT_OK


def _cases_list(args: argparse.Namespace) -> int:
    from .plugin import _csv, _operator, select_cases

    try:
        operators = _csv(_operator, "operators")(args.operators) if args.operators else None
    except ValueError as e:
        return _error(f"--operators: {e}")
    cases, errors, notes = select_cases(profile=args.profile, paths=args.cases, operators=operators, seed=args.seed,
                                        case_ids=args.case)
    for c in cases:
        if args.clause and args.clause not in c.clauses and c.expected.clause != args.clause:
            continue
        if args.tag and args.tag not in c.tags and args.tag not in c.unspecified:
            continue
        print(f"{c.id}\t{c.operator}\t{c.data_type.value}\trank {c.rank}\t{c.expected.outcome}\t{','.join(c.clauses)}")
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    for n in notes:
        print(f"note: {n}", file=sys.stderr)
    return EXIT_USAGE if errors else EXIT_OK


def _cases_generate(args: argparse.Namespace) -> int:
    from .generate import generate_corpus

    written = generate_corpus(seed=args.seed, count=args.count, out_dir=Path(args.out))
    for path in written:
        print(path)
    return EXIT_OK


def _setup(args: argparse.Namespace) -> int:
    from .backends.directml.setup import run_setup

    return run_setup(install=args.install)


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
        print(f"{name}: {versions or 'no versions reported'}\n"
              f"  operators {', '.join(sorted(caps.operators))}; {len(caps.data_types)} data types "
              f"({', '.join(sorted(d.value for d in caps.data_types))}); ranks {min(caps.ranks)}-{max(caps.ranks)}; "
              f"padding modes {', '.join(sorted(caps.padding_modes))}; feature level {caps.feature_level}; "
              f"invalid descriptors {'checked' if caps.checks_invalid_descriptors else 'not observable (U-ALL-2)'}")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dml-conformance", description=__doc__.splitlines()[0],
                                     epilog="Exit codes: 0 nothing failed; 1 failures or an unfinished run; "
                                            "2 usage or input error.")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the suite on a backend; write results and the HTML report")
    run.add_argument("--backend", default=DEFAULT_BACKEND, help="a registered name or module:Class. Default: %(default)r")
    run.add_argument("--out", default="reports", help="folder for results and report. Default: %(default)r")
    run.add_argument("--profile", choices=("quick", "full"), default="quick", help="Default: %(default)r")
    run.add_argument("--feature-level", default=None, help="the level the run targets. Default: the backend's")
    run.add_argument("--operators", default=None, help="comma-separated, e.g. SLICE1,PADDING")
    run.add_argument("--data-types", default=None, help="comma-separated, e.g. FLOAT32,UINT8")
    run.add_argument("--case", action="append", help="only this case id (repeatable; PREFIX* for a prefix)")
    run.add_argument("--cases", action="append", help="case files or folders instead of the packaged corpus")
    run.add_argument("--seed", type=int, default=0, help="Default: %(default)r")
    run.add_argument("--hypothesis-examples", type=int, default=None, help="per operator; 0 skips")
    run.add_argument("--generated", type=int, default=None, help="cases generated at run time")
    run.add_argument("--expectations", default=None, help="JSON waivers file")
    run.add_argument("--no-known-issues", action="store_true",
                     help="do not waive the backend's shipped known issues (conformance/known_issues/)")
    run.add_argument("--timeout", type=float, default=60.0, help="per case, seconds. Default: %(default)r")
    run.add_argument("--label", default=None, help="a name for this run in comparison grids")
    run.add_argument("--dml-dll", default=None, metavar="PATH",
                     help="directml backend: the DirectML.dll to test. Default: the pinned onnxruntime-directml "
                          "wheel's, fetched by `dml-conformance setup directml`")
    run.add_argument("--adapter", default=None, metavar="INDEX|NAME",
                     help="directml backend: the GPU, by index or part of its name. Default: the first")
    run.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    run.set_defaults(func=_run)

    rep = sub.add_parser("report", help="render the HTML report from results files (several: side by side)")
    rep.add_argument("results", nargs="+")
    rep.add_argument("-o", "--output", default="reports/report.html", help="Default: %(default)r")
    rep.set_defaults(func=_report)

    exp = sub.add_parser("explain", help="the oracle's per-element derivation of a case")
    exp.add_argument("case_id")
    exp.add_argument("--cases", action="append")
    exp.add_argument("--seed", type=int, default=0)
    exp.add_argument("--limit", type=int, default=64)
    exp.add_argument("--all", action="store_true")
    exp.set_defaults(func=_explain)

    cases = sub.add_parser("cases", help="list or generate cases").add_subparsers(dest="cases_command", required=True)
    lst = cases.add_parser("list", help="case ids, operator, data type, rank, outcome, clauses")
    lst.add_argument("--profile", choices=("quick", "full"), default="quick")
    lst.add_argument("--cases", action="append")
    lst.add_argument("--operators", default=None)
    lst.add_argument("--clause", default=None)
    lst.add_argument("--tag", default=None, help="a tag or an errata id")
    lst.add_argument("--case", action="append")
    lst.add_argument("--seed", type=int, default=0)
    lst.set_defaults(func=_cases_list)
    gen = cases.add_parser("generate", help="write a frozen corpus of generated cases, deterministically")
    gen.add_argument("--seed", type=int, default=2026, help="the committed corpus uses 2026 (runs generate from 0). Default: %(default)r")
    gen.add_argument("--count", type=int, default=3000, help="cases in all. Default: %(default)r")
    gen.add_argument("--out", default="cases/generated", help="Default: %(default)r")
    gen.set_defaults(func=_cases_generate)

    st = sub.add_parser("setup", help="prepare this machine for a backend (today: directml)")
    st.add_argument("target", choices=("directml",))
    st.add_argument("--install", action="store_true",
                    help="also install the Debian packages it needs (as root): wine64, mingw-w64, xvfb, Mesa")
    st.set_defaults(func=_setup)

    bk = sub.add_parser("backends", help="installed backends and what each can run")
    bk.set_defaults(func=_backends)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except FileNotFoundError as e:
        return _error(str(e))
    except KeyboardInterrupt:
        print("dml-conformance: interrupted", file=sys.stderr)
        return EXIT_FAILURES


if __name__ == "__main__":
    sys.exit(main())

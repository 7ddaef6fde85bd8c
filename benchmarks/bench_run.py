"""Where a quick run's time goes: python benchmarks/bench_run.py [--backend NAME] [--repeat N] [--jobs N].

    python benchmarks/bench_run.py --against c6dcc29 [--backends oracle,onnxruntime-cpu,...] [--repeat 5]
        [--profile full]

With --against REV: this checkout side by side with another revision of the suite, installed once into its own
virtual environment (`git archive REV`, a venv, `pip install .`; kept in the benchmark's cache folder,
DML_CONFORMANCE_CACHE/bench/rev-COMMIT, keyed by the commit).  The two take turns (the order alternates per
round) and the medians of --repeat rounds are printed, with the ratio (this checkout's cases/s over REV's):

- the whole `dml-conformance run --profile quick` (or --profile's) per backend as a user starts it (start-up included, the
  generation cache warm, the report rendered), cases/s, and the largest process's and the whole run's peak
  memory; each backend's time over onnxruntime-cpu's;
- where the time goes, each revision's own code in one process (`PHASES`): start-up (imports in a fresh
  process), selection, execution per backend (the time spent in the backend's methods), judging (the rest of
  a case's path: building, judging, making the record), recording (sending work and records between processes
  and writing the results lines) and the report (rendering the whole run's results).

Without --against, as below (this checkout only),

- the parts, measured in this process: imports, stored-case loading, run-time generation
  from a cold cache and from a warm one, worker start-up (first backend constructed, all
  constructed), case execution through the worker pool (cases/s: submit to last record,
  records written to a results file as the CLI does), report rendering;
- the whole `dml-conformance run` as a user starts it (a subprocess, start-up included),
  with the generation cache warm and cold;
- looking up one case id: `run --case ID` and `explain ID`, whole commands, cache warm.

Not a timed test: numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _timed(rows: dict[str, list[float]], name: str, fn):
    t = time.perf_counter()
    result = fn()
    rows[name].append(time.perf_counter() - t)
    return result


def _command(rows: dict[str, list[float]], name: str, args: list[str], env: dict[str, str]) -> str:
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "conformance.cli", *args], capture_output=True, text=True, env=env)
    rows[name].append(time.perf_counter() - t)
    if proc.returncode not in (0, 1, 2):  # explain NOPE is 2 by design
        print(proc.stdout[-1000:], proc.stderr[-2000:], file=sys.stderr)
    return proc.stdout


def one_round(args: argparse.Namespace, rows: dict[str, list[float]], counts: dict[str, int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        os.environ["DML_CONFORMANCE_GENERATED"] = str(cache)
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", "import conformance.cli, conformance.run.session, conformance.report.html"],
            check=True,
        )
        rows["python start-up and imports (a fresh process)"].append(time.perf_counter() - t)
        from conformance.report.html import render
        from conformance.run.config import RunConfig
        from conformance.run.pool import Pool
        from conformance.run.results import ResultsWriter
        from conformance.run.selection import generated_cases, load_stored, select, stored_roots
        from conformance.run.session import Session

        stored = _timed(rows, "load stored cases", lambda: load_stored(stored_roots("quick", None)).cases)
        counts["stored"] = len(stored)
        _timed(
            rows,
            f"generate {args.generated} cases (cold cache: generate and save)",
            lambda: generated_cases(0, args.generated),
        )
        generated = _timed(
            rows, f"generate {args.generated} cases (warm cache: read)", lambda: generated_cases(0, args.generated)
        )
        config = RunConfig.from_values(
            {"backend": args.backend, "generated": args.generated, "jobs": args.jobs, "out": tmp, "report": "none"}
        )
        session = Session(config)
        works = session.ordered()
        counts["units"] = len(works)
        counts["cases"] = len(stored) + len(generated)
        pool = Pool(args.backend, {}, jobs=session.jobs, timeout=60)
        counts["jobs"] = session.jobs
        t = time.perf_counter()
        pool.start()
        rows["worker start-up: first backend constructed"].append(time.perf_counter() - t)
        while not all(w.ready for w in pool.workers):
            pool.poll(0.01)
        rows["worker start-up: all backends constructed"].append(time.perf_counter() - t)
        (Path(tmp) / "r.jsonl").touch()
        writer = ResultsWriter(Path(tmp) / "r.jsonl")
        writer.header(session.header())
        records = []
        t = time.perf_counter()
        pool.submit(works)
        while pool.busy:
            for record in pool.poll(0.1, 0.05):
                session.expectations.apply(record)
                writer.record(record)
                records.append(record)
        elapsed = time.perf_counter() - t
        rows["execute every unit (workers + parent writing records)"].append(elapsed)
        live = sum(r.hypothesis for r in records)
        rows["cases/s of case execution (incl. live examples)"].append(
            (len(records) - live + live * args.hypothesis) / elapsed
        )
        pool.close()
        writer.close()
        results = session.finish()
        results.records = records
        html = _timed(rows, "render the report", lambda: render([results]))
        counts["report KiB"] = len(html) // 1024
        env = {**os.environ, "DML_CONFORMANCE_GENERATED": str(cache)}
        out = _command(
            rows,
            "whole `dml-conformance run`, start-up included (warm cache)",
            ["run", "--backend", args.backend, "--out", tmp, "--generated", str(args.generated)],
            env,
        )
        counts["verdict"] = out.strip().splitlines()[-1] if out else "?"
        cold = {**env, "DML_CONFORMANCE_GENERATED": str(Path(tmp) / "cold")}
        _command(
            rows,
            "whole `dml-conformance run`, start-up included (cold cache)",
            ["run", "--backend", args.backend, "--out", tmp, "--generated", str(args.generated)],
            cold,
        )
        case_id = generated[len(generated) // 2].id
        lookup = RunConfig.from_values({"backend": args.backend, "case": [case_id]})
        _timed(rows, f"select one case by id (--case {case_id}, in-process)", lambda: select(lookup))
        generated_cases(0, 20_000)  # what `explain` searches: the full profile's generation, cached
        _command(
            rows,
            f"whole `dml-conformance run --case {case_id}` (warm cache)",
            ["run", "--backend", args.backend, "--out", tmp, "--case", case_id],
            env,
        )
        _command(rows, f"whole `dml-conformance explain {case_id}` (warm cache)", ["explain", case_id], env)
        _command(
            rows,
            "whole `dml-conformance explain NOPE` (warm cache: every stored and 20,000 generated ids)",
            ["explain", "NOPE"],
            env,
        )


# --- side by side with another revision --------------------------------------------------------------


def install_revision(rev: str, directml: bool) -> Path:
    """The Python of a virtual environment holding the suite at `rev` (installed once, kept, keyed by the commit)."""
    from conformance.support.cache import cache_dir

    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"], capture_output=True, text=True
    ).stdout.strip()
    if not commit:
        sys.exit(f"--against: {rev} is not a commit of {ROOT}")
    home = cache_dir() / "bench" / f"rev-{commit[:12]}"
    python = home / "venv" / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    if not (home / "ready").exists():
        import io
        import tarfile

        print(f"installing {rev} ({commit[:12]}) into {home} (once)", file=sys.stderr)
        shutil.rmtree(home, ignore_errors=True)
        (home / "src").mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(home / "src", filter="data")
        subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", str(home / "src")], check=True)
        (home / "ready").write_text(commit)
    if directml and not (home / "directml-ready").exists():  # the native runner, built into that install
        subprocess.run([str(python), "-m", "conformance.cli", "setup", "directml"], check=True, cwd=home)
        (home / "directml-ready").write_text(commit)
    return python


# Run by each revision's own Python: where one process's time goes on the quick profile, its own code throughout.
PHASES = r"""
import json, pickle, sys, time
from collections import defaultdict
backend_name, results_path = sys.argv[1], sys.argv[2]
spent = defaultdict(float)
def timed(name, fn):
    t = time.perf_counter(); out = fn(); spent[name] += time.perf_counter() - t; return out
from conformance.run.config import RunConfig
from conformance.run.selection import select
selection = timed("selection", lambda: select(RunConfig.from_values({"backend": backend_name})))
from oracle import FeatureLevel
from conformance.backends.registry import resolve_backend
from conformance.run import dispatch
from conformance.run.execute import prefetch
from conformance.run.units import LiveUnit
backend = timed("backend start-up", lambda: resolve_backend(backend_name).factory())
for method in ("run", "run_many", "check_descriptor", "check_many", "run_graphs", "unsupported_reason"):
    original = getattr(backend, method, None)
    if original is not None:
        def wrapper(*a, _original=original, **k):
            t = time.perf_counter()
            try:
                return _original(*a, **k)
            finally:
                spent["execution (in the backend)"] += time.perf_counter() - t
        setattr(backend, method, wrapper)
try:  # a worker sends what it found, and the parent completes the record from its case
    from conformance.run.units import completed, outcome_of
except ImportError:  # a revision whose worker sends each whole record
    completed = outcome_of = None
level = FeatureLevel.parse(str(backend.capabilities().feature_level))
works = [w for w in selection.works if not isinstance(w.unit, LiveUnit)]
size = max(32, getattr(backend, "batch_size", 1))
records = []
t = time.perf_counter()
for k in range(0, len(works), size):
    batch = timed("recording", lambda: pickle.loads(pickle.dumps(works[k : k + size], protocol=pickle.HIGHEST_PROTOCOL)))
    found = prefetch(batch, backend, level, None)
    if outcome_of is None:
        records += [dispatch.execute(w, backend, level, prefetched=found.get(w.index)) for w in batch]
        continue
    done = [(w.index, outcome_of(dispatch.execute(w, backend, level, prefetched=found.get(w.index), facts=False))) for w in batch]
    units = {w.index: w for w in works[k : k + size]}
    records += timed("recording", lambda: [completed(units[i], o) for i, o in pickle.loads(pickle.dumps(done, protocol=pickle.HIGHEST_PROTOCOL))])
spent["judging (the rest of each case's path)"] = (
    time.perf_counter() - t - spent["execution (in the backend)"] - spent["recording"]
)
def encode():
    for r in records:
        if outcome_of is None:
            pickle.loads(pickle.dumps(r, protocol=pickle.HIGHEST_PROTOCOL))
        r.to_line()
timed("recording", encode)
backend.close()
from conformance.run.results import read_results
from conformance.report.html import render
results = read_results(results_path)
timed("report", lambda: render([results]))
print(json.dumps({"cases": len(works), **spent}))
"""


def whole_run(python: Path, backend: str, profile: str = "quick") -> dict:
    """`dml-conformance run --profile PROFILE` with `python`'s suite, as a user starts it: wall, cases/s, peak
    memory."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_directml import descendants, rss_mb

    out = Path(tempfile.mkdtemp(prefix="bench-run-"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [str(python), "-m", "conformance.cli", "run", "--backend", backend, "--profile", profile, "--out", "."]
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, cwd=out, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak_one = peak_all = 0.0
    while True:
        # wait4: the run's CPU time (its own and its workers', which it waits for): steadier than wall on a busy machine
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            break
        pids = descendants(proc.pid)
        peak_one = max([peak_one, *(rss_mb(p, "VmHWM:") for p in pids)])
        peak_all = max(peak_all, sum(rss_mb(p, "VmRSS:") for p in pids))
        time.sleep(0.05)
    wall = time.perf_counter() - t0
    results = next(out.glob("results-*.jsonl"), None)
    if proc.returncode not in (0, 1) or results is None:
        raise RuntimeError(f"{' '.join(command)} exited {proc.returncode}: {proc.stderr.read()[-2000:]}")  # type: ignore[union-attr]
    cases = results.read_bytes().count(b'{"kind":"case"')
    return {
        "wall": wall,
        "cases/s": cases / wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_one": peak_one,
        "peak_all": peak_all,
        "results": results,
    }


def phases(python: Path, backend: str, results: Path) -> dict[str, float]:
    t = time.perf_counter()
    subprocess.run([str(python), "-c", "import conformance.cli"], check=True, cwd=results.parent)
    spent = {"start-up (a fresh process's imports)": time.perf_counter() - t}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [str(python), "-c", PHASES, backend, str(results)], capture_output=True, text=True, cwd=results.parent, env=env
    )
    if proc.returncode:
        print(f"phases of {backend} with {python}: {proc.stderr[-1500:]}", file=sys.stderr)
        return spent
    return {**spent, **json.loads(proc.stdout.strip().splitlines()[-1])}


def side_by_side(args: argparse.Namespace) -> None:
    backends = args.backends.split(",")
    directml = any(b in ("directml", "onnxruntime-directml") for b in backends)
    this = install_revision(args.revision, directml) if args.revision else Path(sys.executable)
    pythons = {args.revision or "this checkout": this, args.against: install_revision(args.against, directml)}
    runs: dict[tuple[str, str], list[dict]] = defaultdict(list)
    parts: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for python in pythons.values():  # warm each revision's generation cache (its own code key)
        shutil.rmtree(whole_run(python, backends[0], args.profile)["results"].parent, ignore_errors=True)
    for i in range(args.repeat):
        order = list(pythons.items()) if i % 2 == 0 else list(reversed(pythons.items()))
        for backend in backends:
            for name, python in order:
                run = whole_run(python, backend, args.profile)
                runs[name, backend].append(run)
                if i < args.phase_rounds and args.profile == "quick":
                    parts[name, backend].append(phases(python, backend, run["results"]))
                shutil.rmtree(run["results"].parent, ignore_errors=True)
        print(f"round {i + 1}/{args.repeat} done ({load()})", file=sys.stderr)
    new, old = pythons
    print(
        f"{args.profile} profile end to end, this checkout vs {args.against}, medians of {args.repeat} rounds ({load()})"
    )
    if not args.revision and sys.dont_write_bytecode:
        # The installed revision's modules were compiled by pip; this checkout's are compiled on every import then.
        print(
            "  note: PYTHONDONTWRITEBYTECODE is set, so this checkout compiles every module it imports in each process "
            f"(a few tenths of a second a run) and {args.against} does not; --revision HEAD times both installed"
        )
    for backend in backends:
        for name in pythons:
            m = {
                k: statistics.median(r[k] for r in runs[name, backend])
                for k in ("wall", "cases/s", "cpu", "peak_one", "peak_all")
            }
            cpu = (
                statistics.median(r["wall"] for r in runs[name, "onnxruntime-cpu"])
                if runs[name, "onnxruntime-cpu"]
                else None
            )
            print(
                f"  {backend:21s} {name:14s} {m['wall']:6.2f} s {m['cases/s']:7.0f} cases/s"
                + (f" ({m['wall'] / cpu:3.1f}x onnxruntime-cpu's time)" if cpu else "")
                + f"; CPU {m['cpu']:5.1f} s; peak {m['peak_one']:4.0f} MB largest process, {m['peak_all']:4.0f} MB all"
            )
        speedup = statistics.median(r["cases/s"] for r in runs[new, backend]) / statistics.median(
            r["cases/s"] for r in runs[old, backend]
        )
        cpu_ratio = statistics.median(r["cpu"] for r in runs[old, backend]) / statistics.median(
            r["cpu"] for r in runs[new, backend]
        )
        print(f"  {backend:21s} cases/s: {speedup:.2f}x {args.against}'s; CPU time: {cpu_ratio:.2f}x less")
    if args.profile != "quick":
        return
    print(f"where the time goes (one process, each revision's own code; medians of {args.phase_rounds} round(s)), s:")
    for backend in backends:
        names = list(dict.fromkeys(k for name in pythons for p in parts[name, backend] for k in p if k != "cases"))
        print(f"  {backend}: {'':40s}" + "".join(f"{n:>16s}" for n in pythons))
        for key in names:
            cells = [
                statistics.median(p.get(key, float("nan")) for p in parts[name, backend])
                if parts[name, backend]
                else float("nan")
                for name in pythons
            ]
            print(f"    {key:48s}" + "".join(f"{c:16.2f}" for c in cells))


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="onnxruntime-cpu")
    parser.add_argument("--generated", type=int, default=5000)
    parser.add_argument("--hypothesis", type=int, default=20, help="live examples per operator (the quick profile's)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--against", metavar="REV", help="a git revision to time side by side with this checkout")
    parser.add_argument(
        "--revision", metavar="REV", help="with --against: time REV (installed) instead of this checkout"
    )
    parser.add_argument("--backends", default="onnxruntime-cpu,oracle", help="with --against: comma-separated")
    parser.add_argument("--profile", default="quick", help="with --against: the profile of the whole runs")
    parser.add_argument("--phase-rounds", type=int, default=1, help="with --against: rounds that also time the phases")
    args = parser.parse_args()
    if args.against:
        side_by_side(args)
        return
    rows: dict[str, list[float]] = defaultdict(list)
    counts: dict[str, object] = {}
    for i in range(args.repeat):
        one_round(args, rows, counts)
        print(f"round {i + 1}/{args.repeat} done", file=sys.stderr)
    print(
        f"backend {args.backend}, {counts['cases']} cases ({counts['stored']} stored) + live Hypothesis, "
        f"{counts['units']} units, {counts['jobs']} workers, report {counts['report KiB']} KiB; "
        f"{counts['verdict']}; median of {args.repeat} (min-max)"
    )
    for name, values in rows.items():
        median = statistics.median(values)
        unit = "     " if "cases/s" in name else " s   "
        print(f"{median:9.2f}{unit}{name}  ({min(values):.2f}-{max(values):.2f})")


if __name__ == "__main__":
    main()

"""Benchmark real DirectML: start-up, first result, cases/s, peak memory, batched and one by one.  Prints figures.

    python benchmarks/bench_directml.py [--backend directml|onnxruntime-directml|both] [--cases 1000] [--seed 0]
                                        [--repeat 3] [--no-end-to-end] [--before CHECKOUT]

`directml`, in one run on this machine:
- through the run layer in this process, as a worker runs cases (oracle comparison included): one request
  per case (`--one-by-one`, the runner as it was before batches) and in batches (the default), with 1, 2 and 4
  threads compiling a batch's operators; each on a fresh runner.  Start-up is the backend's constructor (Wine,
  the D3D12 device, DirectML, the descriptor heap, the self-test); the first result is one case after it;
  cases/s counts the rest.  Both ways must give the same verdict on every case: the line says whether they did.
- end to end: `dml-conformance run --profile quick` on `directml` (batched and `--one-by-one`) and on
  `onnxruntime-cpu`, taking turns, `--repeat` times each; medians of the wall time, the first result (its line
  in the results file), cases/s after it, and the peak memory of the run's processes (the largest one, and
  all of them together); with `--before`, an earlier commit's code too (the whole "before" of a change).
`onnxruntime-directml`: ONNX Runtime's DirectML provider on the native worker, the cases in batched sessions
(`run_many`), before and after descriptor heaps were recycled (bench_ort_directml.py: start-up, first result,
cases/s, sessions, heaps, the worker's peak memory; that script also runs the quick profile end to end).
Peak memory is a process's high-water mark (VmHWM; Linux).  The machine's load average is printed beside the
figures: on a shared machine they move with it.  Needs `dml-conformance setup directml`.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def vm_hwm_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def stack_line(versions: dict) -> str:
    line = f"DirectML {versions['directml']} on {versions['adapter']}"
    if "wine" in versions:
        line += f"; Wine {versions['wine']}, Mesa {versions['mesa'].split()[0]}"
    return line


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


# --- directml through the run layer ---------------------------------------------------------------


def run_cases(cases, *, one_by_one: bool, threads: int = 1) -> dict:
    """One fresh backend: start-up, first result, the rest as a worker runs them; figures and verdicts."""
    from conformance.backends.directml import DirectMLBackend
    from conformance.judging.expectations import known_issues
    from conformance.run.execute import execute_case, prefetch
    from conformance.run.units import Work

    waivers = known_issues("directml")
    works = [Work(i, c) for i, c in enumerate(cases)]
    t0 = time.perf_counter()
    backend = DirectMLBackend(one_by_one=one_by_one)
    backend.compile_threads = threads
    backend.time_limit = 60.0  # the run's default --timeout
    started = time.perf_counter() - t0
    verdicts = [waivers.apply(execute_case(works[0], backend, None, prefetch(works[:1], backend, None).get(0)))]
    first = time.perf_counter() - t0
    t1 = time.perf_counter()
    for k in range(1, len(works), backend.batch_size):
        chunk = works[k : k + backend.batch_size]
        answers = prefetch(chunk, backend, None)
        verdicts += [waivers.apply(execute_case(w, backend, None, answers.get(w.index))) for w in chunk]
    elapsed = time.perf_counter() - t1
    assert backend.process is not None and backend.process._proc is not None
    figures = {
        "started": started,
        "first": first,
        "rate": (len(works) - 1) / elapsed,
        "runner_mb": vm_hwm_mb(backend.process._proc.pid) or float("nan"),
        "verdicts": [(r.id, r.category.value, r.reason) for r in verdicts],
        "stats": dict(backend.stats),
        "versions": backend.versions(),
    }
    backend.close()
    return figures


def bench_native(cases) -> None:
    print(f"directml: {len(cases)} cases through the run layer, each way on a fresh runner ({load()})")
    ways = [("one by one (before)", True, 1), *((f"batched, {n} compile thread(s)", False, n) for n in (1, 2, 4))]
    results = {}
    for name, one_by_one, threads in ways:
        results[name] = r = run_cases(cases, one_by_one=one_by_one, threads=threads)
        print(
            f"  {name:32s} start-up {r['started']:5.2f} s, first result {r['first']:5.2f} s, "
            f"{r['rate']:6.0f} cases/s after it, runner peak {r['runner_mb']:5.0f} MB; "
            f"{r['stats']['batches']} batches, {r['stats']['requests']} requests alone"
        )
    before = results[ways[0][0]]["verdicts"]
    same = all(r["verdicts"] == before for r in results.values())
    print(f"  {stack_line(results[ways[0][0]]['versions'])}")
    print(f"  verdicts: {dict(Counter(c for _, c, _ in before))}; the same case by case every way: {same}")


# --- end to end -----------------------------------------------------------------------------------


def descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)] = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        found |= more
        grew = bool(more)
    return found


def rss_mb(pid: int, field: str) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def end_to_end(backend: str, *extra: str, checkout: Path = ROOT) -> dict:
    """`dml-conformance run --profile quick` once (the code of `checkout`): wall, first result, cases/s after it,
    peak memory."""
    with tempfile.TemporaryDirectory() as out:
        command = [sys.executable, "-m", "conformance.cli", "run", "--backend", backend, "--profile", "quick"]
        command += [*extra, "--out", out, "--report", "none"]
        env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONDONTWRITEBYTECODE": "1"}
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            command, cwd=checkout, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        first = last = None
        lines = 0
        peak_one = peak_all = 0.0
        while proc.poll() is None:
            pids = descendants(proc.pid)
            peak_one = max([peak_one, *(rss_mb(p, "VmHWM:") for p in pids)])
            peak_all = max(peak_all, sum(rss_mb(p, "VmRSS:") for p in pids))
            results = next(Path(out).glob("results-*.jsonl"), None)
            if results is not None:
                now = results.read_bytes().count(b"\n")
                if now > 1 and first is None:
                    first = time.perf_counter() - t0
                if now > lines:
                    lines, last = now, time.perf_counter() - t0
            time.sleep(0.05)
        wall = time.perf_counter() - t0
        stderr = proc.stderr.read() if proc.stderr else ""
        results = next(Path(out).glob("results-*.jsonl"), None)
        cases = results.read_bytes().count(b'{"kind":"case"') if results else 0
    if proc.returncode not in (0, 1) or first is None or last is None:
        raise RuntimeError(f"{' '.join(command)} exited {proc.returncode}: {stderr[-2000:]}")
    return {
        "wall": wall,
        "first": first,
        "rate": (cases - 1) / max(1e-9, last - first),
        "cases": cases,
        "peak_one": peak_one,
        "peak_all": peak_all,
    }


def bench_end_to_end(repeat: int, before: Path | None) -> None:
    runs: dict[str, tuple[tuple[str, ...], Path]] = {
        "onnxruntime-cpu": (("onnxruntime-cpu",), ROOT),
        "directml (batched)": (("directml",), ROOT),
        "directml --one-by-one": (("directml", "--one-by-one"), ROOT),
    }
    if before is not None:
        runs["directml, --before"] = (("directml",), before)
    print(f"end to end: dml-conformance run --profile quick, {repeat} time(s) each, taking turns ({load()})")
    figures: dict[str, list[dict]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, (args, checkout) in runs.items():
            figures[name].append(end_to_end(*args, checkout=checkout))
    medians = {name: {k: statistics.median(f[k] for f in got) for k in got[0]} for name, got in figures.items()}
    cpu = medians["onnxruntime-cpu"]["wall"]
    for name, m in medians.items():
        print(
            f"  {name:22s} {m['wall']:6.2f} s ({m['wall'] / cpu:4.1f}x onnxruntime-cpu), first result "
            f"{m['first']:5.2f} s, {m['rate']:6.0f} cases/s after it, {m['cases']:.0f} cases; peak memory "
            f"{m['peak_one']:5.0f} MB (largest process), {m['peak_all']:5.0f} MB (all together)"
        )
    print(
        f"  ({load()}; walls: "
        + "; ".join(f"{n} {[round(f['wall'], 1) for f in got]}" for n, got in figures.items())
        + ")"
    )


# --- onnxruntime-directml -------------------------------------------------------------------------


def bench_ort(cases) -> None:
    """Before (a heap and a session per 100 cases, as ONNX Runtime's provider asks) and after (heaps recycled under
    Wine, batches of 200), from bench_ort_directml.py, which also runs the quick profile end to end."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_ort_directml import bench, print_bench

    print_bench([bench(cases, before=True), bench(cases)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("directml", "onnxruntime-directml", "both"), default="both")
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="end-to-end runs of each kind (medians printed)")
    parser.add_argument("--no-end-to-end", action="store_true", help="skip the quick-profile runs")
    parser.add_argument(
        "--before",
        type=Path,
        help="a checkout of an earlier commit (`git archive COMMIT | tar -x -C DIR`): its quick profile on "
        "directml runs end to end beside the others",
    )
    args = parser.parse_args()

    from conformance.run.selection import select_cases

    cases = select_cases(generated=args.cases, seed=args.seed)
    cases = [c for c in cases if "generated" in c.tags][: args.cases]
    if args.backend in ("directml", "both"):
        bench_native(cases)
        if not args.no_end_to_end:
            bench_end_to_end(args.repeat, args.before)
    if args.backend in ("onnxruntime-directml", "both"):
        bench_ort(cases)
    print(f"peak memory of this Python process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark onnxruntime-directml before and after batching with cheap descriptor heaps, beside onnxruntime-cpu.

    python benchmarks/bench_ort_directml.py [--cases N] [--skip-before] [--skip-runs]

Prints two tables, measured on this machine in one sitting:

- the quick profile end to end (`dml-conformance run --profile quick --report none`, a subprocess,
  start-up included): onnxruntime-cpu, onnxruntime-directml as it was (TodaysOnnxRuntimeDirectML:
  100 cases a session, every descriptor heap created by vkd3d) and as it is; wall time, the ratio to
  onnxruntime-cpu and the peak memory of the largest process of the run (ru_maxrss of its tree);
- the backend alone on the quick profile's valid cases (`bench`): start-up (Wine, the D3D12 device,
  DirectML, onnxruntime.dll), first result (one case, its session included), cases/s after that,
  sessions created, descriptor heaps created and reused, and the worker's peak memory (VmHWM).

Needs `dml-conformance setup directml`.  Not a timed test: the machine is shared, figures vary.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench_directml import vm_hwm_mb  # benchmarks/ is on the path: run as a script, or a run's PYTHONPATH

from conformance.backends.onnxruntime_directml import LEGACY_BATCH_SIZE, OnnxRuntimeDirectMLBackend

ROOT = Path(__file__).resolve().parents[1]


class TodaysOnnxRuntimeDirectML(OnnxRuntimeDirectMLBackend):
    """onnxruntime-directml as it was: 100 cases a session, every descriptor heap ONNX Runtime asks for created anew
    by vkd3d's default heaps (VKD3D_CONFIG empty: no virtual heaps) (a run takes it as
    `--backend bench_ort_directml:TodaysOnnxRuntimeDirectML`, benchmarks/ on PYTHONPATH)."""

    batch_size = LEGACY_BATCH_SIZE

    def __init__(self, **kwargs):
        previous = os.environ.get("VKD3D_CONFIG")
        os.environ["VKD3D_CONFIG"] = ""  # the worker starts now, with vkd3d's default heaps
        try:
            super().__init__(**{"batch_size": LEGACY_BATCH_SIZE, "recycle_descriptor_heaps": False, **kwargs})
        finally:
            if previous is None:
                del os.environ["VKD3D_CONFIG"]
            else:
                os.environ["VKD3D_CONFIG"] = previous


def bench(cases, *, before: bool = False) -> dict:
    """Run `cases` (conformance Case objects; invalid ones are left out) on onnxruntime-directml, in calls of
    batch_size cases as the run layer hands them, and return the figures (seconds, MB)."""
    valid = [c for c in cases if c.valid]
    items = [(c.descriptor, list(c.inputs), c.feature_level) for c in valid]
    t0 = time.perf_counter()
    backend = TodaysOnnxRuntimeDirectML() if before else OnnxRuntimeDirectMLBackend()
    start_up = time.perf_counter() - t0
    try:
        results = backend.run_many(items[:1])
        first_result = time.perf_counter() - t0
        t1 = time.perf_counter()
        for start in range(1, len(items), backend.batch_size):
            results += backend.run_many(items[start : start + backend.batch_size])
        elapsed = time.perf_counter() - t1
        sessions = backend.sessions
        heaps = dict(getattr(sessions, "heaps", {}))
        program = getattr(sessions, "program", None)
        worker_mb = None
        if program is not None and program.process is not None and program.process._proc is not None:
            worker_mb = vm_hwm_mb(program.process._proc.pid)
    finally:
        backend.close()
    return {
        "mode": "before" if before else "after",
        "batch_size": backend.batch_size,
        "cases": len(items),
        "start_up_s": start_up,
        "first_result_s": first_result,
        "rest_s": elapsed,
        "cases_per_s": (len(items) - 1) / elapsed if elapsed > 0 else float("nan"),
        "sessions": backend.stats["sessions"],
        "heaps_created": int(heaps.get("created", 0)),
        "heaps_reused": int(heaps.get("reused", 0)),
        "heap_create_s": float(heaps.get("create_s", 0.0)),
        "worker_peak_mb": worker_mb,
        "statuses": dict(Counter("crash" if isinstance(r, BaseException) else r.status for r in results)),
    }


# Runs `dml-conformance run` and prints, on stderr's last line, the peak RSS (kB) of its largest process: every
# process of the run (workers, the Wine worker) is a waited-for descendant of this one.
_MEASURED = (
    "import json, resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n"
    "wall = time.perf_counter() - t\n"
    "print(json.dumps({'code': code, 'wall_s': wall, "
    "'peak_kb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))\n"
)


def quick_run(backend: str, out: Path) -> dict:
    """`dml-conformance run --backend BACKEND --profile quick` as a user starts it: wall time and peak memory."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    args = [sys.executable, "-m", "conformance.cli", "run", "--backend", backend, "--profile", "quick"]
    args += ["--out", str(out), "--report", "none"]
    done = subprocess.run([sys.executable, "-c", _MEASURED, *args], capture_output=True, text=True, env=env, cwd=ROOT)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    counts: dict = {}
    for path in out.glob("results-*.jsonl"):
        lines = path.read_text().splitlines()
        last = json.loads(lines[-1]) if lines else {}
        counts = last.get("counts", {})
    return {"backend": backend, **figures, "counts": counts}


def print_runs(runs: list[dict]) -> None:
    cpu = runs[0]["wall_s"]
    print("quick profile end to end (`dml-conformance run --profile quick --report none`, start-up included):")
    for run in runs:
        print(
            f"  {run['label']:<34} {run['wall_s']:7.1f} s  {run['wall_s'] / cpu:5.1f}x onnxruntime-cpu   "
            f"peak {run['peak_kb'] / 1024**2:4.1f} GB   exit {run['code']}  {run['counts']}"
        )


def print_bench(rows: list[dict]) -> None:
    print("the backend alone (bench: the quick profile's valid cases, in calls of batch_size as the run layer makes):")
    print(
        "  mode    batch  cases  start-up  first result  cases/s  sessions  heaps created/reused (s creating)  "
        "worker peak"
    )
    for r in rows:
        peak = f"{r['worker_peak_mb'] / 1024:.1f} GB" if r["worker_peak_mb"] else "?"
        print(
            f"  {r['mode']:<7} {r['batch_size']:5d} {r['cases']:6d} {r['start_up_s']:8.1f} s {r['first_result_s']:10.1f} s "
            f"{r['cases_per_s']:8.0f} {r['sessions']:9d}  {r['heaps_created']:6d} / {r['heaps_reused']:<6d} "
            f"({r['heap_create_s']:5.1f} s)            {peak}"
        )
        print(f"          statuses {r['statuses']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=None, help="bench only the first N valid quick-profile cases")
    parser.add_argument("--skip-before", action="store_true", help="leave out today's behaviour (minutes under Wine)")
    parser.add_argument("--skip-runs", action="store_true", help="leave out the end-to-end runs")
    args = parser.parse_args()

    if not args.skip_runs:
        runs = []
        plan = [("onnxruntime-cpu", "onnxruntime-cpu")]
        if not args.skip_before:
            plan.append(("onnxruntime-directml before", "bench_ort_directml:TodaysOnnxRuntimeDirectML"))
        plan.append(("onnxruntime-directml after", "onnxruntime-directml"))
        with tempfile.TemporaryDirectory() as tmp:
            for label, backend in plan:
                runs.append({"label": label, **quick_run(backend, Path(tmp) / label.replace(" ", "-"))})
        print_runs(runs)

    from conformance.run.selection import select_cases

    cases = [c for c in select_cases(profile="quick") if c.valid][: args.cases]
    rows = [] if args.skip_before else [bench(cases, before=True)]
    rows.append(bench(cases))
    print_bench(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())

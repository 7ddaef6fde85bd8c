"""Where a quick run's time goes: python benchmarks/bench_run.py [--backend NAME] [--generated N].

Measures, in one process: corpus loading, run-time generation, backend runs through the
runner (no pytest), report rendering; then the whole `dml-conformance run` as a user
starts it (a subprocess, start-up included), so pytest's per-item overhead is the
difference.  Not a timed test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", default="onnxruntime-cpu")
    parser.add_argument("--generated", type=int, default=5000)
    args = parser.parse_args()
    t = time.perf_counter()
    from conformance import runner
    from conformance.plugin import _generated_cases, load_backend_spec
    from conformance.report import render
    from conformance.results import ResultsWriter, make_header, read_results

    rows = [("imports", time.perf_counter() - t)]
    t = time.perf_counter()
    backend = load_backend_spec(args.backend)
    rows.append(("backend load", time.perf_counter() - t))
    t = time.perf_counter()
    from conformance.corpus import CASES_DIR, load

    stored = load([p for p in (CASES_DIR / "examples", CASES_DIR / "curated") if p.is_dir()]).cases
    rows.append((f"load stored cases ({len(stored)})", time.perf_counter() - t))
    t = time.perf_counter()
    generated, _ = _generated_cases(0, args.generated, None)
    rows.append((f"generate at run time ({len(generated)})", time.perf_counter() - t))
    cases = stored + generated
    level = backend.capabilities().feature_level
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.jsonl"
        writer = ResultsWriter(path, make_header(backend=backend.name))
        watchdog = runner.Watchdog(60.0)
        t = time.perf_counter()
        for case in cases:
            writer.start(case.id)
            writer.record(runner.execute(case, backend, feature_level=level, watchdog=watchdog))
        rows.append((f"run {len(cases)} cases (runner + backend + results file)", time.perf_counter() - t))
        watchdog.close()
        writer.close()
        t = time.perf_counter()
        html = render([read_results(path)])
        rows.append((f"read results + render report ({len(html) // 1024} KiB)", time.perf_counter() - t))
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "conformance.cli", "run", "--backend", args.backend, "--out", tmp,
                               "--generated", str(args.generated)], capture_output=True, text=True)
        rows.append((f"whole `dml-conformance run` (exit {proc.returncode}), start-up included",
                     time.perf_counter() - t))
        print(proc.stdout.splitlines()[-6:] if proc.stdout else proc.stderr[-2000:])
    for name, seconds in rows:
        print(f"{seconds:8.2f} s  {name}")


if __name__ == "__main__":
    main()

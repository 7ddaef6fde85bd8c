"""Where a quick run's time goes: python benchmarks/bench_run.py [--backend NAME] [--repeat N] [--jobs N].

Prints, as the median of --repeat rounds (the machine is shared: single rounds are noise):

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
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="onnxruntime-cpu")
    parser.add_argument("--generated", type=int, default=5000)
    parser.add_argument("--hypothesis", type=int, default=20, help="live examples per operator (the quick profile's)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
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

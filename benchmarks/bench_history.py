"""`history` at scale: python benchmarks/bench_history.py [--runs 50] [--keep DIR] [--full-reader].

Writes `--runs` synthetic but realistically sized results files of the full profile (every case
of it, with the fields, reasons, tensors and mismatches a real `directml` run records: mostly
pass, some observed, unsupported and waived, a few failing), each line made by the suite's own
Record/Header/Footer.to_line.  Across the runs the driver build changes every run and the
DirectML version once (half-way, turning feature-level `unsupported` cases into passes); some
cases regress in one run and are fixed a few runs later, and some flip at random.  Then times
`dml-conformance history FILES... -o history.html` end to end (a subprocess: reading, merging,
the terminal text and the page) and prints its seconds and peak RSS, next to the goal: 50 runs
in under 30 s and 2 GB.  With --full-reader it also times conformance.run.results.read_results
(every field typed) on one file, times the run count: what history would take on that reader.

Not a timed test: the figure depends on the machine and on its load.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from conformance.judging.compare import compare_outputs
from conformance.run.config import RunConfig
from conformance.run.header import platform_info, spec_tables
from conformance.run.identity import identity
from conformance.run.record import FORMAT, FORMAT_VERSION, Category, Footer, Header, Record, TensorData, Tensors
from conformance.run.results import ResultsWriter, read_results
from conformance.run.selection import all_units
from conformance.run.units import Work, blank_record

GOAL_S, GOAL_GB = 30.0, 2.0
DIRECTML = ("1.13.1", "1.15.4")  # the first half of the runs on the older, then the newer
REGRESSIONS = 150  # cases that regress in some run and are fixed 1-8 runs later (or never)
FLIPPERS = 25  # cases that fail in a random third of the runs
TIMINGS = [
    "backend_s",
    *(f"backend.{path}{step}_s" for path in ("operator_", "") for step in ("create", "compile", "execute", "readback")),
    "backend.operator_round_trip_s",
    "backend.round_trip_s",
    "total_s",
]
REASONS = {
    Category.PASS: "bit-exact",
    Category.ERROR: "backend.run(): the driver raised E_INVALIDARG (0x80070057) in IDMLDevice::CreateOperator",
    Category.CRASH: "the worker process was killed by signal 11 (SIGSEGV) while this case ran",
}


def _base_records(seed: int) -> list[Record]:
    """One record per case of the full profile, categorised as a real `directml` run's are (quick: 85% pass,
    7% observed, 5% unsupported, 3% waived), with the fields that make its line as long as a real one."""
    rng = random.Random(seed)
    units, errors = all_units(RunConfig(profile="full", hypothesis_examples=0))
    assert not errors, errors
    records = []
    for index, unit in enumerate(units):
        r = blank_record(Work(index, unit), "6.4")
        # What the directml backend times and notes for every case it runs (its operator and graph paths).
        r.timings = {name: round(rng.uniform(1e-6, 3e-3), 7) for name in TIMINGS}
        r.notes = ["the operator path (CompileOperator) and the graph path (CompileGraph) gave the same bytes"]
        roll = rng.random()
        if roll < 0.85:
            r.set(Category.PASS, "bit-exact")
            r.reached_operator = f"DML_{r.operator}"
        elif roll < 0.92:
            r.set(Category.OBSERVED, f"matches the oracle's policy for U-WRAP-1 in {rng.randint(1, 9)} open element(s)")
            r.reached_operator = f"DML_{r.operator}"
        elif roll < 0.97:
            r.set(
                Category.UNSUPPORTED,
                "valid at feature level 6.4, which DirectML 1.15.4.0 implements and validates, but the "
                f"{r.operator} descriptor needs feature level 6.3 (rank {r.rank}, {r.data_type})",
            )
        else:
            _mismatch(r, rng)
            r.set(Category.WAIVED, f"waived (a known deviation, tracked): {r.reason}")
        records.append(r)
    return records


def _mismatch(r: Record, rng: random.Random) -> None:
    """A failing record as the comparison leaves one: its mismatch and small tensors."""
    expected = np.arange(rng.randint(8, 96), dtype=np.float32)
    actual = expected.copy()
    actual[rng.randrange(actual.size)] += 1
    r.mismatch = compare_outputs([expected], [actual])
    r.tensors = Tensors(TensorData.of(expected), [TensorData.of(expected)], [TensorData.of(actual)])
    r.set(Category.FAIL, r.mismatch.summary())


def _plan(records: list[Record], runs: int, seed: int) -> dict[int, list[Category]]:
    """Case index -> its category in each run, for the cases that change; and the FL cases the newer
    DirectML passes.  Every other case keeps its base category."""
    rng = random.Random(seed + 1)
    plan: dict[int, list[Category]] = {}
    passing = [i for i, r in enumerate(records) if r.category is Category.PASS]
    for i in rng.sample(passing, REGRESSIONS):
        start = rng.randrange(1, runs)
        end = start + rng.randint(1, 8) if rng.random() < 0.8 else runs
        bad = rng.choice((Category.FAIL, Category.CRASH, Category.ERROR))
        plan[i] = [bad if start <= k < end else Category.PASS for k in range(runs)]
    for i in rng.sample([i for i in passing if i not in plan], FLIPPERS):
        plan[i] = [Category.FAIL if rng.random() < 0.33 else Category.PASS for _ in range(runs)]
    for i, r in enumerate(records):
        if r.category is Category.UNSUPPORTED and rng.random() < 0.5:  # needs the newer DirectML's feature level
            plan[i] = [Category.UNSUPPORTED if k < runs // 2 else Category.PASS for k in range(runs)]
    return plan


def _changed_by_construction(plan: dict[int, list[Category]]) -> int:
    return sum(1 for seq in plan.values() if len(set(seq)) > 1)


def _header(k: int, runs: int, count: int, tables: dict) -> Header:
    directml = DIRECTML[0] if k < runs // 2 else DIRECTML[1]
    versions = {
        "directml": directml,
        "adapter": "Example GPU 7800",
        "adapter_ids": "vendor 0x1002, device 0x744c",
        "driver_version": f"31.0.24033.{1000 + k}",
        "dml_feature_level": "6.4",
    }
    platform = platform_info()
    return Header(
        FORMAT,
        FORMAT_VERSION,
        suite_version="0.1.0",
        started=f"2026-{1 + k // 28:02d}-{1 + k % 28:02d}T03:00:00+0000",
        run_id=f"bench{k:04d}",
        platform=platform,
        backend="directml",
        backend_spec="directml",
        backend_versions=versions,
        identity=identity("directml", versions, platform),
        label=f"driver 31.0.24033.{1000 + k}",
        feature_level="6.4",
        profile="full",
        case_count=count,
        tables=tables,
    )


def write_runs(folder: Path, runs: int, seed: int) -> tuple[list[Path], int]:
    """The results files, and how many cases change category across them by construction."""
    records = _base_records(seed)
    plan = _plan(records, runs, seed)
    base_lines = [r.to_line() for r in records]
    tables = spec_tables()
    rng = random.Random(seed + 2)
    paths = []
    for k in range(runs):
        path = folder / f"results-directml-{k:03d}.jsonl"
        lines = list(base_lines)
        for i, seq in plan.items():
            if seq[k] is records[i].category:
                continue
            r = dataclasses.replace(records[i], mismatch=None, tensors=None, observed=None, reason="")
            if seq[k] is Category.FAIL:
                _mismatch(r, rng)
            else:
                r.set(seq[k], REASONS[seq[k]])
            lines[i] = r.to_line()
        path.touch()
        writer = ResultsWriter(path)
        writer.header(_header(k, runs, len(records), tables))
        writer.close()
        with path.open("a", encoding="utf-8") as f:  # the case lines as Record.to_line made them
            f.write("\n".join(lines) + "\n")
            f.write(Footer(finished="2026-12-31T00:00:00+0000", duration_s=1800.0).to_line() + "\n")
        paths.append(path)
    return paths, _changed_by_construction(plan)


def time_history(paths: list[Path], out: Path) -> tuple[float, float, int, str]:
    """Seconds (wall, and CPU: user + system), peak RSS (bytes) and stdout of `dml-conformance history`, run
    as a child process (its own rusage: nothing of this process's)."""
    cmd = [sys.executable, "-m", "conformance.cli", "history", *map(str, paths), "-o", str(out)]
    with tempfile.TemporaryFile("w+") as stdout, tempfile.TemporaryFile("w+") as stderr:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=stdout, stderr=stderr, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0), stderr.seek(0)
        if proc.returncode != 0:
            raise SystemExit(f"history exited {proc.returncode}: {stderr.read()}")
        cpu = usage.ru_utime + usage.ru_stime
        return seconds, cpu, usage.ru_maxrss * 1024, stdout.read()  # ru_maxrss: kB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", metavar="DIR", help="write the results files and the page here (kept)")
    parser.add_argument("--full-reader", action="store_true", help="also time read_results on one file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        paths, changed = write_runs(folder, args.runs, args.seed)
        size = sum(os.path.getsize(p) for p in paths)
        cases = sum(1 for line in paths[0].open(encoding="utf-8")) - 2
        print(
            f"wrote {len(paths)} results files of {cases} cases each ({size / 1e9:.2f} GB, "
            f"{size / len(paths) / cases:.0f} bytes a case line) in {time.perf_counter() - t0:.0f} s; "
            f"{changed} cases change category by construction"
        )
        load = os.getloadavg()[0]
        seconds, cpu, peak, stdout = time_history(paths, folder / "history.html")
        summary = next(line for line in stdout.splitlines() if "cases changed category" in line)
        print(f"history: {summary}")
        page = (folder / "history.html").stat().st_size
        print(
            f"history of {len(paths)} runs x {cases} cases: {seconds:.1f} s ({cpu:.1f} s of CPU; load average "
            f"{load:.1f} on {os.cpu_count()} cores), peak RSS {peak / 1e9:.2f} GB, page {page / 1e6:.1f} MB "
            f"(goal for 50 runs: under {GOAL_S:.0f} s and {GOAL_GB:.0f} GB)"
        )
        if args.full_reader:
            t0 = time.perf_counter()
            read_results(paths[0])
            one = time.perf_counter() - t0
            print(f"read_results (every field typed): {one:.1f} s a file, {one * len(paths):.0f} s for {len(paths)}")


if __name__ == "__main__":
    main()

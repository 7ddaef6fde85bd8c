"""The stress profile's wall time and peak memory per backend: python benchmarks/bench_stress.py [--backend NAME ...].

Runs `dml-conformance run --profile stress` once per backend (default: oracle, onnxruntime-cpu),
one after the other (never two at once: each may hold gigabytes), and prints per backend:
the wall time of the whole command, the peak of the summed resident memory of its process
tree (the CLI, its worker, and whatever the worker starts, e.g. the DirectML runner under
Wine; sampled every 0.2 s), the counts per category and each case's own time.  Options after
`--` go to every run (e.g. `-- --max-bytes 7GiB`).  bench_bandwidth.py covers GB/s per
operator and mode.

Not a timed test: numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(parent, []).append(int(entry))
    return tree


def tree_rss(root: int) -> int:
    """Resident bytes of `root` and all its descendants."""
    tree, total, todo = _children(), 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(tree.get(pid, []))
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            pass
    return total


def run_one(backend: str, extra: list[str], out: Path) -> dict:
    command = [sys.executable, "-m", "conformance.cli", "run", "--profile", "stress", "--backend", backend]
    command += ["--out", str(out), "--report", "none", *extra]
    peak = 0
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss(proc.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, _ = proc.communicate()
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    results = sorted(out.glob(f"results-{backend}-*.jsonl")) or sorted(out.glob("results-*.jsonl"))
    records = [json.loads(line) for line in results[-1].read_text().splitlines()] if results else []
    cases = [r for r in records if r.get("kind") == "case"]
    return {"backend": backend, "exit": proc.returncode, "wall_s": wall, "peak": peak, "cases": cases, "out": output}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", action="append", help="repeatable. Default: oracle and onnxruntime-cpu")
    parser.add_argument("extra", nargs="*", help="options for every run, after --")
    args = parser.parse_args()
    for backend in args.backend or ["oracle", "onnxruntime-cpu"]:
        with tempfile.TemporaryDirectory() as tmp:
            r = run_one(backend, args.extra, Path(tmp))
        counts = Counter(c["category"] for c in r["cases"])
        print(f"\n{backend}: {r['wall_s']:.1f} s, peak {r['peak'] / 2**30:.2f} GiB (process tree), exit {r['exit']}")
        print("  " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        for c in r["cases"]:
            reason = c.get("reason", "")
            print(f"  {c['id']:40s} {c['category']:12s} {c.get('timings', {}).get('total_s', 0):7.1f} s  {reason[:90]}")
        if not r["cases"]:
            print(r["out"][-2000:])
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The suite's bug-finding power, measured: seeded bugs (benchmarks/mutants.py) through the profiles.

    python benchmarks/bench_mutants.py                     # the quick profile
    python benchmarks/bench_mutants.py --profile full --jobs 2
    python benchmarks/bench_mutants.py --mutant SplitDropsPast8 --mutant Correct

Each mutant runs as a backend through `dml-conformance run` (worker processes, the real run
layer); a mutant is caught when the run has a failing case.  Printed per profile: every mutant,
whether it was caught, how many cases caught it, the first one in selection order (the case a
vendor would meet first) and the run's time; then the share caught, and the false alarms on the
two correct implementations (which must be none).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from mutants import CORRECT, MUTANTS  # noqa: E402

FAILING = {"fail", "rejected", "error", "crash", "timeout"}


def run_one(name: str, profile: str, jobs: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        done = subprocess.run(
            [
                *(sys.executable, "-m", "conformance.cli", "run", "--backend", f"mutants:{name}"),
                *("--profile", profile, "--jobs", str(jobs), "--seed", str(seed), "--out", out, "--report", "none"),
                "--no-known-issues",
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT), os.environ.get("PYTHONPATH", "")])},
            check=False,
        )
        seconds = time.perf_counter() - t0
        files = list(Path(out).glob("results-*.jsonl"))
        if not files:
            return {"name": name, "error": (done.stderr or done.stdout)[-300:], "seconds": seconds}
        lines = [json.loads(line) for line in files[0].read_text().splitlines()]
    cases = sorted((r for r in lines if r.get("kind") == "case"), key=lambda r: r.get("index") or 0)
    failing = [r for r in cases if r["category"] in FAILING]
    return {
        "name": name,
        "cases": len(cases),
        "failing": len(failing),
        "first": f"{failing[0]['id']} ({failing[0]['category']})" if failing else "-",
        "seconds": seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", action="append", choices=("quick", "full"), help="default: quick")
    parser.add_argument(
        "--mutant", action="append", help="only these (class names); default: all, and the correct ones"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    names = args.mutant or [c.__name__ for c in (*MUTANTS, *CORRECT)]
    correct = {c.__name__ for c in CORRECT}
    for profile in args.profile or ["quick"]:
        print(f"profile {profile} (seed {args.seed}, {args.jobs} jobs)")
        print(f"  {'mutant':<36} {'caught':<7} {'cases':>7} {'failing':>8}  {'s':>6}  first case that catches it")
        caught = alarms = 0
        for name in names:
            r = run_one(name, profile, args.jobs, args.seed)
            if "error" in r:
                print(f"  {name:<36} ERROR   {r['error']}")
                continue
            hit = r["failing"] > 0
            if name in correct:
                alarms += hit
            else:
                caught += hit
            print(
                f"  {name:<36} {'yes' if hit else 'NO':<7} {r['cases']:>7} {r['failing']:>8}  {r['seconds']:6.1f}  {r['first']}"
            )
        seeded = len([n for n in names if n not in correct])
        print(f"  caught {caught} of {seeded} seeded bugs; false alarms on correct implementations: {alarms}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

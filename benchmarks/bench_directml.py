"""Benchmark the `directml` backend: start-up, first result, cases/s, peak memory.  Prints figures.

    python benchmarks/bench_directml.py [--cases 1000] [--seed 0]

Start-up is the backend's constructor (Wine, the D3D12 device with its descriptor heap, DirectML,
the self-test); the first result is one more case; cases/s counts the generated cases run one by
one through the run layer (oracle comparison included).  Peak memory is the runner process's
high-water mark (VmHWM; Linux) and this Python process's.  Needs `dml-conformance setup directml`.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import Counter
from pathlib import Path


def vm_hwm_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from conformance import runner
    from conformance.backends.directml import DirectMLBackend
    from conformance.expectations import known_issues
    from conformance.plugin import select_cases

    waivers = known_issues("directml")

    cases, _, _ = select_cases(generated=args.cases, seed=args.seed)
    cases = [c for c in cases if "generated" in c.tags][: args.cases]
    t0 = time.perf_counter()
    backend = DirectMLBackend()
    started = time.perf_counter() - t0
    first = waivers.apply(runner.execute(cases[0], backend))
    first_result = time.perf_counter() - t0
    counts: Counter[str] = Counter([first["category"]])
    t1 = time.perf_counter()
    for case in cases[1:]:
        counts[waivers.apply(runner.execute(case, backend))["category"]] += 1
    elapsed = time.perf_counter() - t1
    assert backend.process is not None and backend.process._proc is not None
    runner_mb = vm_hwm_mb(backend.process._proc.pid)
    python_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    versions = backend.versions()
    backend.close()

    print(f"directml backend: DirectML {versions['directml']} on {versions['adapter']}"
          + (f"; Wine {versions['wine']}, Mesa {versions['mesa'].split()[0]}" if "wine" in versions else ""))
    print(f"  start-up (Wine, device, descriptor heap, self-test): {started:6.2f} s")
    print(f"  first result:                                        {first_result:6.2f} s")
    print(f"  {len(cases) - 1} more cases:                                  {elapsed:6.2f} s = "
          f"{(len(cases) - 1) / elapsed:6.0f} cases/s")
    print(f"  categories (known issues applied): {dict(counts)}")
    print(f"  peak memory: runner {runner_mb or float('nan'):.0f} MB, Python {python_mb:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

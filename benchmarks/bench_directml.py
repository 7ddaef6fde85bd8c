"""Benchmark real DirectML: start-up, first result, cases/s, sessions, peak memory.  Prints figures.

    python benchmarks/bench_directml.py [--backend directml|onnxruntime-directml|both] [--cases 1000] [--seed 0]

`directml`: the native runner, cases one by one through the run layer (oracle comparison included).
`onnxruntime-directml`: ONNX Runtime's DirectML provider on the native worker, the cases in batched
sessions (`run_many`); per-session and per-case figures come from its own counters.  Start-up is the
backend's constructor (Wine, the D3D12 device, DirectML, for the runner its descriptor heap and
self-test).  Peak memory is the child's high-water mark (VmHWM; Linux) and this Python process's.
Needs `dml-conformance setup directml`.
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


def stack_line(versions: dict) -> str:
    line = f"DirectML {versions['directml']} on {versions['adapter']}"
    if "wine" in versions:
        line += f"; Wine {versions['wine']}, Mesa {versions['mesa'].split()[0]}"
    return line


def bench_native(cases) -> None:
    from conformance.backends.directml import DirectMLBackend
    from conformance.judging.expectations import known_issues
    from conformance.run.execute import execute_case
    from conformance.run.units import Work

    waivers = known_issues("directml")
    t0 = time.perf_counter()
    backend = DirectMLBackend()
    started = time.perf_counter() - t0
    counts: Counter[str] = Counter([waivers.apply(execute_case(Work(0, cases[0]), backend, None)).category.value])
    first_result = time.perf_counter() - t0
    t1 = time.perf_counter()
    for case in cases[1:]:
        counts[waivers.apply(execute_case(Work(0, case), backend, None)).category.value] += 1
    elapsed = time.perf_counter() - t1
    assert backend.process is not None and backend.process._proc is not None
    child_mb = vm_hwm_mb(backend.process._proc.pid)
    versions = backend.versions()
    backend.close()
    print(f"directml: {stack_line(versions)}")
    print(f"  start-up (Wine, device, descriptor heap, self-test): {started:6.2f} s")
    print(f"  first result:                                        {first_result:6.2f} s")
    print(
        f"  {len(cases) - 1} more cases, one by one:                 {elapsed:6.2f} s = "
        f"{(len(cases) - 1) / elapsed:6.0f} cases/s"
    )
    print(f"  categories (known issues applied): {dict(counts)}")
    print(f"  peak memory: runner {child_mb or float('nan'):.0f} MB")


def bench_ort(cases) -> None:
    from conformance.backends.onnxruntime_directml import OnnxRuntimeDirectMLBackend

    valid = [c for c in cases if c.valid]
    items = [(c.descriptor, list(c.inputs), c.feature_level) for c in valid]
    t0 = time.perf_counter()
    backend = OnnxRuntimeDirectMLBackend()
    started = time.perf_counter() - t0
    backend.run_many(items[:1])
    first_result = time.perf_counter() - t0
    sessions_before = backend.stats["sessions"]
    t1 = time.perf_counter()
    results = backend.run_many(items[1:])
    elapsed = time.perf_counter() - t1
    sessions = backend.stats["sessions"] - sessions_before
    per_session = [
        r.timings["session_s"] * r.timings["batch"]
        for r in results
        if not isinstance(r, BaseException) and r.status == "ok"
    ]
    statuses = Counter("crash" if isinstance(r, BaseException) else r.status for r in results)
    program = backend.sessions.program  # type: ignore[attr-defined]
    child_mb = vm_hwm_mb(program.process._proc.pid) if program.process and program.process._proc else None
    versions = backend.versions()
    backend.close()
    mean_session = sum(sorted(set(per_session))) / max(1, len(set(per_session)))
    print(f"onnxruntime-directml: ONNX Runtime {versions['onnxruntime']}, {stack_line(versions)}")
    print(f"  start-up (Wine, device, onnxruntime.dll):            {started:6.2f} s")
    print(f"  first result (one session, one case):                {first_result:6.2f} s")
    print(
        f"  {len(items) - 1} more cases in {sessions} sessions:              {elapsed:6.2f} s = "
        f"{(len(items) - 1) / elapsed:6.0f} cases/s, about {mean_session:.2f} s per session, "
        f"{1000 * elapsed / max(1, len(items) - 1):.1f} ms per case"
    )
    print(f"  statuses: {dict(statuses)}")
    print(f"  peak memory: worker {child_mb or float('nan'):.0f} MB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("directml", "onnxruntime-directml", "both"), default="both")
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from conformance.run.selection import select_cases

    cases = select_cases(generated=args.cases, seed=args.seed)
    cases = [c for c in cases if "generated" in c.tags][: args.cases]
    if args.backend in ("directml", "both"):
        bench_native(cases)
    if args.backend in ("onnxruntime-directml", "both"):
        bench_ort(cases)
    print(f"peak memory of this Python process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

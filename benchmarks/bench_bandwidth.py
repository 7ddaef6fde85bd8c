"""GB/s of the oracle's fast path against numpy, ONNX Runtime CPU and a plain copy, on one tensor.

    python benchmarks/bench_bandwidth.py [--shape 1,16,2048,2048] [--data-type FLOAT32] [--repeat 7]
                                         [--work PADDING-REFLECTION,SLICE1] [--no-ort] [--no-memory]

One 4-D input (default the issue's 256 MiB FLOAT32 1x16x2048x2048), one process.  Each work
is one descriptor and numpy's equivalent (np.pad, a strided view made contiguous, np.split and
copies).  "oracle" is the fast path as the suite runs it, its outputs dropped after each run so
their buffers are reused (oracle/buffers.py); "oracle-fresh" the same with the buffer pool off,
every output in fresh pages as numpy's are.  The implementations run interleaved, one each per round, so load from other jobs
falls on all of them alike; figures are medians over the rounds, and oracle/numpy is the
median of the per-round ratios.  GB/s counts the bytes of the outputs (1 GB = 1e9 bytes), so
every column is comparable with the copies:

- memcpy: np.copyto of the output's size into a buffer already written (pure bandwidth);
- alloc+copy: the same copy into a fresh np.empty (what any function returning a new array
  pays: the kernel zeroes each fresh page before the copy writes it).

Peak memory is measured per implementation in a forked child (Linux): the peak RSS of one run
(VmHWM after /proc/self/clear_refs) above the RSS before it, plus the input, as a multiple of
input + output bytes.  Figures depend on the machine and its load: this prints, it never asserts.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import oracle
from oracle import DEFAULT_FEATURE_LEVEL, DataType, PaddingDesc, Slice1Desc, SliceDesc, SplitDesc, TensorDesc, buffers

Run = Callable[[np.ndarray], object]


class CannotRun(Exception):
    """An implementation that cannot run this work (ORT on a case its lowering refuses)."""


@dataclass
class Work:
    name: str
    desc: oracle.Descriptor
    numpy: Run


def works(x: np.ndarray, data_type: DataType) -> list[Work]:
    """The issue's table (pads 3 before and 5 after on the last two axes, SLICE1 strides [1,-1,-1,-2],
    SPLIT [1000, 48, 1000] of 2048 on the last axis, scaled to other sizes), plus EDGE and DML_SLICE."""
    shape = x.shape
    t_in = TensorDesc(data_type, shape)

    def out(sizes) -> TensorDesc:
        return TensorDesc(data_type, tuple(sizes))

    start, end = (0, 0, 3, 3), (0, 0, 5, 5)
    pad_width = list(zip(start, end))
    padded = out(n + s + e for n, s, e in zip(shape, start, end))
    rows = [
        Work(
            f"PADDING-{mode}",
            PaddingDesc(t_in, padded, mode, 0.0, start, end),
            lambda a, m=numpy_mode: np.pad(a, pad_width, mode=m),
        )
        for mode, numpy_mode in (
            ("REFLECTION", "reflect"),
            ("SYMMETRIC", "symmetric"),
            ("EDGE", "edge"),
            ("CONSTANT", "constant"),
        )
    ]
    strides = (1, -1, -1, -2)
    sizes = [oracle.op_slice1.max_copied_elements(n, s) for n, s in zip(shape, strides)]
    rows.append(
        Work(
            "SLICE1",
            Slice1Desc(t_in, out(sizes), (0,) * 4, shape, strides),
            lambda a: np.ascontiguousarray(a[:, ::-1, ::-1, ::-2]),
        )
    )
    sizes = [shape[0], shape[1], (shape[2] - 1) // 2, (shape[3] - 1) // 2]
    rows.append(
        Work(
            "SLICE",
            SliceDesc(t_in, out(sizes), (0, 0, 1, 1), sizes, (1, 1, 2, 2)),
            lambda a: np.ascontiguousarray(a[:, :, 1::2, 1::2][:, :, : sizes[2], : sizes[3]]),
        )
    )
    rows.append(
        Work(
            "SLICE-stride-0",
            SliceDesc(t_in, out(shape), (0, 0, 5 % shape[2], 0), shape, (1, 1, 0, 1)),
            lambda a: np.ascontiguousarray(np.broadcast_to(a[:, :, 5 % shape[2] :][:, :, :1], shape)),
        )
    )
    n = shape[3]
    first, middle = max(1, n * 1000 // 2048), max(1, n * 48 // 2048)
    pieces = (first, middle, n - first - middle)
    rows.append(
        Work(
            f"SPLIT-{'/'.join(map(str, pieces))}",
            SplitDesc(t_in, tuple(out((*shape[:3], p)) for p in pieces), 3),
            lambda a: [p.copy() for p in np.split(a, [first, first + middle], axis=3)],
        )
    )
    return rows


def output_bytes(desc: oracle.Descriptor) -> int:
    return (
        sum(oracle.tensor_bytes(desc).values())
        - math.prod(desc.input_tensor.sizes) * desc.input_tensor.data_type.numpy.itemsize
    )


def implementations(work: Work, ort, out_bytes: int) -> dict[str, Run]:
    """name -> one run on the input; ORT raises CannotRun when it cannot run the case."""
    src = np.ones(out_bytes, dtype=np.uint8)
    dst = np.zeros(out_bytes, dtype=np.uint8)

    def fresh(a):
        buffers.POOL.enabled = False
        try:
            return oracle.compute(work.desc, [a])
        finally:
            buffers.POOL.enabled = True

    runs: dict[str, Run] = {
        "oracle": lambda a: oracle.compute(work.desc, [a]),
        "oracle-fresh": fresh,
        "numpy": work.numpy,
        "memcpy": lambda a: np.copyto(dst, src),
        "alloc+copy": lambda a: np.copyto(np.empty_like(src), src),
    }
    if ort is not None:

        def run_ort(a):
            result = ort.run(work.desc, [a], DEFAULT_FEATURE_LEVEL)
            if result.status != "ok":
                raise CannotRun(result.reason)
            return result.outputs

        runs["ORT-cpu"] = run_ort
    return runs


def peak_ratio(run: Run, x: np.ndarray, in_bytes: int, out_bytes: int) -> float | None:
    """(input + peak RSS growth of one run) / (input + output), in a forked child; None off Linux."""
    status = Path("/proc/self/status")
    if not hasattr(os, "fork") or not status.exists():
        return None

    def rss(field: str) -> int:
        line = next(v for v in status.read_text().splitlines() if v.startswith(field))
        return int(line.split()[1]) * 1024

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: one run, report, exit without cleanup
        try:
            Path("/proc/self/clear_refs").write_text("5")  # reset VmHWM to the current RSS
            before = rss("VmRSS:")
            try:
                run(x)
                grown = rss("VmHWM:") - before
            except CannotRun:
                grown = -1
            os.write(write, str(grown).encode())
        finally:
            os._exit(0)
    os.close(write)
    text = os.read(read, 64).decode()
    os.close(read)
    os.waitpid(pid, 0)
    if not text or int(text) < 0:
        return None
    return (in_bytes + int(text)) / (in_bytes + out_bytes)


def time_rounds(runs: dict[str, Run], x: np.ndarray, repeat: int) -> dict[str, list[float]]:
    """Seconds per run, `repeat` rounds, the order rotated each round; a run raising CannotRun is dropped."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    names = list(runs)
    for name in names:  # warm-up: ORT compiles its session, numpy's caches fill
        try:
            runs[name](x)
        except CannotRun:
            times.pop(name)
    names = [n for n in names if n in times]
    for r in range(repeat):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            gc.collect()
            began = time.perf_counter()
            result = runs[name](x)
            times[name].append(time.perf_counter() - began)
            del result
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="1,16,2048,2048", help="4 sizes. Default: %(default)s")
    parser.add_argument("--data-type", default="FLOAT32", help="Default: %(default)s")
    parser.add_argument("--repeat", type=int, default=7, help="timed rounds. Default: %(default)s")
    parser.add_argument("--work", default="", help="comma-separated name prefixes (PADDING-REFLECTION, SLICE1, ...)")
    parser.add_argument("--no-ort", action="store_true", help="leave ONNX Runtime out")
    parser.add_argument("--no-memory", action="store_true", help="skip the forked peak-memory runs")
    args = parser.parse_args()
    shape = tuple(int(v) for v in args.shape.split(","))
    if len(shape) != 4:
        parser.error(f"--shape {args.shape}: four sizes, e.g. 1,4,512,512")
    data_type = DataType.parse(args.data_type)
    bits = np.random.default_rng(0).integers(
        0, np.iinfo(data_type.bits).max, size=shape, dtype=data_type.bits, endpoint=True
    )
    x = bits.view(data_type.numpy)
    in_bytes = x.nbytes
    ort = None
    if not args.no_ort:
        from conformance.backends.onnxruntime_backend import OnnxRuntimeCpuBackend

        ort = OnnxRuntimeCpuBackend()
    prefixes = [p for p in args.work.split(",") if p]
    selected = [w for w in works(x, data_type) if not prefixes or any(w.name.startswith(p) for p in prefixes)]
    print(
        f"input {data_type.value} {list(shape)} = {in_bytes / 2**20:.0f} MiB; {args.repeat} rounds, medians; "
        "GB/s of output bytes; peak = (input + peak RSS growth of one run) / (input + output)"
    )
    columns = ["oracle", "oracle-fresh", "numpy", "ORT-cpu", "memcpy", "alloc+copy"]
    ratios = ["oracle/numpy", "fresh/numpy", "oracle/memcpy"]
    print(
        f"{'work':24s} {'out MiB':>7s} "
        + " ".join(f"{c:>12s}" for c in columns + ratios)
        + "  peak oracle / numpy / ORT"
    )
    for work in selected:
        oracle.release_buffers()
        out_bytes = output_bytes(work.desc)
        runs = implementations(work, ort, out_bytes)
        peaks = (
            {}
            if args.no_memory
            else {n: peak_ratio(runs[n], x, in_bytes, out_bytes) for n in ("oracle", "numpy", "ORT-cpu") if n in runs}
        )
        times = time_rounds(runs, x, args.repeat)
        rate = {n: out_bytes / statistics.median(t) / 1e9 for n, t in times.items()}
        cells = [f"{rate[c]:12.2f}" if c in rate else f"{'n/a':>12s}" for c in columns]
        for name in ("oracle", "oracle-fresh"):  # the median of the per-round ratios
            cells.append(f"{statistics.median(n / o for n, o in zip(times['numpy'], times[name])):11.2f}x")
        cells.append(f"{rate['oracle'] / rate['memcpy']:11.2f}x")
        peak = " / ".join("n/a" if peaks.get(n) is None else f"{peaks[n]:.2f}x" for n in ("oracle", "numpy", "ORT-cpu"))
        print(
            f"{work.name:24s} {out_bytes / 2**20:7.0f} {' '.join(cells)}  {'' if args.no_memory else peak}", flush=True
        )


if __name__ == "__main__":
    main()

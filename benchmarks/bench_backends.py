"""Cases per second for each ONNX backend, with and without the session cache.

    python benchmarks/bench_backends.py [--cases 2000] [--seed 0]

The workload is the worked examples plus random generated-style cases (all four operators,
eleven data types, ranks 1-8, small tensors), built with the oracle.  "cached" shares one
compiled graph per signature, the parameters fed as graph inputs; "uncached" compiles a
session for every case, as a naive backend would.  "warm" is a second pass over the same
cases with every signature already compiled: the steady state of a long run.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import oracle
from conformance.backends.onnx_reference import OnnxReferenceBackend
from conformance.backends.onnxruntime_backend import OnnxRuntimeCpuBackend
from conformance.cases.corpus import CASES_DIR, load
from conformance.judging.compare import compare_outputs
from oracle import ALL_DATA_TYPES, PaddingMode, TensorDesc
from oracle import DEFAULT_FEATURE_LEVEL as FL

MAX_ELEMENTS = 256


def random_case(rng: np.random.Generator) -> tuple[oracle.Descriptor, np.ndarray]:
    data_type = ALL_DATA_TYPES[rng.integers(len(ALL_DATA_TYPES))]
    shape: list[int] = []
    for _ in range(int(rng.integers(1, 9))):
        shape.append(int(rng.integers(1, max(2, min(5, MAX_ELEMENTS // max(1, math.prod(shape))) + 1))))
    bits = rng.integers(0, np.iinfo(data_type.bits).max, size=shape, dtype=data_type.bits, endpoint=True)
    x = bits.view(data_type.numpy)
    t_in = TensorDesc(data_type, tuple(shape))
    operator = ("SLICE", "SLICE1", "PADDING", "SPLIT")[rng.integers(4)]
    if operator == "SLICE":
        offsets = [int(rng.integers(n)) for n in shape]
        strides = [int(rng.integers(1, 3)) for _ in shape]
        sizes = [int(rng.integers(1, (n - 1 - o) // s + 2)) for n, o, s in zip(shape, offsets, strides)]
        return oracle.SliceDesc(t_in, TensorDesc(data_type, tuple(sizes)), offsets, sizes, strides), x
    if operator == "SLICE1":
        offsets = [int(rng.integers(n)) for n in shape]
        sizes = [int(rng.integers(1, n - o + 1)) for n, o in zip(shape, offsets)]
        strides = [int(rng.choice([-2, -1, 1, 2])) for _ in shape]
        outs = [int(rng.integers(1, oracle.op_slice1.max_copied_elements(s, d) + 1)) for s, d in zip(sizes, strides)]
        return oracle.Slice1Desc(t_in, TensorDesc(data_type, tuple(outs)), offsets, sizes, strides), x
    if operator == "PADDING":
        mode = (PaddingMode.CONSTANT, PaddingMode.EDGE, PaddingMode.REFLECTION)[rng.integers(3)]
        limit = [n - 1 if mode is PaddingMode.REFLECTION else 2 for n in shape]
        start = [int(rng.integers(0, m + 1)) for m in limit]
        end = [int(rng.integers(0, m + 1)) for m in limit]
        out = tuple(n + s + e for n, s, e in zip(shape, start, end))
        return oracle.PaddingDesc(t_in, TensorDesc(data_type, out), mode, float(rng.normal()), start, end), x
    axis = int(rng.integers(len(shape)))
    cuts = sorted({int(c) for c in rng.integers(1, shape[axis], size=2)}) if shape[axis] > 1 else []
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, shape[axis]])]
    outputs = tuple(TensorDesc(data_type, (*shape[:axis], p, *shape[axis + 1 :])) for p in parts)
    return oracle.SplitDesc(t_in, outputs, axis), x


def workload(count: int, seed: int) -> list[tuple[oracle.Descriptor, np.ndarray, list[np.ndarray]]]:
    rng = np.random.default_rng(seed)
    cases = [
        (c.descriptor, c.inputs[0], list(c.expected.outputs)) for c in load([CASES_DIR / "examples"]).cases if c.valid
    ]
    for _ in range(count):
        desc, x = random_case(rng)
        cases.append((desc, x, oracle.compute(desc, [x], feature_level=FL)))
    return cases


def measure(backend, cases) -> tuple[float, dict[str, int]]:
    # "fail (NaN bits)": only NaN payloads differ (ORT CPU's FLOAT16 Pad through float32, a known issue).
    tally = {"pass": 0, "fail": 0, "fail (NaN bits)": 0, "unsupported": 0, "error": 0}
    start = time.perf_counter()
    results = [backend.run(desc, [x], FL) for desc, x, _ in cases]
    elapsed = time.perf_counter() - start
    for (_, _, expected), result in zip(cases, results):
        if result.status == "ok":
            comparison = compare_outputs(expected, result.outputs)
            kind = "pass" if comparison.equal else "fail (NaN bits)" if comparison.nan_payload_only else "fail"
            tally[kind] += 1
        else:
            tally[result.status if result.status in tally else "error"] += 1
    return len(cases) / elapsed, tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000, help="random cases besides the worked examples")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cases = workload(args.cases, args.seed)
    print(f"{len(cases)} cases (worked examples + {args.cases} random, seed {args.seed})")
    for factory in (OnnxRuntimeCpuBackend, OnnxReferenceBackend):
        cached = factory(cache=True)
        for label, backend in (("cached, cold", cached), ("cached, warm", cached), ("uncached", factory(cache=False))):
            compiled = backend.stats["compiled"]
            rate, tally = measure(backend, cases)
            print(
                f"{backend.name:16} {label:13} {rate:9.0f} cases/s  compiled {backend.stats['compiled'] - compiled:5d}  "
                + "  ".join(f"{k} {v}" for k, v in tally.items())
            )


if __name__ == "__main__":
    main()

"""The fast paths allocate the outputs and little else: peak memory under 1.5x (input + output).

Measured with tracemalloc, which sees numpy's array allocations: deterministic, unlike
timing (speed is measured by benchmarks/bench_bandwidth.py, never by a test).
"""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest

import oracle
from oracle import PaddingDesc, Slice1Desc, SliceDesc, SplitDesc, TensorDesc

SHAPE = (2, 8, 96, 128)  # 768 KiB of FLOAT32: large enough that the tensors dominate Python's own allocations
F32 = "FLOAT32"


def _out(sizes) -> TensorDesc:
    return TensorDesc.of(F32, sizes)


def _padding(mode: str, shape=SHAPE, start=(0, 0, 3, 3), end=(0, 0, 5, 5)) -> PaddingDesc:
    out = [n + s + e for n, s, e in zip(shape, start, end)]
    return PaddingDesc(TensorDesc.of(F32, shape), _out(out), mode, 1.0, start, end)


IN = TensorDesc.of(F32, SHAPE)
CASES = {
    "SLICE strides 1,1,2,3": SliceDesc(IN, _out([2, 8, 48, 42]), [0, 0, 1, 2], [2, 8, 48, 42], [1, 1, 2, 3]),
    "SLICE stride 0 (broadcast)": SliceDesc(IN, _out([2, 8, 96, 128]), [1, 3, 5, 0], [2, 8, 96, 128], [0, 0, 0, 1]),
    "SLICE1 strides 1,-1,-1,-2": Slice1Desc(IN, _out([2, 8, 96, 64]), [0] * 4, list(SHAPE), [1, -1, -1, -2]),
    "SPLIT 40,8,80": SplitDesc(IN, tuple(_out([2, 8, 96, n]) for n in (40, 8, 80)), 3),
    **{f"PADDING {m}": _padding(m) for m in ("CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC")},
    **{
        f"PADDING {m} many periods": _padding(m, (6, 5, 4, 3), (0, 9, 11, 40), (5, 13, 7, 31))
        for m in ("REFLECTION", "SYMMETRIC")
    },
}


@pytest.mark.parametrize("name", CASES)
def test_peak_memory_under_1_5x_input_plus_output(name: str) -> None:
    # given
    desc = CASES[name]
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2**32, size=desc.input_tensor.sizes, dtype=np.uint32).view(np.float32)
    in_bytes = x.nbytes
    out_bytes = sum(math.prod(t.sizes) * 4 for t in desc.output_tensors)
    # act
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    outputs = oracle.compute(desc, [x])
    peak = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
    # assert: the outputs are all that stays, and the peak is under the bound
    assert sum(y.nbytes for y in outputs) == out_bytes
    ratio = (in_bytes + peak) / (in_bytes + out_bytes)
    assert ratio < 1.5, f"{name}: peak {in_bytes + peak} bytes = {ratio:.2f}x (input + output)"

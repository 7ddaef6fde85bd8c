"""Property runs per operator: random valid descriptors and raw-bit values, both ONNX backends vs the oracle.

Values are drawn as raw bits (NaN payloads, signalling NaNs, -0.0, denormals, infinities)
for all eleven data types and ranks 1-8.  Every run passes bit-exact, or is unsupported
for one of the reasons listed below (anything else fails), or is ORT's known FLOAT16 Pad
NaN quieting (xfail, kept visible).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from backend_helpers import BACKENDS, EXPECTED_UNSUPPORTED, check
from hypothesis import given
from hypothesis import strategies as st

import oracle
from oracle import ALL_DATA_TYPES, DataType, PaddingMode, TensorDesc
from oracle import DEFAULT_FEATURE_LEVEL as FL

MAX_ELEMENTS = 256  # keeps rank-8 inputs tiny: the cases test index maps, not bandwidth
MAX_OUTPUT_ELEMENTS = 4096  # padding grows every axis: unbounded, rank 8 with pads of 5 is 11**8 elements

SPECIAL_BITS = {
    DataType.FLOAT16: [0x7E00, 0x7D12, 0xFC01, 0x7C00, 0xFC00, 0x8000, 0x0001, 0x83FF],
    DataType.FLOAT32: [0x7FC00000, 0x7F800001, 0xFFC01234, 0x7F800000, 0x80000000, 0x00000001, 0x807FFFFF],
    DataType.FLOAT64: [0x7FF8000000000000, 0x7FF0000000000001, 0xFFF8000000000123, 0x8000000000000000, 1],
}


@st.composite
def shapes(draw, rank: int) -> tuple[int, ...]:
    """Sizes 1-5 per axis, shrinking towards 1, capped at MAX_ELEMENTS elements."""
    sizes = []
    for _ in range(rank):
        room = MAX_ELEMENTS // max(1, math.prod(sizes))
        sizes.append(draw(st.integers(1, max(1, min(5, room)))))
    return tuple(sizes)


@st.composite
def tensors(draw, data_type: DataType, shape: tuple[int, ...]) -> np.ndarray:
    """Raw bits: random bytes (one draw: fast) with some elements overwritten by the type's special values."""
    count = math.prod(shape)
    width = data_type.bits.itemsize
    raw = draw(st.binary(min_size=count * width, max_size=count * width))
    bits = np.frombuffer(raw, dtype=data_type.bits).copy()
    specials = SPECIAL_BITS.get(data_type, [0, 2 ** (8 * width) - 1])
    for index, value in draw(st.lists(st.tuples(st.integers(0, count - 1), st.sampled_from(specials)), max_size=8)):
        bits[index] = value
    return bits.view(data_type.numpy).reshape(shape)


@st.composite
def inputs(draw):
    data_type = draw(st.sampled_from(ALL_DATA_TYPES), label="data_type")
    shape = draw(shapes(draw(st.integers(1, 8), label="rank")), label="shape")
    return data_type, shape, draw(tensors(data_type, shape), label="input")


@st.composite
def slice_cases(draw):
    data_type, shape, x = draw(inputs())
    offsets, sizes, strides = [], [], []
    for n in shape:
        offset = draw(st.integers(0, n - 1))
        stride = draw(st.integers(0, 3))  # 0 is U-SLICE-1: repeats one element
        reach = (n - 1 - offset) // stride + 1 if stride else n
        offsets.append(offset)
        sizes.append(draw(st.integers(1, max(1, reach))))
        strides.append(stride)
    return oracle.SliceDesc(
        TensorDesc(data_type, shape), TensorDesc(data_type, tuple(sizes)), offsets, sizes, strides
    ), x


@st.composite
def slice1_cases(draw):
    data_type, shape, x = draw(inputs())
    offsets, sizes, strides, outs = [], [], [], []
    for n in shape:
        offset = draw(st.integers(0, n - 1))
        size = draw(st.integers(1, n - offset))
        stride = draw(st.integers(1, 3)) * draw(st.sampled_from([1, -1]))
        offsets.append(offset)
        sizes.append(size)
        strides.append(stride)
        outs.append(draw(st.integers(1, oracle.op_slice1.max_copied_elements(size, stride))))
    return oracle.Slice1Desc(
        TensorDesc(data_type, shape), TensorDesc(data_type, tuple(outs)), offsets, sizes, strides
    ), x


# The modes valid at FL (WRAP is 6.4, WRAP.1; tests/backends/test_lowering.py holds its ONNX form).
MODES = [m for m in PaddingMode if oracle.op_padding.MODE_INTRODUCED.get(m, (FL,))[0] <= FL]


def paddings(draw, shape: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Start and end paddings up to 5 per side (past a size-4 axis: periodic folding), within MAX_OUTPUT_ELEMENTS."""
    start: list[int] = []
    end: list[int] = []
    for i, n in enumerate(shape):
        room = MAX_OUTPUT_ELEMENTS // (
            math.prod(s + n + e for s, n, e in zip(start, shape, end)) * math.prod(shape[i:])
        )
        extra = min(10, max(0, room - 1) * n)
        start.append(draw(st.integers(0, min(5, extra))))
        end.append(draw(st.integers(0, min(5, extra - start[-1]))))
    return start, end


@st.composite
def padding_cases(draw):
    data_type, shape, x = draw(inputs())
    mode = draw(st.sampled_from(MODES), label="mode")
    start, end = paddings(draw, shape)
    value = draw(
        st.one_of(
            st.floats(width=32), st.integers(0, 2**32 - 1).map(lambda b: np.array(b, dtype="<u4").view("<f4")[()])
        ),
        label="padding_value",
    )
    out = tuple(n + s + e for n, s, e in zip(shape, start, end))
    return oracle.PaddingDesc(TensorDesc(data_type, shape), TensorDesc(data_type, out), mode, value, start, end), x


@st.composite
def padding1_cases(draw):
    """DML_PADDING1: the value is any bit pattern of the tensor's own type (PAD1.4), NaN payloads included."""
    data_type, shape, x = draw(inputs())
    mode = draw(st.sampled_from(MODES), label="mode")
    start, end = paddings(draw, shape)
    value = draw(tensors(data_type, ()), label="padding_value")[()]
    out = tuple(n + s + e for n, s, e in zip(shape, start, end))
    desc = oracle.Padding1Desc(
        TensorDesc(data_type, shape), TensorDesc(data_type, out), mode, data_type, value, start, end
    )
    return desc, x


@st.composite
def split_cases(draw):
    data_type, shape, x = draw(inputs())
    axis = draw(st.integers(0, len(shape) - 1), label="axis")
    cuts = sorted(draw(st.sets(st.integers(1, shape[axis] - 1))) if shape[axis] > 1 else [])
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, shape[axis]])]
    outputs = tuple(TensorDesc(data_type, (*shape[:axis], p, *shape[axis + 1 :])) for p in parts)
    return oracle.SplitDesc(TensorDesc(data_type, shape), outputs, axis), x


@st.composite
def join_cases(draw):
    """DML_JOIN: a SPLIT drawn as above, read the other way (its outputs' shapes are JOIN's inputs)."""
    split, _ = draw(split_cases())
    xs = [draw(tensors(t.data_type, t.sizes), label=f"input {j}") for j, t in enumerate(split.output_tensors)]
    return oracle.join_desc(split.output_tensors, split.axis), xs


STRATEGIES = {
    "SLICE": slice_cases(),
    "SLICE1": slice1_cases(),
    "PADDING": padding_cases(),
    "SPLIT": split_cases(),
    "PADDING1": padding1_cases(),
    "JOIN": join_cases(),
}


@pytest.mark.parametrize("backend_name", sorted(BACKENDS))
@pytest.mark.parametrize("operator", sorted(STRATEGIES))
def test_matches_the_oracle(operator, backend_name):
    @given(data=st.data())
    def run(data):
        desc, x = data.draw(STRATEGIES[operator], label="case")
        xs = x if isinstance(x, list) else [x]  # JOIN's several inputs
        expected = oracle.compute(desc, xs, feature_level=FL)
        outcome = check(backend_name, desc, xs, expected, FL)
        if outcome == "unsupported":
            reason = BACKENDS[backend_name].run(desc, xs, FL).reason
            assert any(re.search(p, reason) for p in EXPECTED_UNSUPPORTED[backend_name]), reason

    run()


@pytest.mark.parametrize("backend_name", sorted(BACKENDS))
@given(case=split_cases())
def test_join_of_the_backends_split_is_the_input(backend_name, case):
    """JOIN.6 / SPLIT.6 on the backend alone, no oracle: its JOIN of its own SPLIT's outputs is the input, bit for
    bit (a backend that has both operators)."""
    desc, x = case
    backend = BACKENDS[backend_name]
    parts = backend.run(desc, [x], FL)
    if parts.status == "unsupported":
        return
    assert parts.status == "ok", parts.reason
    joined = backend.run(oracle.join_desc(desc.output_tensors, desc.axis), list(parts.outputs), FL)
    assert joined.status == "ok", joined.reason
    assert joined.outputs[0].tobytes() == np.ascontiguousarray(x).tobytes()

"""The literal paths (one element at a time, as the pages write it) equal the fast paths, bit for bit.

And both equal the index maps read literally (core.gather): the maps define the semantics,
the fast paths are block copies (strided views, mirrored bands) that must agree with them.
Property tests read given -> draw -> act -> assert.  Values are drawn as raw bits, biased
towards NaN payloads (quiet and signalling), -0.0, denormals and infinities, for all eleven
data types and ranks 1 to 8.  Next to them, numpy-TestReflect-style hand-written arrays for
the hard cases, and a cross-check against numpy's own np.pad (an independent implementation).
"""

from __future__ import annotations

import itertools
import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, note
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import oracle
from conformance.judging.compare import compare_outputs
from oracle import (
    DataType,
    FeatureLevel,
    PaddingDesc,
    PaddingMode,
    Slice1Desc,
    SliceDesc,
    SplitDesc,
    TensorDesc,
    core,
    op_padding,
    op_slice_grad,
)
from oracle.op_slice1 import max_copied_elements

# Size caps.  The literal path is a Python loop over output elements, so every example is
# kept to at most MAX_OUTPUT_ELEMENTS outputs (CI runs 60 examples per test in well under a
# second each) and MAX_INPUT_ELEMENTS inputs; padding may still be many times the input
# (a 1-element axis padded by up to MAX_OUTPUT_ELEMENTS - 1).
MAX_INPUT_ELEMENTS = 64
MAX_OUTPUT_ELEMENTS = 256
MAX_AXIS = 6  # largest input size along one axis
MAX_STRIDE = 5

# Bit patterns worth hitting on purpose, per element width in bytes.
SPECIAL_BITS = {
    1: (0x00, 0x01, 0x7F, 0x80, 0xFF),
    2: (0x0000, 0x8000, 0x0001, 0x03FF, 0x7C00, 0xFC00, 0x7E01, 0x7C01, 0xFE00, 0xFFFF),
    4: (
        0x00000000,
        0x80000000,
        0x00000001,
        0x007FFFFF,
        0x7F800000,
        0xFF800000,
        0x7FC00001,
        0x7F800001,
        0xFFC00000,
        0xFFFFFFFF,
    ),
    8: (
        0,
        0x8000000000000000,
        1,
        0x000FFFFFFFFFFFFF,
        0x7FF0000000000000,
        0xFFF0000000000000,
        0x7FF8000000000001,
        0x7FF0000000000001,
        0xFFFFFFFFFFFFFFFF,
    ),
}

data_types = st.sampled_from(oracle.ALL_DATA_TYPES)


def tensor_values(data_type: DataType, shape: tuple[int, ...]) -> st.SearchStrategy[np.ndarray]:
    """Arrays of `shape` drawn as raw bits (shrinks towards 0 bits), viewed as `data_type`."""
    width = data_type.numpy.itemsize
    elements = st.one_of(st.sampled_from(SPECIAL_BITS[width]), st.integers(0, 2 ** (8 * width) - 1))
    return arrays(data_type.bits, shape, elements=elements).map(lambda bits: bits.view(data_type.numpy))


def assert_same(fast: list[np.ndarray], literal: list[np.ndarray]) -> None:
    __tracebackhide__ = True
    result = compare_outputs(literal, fast)
    assert result.equal, result.summary()


def from_maps(desc, x: np.ndarray) -> list[np.ndarray]:
    """The outputs read literally from the operator's index maps, one take per axis."""
    module = oracle.REGISTRY[desc.operator]
    data_type = desc.input_tensor.data_type
    if isinstance(desc, SplitDesc):
        return [core.gather(x, data_type, maps) for maps in module.index_maps(desc)]
    fill = op_padding.fill_value(desc) if isinstance(desc, PaddingDesc) else None
    if isinstance(desc, oracle.SliceGradDesc):
        fill = op_slice_grad.zero(desc)
    return [core.gather(x, data_type, module.index_maps(desc), fill)]


# Every padding mode is valid here, WRAP included (DML_FEATURE_LEVEL_6_4, WRAP.1).
NEWEST = max(FeatureLevel)


def run_both(desc, x: np.ndarray) -> None:
    """Fast path == literal path == the index maps, bit for bit."""
    note(f"descriptor: {oracle.descriptor_to_json(desc)}")
    note(f"input bits: {x.view(desc.input_tensor.data_type.bits).tolist()}")
    fast = oracle.compute(desc, [x], feature_level=NEWEST)
    literal = oracle.compute(desc, [x], literal=True, feature_level=NEWEST)
    assert_same(fast, literal)
    assert_same(fast, from_maps(desc, x))


def input_shape(draw, rank: int) -> tuple[int, ...]:
    """Sizes in [1, MAX_AXIS] with at most MAX_INPUT_ELEMENTS elements in all."""
    shape = []
    budget = MAX_INPUT_ELEMENTS
    for axis in range(rank):
        n = draw(st.integers(1, max(1, min(MAX_AXIS, budget))), label=f"input_sizes[{axis}]")
        budget //= n
        shape.append(n)
    return tuple(shape)


def draw_slice(data, strides: st.SearchStrategy[int], max_rank: int = 8) -> tuple[SliceDesc, np.ndarray]:
    """A DML_SLICE case whose strides come from `strides` (0 repeats an element: U-SLICE-1), and its input."""
    data_type = data.draw(data_types, label="data_type")
    rank = data.draw(st.integers(1, max_rank), label="rank")
    shape = input_shape(data.draw, rank)
    offsets, stride_list, sizes = [], [], []
    for i, n in enumerate(shape):
        offset = data.draw(st.integers(0, n - 1), label=f"offsets[{i}]")
        stride = data.draw(strides, label=f"strides[{i}]")
        limit = 4 if stride == 0 else 1 + (n - 1 - offset) // stride
        sizes.append(data.draw(st.integers(1, limit), label=f"sizes[{i}]"))
        offsets.append(offset)
        stride_list.append(stride)
    desc = SliceDesc(TensorDesc(data_type, shape), TensorDesc(data_type, tuple(sizes)), offsets, sizes, stride_list)
    return desc, data.draw(tensor_values(data_type, shape), label="input")


def draw_slice1(data, signs: list[int]) -> tuple[Slice1Desc, np.ndarray]:
    """A DML_SLICE1 case whose strides take their sign from `signs`, and its input."""
    data_type = data.draw(data_types, label="data_type")
    rank = data.draw(st.integers(1, 8), label="rank")
    shape = input_shape(data.draw, rank)
    offsets, sizes, strides, out = [], [], [], []
    for i, n in enumerate(shape):
        offset = data.draw(st.integers(0, n - 1), label=f"window_offsets[{i}]")
        size = data.draw(st.integers(1, n - offset), label=f"window_sizes[{i}]")
        magnitude = data.draw(st.integers(1, MAX_STRIDE), label=f"|window_strides[{i}]|")
        stride = magnitude * data.draw(st.sampled_from(signs), label=f"sign[{i}]")
        out.append(data.draw(st.integers(1, max_copied_elements(size, stride)), label=f"output_sizes[{i}]"))
        offsets.append(offset)
        sizes.append(size)
        strides.append(stride)
    desc = Slice1Desc(TensorDesc(data_type, shape), TensorDesc(data_type, tuple(out)), offsets, sizes, strides)
    return desc, data.draw(tensor_values(data_type, shape), label="input")


@given(data=st.data())
def test_slice_literal_equals_fast(data) -> None:
    # given
    desc, x = draw_slice(data, st.integers(0, MAX_STRIDE))
    # act, assert
    run_both(desc, x)


@given(data=st.data())
def test_slice1_literal_equals_fast(data) -> None:
    desc, x = draw_slice1(data, [1, -1])
    run_both(desc, x)


def draw_slice_grad(data) -> tuple[oracle.SliceGradDesc, np.ndarray]:
    """A DML_SLICE_GRAD case: a SLICE1 window read backwards (SLICE1's input sizes are the output's), its input."""
    forward, _ = draw_slice1(data, [1, -1])
    desc = oracle.SliceGradDesc(
        forward.output_tensor,
        forward.input_tensor,
        forward.window_offsets,
        forward.window_sizes,
        forward.window_strides,
    )
    return desc, data.draw(tensor_values(desc.input_tensor.data_type, desc.input_tensor.sizes), label="input")


@given(data=st.data())
def test_slice_grad_literal_equals_fast(data) -> None:
    desc, x = draw_slice_grad(data)
    run_both(desc, x)


@given(data=st.data())
def test_slice1_of_slice_grad_is_its_input(data) -> None:
    """SGRAD.1: SLICE_GRAD is the inverse map of SLICE1; SLICE1 with the same window gives the input back."""
    desc, x = draw_slice_grad(data)
    (grad,) = oracle.compute(desc, [x], feature_level=NEWEST)
    forward = Slice1Desc(
        desc.output_tensor, desc.input_tensor, desc.window_offsets, desc.window_sizes, desc.window_strides
    )
    assert_same(oracle.compute(forward, [grad], feature_level=NEWEST), [x])


def test_slice_grad_hand_written() -> None:
    """The page's diagram with a negative stride on axis 1: InputGradient's columns land right to left."""
    desc = oracle.SliceGradDesc(
        TensorDesc(DataType.INT32, (2, 2)), TensorDesc(DataType.INT32, (4, 4)), (0, 0), (4, 4), (2, -2)
    )
    x = np.array([[1, 2], [3, 4]], np.int32)
    want = np.array([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], np.int32)
    want[0, 3], want[0, 1], want[2, 3], want[2, 1] = 1, 2, 3, 4
    for literal in (False, True):
        assert_same(oracle.compute(desc, [x], literal=literal, feature_level=NEWEST), [want])


@given(data=st.data())
def test_padding_literal_equals_fast(data) -> None:
    data_type = data.draw(data_types, label="data_type")
    mode = data.draw(st.sampled_from(PaddingMode), label="padding_mode")
    rank = data.draw(st.integers(1, 8), label="rank")
    shape = input_shape(data.draw, rank)
    start, end = [], []
    budget = MAX_OUTPUT_ELEMENTS // math.prod(shape)
    for i, n in enumerate(shape):
        # The whole remaining budget may go to one axis: padding up to many periods of it.
        room = max(0, budget * n - n)
        s = data.draw(st.integers(0, room), label=f"start_padding[{i}]")
        e = data.draw(st.integers(0, room - s), label=f"end_padding[{i}]")
        budget = max(1, budget * n // (n + s + e))
        start.append(s)
        end.append(e)
    out = tuple(n + s + e for n, s, e in zip(shape, start, end))
    bits = data.draw(st.one_of(st.sampled_from(SPECIAL_BITS[4]), st.integers(0, 2**32 - 1)), label="padding_value bits")
    value = np.array(bits, dtype="<u4").view("<f4")[()]
    desc = PaddingDesc(TensorDesc(data_type, shape), TensorDesc(data_type, out), mode, value, start, end)
    x = data.draw(tensor_values(data_type, shape), label="input")
    run_both(desc, x)
    # An independent implementation agrees too: numpy's pad on the raw bits (non-CONSTANT modes;
    # numpy's 'reflect' repeats a size-1 axis, the U-PAD-4 policy).
    if mode is not PaddingMode.CONSTANT:
        numpy_mode = {"EDGE": "edge", "REFLECTION": "reflect", "SYMMETRIC": "symmetric", "WRAP": "wrap"}[mode.value]
        expected = np.pad(x.view(data_type.bits), list(zip(start, end)), mode=numpy_mode).view(data_type.numpy)
        assert_same(oracle.compute(desc, [x], feature_level=NEWEST), [expected])


@given(data=st.data())
def test_padding_large_1d_periodic(data) -> None:
    """One axis padded far beyond its size: many REFLECTION periods 2*(n-1), SYMMETRIC periods 2*n."""
    data_type = data.draw(data_types, label="data_type")
    mode = data.draw(st.sampled_from([PaddingMode.REFLECTION, PaddingMode.SYMMETRIC, PaddingMode.EDGE]), label="mode")
    n = data.draw(st.integers(1, 5), label="size")
    s = data.draw(st.integers(0, 60), label="start_padding")
    e = data.draw(st.integers(0, 60), label="end_padding")
    desc = PaddingDesc(TensorDesc(data_type, (n,)), TensorDesc(data_type, (n + s + e,)), mode, 0.0, (s,), (e,))
    x = data.draw(tensor_values(data_type, (n,)), label="input")
    run_both(desc, x)


@given(data=st.data())
def test_split_literal_equals_fast(data) -> None:
    data_type = data.draw(data_types, label="data_type")
    rank = data.draw(st.integers(1, 8), label="rank")
    shape = list(input_shape(data.draw, rank))
    axis = data.draw(st.integers(0, rank - 1), label="axis")
    # Many pieces: the split axis may be long (up to 32) as long as the input stays small.
    others = math.prod(shape) // shape[axis]
    shape[axis] = data.draw(st.integers(1, max(1, MAX_INPUT_ELEMENTS // others)), label=f"input_sizes[{axis}]")
    n = shape[axis]
    cuts = data.draw(st.sets(st.integers(1, n - 1), max_size=n - 1) if n > 1 else st.just(set()), label="cuts")
    edges = [0, *sorted(cuts), n]
    pieces = [b - a for a, b in itertools.pairwise(edges)]
    outs = tuple(TensorDesc(data_type, (*shape[:axis], p, *shape[axis + 1 :])) for p in pieces)
    desc = SplitDesc(TensorDesc(data_type, tuple(shape)), outs, axis)
    x = data.draw(tensor_values(data_type, tuple(shape)), label="input")
    run_both(desc, x)
    # SPLIT.6: joining the outputs along Axis gives back the input, bit for bit.
    joined = np.concatenate([y.view(data_type.bits) for y in oracle.compute(desc, [x])], axis=axis)
    assert_same([joined.view(data_type.numpy)], [x])


# --- aimed at the block copies: many periods, size-1 axes, stride 0, reversed axes --------

PERIODIC = [PaddingMode.REFLECTION, PaddingMode.SYMMETRIC, PaddingMode.EDGE]


def draw_padding(data, modes: list[PaddingMode], shape: tuple[int, ...], max_padding: int):
    """A DML_PADDING case on `shape` with each start and end padding in [0, max_padding], and its input."""
    data_type = data.draw(data_types, label="data_type")
    mode = data.draw(st.sampled_from(modes), label="padding_mode")
    start = tuple(data.draw(st.integers(0, max_padding), label=f"start_padding[{i}]") for i in range(len(shape)))
    end = tuple(data.draw(st.integers(0, max_padding), label=f"end_padding[{i}]") for i in range(len(shape)))
    out = tuple(n + s + e for n, s, e in zip(shape, start, end))
    desc = PaddingDesc(TensorDesc(data_type, shape), TensorDesc(data_type, out), mode, -0.0, start, end)
    return desc, data.draw(tensor_values(data_type, shape), label="input")


@given(data=st.data())
def test_padding_many_periods_on_every_axis(data) -> None:
    """Padding larger than the axis on several axes at once (rank 1-3, sizes 1-3): the doubling
    periodic copies, the mirrored first band and the size-1 branch (U-PAD-4), with band copies cut
    into chunks as small as one index (BAND_CHUNK_BYTES)."""
    # given
    rank = data.draw(st.integers(1, 3), label="rank")
    shape = tuple(data.draw(st.integers(1, 3), label=f"input_sizes[{i}]") for i in range(rank))
    # output elements stay under ~4,000 (the literal loop)
    desc, x = draw_padding(data, list(PaddingMode), shape, max_padding={1: 60, 2: 12, 3: 4}[rank])
    chunk = data.draw(st.sampled_from([1, 5, op_padding.BAND_CHUNK_BYTES]), label="BAND_CHUNK_BYTES")
    # act, assert
    with mock.patch.object(op_padding, "BAND_CHUNK_BYTES", chunk):
        run_both(desc, x)


@given(data=st.data())
def test_padding_size_1_axes(data) -> None:
    """Every padded axis has size 1: EDGE, SYMMETRIC and REFLECTION (U-PAD-4) all repeat the element."""
    rank = data.draw(st.integers(1, 4), label="rank")
    desc, x = draw_padding(data, PERIODIC, (1,) * rank, max_padding=4)
    run_both(desc, x)
    assert_same(oracle.compute(desc, [x]), [np.broadcast_to(x, desc.output_tensor.sizes)])


@given(data=st.data())
def test_slice_stride_0_on_several_axes(data) -> None:
    """U-SLICE-1 on any subset of the axes (half of them on average): a broadcast of one element each."""
    desc, x = draw_slice(data, st.sampled_from([0, 0, 1, 2]), max_rank=5)
    run_both(desc, x)


@given(data=st.data())
def test_slice1_negative_strides_on_every_axis(data) -> None:
    """Every axis reversed, from the window's end (SLICE1.2), with strides up to MAX_STRIDE."""
    desc, x = draw_slice1(data, [-1])
    run_both(desc, x)


# --- hand-written expected arrays (numpy TestReflect style) ---------------------------------


def pad1d(values: list[int], mode: str, start: int, end: int, dtype: str = "float32") -> list[np.ndarray]:
    x = np.array(values, dtype=dtype)
    return [
        oracle.padding(x, mode, [start], [end]),
        *oracle.compute(
            PaddingDesc(
                TensorDesc(DataType.parse(dtype), (len(values),)),
                TensorDesc(DataType.parse(dtype), (len(values) + start + end,)),
                mode,
                0.0,
                (start,),
                (end,),
            ),
            [x],
            literal=True,
        ),
    ]


def check_both(results: list[np.ndarray], expected: list) -> None:
    __tracebackhide__ = True
    for r in results:
        assert r.tolist() == expected


@pytest.mark.parametrize("dtype", ["float32", "int8", "uint64", "float16"])
def test_reflect_1d_pad_4(dtype: str) -> None:
    check_both(pad1d([1, 2, 3], "REFLECTION", 4, 4, dtype), [1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3])


def test_symmetric_1d_pad_7() -> None:
    check_both(pad1d([1, 2, 3], "SYMMETRIC", 7, 7), [1, 1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1, 2, 3, 3])


def test_symmetric_pad_equal_to_size_is_plain_mirror() -> None:
    """U-PAD-5: SYMMETRIC with padding == size is the plain mirror."""
    check_both(pad1d([1, 2, 3], "SYMMETRIC", 3, 3), [3, 2, 1, 1, 2, 3, 3, 2, 1])


def test_reflect_pad_equal_to_size_folds() -> None:
    """U-PAD-5: REFLECTION with padding == size already folds (period 4 on size 3)."""
    check_both(pad1d([1, 2, 3], "REFLECTION", 3, 3), [2, 3, 2, 1, 2, 3, 2, 1, 2])


def test_edge_1d() -> None:
    check_both(pad1d([1, 2, 3], "EDGE", 2, 3), [1, 1, 1, 2, 3, 3, 3, 3])


def test_constant_1d() -> None:
    x = np.array([1, 2, 3], dtype=np.int16)
    assert oracle.padding(x, "CONSTANT", [2], [1], padding_value=-7.9).tolist() == [-7, -7, 1, 2, 3, -7]


def test_reflect_size_1_repeats_the_element() -> None:
    """U-PAD-4: the period 2*(1-1) is 0; the only element is repeated, and the case is observed."""
    check_both(pad1d([5], "REFLECTION", 3, 3), [5, 5, 5, 5, 5, 5, 5])
    desc = PaddingDesc(
        TensorDesc.of("FLOAT32", [1, 3]), TensorDesc.of("FLOAT32", [3, 3]), "REFLECTION", 0.0, (1, 0), (1, 0)
    )
    assert oracle.unspecified(desc) == ["U-PAD-4"]
    assert (
        oracle.unspecified(
            PaddingDesc(
                TensorDesc.of("FLOAT32", [1, 3]), TensorDesc.of("FLOAT32", [1, 5]), "REFLECTION", 0.0, (0, 1), (0, 1)
            )
        )
        == []
    )


def test_symmetric_2d_periodic() -> None:
    x = np.array([[1, 2], [3, 4]], dtype=np.float32)
    expected = [
        [3, 4, 4, 3, 3, 4, 4],
        [3, 4, 4, 3, 3, 4, 4],
        [1, 2, 2, 1, 1, 2, 2],
        [1, 2, 2, 1, 1, 2, 2],
        [3, 4, 4, 3, 3, 4, 4],
    ]
    desc = PaddingDesc(
        TensorDesc.of("FLOAT32", [2, 2]), TensorDesc.of("FLOAT32", [5, 7]), "SYMMETRIC", 0.0, (3, 0), (0, 5)
    )
    for literal in (False, True):
        assert oracle.compute(desc, [x], literal=literal)[0].tolist() == expected


def test_slice1_negative_stride_1d() -> None:
    """Window [2, 9) with stride -3 starts at its end (8): 8, 5, 2."""
    x = np.arange(10, dtype=np.int32)
    assert oracle.slice1(x, [2], [7], [-3]).tolist() == [8, 5, 2]
    assert oracle.slice1(x, [2], [7], [-3], [2]).tolist() == [8, 5]


def test_nan_payloads_and_negative_zero_survive() -> None:
    bits = np.array([0x7FC00001, 0x7F800001, 0x80000000, 0x00000001], dtype="<u4")
    x = bits.view("<f4")
    for literal in (False, True):
        desc = Slice1Desc(TensorDesc.of("FLOAT32", [4]), TensorDesc.of("FLOAT32", [4]), (0,), (4,), (-1,))
        y = oracle.compute(desc, [x], literal=literal)[0]
        assert y.view("<u4").tolist() == [0x00000001, 0x80000000, 0x7F800001, 0x7FC00001]


def test_reflect_2d_pad_beyond_size_2() -> None:
    """REFLECTION on 2x2 with padding past the size on both axes: period 2 alternates rows and columns."""
    x = np.array([[1, 2], [3, 4]], dtype=np.uint16)
    desc = PaddingDesc(
        TensorDesc.of("UINT16", [2, 2]), TensorDesc.of("UINT16", [7, 7]), "REFLECTION", 0.0, (3, 2), (2, 3)
    )
    odd, even = [3, 4, 3, 4, 3, 4, 3], [1, 2, 1, 2, 1, 2, 1]
    for literal in (False, True):
        assert oracle.compute(desc, [x], literal=literal)[0].tolist() == [odd, even, odd, even, odd, even, odd]


def test_symmetric_with_a_size_1_axis() -> None:
    """SYMMETRIC repeats a size-1 axis; the size-3 axis padded by 4 folds twice (period 6)."""
    x = np.array([[1, 2, 3]], dtype=np.int8)
    desc = PaddingDesc(TensorDesc.of("INT8", [1, 3]), TensorDesc.of("INT8", [4, 7]), "SYMMETRIC", 0.0, (2, 4), (1, 0))
    for literal in (False, True):
        assert oracle.compute(desc, [x], literal=literal)[0].tolist() == [[3, 3, 2, 1, 1, 2, 3]] * 4


def test_edge_2d() -> None:
    x = np.array([[1, 2], [3, 4]], dtype=np.float64)
    assert oracle.padding(x, "EDGE", [1, 0], [0, 2]).tolist() == [[1, 2, 2, 2], [1, 2, 2, 2], [3, 4, 4, 4]]


def test_slice_stride_0_hand_written() -> None:
    """U-SLICE-1: stride 0 on both axes repeats x[2, 1]; on one axis it repeats a row."""
    x = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert oracle.slice(x, [2, 1], [2, 3], [0, 0]).tolist() == [[9, 9, 9], [9, 9, 9]]
    assert oracle.slice(x, [2, 0], [3, 2], [0, 3]).tolist() == [[8, 11], [8, 11], [8, 11]]


def test_slice1_negative_strides_on_three_axes() -> None:
    """x[i, j, k] = 12i + 4j + k; window [0:2, 0:3, 1:4], strides -1, -2, -2 start at (1, 2, 3)."""
    x = np.arange(24, dtype=np.uint32).reshape(2, 3, 4)
    expected = [[[23, 21], [15, 13]], [[11, 9], [3, 1]]]
    assert oracle.slice1(x, [0, 0, 1], [2, 3, 3], [-1, -2, -2]).tolist() == expected


def test_float16_nan_payloads_survive_periodic_reflection() -> None:
    """Size 4 padded by 5 on both sides (period 6): input indices 1,2,3,2,1,0,1,2,3,2,1,0,1,2."""
    bits = np.array([0x7E01, 0x8000, 0x7C01, 0x0001], dtype="<u2")
    desc = PaddingDesc(TensorDesc.of("FLOAT16", [4]), TensorDesc.of("FLOAT16", [14]), "REFLECTION", 0.0, (5,), (5,))
    expected = [
        0x8000,
        0x7C01,
        0x0001,
        0x7C01,
        0x8000,
        0x7E01,
        0x8000,
        0x7C01,
        0x0001,
        0x7C01,
        0x8000,
        0x7E01,
        0x8000,
        0x7C01,
    ]
    for literal in (False, True):
        assert oracle.compute(desc, [bits.view("<f2")], literal=literal)[0].view("<u2").tolist() == expected


def test_strided_and_big_endian_inputs_read_as_their_values() -> None:
    """A transposed, reversed or big-endian input is read by value, like its contiguous copy."""
    base = np.arange(60, dtype="<u2").reshape(5, 12).view("<f2")
    for x in (base.T, base[::-1, ::2], base.astype(">f2")):
        expected = np.ascontiguousarray(x, dtype="<f2")
        for mode in ("REFLECTION", "CONSTANT"):
            got = oracle.padding(x, mode, [2, 7], [3, 1], padding_value=-1.0)
            assert_same([got], [oracle.padding(expected, mode, [2, 7], [3, 1], padding_value=-1.0)])
        assert_same([oracle.slice1(x, [1, 0], [3, 2], [-1, 1])], [expected[3:0:-1, 0:2]])

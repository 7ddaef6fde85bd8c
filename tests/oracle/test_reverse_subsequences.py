"""DML_REVERSE_SUBSEQUENCES (REVSEQ.*): its two inputs of two data types, validation clause by clause, the lengths'
clamp and no-ops, and the fast path against the literal one on drawn cases."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from oracle import DataType, TensorDesc
from oracle.op_reverse_subsequences import lengths_types

T = TensorDesc.of


def _desc(sizes=(1, 1, 2, 3), axis=3, data_type="FLOAT32", lengths_type="UINT32"):
    return oracle.reverse_subsequences_desc(T(data_type, sizes), axis, lengths_type)


def rejects(desc, clause: str, fragment: str, level: str = "5.0") -> None:
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(desc, level)
    assert e.value.clause == clause and fragment in str(e.value), str(e.value)


def test_the_lengths_have_the_inputs_sizes_with_1_on_the_axis() -> None:
    """REVSEQ.2's own example: {2,3,4,5} along axis 1 takes lengths of {2,1,4,5}."""
    assert _desc((2, 3, 4, 5), 1).sequence_lengths_tensor.sizes == (2, 1, 4, 5)


def test_the_lengths_types_follow_the_level() -> None:
    """REVSEQ.8: UINT32 from 2.1, UINT64 too from 5.0; never a signed or float type."""
    assert lengths_types(oracle.FeatureLevel.FL_2_0) == ()
    assert lengths_types(oracle.FeatureLevel.FL_4_1) == (DataType.UINT32,)
    assert set(lengths_types(oracle.FeatureLevel.FL_5_0)) == {DataType.UINT32, DataType.UINT64}
    oracle.validate(_desc(lengths_type="UINT64"), "5.0")
    rejects(_desc(lengths_type="UINT64"), "REVSEQ.8", "sequence_lengths_tensor.data_type=UINT64", "4.1")
    rejects(_desc(lengths_type="INT32"), "REVSEQ.8", "supports UINT64, UINT32")
    # The data's type is its own (REVSEQ.7): an INT64 tensor with UINT32 lengths is valid at 5.0.
    oracle.validate(_desc(data_type="INT64"), "5.0")


def test_each_rule_names_its_clause() -> None:
    d = _desc()
    rejects(dataclasses.replace(d, axis=4), "REVSEQ.6", "less than InputTensor.DimensionCount=4")
    rejects(dataclasses.replace(d, axis=2**32), "REVSEQ.6", "Axis is UINT")
    rejects(dataclasses.replace(d, sequence_lengths_tensor=T("UINT32", (1, 1, 2, 3))), "REVSEQ.2", "[1, 1, 2, 1]")
    rejects(dataclasses.replace(d, sequence_lengths_tensor=T("UINT32", (1, 2, 1))), "REVSEQ.2", "DimensionCount=3")
    rejects(dataclasses.replace(d, output_tensor=T("FLOAT32", (1, 1, 2, 4))), "REVSEQ.5", "InputTensor's sizes")
    rejects(dataclasses.replace(d, output_tensor=T("INT32", (1, 1, 2, 3))), "COMMON.1", "data_type=INT32")
    rejects(_desc((1, 1, 2, 3, 1, 1)), "REVSEQ.7", "DimensionCount=6", "3.0")
    rejects(_desc(), "REVSEQ.7", "needs DML_FEATURE_LEVEL_2_1", "2.0")


@pytest.mark.parametrize("literal", [False, True], ids=["fast", "literal"])
def test_clamp_and_no_ops(literal: bool) -> None:
    """REVSEQ.3 and REVSEQ.4 by hand: lengths 0, 1, 3 (the axis), 4 and UINT64's end on {1, 2, 3}."""
    x = np.tile(np.array([1, 2, 3], np.int8), (5, 1))
    d = _desc((5, 3), 1, "INT8", "UINT64")
    lengths = np.array([0, 1, 3, 4, 2**64 - 1], np.uint64).reshape(5, 1)
    (y,) = oracle.compute(d, [x, lengths], literal=literal)
    assert y.tolist() == [[1, 2, 3], [1, 2, 3], [3, 2, 1], [3, 2, 1], [3, 2, 1]]


def test_a_length_input_of_another_type_than_its_desc_is_refused() -> None:
    x = np.zeros((1, 1, 2, 3), np.float32)
    with pytest.raises(ValueError, match="input 1 has dtype int32"):
        oracle.compute(_desc(), [x, np.zeros((1, 1, 2, 1), np.int32)])


def test_explain_says_where_each_element_comes_from() -> None:
    x = np.array([[1, 2, 3]], np.float32)
    lines = oracle.explain(_desc((1, 3), 1), [x, np.array([[5]], np.uint32)])
    assert (
        lines[0]
        == "Output[0,0] = Input[axis 1: 3 - 1 - 0] (L = SequenceLengths[{0,0}] = min(5, 3) = 3) = Input[{0,2}] = 3"
    )


@st.composite
def cases(draw):
    rank = draw(st.integers(1, 5))
    sizes = tuple(draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    axis = draw(st.integers(0, rank - 1))
    lengths_type = draw(st.sampled_from(["UINT32", "UINT64"]))
    desc = _desc(sizes, axis, "UINT16", lengths_type)
    t = desc.sequence_lengths_tensor
    top = 2**32 - 1 if lengths_type == "UINT32" else 2**64 - 1
    values = draw(st.lists(st.one_of(st.integers(0, sizes[axis] + 2), st.just(top)), min_size=1, max_size=1))
    n = int(np.prod(t.sizes))
    lengths = np.resize(np.asarray(values + [draw(st.integers(0, 5)) for _ in range(n)], np.uint64), n)
    x = np.arange(int(np.prod(sizes)), dtype=np.uint16).reshape(sizes)
    return desc, [x, lengths.astype(t.data_type.numpy).reshape(t.sizes)]


@settings(max_examples=60, deadline=None)
@given(cases())
def test_fast_equals_literal(case) -> None:
    desc, xs = case
    (fast,) = oracle.compute(desc, xs)
    (literal,) = oracle.compute(desc, xs, literal=True)
    assert fast.tobytes() == literal.tobytes()

"""DML_ONE_HOT (ONEHOT.*): its index type apart from the values' type, validation clause by clause, indices past
the axis and below its start, and the fast path against the literal one on drawn cases."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from oracle import DataType, FeatureLevel, TensorDesc
from oracle.op_one_hot import indices_types

T = TensorDesc.of


def _desc(indices_sizes=(1, 1, 2, 1), depth=4, axis=3, values_type="FLOAT32", indices_type="UINT32", values_sizes=None):
    return oracle.one_hot_desc(T(indices_type, indices_sizes), depth, axis, values_type, values_sizes)


def rejects(desc, clause: str, fragment: str, level: str = "4.1") -> None:
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(desc, level)
    assert e.value.clause == clause and fragment in str(e.value), str(e.value)


def test_the_indices_types_follow_the_level() -> None:
    """ONEHOT.10: UINT32 from 2.0; INT64, INT32, UINT64 too from 3.0; never a float or narrower type."""
    assert indices_types(FeatureLevel.FL_1_0) == ()
    assert indices_types(FeatureLevel.FL_2_1) == (DataType.UINT32,)
    assert set(indices_types(FeatureLevel.FL_3_0)) == {DataType.INT64, DataType.INT32, DataType.UINT64, DataType.UINT32}
    oracle.validate(_desc(indices_type="INT64", values_type="UINT8"), "3.0")
    rejects(_desc(indices_type="INT64"), "ONEHOT.10", "indices_tensor.data_type=INT64", "2.1")
    rejects(_desc(indices_type="INT16"), "ONEHOT.10", "indices_tensor.data_type=INT16")


def test_each_rule_names_its_clause() -> None:
    d = _desc()
    rejects(
        oracle.OneHotDesc(T("UINT32", (1, 1, 2, 2)), d.values_tensor, d.output_tensor, 3),
        "ONEHOT.4",
        "[1, 1, 2, 1]",
    )
    rejects(
        oracle.OneHotDesc(T("UINT32", (1, 2, 1)), d.values_tensor, d.output_tensor, 2), "ONEHOT.4", "DimensionCount=3"
    )
    rejects(_desc(values_sizes=(1, 1, 1, 1)), "ONEHOT.5", "at least two")
    rejects(oracle.OneHotDesc(d.indices_tensor, d.values_tensor, d.output_tensor, 4), "ONEHOT.7", "axis=4")
    rejects(
        oracle.OneHotDesc(d.indices_tensor, T("INT32", (1, 1, 1, 2)), d.output_tensor, 3), "COMMON.1", "values_tensor"
    )
    rejects(oracle.OneHotDesc(d.indices_tensor, T("FLOAT32", (1, 2)), d.output_tensor, 3), "COMMON.1", "DimensionCount")
    rejects(_desc(values_type="INT8"), "ONEHOT.9", "values_tensor.data_type=INT8", "2.0")


@pytest.mark.parametrize("literal", [False, True], ids=["fast", "literal"])
def test_indices_past_the_axis_and_before_its_start(literal: bool) -> None:
    """ONEHOT.2 (past 2^32 and 2^63 in UINT64 too: the reported bug), E-ONEHOT-1 (= size), ONEHOT.3 (-1, -size);
    a row per index, an axis of 3; values 0 and 1 (rows typed in)."""
    u = _desc((5, 1), 3, 1, "UINT8", "UINT64")
    rows = [[3], [2**32 + 1], [2**63], [2**64 - 1], [2]]
    (out,) = oracle.compute(u, [np.array(rows, np.uint64), np.array([[0, 1]], np.uint8)], literal=literal)
    assert out.tolist() == [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 1]]
    s = _desc((4, 1), 3, 1, "UINT8", "INT32")
    indices = np.array([[-1], [-3], [-4], [-(2**31)]], np.int32)
    (out,) = oracle.compute(s, [indices, np.array([[0, 1]], np.uint8)], literal=literal)
    assert out.tolist() == [[0, 0, 1], [1, 0, 0], [0, 0, 0], [0, 0, 0]]
    # U-ONEHOT-1: only the rows below -size are open (value-dependent), every other element judged
    assert oracle.unspecified(s) == ["U-ONEHOT-1"] and oracle.unspecified(u) == []
    assert oracle.unspecified_mask(s, [indices, None])[0].tolist() == [[False] * 3, [False] * 3, [True] * 3, [True] * 3]


def test_on_value_is_the_first_along_the_fastest_dimension_past_one() -> None:
    """ONEHOT.5 on a {2,1} ValuesTensor (its fastest dimension of size > 1 is the first): OnValue is element 1."""
    d = _desc((1, 1), 2, 1, "INT16", values_sizes=(2, 1))
    (out,) = oracle.compute(d, [np.array([[1]], np.uint32), np.array([[7], [-9]], np.int16)])
    assert out.tolist() == [[7, -9]]


def test_explain_says_why_each_element_is_on_or_off() -> None:
    d = _desc((2, 1), 2, 1, "FLOAT32", "INT64")
    lines = oracle.explain(d, [np.array([[-1], [5]], np.int64), np.array([[0, 1]], np.float32)])
    assert lines[1] == "Output[0,1] = OnValue (Indices[{0,0}] = -1 + 2 = 1; axis 1 at 1) = 1"
    assert lines[2] == "Output[1,0] = OffValue (Indices[{1,0}] = 5 >= 2: ignored; axis 1 at 0) = 0"


@st.composite
def cases(draw):
    rank = draw(st.integers(1, 5))
    sizes = tuple(draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    axis = draw(st.integers(0, rank - 1))
    indices_type = draw(st.sampled_from(["UINT32", "UINT64", "INT32", "INT64"]))
    indices = TensorDesc.of(indices_type, tuple(1 if d == axis else n for d, n in enumerate(sizes)))
    desc = oracle.one_hot_desc(indices, sizes[axis], axis, "FLOAT16")
    info = np.iinfo(indices.data_type.numpy)
    n = int(np.prod(indices.sizes))
    ends = st.sampled_from([int(info.min), int(info.max), -sizes[axis] - 1, 2**31 - 1])
    values = draw(st.lists(st.one_of(st.integers(-sizes[axis], sizes[axis] + 1), ends), min_size=n, max_size=n))
    if indices_type.startswith("U"):
        values = [abs(v) for v in values]
    xs = np.array(values, dtype=object).astype(indices.data_type.numpy).reshape(indices.sizes)
    on_off = np.array([0x7D01, 0xFC00], np.uint16).view(np.float16).reshape(desc.values_tensor.sizes)  # NaN, -inf
    return desc, [xs, on_off]


@settings(max_examples=60, deadline=None)
@given(cases())
def test_fast_equals_literal(case) -> None:
    desc, xs = case
    (fast,) = oracle.compute(desc, xs)
    (literal,) = oracle.compute(desc, xs, literal=True)
    assert fast.tobytes() == literal.tobytes()

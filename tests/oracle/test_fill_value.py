"""DML_FILL_VALUE_CONSTANT (FILLC.*) and DML_FILL_VALUE_SEQUENCE (FILLS.*): no input tensor, typed scalar unions,
integer wrap-around by hand, which float elements U-FILLS-1 leaves open, the fast path against the literal one on
drawn descriptors, and the ONNX forms (ConstantOfShape, Range) where they mean the same."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from conformance.lowering import Inexpressible, lower
from oracle import DataType, FillValueConstantDesc, FillValueSequenceDesc, TensorDesc
from oracle.masks import unspecified_mask

T = TensorDesc.of


def _sequence(data_type: str, sizes, start, delta) -> FillValueSequenceDesc:
    dt = DataType.parse(data_type)
    return FillValueSequenceDesc(T(dt, sizes), dt, dt.numpy.type(start), dt.numpy.type(delta))


def rejects(desc, clause: str, fragment: str, level: str = "6.4") -> None:
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(desc, level)
    assert e.value.clause == clause and fragment in str(e.value), str(e.value)


def test_no_input_tensor_and_value_in_the_outputs_type() -> None:
    desc = FillValueConstantDesc(T("UINT64", [3]), "UINT64", 2**64 - 1)
    assert desc.input_tensors == () and desc.struct_fields()["value_bits"] == 2**64 - 1
    (y,) = oracle.compute(desc, [], feature_level="4.1")
    assert y.tolist() == [2**64 - 1] * 3
    with pytest.raises(ValueError, match="takes 0 input"):
        oracle.compute(desc, [np.zeros(3, np.uint64)], feature_level="4.1")
    with pytest.raises(ValueError, match="value=256 is outside UINT8"):
        FillValueConstantDesc(T("UINT8", [3]), "UINT8", 256)
    rejects(FillValueConstantDesc(T("FLOAT32", [3]), "FLOAT16", 0), "FILLC.2", "must match output_tensor")
    rejects(FillValueConstantDesc(T("FLOAT32", [1, 3]), "FLOAT32", 0), "FILLC.4", "allows 4", "2.1")


@pytest.mark.parametrize(
    ("data_type", "start", "delta", "expected"),
    [
        ("UINT8", 10, 254, [10, 8, 6, 4]),  # E-FILLS-1: the page's -2 as UINT8 bits
        ("INT8", 126, 1, [126, 127, -128, -127]),
        ("UINT16", 65534, 1, [65534, 65535, 0, 1]),
        ("INT32", -(2**31), -1, [-(2**31), 2**31 - 1, 2**31 - 2, 2**31 - 3]),
        ("UINT64", 2**64 - 2, 1, [2**64 - 2, 2**64 - 1, 0, 1]),
        ("INT64", 2**63 - 1, 2**62, [2**63 - 1, -(2**63) + 2**62 - 1, -1, 2**62 - 1]),
    ],
)
def test_integer_sequences_wrap_modulo_two_to_the_width(data_type, start, delta, expected) -> None:
    """FILLS.3: each addition in the n-bit type; both paths, typed in by hand."""
    desc = _sequence(data_type, [2, 2], start, delta)
    for literal in (False, True):
        (y,) = oracle.compute(desc, [], feature_level="6.4", literal=literal)
        assert [int(v) for v in y.reshape(-1)] == expected
    assert oracle.unspecified(desc) == [] and not unspecified_mask(desc)[0].any()


def test_float_elements_are_judged_only_where_exact_along_every_way() -> None:
    """U-FILLS-1: halves are exact (judged); tenths round from the third on (0.1 + 0.1 is exactly 2 * 0.1); -0.0's
    sums lose its sign; past the type's max nothing is exact."""
    halves = _sequence("FLOAT16", [6], -1, 0.5)
    assert oracle.compute(halves, [], feature_level="4.0")[0].tolist() == [-1, -0.5, 0, 0.5, 1, 1.5]
    assert oracle.unspecified(halves) == []
    tenths = _sequence("FLOAT32", [4], np.float32(0.1), np.float32(0.1))
    assert unspecified_mask(tenths)[0].tolist() == [False, False, True, True]
    assert oracle.unspecified(tenths) == ["U-FILLS-1"]
    zero = _sequence("FLOAT32", [3], -0.0, 0.0)
    assert unspecified_mask(zero)[0].tolist() == [True, True, True]
    huge = _sequence("FLOAT16", [3], 65504, 65504)
    assert unspecified_mask(huge)[0].tolist() == [False, True, True]


@settings(max_examples=40, deadline=None)
@given(
    data_type=st.sampled_from([t for t in DataType if t is not DataType.FLOAT64]),
    sizes=st.lists(st.integers(1, 4), min_size=1, max_size=4),
    start=st.integers(0, 2**64 - 1),
    delta=st.integers(0, 2**64 - 1),
)
def test_fast_equals_literal(data_type, sizes, start, delta) -> None:
    """Bits drawn for ValueStart and ValueDelta in the type's width (NaN payloads, infinities, extremes)."""
    width = np.dtype(data_type.bits).itemsize * 8
    as_type = [np.array(v % (1 << width), dtype=data_type.bits).view(data_type.numpy)[()] for v in (start, delta)]
    desc = FillValueSequenceDesc(T(data_type, sizes), data_type, *as_type)
    (fast,) = oracle.compute(desc, [], feature_level="6.4")
    (literal,) = oracle.compute(desc, [], feature_level="6.4", literal=True)
    assert fast.view(data_type.bits).tolist() == literal.view(data_type.bits).tolist()


def test_constant_of_shape_carries_the_value_bits() -> None:
    desc = FillValueConstantDesc(T("FLOAT16", [2, 3]), "FLOAT16", np.array(0x7C05, np.uint16).view(np.float16)[()])
    lowering = lower(desc)
    assert lowering.onnx_operator == "ConstantOfShape" and lowering.input_count == 0
    assert lowering.parameters["input"].tolist() == [2, 3]
    assert np.frombuffer(lowering.attributes["value"].proto().raw_data, np.uint16).tolist() == [0x7C05]


@pytest.mark.parametrize(
    ("desc", "reason"),
    [
        (_sequence("INT32", [2, 3], 0, 1), "1-D sequence"),
        (_sequence("UINT8", [4], 0, 1), "not UINT8"),
        (_sequence("INT16", [4], 0, 0), "step of 0"),
        (_sequence("INT32", [4], 2**31 - 2, 1), "wraps"),
        (_sequence("FLOAT32", [4], np.float32(0.1), np.float32(0.1)), "U-FILLS-1"),
    ],
)
def test_range_only_where_it_means_the_same(desc, reason) -> None:
    with pytest.raises(Inexpressible, match=reason):
        lower(desc)


def test_range_of_an_exact_sequence() -> None:
    lowering = lower(_sequence("INT64", [5], 10, -3))
    assert lowering.onnx_operator == "Range"
    assert [int(lowering.parameters[k]) for k in ("start", "limit", "delta")] == [10, -5, -3]

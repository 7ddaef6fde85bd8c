"""oracle.unspecified_mask: exactly the elements an observed register entry leaves open, no more.

Hand-written masks for each entry, then a property: for CONSTANT padding with an observed
PaddingValue conversion the mask is exactly where two different padding values change the
output (computed by the oracle, not by the mask's formula).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import oracle
from conformance.cases.strategies import valid_cases
from oracle import PaddingMode, TensorDesc


def _padding(data_type: str, in_sizes, mode: str, value: float, start, end) -> oracle.PaddingDesc:
    out = tuple(n + s + e for n, s, e in zip(in_sizes, start, end))
    return oracle.PaddingDesc(
        TensorDesc.of(data_type, in_sizes), TensorDesc.of(data_type, out), mode, value, start, end
    )


def test_negative_into_uint8_leaves_only_the_padding_element_open():
    # PADDING-negative-into-uint8: input [1, 2], expected [0, 1, 2]; only element 0 is PaddingValue.
    desc = _padding("UINT8", (2,), "CONSTANT", -3.7, (1,), (0,))
    assert oracle.unspecified(desc) == ["U-PAD-1"]
    (mask,) = oracle.unspecified_mask(desc)
    assert mask.tolist() == [True, False, False]


def test_constant_padding_in_two_dimensions_marks_the_border():
    desc = _padding("FLOAT16", (2, 2), "CONSTANT", 0.1, (1, 0), (0, 1))  # 0.1 is inexact in FLOAT16 (U-PAD-3)
    (mask,) = oracle.unspecified_mask(desc)
    assert mask.tolist() == [[True, True, True], [False, False, True], [False, False, True]]


def test_exact_padding_value_leaves_nothing_open():
    desc = _padding("UINT8", (2,), "CONSTANT", 7.0, (1,), (1,))
    assert oracle.unspecified(desc) == []
    assert not oracle.unspecified_mask(desc)[0].any()


def test_reflection_of_a_size_1_axis_opens_only_what_is_read_across_it():
    # Axis 0 has size 1 and is padded (U-PAD-4); axis 1 reflects normally.
    desc = _padding("FLOAT32", (1, 3), "REFLECTION", 0.0, (1, 1), (1, 1))
    assert oracle.unspecified(desc) == ["U-PAD-4"]
    (mask,) = oracle.unspecified_mask(desc)
    assert mask.tolist() == [[True] * 5, [False] * 5, [True] * 5]


def test_slice_stride_0_opens_the_repeats_not_the_first_element():
    x = TensorDesc.of("INT32", (5, 3))
    desc = oracle.SliceDesc(x, TensorDesc.of("INT32", (3, 2)), offsets=(1, 0), sizes=(3, 2), strides=(0, 1))
    assert oracle.unspecified(desc) == ["U-SLICE-1"]
    (mask,) = oracle.unspecified_mask(desc)
    assert mask.tolist() == [[False, False], [True, True], [True, True]]


def test_split_and_slice1_masks_are_empty_and_shaped_like_the_outputs():
    x = np.arange(12, dtype=np.int16).reshape(3, 4)
    split = oracle.SplitDesc(
        TensorDesc.of("INT16", (3, 4)), (TensorDesc.of("INT16", (3, 1)), TensorDesc.of("INT16", (3, 3))), axis=1
    )
    masks = oracle.unspecified_mask(split)
    assert [m.shape for m in masks] == [y.shape for y in oracle.compute(split, [x])]
    assert not any(m.any() for m in masks)
    slice1 = oracle.Slice1Desc(TensorDesc.of("INT16", (3, 4)), TensorDesc.of("INT16", (2, 2)), (0, 0), (3, 4), (-2, 2))
    assert [m.shape for m in oracle.unspecified_mask(slice1)] == [(2, 2)]


@given(data=st.data())
def test_constant_mask_is_where_the_padding_value_shows(data):
    # given: a valid CONSTANT padding case
    spec = data.draw(valid_cases("PADDING", padding_mode="CONSTANT", max_elements=256), label="case")
    desc = spec.descriptor
    # act: the oracle's outputs with two padding values every type represents exactly and distinctly
    one, two = (
        oracle.compute(dataclasses.replace(desc, padding_value=v), spec.inputs, feature_level=spec.feature_level)[0]
        for v in (1.0, 2.0)
    )
    nan = dataclasses.replace(desc, padding_value=float("nan"))  # observed for every type but FLOAT32 (exact)
    (mask,) = oracle.unspecified_mask(nan)
    differ = one.view(f"u{one.itemsize}") != two.view(f"u{two.itemsize}")  # bits: NaN inputs compare equal
    # assert: open exactly where PaddingValue lands, when the conversion is open at all
    assert mask.shape == one.shape
    assert np.array_equal(mask, differ if oracle.unspecified(nan) else np.zeros_like(mask))


@given(data=st.data())
def test_no_entry_reached_means_nothing_open(data):
    spec = data.draw(valid_cases(), label="case")
    masks = oracle.unspecified_mask(spec.descriptor)
    assert [m.shape for m in masks] == [t.sizes for t in spec.descriptor.output_tensors]
    if not oracle.unspecified(spec.descriptor):
        assert not any(m.any() for m in masks)
    if spec.descriptor.operator == "PADDING" and spec.descriptor.padding_mode is not PaddingMode.CONSTANT:
        assert "U-PAD-1" not in oracle.unspecified(spec.descriptor)

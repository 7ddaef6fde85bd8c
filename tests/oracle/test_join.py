"""DML_JOIN (beyond the seed pages, docs/spec/beyond-seeds.md): the fast path against the literal one, and
JOIN.6's two promises: one input is a plain copy, and JOIN is the inverse of DML_SPLIT (SPLIT.6)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import oracle
from conformance.cases.strategies import valid_cases
from conformance.judging.compare import compare_outputs
from oracle import FeatureLevel, TensorDesc

NEWEST = max(FeatureLevel)


def same(a: list[np.ndarray], b: list[np.ndarray]) -> None:
    __tracebackhide__ = True
    result = compare_outputs(a, b)
    assert result.equal, result.summary()


@given(case=valid_cases("JOIN"))
def test_fast_path_equals_the_literal_one(case):
    fast = oracle.compute(case.descriptor, case.inputs, feature_level=case.feature_level)
    same(oracle.compute(case.descriptor, case.inputs, feature_level=case.feature_level, literal=True), fast)


@given(case=valid_cases("JOIN"))
def test_split_of_a_join_gives_the_inputs_back_bit_for_bit(case):
    d = case.descriptor
    (joined,) = oracle.compute(d, case.inputs, feature_level=NEWEST)
    parts = oracle.compute(oracle.split_desc(d.output_tensor, d.axis, d.input_sizes), [joined], feature_level=NEWEST)
    same(list(case.inputs), parts)


@given(case=valid_cases("SPLIT"))
def test_join_of_a_split_gives_the_input_back_bit_for_bit(case):
    d = case.descriptor
    parts = oracle.compute(d, case.inputs, feature_level=NEWEST)
    (joined,) = oracle.compute(oracle.join_desc(d.output_tensors, d.axis), parts, feature_level=NEWEST)
    same(list(case.inputs), [joined])


@given(case=valid_cases("JOIN"), data=st.data())
def test_one_input_is_a_plain_copy(case, data):
    x = case.inputs[data.draw(st.integers(0, len(case.inputs) - 1), label="which input")]
    desc = oracle.join_desc([TensorDesc(case.descriptor.output_tensor.data_type, x.shape)], case.descriptor.axis)
    (y,) = oracle.compute(desc, [x], feature_level=NEWEST)
    same([x], [y])


def test_join_is_numpy_concatenate_on_a_hand_example():
    """Not the oracle's own numbers: numpy's concatenate, on the page's example 1 inputs."""
    a = np.arange(1, 7, dtype=np.float32).reshape(1, 1, 2, 3)
    b = np.arange(7, 15, dtype=np.float32).reshape(1, 1, 2, 4)
    assert oracle.join([a, b], 3).tobytes() == np.concatenate([a, b], axis=3).tobytes()

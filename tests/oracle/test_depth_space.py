"""The depth-space family (issue 31): the shared Regroup against the literal formulas, the validation
rules with their clauses, and DEPTH_TO_SPACE1 with DEPTH_COLUMN_ROW equal to DEPTH_TO_SPACE (D2S1.4).

Expected values here come from the pages' layouts read independently: numpy's reshape and transpose
of ONNX's DepthToSpace definition (DCR and CRD), not from oracle.depth_space.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from oracle import DepthSpaceOrder, DepthToSpace1Desc, DepthToSpaceDesc, InvalidDescriptor, TensorDesc

NEWEST = max(oracle.FeatureLevel)


def onnx_depth_to_space(x: np.ndarray, b: int, mode: str) -> np.ndarray:
    """ONNX's DepthToSpace reference (its operator page's numpy), an implementation apart from the oracle's."""
    n, c, h, w = x.shape
    if mode == "DCR":
        tmp = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        tmp = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return tmp.reshape(n, c // (b * b), h * b, w * b)


@st.composite
def to_space_cases(draw):
    dt = draw(st.sampled_from(oracle.ALL_DATA_TYPES))
    b = draw(st.integers(1, 4))
    n, c, h, w = (draw(st.integers(1, 3)) for _ in range(4))
    order = draw(st.sampled_from(list(DepthSpaceOrder)))
    bits = draw(st.lists(st.integers(0, 2 ** (8 * dt.numpy.itemsize) - 1), min_size=1, max_size=1))[0]
    depth = (n, c * b * b, h, w)
    x = (np.arange(np.prod(depth), dtype=np.uint64) * 2654435761 + bits).astype(dt.bits).reshape(depth).view(dt.numpy)
    desc = DepthToSpace1Desc(TensorDesc(dt, depth), TensorDesc(dt, (n, c, h * b, w * b)), b, order)
    return desc, x


@settings(max_examples=60, deadline=None)
@given(to_space_cases())
def test_depth_to_space1_fast_literal_and_onnx_agree_bit_for_bit(case) -> None:
    desc, x = case
    dt = desc.input_tensor.data_type
    fast = oracle.compute(desc, [x], feature_level=NEWEST)[0]
    literal = oracle.compute(desc, [x], literal=True, feature_level=NEWEST)[0]
    reference = onnx_depth_to_space(x.view(dt.bits), desc.block_size, desc.order.onnx_mode)
    assert np.array_equal(fast.view(dt.bits), literal.view(dt.bits))
    assert np.array_equal(fast.view(dt.bits), reference)


def test_depth_column_row_is_depth_to_space() -> None:
    """D2S1.4: DEPTH_TO_SPACE1 with DEPTH_COLUMN_ROW is DEPTH_TO_SPACE."""
    x = np.arange(2 * 18 * 2 * 3, dtype=np.float32).reshape(2, 18, 2, 3)
    tensors = (TensorDesc.of("FLOAT32", x.shape), TensorDesc.of("FLOAT32", (2, 2, 6, 9)))
    plain = oracle.compute(DepthToSpaceDesc(*tensors, 3), [x])[0]
    dcr = oracle.compute(DepthToSpace1Desc(*tensors, 3, DepthSpaceOrder.DEPTH_COLUMN_ROW), [x])[0]
    crd = oracle.compute(DepthToSpace1Desc(*tensors, 3, DepthSpaceOrder.COLUMN_ROW_DEPTH), [x])[0]
    assert np.array_equal(plain, dcr)
    assert not np.array_equal(plain, crd)


def _rejects(desc, clause: str, text: str, level=NEWEST) -> None:
    with pytest.raises(InvalidDescriptor) as info:
        oracle.validate(desc, level)
    assert info.value.clause == clause
    assert text in str(info.value)


@pytest.mark.parametrize(("cls", "prefix"), [(DepthToSpaceDesc, "D2S."), (DepthToSpace1Desc, "D2S1.")])
def test_validation_rules_name_their_clauses(cls, prefix: str) -> None:
    sizes_clause, block_clause = f"{prefix}2", f"{prefix}3"
    t = TensorDesc.of
    _rejects(cls(t("FLOAT32", (1, 4, 2, 2)), t("FLOAT32", (1, 1, 4, 4)), 0), block_clause, "block_size=0")
    _rejects(cls(t("FLOAT32", (1, 4, 2, 2)), t("FLOAT32", (1, 1, 4, 4)), 2**32), block_clause, "UINT")
    _rejects(cls(t("FLOAT32", (1, 5, 2, 2)), t("FLOAT32", (1, 1, 4, 4)), 2), sizes_clause, "multiple of")
    _rejects(cls(t("FLOAT32", (1, 4, 2, 2)), t("FLOAT32", (1, 1, 4, 5)), 2), sizes_clause, "[1, 1, 4, 4]")
    _rejects(cls(t("FLOAT32", (1, 4, 2, 2)), t("UINT32", (1, 1, 4, 4)), 2), "COMMON.1", "data_type")
    _rejects(
        cls(t("FLOAT32", (4, 2, 2)), t("FLOAT32", (1, 4, 4)), 2),
        oracle.REGISTRY[cls.operator].TABLES.dimension_count_clause,
        "DimensionCount=3",
    )
    oracle.validate(cls(t("FLOAT32", (1, 4, 2, 2)), t("FLOAT32", (1, 1, 4, 4)), 2), NEWEST)


def test_depth_to_space1_before_feature_level_2_1_is_refused() -> None:
    t = TensorDesc.of
    desc = DepthToSpace1Desc(t("FLOAT32", (1, 4, 2, 2)), t("FLOAT32", (1, 1, 4, 4)), 2)
    _rejects(desc, "D2S1.7", "DML_FEATURE_LEVEL_2_1", oracle.FeatureLevel.FL_2_0)
    oracle.validate(DepthToSpaceDesc(desc.input_tensor, desc.output_tensor, 2), oracle.FeatureLevel.FL_1_0)


def test_order_round_trips_through_json_and_unknown_orders_are_refused() -> None:
    t = TensorDesc.of
    desc = DepthToSpace1Desc(t("INT8", (1, 4, 1, 1)), t("INT8", (1, 1, 2, 2)), 2, "COLUMN_ROW_DEPTH")
    assert oracle.descriptor_from_json("DEPTH_TO_SPACE1", oracle.descriptor_to_json(desc)) == desc
    with pytest.raises(ValueError, match="unknown depth-space order"):
        DepthToSpace1Desc(t("INT8", (1, 4, 1, 1)), t("INT8", (1, 1, 2, 2)), 2, "ROW_DEPTH")

"""The depth-space family (issue 31): the shared Regroup against the literal formulas, the validation
rules with their clauses, and DEPTH_TO_SPACE1 with DEPTH_COLUMN_ROW equal to DEPTH_TO_SPACE (D2S1.4).

Expected values here come from the pages' layouts read independently: numpy's reshape and transpose
of ONNX's DepthToSpace definition (DCR and CRD), not from oracle.depth_space.
"""

from __future__ import annotations

import numpy as np
import pytest
from block_moves import NEWEST, assert_paths_match_reference, block_cases, rejects
from hypothesis import given, settings

import oracle
from oracle import DepthSpaceOrder, DepthToSpace1Desc, DepthToSpaceDesc, TensorDesc


def onnx_depth_to_space(x: np.ndarray, b: int, mode: str) -> np.ndarray:
    """ONNX's DepthToSpace reference (its operator page's numpy), an implementation apart from the oracle's."""
    n, c, h, w = x.shape
    if mode == "DCR":
        tmp = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        tmp = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return tmp.reshape(n, c // (b * b), h * b, w * b)


@settings(max_examples=60, deadline=None)
@given(block_cases(DepthToSpace1Desc, to_space=True))
def test_depth_to_space1_fast_literal_and_onnx_agree_bit_for_bit(case) -> None:
    assert_paths_match_reference(*case, onnx_depth_to_space)


def test_depth_column_row_is_depth_to_space() -> None:
    """D2S1.4: DEPTH_TO_SPACE1 with DEPTH_COLUMN_ROW is DEPTH_TO_SPACE."""
    x = np.arange(2 * 18 * 2 * 3, dtype=np.float32).reshape(2, 18, 2, 3)
    tensors = (TensorDesc.of("FLOAT32", x.shape), TensorDesc.of("FLOAT32", (2, 2, 6, 9)))
    plain = oracle.compute(DepthToSpaceDesc(*tensors, 3), [x])[0]
    dcr = oracle.compute(DepthToSpace1Desc(*tensors, 3, DepthSpaceOrder.DEPTH_COLUMN_ROW), [x])[0]
    crd = oracle.compute(DepthToSpace1Desc(*tensors, 3, DepthSpaceOrder.COLUMN_ROW_DEPTH), [x])[0]
    assert np.array_equal(plain, dcr)
    assert not np.array_equal(plain, crd)


@pytest.mark.parametrize(("cls", "prefix"), [(DepthToSpaceDesc, "D2S."), (DepthToSpace1Desc, "D2S1.")])
def test_validation_rules_name_their_clauses(cls, prefix: str) -> None:
    sizes_clause, block_clause = f"{prefix}2", f"{prefix}3"
    t = TensorDesc.of
    rejects(cls(t("FLOAT32", (1, 4, 2, 2)), t("FLOAT32", (1, 1, 4, 4)), 0), block_clause, "block_size=0")
    rejects(cls(t("FLOAT32", (1, 4, 2, 2)), t("FLOAT32", (1, 1, 4, 4)), 2**32), block_clause, "UINT")
    rejects(cls(t("FLOAT32", (1, 5, 2, 2)), t("FLOAT32", (1, 1, 4, 4)), 2), sizes_clause, "multiple of")
    rejects(cls(t("FLOAT32", (1, 4, 2, 2)), t("FLOAT32", (1, 1, 4, 5)), 2), sizes_clause, "[1, 1, 4, 4]")
    rejects(cls(t("FLOAT32", (1, 4, 2, 2)), t("UINT32", (1, 1, 4, 4)), 2), "COMMON.1", "data_type")
    rejects(
        cls(t("FLOAT32", (4, 2, 2)), t("FLOAT32", (1, 4, 4)), 2),
        oracle.REGISTRY[cls.operator].TABLES.dimension_count_clause,
        "DimensionCount=3",
    )
    oracle.validate(cls(t("FLOAT32", (1, 4, 2, 2)), t("FLOAT32", (1, 1, 4, 4)), 2), NEWEST)


def test_depth_to_space1_before_feature_level_2_1_is_refused() -> None:
    t = TensorDesc.of
    desc = DepthToSpace1Desc(t("FLOAT32", (1, 4, 2, 2)), t("FLOAT32", (1, 1, 4, 4)), 2)
    rejects(desc, "D2S1.7", "DML_FEATURE_LEVEL_2_1", oracle.FeatureLevel.FL_2_0)
    oracle.validate(DepthToSpaceDesc(desc.input_tensor, desc.output_tensor, 2), oracle.FeatureLevel.FL_1_0)


def test_order_round_trips_through_json_and_unknown_orders_are_refused() -> None:
    t = TensorDesc.of
    desc = DepthToSpace1Desc(t("INT8", (1, 4, 1, 1)), t("INT8", (1, 1, 2, 2)), 2, "COLUMN_ROW_DEPTH")
    assert oracle.descriptor_from_json("DEPTH_TO_SPACE1", oracle.descriptor_to_json(desc)) == desc
    with pytest.raises(ValueError, match="unknown depth-space order"):
        DepthToSpace1Desc(t("INT8", (1, 4, 1, 1)), t("INT8", (1, 1, 2, 2)), 2, "ROW_DEPTH")

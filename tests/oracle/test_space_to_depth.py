"""SPACE_TO_DEPTH(1) (issue 31): the shared Regroup read the other way against the literal formulas and ONNX's
SpaceToDepth, the inverse of DEPTH_TO_SPACE(1) (S2D.4, S2D1.5), the validation rules with their clauses, and the
page's printed output formula refused (E-S2D-1).

Expected values come from ONNX's SpaceToDepth reference (its operator page's numpy, DCR) and its CRD twin, not
from oracle.depth_space.
"""

from __future__ import annotations

import numpy as np
import pytest
from block_moves import NEWEST, assert_paths_match_reference, block_cases, rejects
from hypothesis import given, settings

import oracle
from oracle import DepthSpaceOrder, SpaceToDepth1Desc, SpaceToDepthDesc, TensorDesc

t = TensorDesc.of


def onnx_space_to_depth(x: np.ndarray, b: int, mode: str) -> np.ndarray:
    """ONNX's SpaceToDepth reference (DCR); CRD puts the channel axis first among the three."""
    n, c, h, w = x.shape
    tmp = x.reshape(n, c, h // b, b, w // b, b)
    tmp = tmp.transpose(0, 3, 5, 1, 2, 4) if mode == "DCR" else tmp.transpose(0, 1, 3, 5, 2, 4)
    return tmp.reshape(n, c * b * b, h // b, w // b)


@settings(max_examples=60, deadline=None)
@given(block_cases(SpaceToDepth1Desc, to_space=False))
def test_space_to_depth1_fast_literal_and_onnx_agree_bit_for_bit(case) -> None:
    desc, x = case
    dt = desc.input_tensor.data_type
    fast = assert_paths_match_reference(desc, x, onnx_space_to_depth)
    # S2D1.5: DEPTH_TO_SPACE1 with the same BlockSize and Order gives the input back
    back = oracle.DepthToSpace1Desc(desc.output_tensor, desc.input_tensor, desc.block_size, desc.order)
    assert np.array_equal(oracle.compute(back, [fast], feature_level=NEWEST)[0].view(dt.bits), x.view(dt.bits))


def test_depth_column_row_is_space_to_depth() -> None:
    """S2D1.4: SPACE_TO_DEPTH1 with DEPTH_COLUMN_ROW is SPACE_TO_DEPTH; COLUMN_ROW_DEPTH is not."""
    x = np.arange(2 * 2 * 6 * 9, dtype=np.float32).reshape(2, 2, 6, 9)
    tensors = (t("FLOAT32", x.shape), t("FLOAT32", (2, 18, 2, 3)))
    plain = oracle.compute(SpaceToDepthDesc(*tensors, 3), [x])[0]
    dcr = oracle.compute(SpaceToDepth1Desc(*tensors, 3, DepthSpaceOrder.DEPTH_COLUMN_ROW), [x])[0]
    crd = oracle.compute(SpaceToDepth1Desc(*tensors, 3, DepthSpaceOrder.COLUMN_ROW_DEPTH), [x])[0]
    assert np.array_equal(plain, dcr)
    assert not np.array_equal(plain, crd)
    assert np.array_equal(plain, onnx_space_to_depth(x, 3, "DCR"))


@pytest.mark.parametrize(("cls", "prefix"), [(SpaceToDepthDesc, "S2D."), (SpaceToDepth1Desc, "S2D1.")])
def test_validation_rules_name_their_clauses(cls, prefix: str) -> None:
    sizes_clause, block_clause = f"{prefix}2", f"{prefix}3"
    rejects(cls(t("FLOAT32", (1, 1, 4, 4)), t("FLOAT32", (1, 4, 2, 2)), 0), block_clause, "block_size=0")
    rejects(cls(t("FLOAT32", (1, 1, 4, 4)), t("FLOAT32", (1, 4, 2, 2)), 2**32), block_clause, "UINT")
    rejects(cls(t("FLOAT32", (1, 1, 5, 4)), t("FLOAT32", (1, 4, 2, 2)), 2), sizes_clause, "InputHeight")
    rejects(cls(t("FLOAT32", (1, 1, 4, 3)), t("FLOAT32", (1, 4, 2, 1)), 2), sizes_clause, "InputWidth")
    rejects(cls(t("FLOAT32", (1, 1, 4, 4)), t("FLOAT32", (1, 4, 2, 3)), 2), sizes_clause, "[1, 4, 2, 2]")
    rejects(cls(t("FLOAT32", (1, 1, 4, 4)), t("UINT32", (1, 4, 2, 2)), 2), "COMMON.1", "data_type")
    rejects(
        cls(t("FLOAT32", (1, 4, 4)), t("FLOAT32", (4, 2, 2)), 2),
        oracle.REGISTRY[cls.operator].TABLES.dimension_count_clause,
        "DimensionCount=3",
    )
    oracle.validate(cls(t("FLOAT32", (1, 1, 4, 4)), t("FLOAT32", (1, 4, 2, 2)), 2), NEWEST)


@pytest.mark.parametrize(("cls", "clause"), [(SpaceToDepthDesc, "S2D.2"), (SpaceToDepth1Desc, "S2D1.2")])
def test_the_pages_printed_output_formula_is_refused(cls, clause: str) -> None:
    """E-S2D-1: {N, C / (b * b), H * b, W * b} is DEPTH_TO_SPACE's; the examples' {N, C * b * b, H / b, W / b}
    is meant."""
    rejects(cls(t("FLOAT32", (1, 4, 4, 4)), t("FLOAT32", (1, 1, 8, 8)), 2), clause, "E-S2D-1")
    oracle.validate(cls(t("FLOAT32", (1, 4, 4, 4)), t("FLOAT32", (1, 16, 2, 2)), 2), NEWEST)


def test_space_to_depth1_before_feature_level_2_1_is_refused() -> None:
    desc = SpaceToDepth1Desc(t("FLOAT32", (1, 1, 4, 4)), t("FLOAT32", (1, 4, 2, 2)), 2)
    rejects(desc, "S2D1.7", "DML_FEATURE_LEVEL_2_1", oracle.FeatureLevel.FL_2_0)
    oracle.validate(SpaceToDepthDesc(desc.input_tensor, desc.output_tensor, 2), oracle.FeatureLevel.FL_1_0)


def test_order_round_trips_through_json() -> None:
    desc = SpaceToDepth1Desc(t("INT8", (1, 1, 2, 2)), t("INT8", (1, 4, 1, 1)), 2, "COLUMN_ROW_DEPTH")
    assert oracle.descriptor_from_json("SPACE_TO_DEPTH1", oracle.descriptor_to_json(desc)) == desc

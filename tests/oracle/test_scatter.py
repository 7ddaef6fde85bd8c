"""DML_SCATTER (= DML_SCATTER_ELEMENTS): targets by hand, negative indices, the open elements the index values
leave (U-SCATTER-1, U-SCATTER-2), fast against literal on drawn indices, the alias, and the ONNX refusal."""

from __future__ import annotations

import numpy as np
import pytest

import oracle
from conformance.lowering import lower
from conformance.run.options import parse_operator
from oracle import DataType, TensorDesc
from oracle.op_scatter import compute, compute_literal, open_elements, targets


def _desc(sizes, indices_sizes, axis, indices_type="UINT32", data_type="FLOAT32"):
    return oracle.scatter_desc(TensorDesc.of(data_type, sizes), indices_sizes, axis, indices_type)


def test_negative_indices_count_from_the_end_and_past_them_is_outside() -> None:
    desc = _desc((4,), (4,), 0, "INT64")
    at, inside = targets(desc, np.array([-1, -4, -5, 4], dtype=np.int64))
    assert at[:2].tolist() == [3, 0] and inside.tolist() == [True, True, False, False]
    # unsigned: 2^64 - 1 is not -1, and 2^32 is not 0 (a 32-bit read would take it for 0)
    desc = _desc((4,), (2,), 0, "UINT64")
    assert targets(desc, np.array([2**64 - 1, 2**32], dtype=np.uint64))[1].tolist() == [False, False]


def test_open_elements_by_hand() -> None:
    desc = _desc((2, 3), (2, 2), 1)
    # row 0 writes 1 twice (U-SCATTER-1: only that element open); row 1 writes 0 and 2
    assert open_elements(desc, np.array([[1, 1], [0, 2]], dtype=np.uint32)).tolist() == [
        [False, True, False],
        [False, False, False],
    ]
    # one index past the axis (U-SCATTER-2): the whole output open
    assert open_elements(desc, np.array([[0, 3], [0, 2]], dtype=np.uint32)).all()
    assert oracle.unspecified(desc) == ["U-SCATTER-1", "U-SCATTER-2"]
    assert "U-SCATTER-3" in oracle.unspecified(_desc((2, 3), (2, 4), 1))  # more updates per line than targets


@pytest.mark.parametrize("indices_type", ["UINT32", "INT32", "INT64", "UINT64"])
def test_fast_equals_literal_on_drawn_indices(indices_type: str) -> None:
    rng = np.random.default_rng(32)
    dt = DataType.parse(indices_type)
    for _ in range(20):
        rank = int(rng.integers(1, 5))
        sizes = tuple(int(n) for n in rng.integers(1, 4, rank))
        axis = int(rng.integers(0, rank))
        along = int(rng.integers(1, sizes[axis] + 2))
        isz = tuple(along if d == axis else n for d, n in enumerate(sizes))
        desc = _desc(sizes, isz, axis, indices_type, "INT16")
        low = -sizes[axis] - 1 if dt.numpy.kind == "i" else 0
        indices = rng.integers(low, sizes[axis] + 1, isz).astype(dt.numpy)
        x = rng.integers(-100, 100, sizes).astype(np.int16)
        updates = rng.integers(200, 300, isz).astype(np.int16)
        fast = compute(desc, [x, indices, updates])[0]
        assert np.array_equal(fast, compute_literal(desc, [x, indices, updates])[0])
        judged = ~open_elements(desc, indices)
        assert np.array_equal(fast[judged & (fast < 200)], x[judged & (fast < 200)])  # untouched elements: input


def test_scatter_elements_is_an_alias_of_scatter() -> None:
    for name in ("SCATTER_ELEMENTS", "scatter_elements", "DML_SCATTER_ELEMENTS_OPERATOR_DESC", "SCATTER"):
        assert parse_operator(name) == "SCATTER"
    assert oracle.registry.ALIASES == {"SCATTER_ELEMENTS": "SCATTER"}


def test_onnx_refuses_duplicate_and_outside_indices_only() -> None:
    desc = _desc((2, 3), (2, 2), 1)
    lowering = lower(desc)
    x, updates = np.zeros((2, 3), np.float32), np.ones((2, 2), np.float32)
    assert lowering.refusal([x, np.array([[0, 2], [1, 0]], np.uint32), updates]) is None
    assert "duplicate" in (lowering.refusal([x, np.array([[1, 1], [1, 0]], np.uint32), updates]) or "")
    assert "outside" in (lowering.refusal([x, np.array([[3, 1], [1, 0]], np.uint32), updates]) or "")

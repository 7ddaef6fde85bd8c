"""DML_GATHER_ND(1) (GND.*, GND1.*): the size rule against the page's formula (E-GND-1), negative and out-of-range
indices (GND.6, U-GND-1) by hand, the batches (GND1.10), and the fast path against the literal one on drawn
indices of every type, negatives and out-of-range ones included."""

from __future__ import annotations

import numpy as np
import pytest

import oracle
from oracle import DataType, FeatureLevel, TensorDesc
from oracle.gather_nd import open_elements, output_sizes, page_formula_sizes
from oracle.op_gather_nd import compute, compute_literal


def test_output_sizes_are_the_examples_not_the_formula() -> None:
    """E-GND-1: the page's own size example ({3,4,5,6,7}, tuples of 3) and both pages' example 2."""
    assert output_sizes((3, 4, 5, 6, 7), (1, 1, 1, 2, 3), 5, 3) == (1, 1, 2, 6, 7)
    assert page_formula_sizes((3, 4, 5, 6, 7), (1, 1, 1, 2, 3), 3) == (1, 2, 5, 6, 7)
    assert output_sizes((1, 2, 2, 2), (1, 1, 2, 2), 3, 2) == (1, 1, 2, 2)
    assert page_formula_sizes((1, 2, 2, 2), (1, 1, 2, 2), 2) == (1, 2, 2, 2)
    assert output_sizes((1, 3, 2, 2), (1, 3, 2, 2), 3, 3, 1) == (1, 1, 3, 2)


def _desc(x_sizes, ind_type, ind_sizes, i_count, j_count, batches=None):
    return oracle.gather_nd_desc(
        TensorDesc(DataType.FLOAT32, x_sizes), TensorDesc(ind_type, ind_sizes), i_count, j_count, batches
    )


def test_negative_indices_count_from_the_end_and_out_of_range_ones_are_open() -> None:
    """GND.6 and U-GND-1 by hand on a 2x3 (0..5): (-1,-1) is 5, (-2,0) is 0, (2,0) and (0,-4) are open."""
    d = _desc((2, 3), DataType.INT64, (4, 2), 2, 2)
    indices = np.array([[-1, -1], [-2, 0], [2, 0], [0, -4]], dtype=np.int64)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    oracle.validate(d, "3.0")
    assert d.output_tensor.sizes == (1, 4)
    for path in (compute, compute_literal):
        assert path(d, [x, indices])[0].tolist() == [[5, 0, 0, 0]]  # open elements shown as 0
    assert open_elements(d, indices).tolist() == [[False, False, True, True]]


def test_unsigned_indices_past_2_32_and_the_batches() -> None:
    """A UINT64 index of 2^32 + 1 is out of range (not 1); each batch indexes its own block (GND1.1)."""
    d = _desc((1, 2, 3), DataType.UINT64, (2, 2, 1), 2, 3, 1)
    oracle.validate(d, "3.0")
    indices = np.array([2**32 + 1, 0, 2, 1], dtype=np.uint64).reshape(2, 2, 1)
    x = np.arange(6, dtype=np.float32).reshape(1, 2, 3)
    assert compute(d, [x, indices])[0].tolist() == [[[0, 0], [5, 4]]]
    assert open_elements(d, indices).tolist() == [[[True, False], [False, False]]]


def test_batch_sizes_must_agree() -> None:
    """E-GND1-1: batches are the first meaningful dimensions, equal in the input and the indices."""
    d = _desc((1, 2, 3), DataType.UINT32, (3, 2, 1), 2, 3, 1)
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(d, "3.0")
    assert e.value.clause == "GND1.10"


@pytest.mark.parametrize("ind_type", [DataType.INT32, DataType.INT64, DataType.UINT32, DataType.UINT64])
@pytest.mark.parametrize("batches", [None, 0, 1])
def test_fast_equals_literal_on_drawn_indices(ind_type: DataType, batches: int | None) -> None:
    """Both paths on one drawn descriptor per type: a quarter of the indices out of range or negative."""
    rng = np.random.default_rng(7)
    x_sizes, ind_sizes = (1, 3, 4, 2, 5), (1, 3, 2, 3, 2)  # I = 4, J = 4 (3 batches when batches = 1)
    d = _desc(x_sizes, ind_type, ind_sizes, 4, 4, batches)
    oracle.validate(d, FeatureLevel.FL_5_0)
    low = -6 if ind_type in (DataType.INT32, DataType.INT64) else 0
    indices = rng.integers(low, 6, ind_sizes).astype(ind_type.numpy)
    x = rng.standard_normal(x_sizes).astype(np.float32)
    fast, literal = compute(d, [x, indices])[0], compute_literal(d, [x, indices])[0]
    assert fast.view(np.uint32).tolist() == literal.view(np.uint32).tolist()
    assert 0 < open_elements(d, indices).sum() < fast.size

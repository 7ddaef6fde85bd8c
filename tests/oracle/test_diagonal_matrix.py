"""DML_DIAGONAL_MATRIX (DIAG.*) and DML_DIAGONAL_MATRIX1 (DIAG1.*): the diagonal by hand on a batch, Value's FLOAT
conversion open on the diagonal only (U-DIAG-1), the optional input, the inverted band, DIAG1's equivalence with
DIAG (its Remarks), and the ONNX forms where one node means the same."""

from __future__ import annotations

import numpy as np
import pytest

import oracle
from conformance.lowering import Inexpressible, lower
from oracle import DiagonalMatrix1Desc, DiagonalMatrixDesc, TensorDesc
from oracle.masks import unspecified_mask

T = TensorDesc.of


def test_a_batch_of_matrices_each_with_its_diagonal() -> None:
    """E-DIAG-1: the last two dimensions are the matrix; typed in by hand (Offset 1 on 2x3, twice)."""
    desc = DiagonalMatrixDesc(T("INT32", [2, 2, 3]), 1, 5.0)
    for literal in (False, True):
        (y,) = oracle.compute(desc, [], feature_level="4.0", literal=literal)
        assert y.tolist() == [[[0, 5, 0], [0, 0, 5]]] * 2


def test_value_conversion_is_open_on_the_diagonal_only() -> None:
    exact = DiagonalMatrixDesc(T("INT8", [2, 2]), 0, 10.6)  # the page's own example: truncated, judged
    assert oracle.compute(exact, [], feature_level="5.1")[0].tolist() == [[10, 0], [0, 10]]
    assert oracle.unspecified(exact) == []
    past = DiagonalMatrixDesc(T("UINT8", [2, 3]), -1, 300.0)
    assert oracle.unspecified(past) == ["U-DIAG-1"]
    assert unspecified_mask(past)[0].tolist() == [[False, False, False], [True, False, False]]


def test_diagonal_matrix1_keeps_the_input_outside_the_band_and_reverses_an_inverted_one() -> None:
    x = np.arange(1, 10, dtype=np.int16).reshape(3, 3)
    kept = DiagonalMatrix1Desc(T("INT16", [3, 3]), T("INT16", [3, 3]), "INT16", -1, 0, 2)
    assert oracle.compute(kept, [x], feature_level="5.1")[0].tolist() == [[-1, -1, 3], [4, -1, -1], [7, 8, -1]]
    inverted = DiagonalMatrix1Desc(None, T("INT16", [3, 3]), "INT16", 9, 1, 0)  # all but the main diagonal
    for literal in (False, True):
        y = oracle.compute(inverted, [], feature_level="5.1", literal=literal)[0]
        assert y.tolist() == [[0, 9, 9], [9, 0, 9], [9, 9, 0]]
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(DiagonalMatrix1Desc(T("INT16", [3, 4]), T("INT16", [3, 3]), "INT16", 0, 0, 1), "5.1")
    assert e.value.clause == "DIAG1.5"


@pytest.mark.parametrize("offset", [-4, -1, 0, 2, 7])
def test_diagonal_matrix1_without_input_is_diagonal_matrix_with_begin_offset(offset) -> None:
    """Its Remarks: DiagonalFillBegin = Offset, DiagonalFillEnd = Offset + 1 (an exact Value)."""
    out = T("FLOAT16", [1, 3, 5])
    one = oracle.compute(DiagonalMatrixDesc(out, offset, 2.5), [], feature_level="5.1")[0]
    two = oracle.compute(DiagonalMatrix1Desc(None, out, "FLOAT16", 2.5, offset, offset + 1), [], feature_level="5.1")
    assert one.tobytes() == two[0].tobytes()


def test_onnx_forms_only_where_they_mean_the_same() -> None:
    assert lower(DiagonalMatrixDesc(T("FLOAT32", [3, 4]), -1, 1.0)).attributes["k"] == -1
    with pytest.raises(Inexpressible, match="writes ones"):
        lower(DiagonalMatrixDesc(T("FLOAT32", [3, 4]), 0, 2.0))
    with pytest.raises(Inexpressible, match="no rank-3"):
        lower(DiagonalMatrixDesc(T("FLOAT32", [2, 3, 4]), 0, 1.0))
    upper = lower(DiagonalMatrix1Desc(T("FLOAT32", [4, 5]), T("FLOAT32", [4, 5]), "FLOAT32", 0.0, -(2**31), 1))
    assert (upper.onnx_operator, upper.attributes["upper"], int(upper.parameters["k"])) == ("Trilu", 1, 1)
    lower_ = lower(DiagonalMatrix1Desc(T("INT64", [4, 5]), T("INT64", [4, 5]), "INT64", 0, 2, 9))
    assert (lower_.attributes["upper"], int(lower_.parameters["k"])) == (0, 1)
    with pytest.raises(Inexpressible, match="Trilu"):
        lower(DiagonalMatrix1Desc(T("FLOAT32", [4, 5]), T("FLOAT32", [4, 5]), "FLOAT32", 0.0, 1, 0))

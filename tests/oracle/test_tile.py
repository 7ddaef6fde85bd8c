"""DML_TILE (beyond the seed pages, docs/spec/beyond-seeds.md): the fast path against the literal one and against
numpy's tile, the page's example as printed (E-TILE-1), and TILE.2-4's validation with their clauses."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given

import oracle
from conformance.cases.strategies import valid_cases
from conformance.judging.compare import compare_outputs
from oracle import TensorDesc

PAGE = Path(__file__).resolve().parents[2].parent / "shared" / "directml-docs" / "ns-directml-dml_tile_operator_desc.md"


def same(a: list[np.ndarray], b: list[np.ndarray]) -> None:
    __tracebackhide__ = True
    result = compare_outputs(a, b)
    assert result.equal, result.summary()


@given(case=valid_cases("TILE"))
def test_fast_path_equals_the_literal_one(case):
    fast = oracle.compute(case.descriptor, case.inputs, feature_level=case.feature_level)
    same(oracle.compute(case.descriptor, case.inputs, feature_level=case.feature_level, literal=True), fast)


@given(case=valid_cases("TILE"))
def test_tile_is_numpy_tile_bit_for_bit(case):
    """numpy's tile on the raw bits (NaN payloads and -0.0 kept): not the oracle's own numbers."""
    (x,) = case.inputs
    dt = case.descriptor.input_tensor.data_type
    (y,) = oracle.compute(case.descriptor, case.inputs, feature_level=case.feature_level)
    expected = np.tile(np.asarray(x, dtype=dt.numpy).view(dt.bits), case.descriptor.repeats)
    assert y.view(dt.bits).tobytes() == expected.tobytes()


def test_the_pages_example_as_printed():
    """E-TILE-1: the page prints its output under a second "InputTensor" label; those digits are the example's
    output, and the first block its input."""
    if not PAGE.is_file():
        pytest.skip(f"{PAGE} is absent (../shared is not checked out next to this repository)")
    blocks = re.findall(
        r"(\w+): \(Sizes:\{([\d, ]+)\}, DataType:FLOAT32\)\s*\n(\[\[\[\[.*?\]\]\]\])", PAGE.read_text(), re.DOTALL
    )
    assert [label for label, _, _ in blocks] == ["InputTensor", "InputTensor"]  # the erratum itself
    (case,) = [c for c in oracle_examples() if c.id == "TILE-example-1"]
    (x,), (y,) = case.inputs, case.expected.outputs
    for (_, sizes, block), array in zip(blocks, (x, y)):
        assert [int(n) for n in sizes.split(",")] == list(array.shape)
        assert [int(n) for n in re.findall(r"-?\d+", block)] == array.ravel().astype(int).tolist()


def oracle_examples():
    from conformance.cases.corpus import CASES_DIR, load

    return load([CASES_DIR / "examples"]).cases


def test_not_numpy_repeat():
    """E-TILE-2: whole copies (1, 2, 1, 2), not each element repeated in place (1, 1, 2, 2)."""
    x = np.array([1, 2], dtype=np.int32)
    assert oracle.tile(x, [2], feature_level="3.1").tolist() == [1, 2, 1, 2]


@pytest.mark.parametrize(
    ("sizes", "repeats", "out", "count", "clause"),
    [
        ((1, 1, 2, 3), (1, 1, 3, 3), (1, 1, 6, 8), None, "TILE.2"),
        ((2, 1), (2**31 + 1, 1), (2, 1), None, "TILE.2"),  # right only modulo 2^32
        ((1, 1, 2, 3), (1, 1, 3), (1, 1, 2, 3), None, "TILE.3"),
        ((1, 1, 2, 3), (1, 1, 1, 1), (1, 1, 2, 3), 3, "TILE.3"),  # RepeatsCount against the array
        ((1, 1, 2, 3), (1, 1, 0, 1), (1, 1, 2, 3), None, "TILE.4"),
        ((1, 1, 2, 3), (1, 1, 2**32, 1), (1, 1, 2, 3), None, "TILE.4"),
    ],
)
def test_invalid_descriptors_name_their_clause(sizes, repeats, out, count, clause):
    desc = oracle.TileDesc(TensorDesc.of("FLOAT32", sizes), TensorDesc.of("FLOAT32", out), repeats, count)
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(desc, "4.1")
    assert e.value.clause == clause


@pytest.mark.parametrize(
    ("data_type", "rank", "level", "valid"),
    [
        ("FLOAT32", 4, "1.0", True),
        ("INT32", 4, "1.0", False),
        ("INT8", 4, "2.1", True),
        ("INT8", 3, "3.0", False),  # 1-8 dimensions only from 3.1 (U-ALL-1: 3.0 inherits 2.1's row)
        ("INT8", 3, "3.1", True),
        ("INT64", 2, "4.0", False),
        ("UINT64", 8, "4.1", True),
        ("FLOAT64", 1, "6.4", False),  # in no row
    ],
)
def test_support_table(data_type, rank, level, valid):
    desc = oracle.tile_desc(TensorDesc.of(data_type, (1,) * rank), (2,) * rank)
    if valid:
        oracle.validate(desc, level)
    else:
        with pytest.raises(oracle.InvalidDescriptor) as e:
            oracle.validate(desc, level)
        assert e.value.clause == "TILE.6"

"""LAYOUT.1-8 (docs/spec/beyond-seeds.md): tensor descs with strides, buffer sizes, alignment and flags.

Expected sizes and byte positions are worked out by hand from the DML_BUFFER_TENSOR_DESC page and
DMLCalcBufferTensorSize's formula, not taken from the code under test.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracle
from conformance.cases import corpus
from oracle import DataType, InvalidDescriptor, TensorDesc, layout


def t(data_type: str, sizes, strides=None, **kw) -> TensorDesc:
    return TensorDesc(DataType[data_type], tuple(sizes), None if strides is None else tuple(strides), **kw)


@pytest.mark.parametrize(
    "tensor, size",
    [
        # IndexOfLastElement = dot(Sizes - 1, Strides); roundup((last + 1) * ElementSize, 4)
        (t("FLOAT16", [2, 3], [8, 2]), 28),  # last 1*8 + 2*2 = 12 -> 13 * 2 = 26 -> 28
        (t("FLOAT32", [2, 3], [4, 1]), 28),  # last 4 + 2 = 6 -> 7 * 4 = 28
        (t("UINT8", [3, 5], [0, 1]), 8),  # broadcast rows: last 4 -> 5 -> 8
        (t("INT64", [2, 2], [1, 2]), 32),  # column-major: last 1 + 2 = 3 -> 4 * 8
        (t("UINT8", [5]), 8),  # packed: 5 bytes -> 8
    ],
)
def test_implied_size_is_dmlcalcbuffertensorsize(tensor, size):
    assert layout.implied_size(tensor) == size


def test_padded_rows_place_elements_at_their_strided_offsets():
    # FLOAT32 [2, 3] with rows of 4 elements: elements at element offsets 0,1,2 and 4,5,6; offset 3 is padding.
    tensor = t("FLOAT32", [2, 3], [4, 1])
    x = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32)
    buffer = layout.pack(x, tensor)
    as_floats = buffer.view(np.float32)
    assert list(as_floats[[0, 1, 2, 4, 5, 6]]) == [1, 2, 3, 4, 5, 6]
    # The padding element holds the documented input fill: byte k = (0x5A + 0x3B * k) mod 256, k = 12..15.
    assert list(buffer[12:16]) == [(0x5A + 0x3B * k) % 256 for k in range(12, 16)]
    assert np.array_equal(layout.unpack(buffer, tensor), x)
    assert list(np.flatnonzero(~layout.addressed(tensor))) == [12, 13, 14, 15]


def test_column_major_input_reads_down_columns():
    tensor = t("INT16", [2, 3], [1, 2])
    buffer = np.array([1, 4, 2, 5, 3, 6], dtype=np.int16).view(np.uint8)  # column by column
    assert layout.unpack(buffer, tensor).tolist() == [[1, 2, 3], [4, 5, 6]]
    assert layout.kind(tensor) == "permuted"


@pytest.mark.parametrize(
    "tensor, is_output, clause, words",
    [
        (t("FLOAT32", [2, 3], total_tensor_size_in_bytes=20), False, "LAYOUT.3", "DMLCalcBufferTensorSize gives 24"),
        (t("INT32", [2, 2], [2]), False, "LAYOUT.1", "strides has 1 entries"),
        (t("INT32", [2], [-1]), False, "LAYOUT.1", "UINT"),
        (t("UINT8", [2], total_tensor_size_in_bytes=2**32), True, "LAYOUT.5", "2^32 - 1 elements"),
        (t("INT8", [2], guaranteed_base_offset_alignment=48), False, "LAYOUT.6", "power of two"),
        (t("FLOAT64", [2], guaranteed_base_offset_alignment=4), True, "LAYOUT.6", "element size (8)"),
        (t("UINT16", [2], flags=2), False, "LAYOUT.7", "only 0 and 1"),
        (t("FLOAT32", [2], flags=1), True, "LAYOUT.7", "only be used on input tensors"),
    ],
)
def test_invalid_layouts_name_their_clause_and_field(tensor, is_output, clause, words):
    with pytest.raises(InvalidDescriptor) as e:
        layout.check_tensor(tensor, "output_tensor" if is_output else "input_tensor", is_output)
    assert e.value.clause == clause and words in str(e.value)


def test_valid_layouts_pass_validation():
    for tensor in (
        t("FLOAT32", [2, 3], [4, 1], total_tensor_size_in_bytes=28),
        t("UINT8", [3], [0], total_tensor_size_in_bytes=64, guaranteed_base_offset_alignment=256),
        t("FLOAT32", [4], flags=1),
    ):
        layout.check_tensor(tensor, "input_tensor", False)


def test_an_overlapping_output_leaves_its_shared_elements_open():
    desc = oracle.SliceDesc(t("FLOAT32", [2, 2]), t("FLOAT32", [2, 2], [0, 1]), (0, 0), (2, 2), (1, 1))
    assert oracle.unspecified(desc) == ["U-LAYOUT-2"]
    assert oracle.unspecified_mask(desc)[0].all()  # rows 0 and 1 share every address
    desc = oracle.SliceDesc(t("FLOAT32", [3]), t("FLOAT32", [3], [1]), (0,), (3,), (1,))
    assert oracle.unspecified(desc) == [] and not oracle.unspecified_mask(desc)[0].any()


@given(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 12)), min_size=1, max_size=4))
def test_overlaps_is_two_elements_at_one_address(axes):
    """Whatever shortcut it takes (nested strides never overlap), overlaps() says what listing every element's
    address by hand says: some address is taken twice."""
    sizes, strides = [n for n, _ in axes], [s for _, s in axes]
    addresses = [sum(i * s for i, s in zip(index, strides)) for index in itertools.product(*map(range, sizes))]
    assert layout.overlaps(t("UINT8", sizes, strides)) == (len(set(addresses)) < len(addresses))


def test_a_broadcast_input_that_differs_along_its_zero_stride_is_a_case_file_error(tmp_path):
    case = {
        "id": "PADDING-bad-broadcast",
        "operator": "PADDING",
        "feature_level": "3.1",
        "description": "rows differ, but Strides [0, 1] gives them one address",
        "clauses": ["LAYOUT.2"],
        "tags": ["curated"],
        "unspecified": [],
        "descriptor": {
            "input_tensor": {"data_type": "UINT8", "sizes": [2, 2], "strides": [0, 1]},
            "output_tensor": {"data_type": "UINT8", "sizes": [2, 2]},
            "padding_mode": "EDGE",
            "padding_value": 0.0,
            "start_padding": [0, 0],
            "end_padding": [0, 0],
        },
        "inputs": [{"data_type": "UINT8", "shape": [2, 2], "values": [1, 2, 3, 4]}],
        "expected": {"outcome": "valid", "outputs": [{"data_type": "UINT8", "shape": [2, 2], "values": [1, 2, 3, 4]}]},
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(case))
    errors = corpus.load_file(path).errors
    assert len(errors) == 1
    text = str(errors[0])
    assert "bad.json" in text and "$.inputs[0]" in text and "[LAYOUT.2]" in text and "[1, 0]" in text


def test_a_case_stating_a_layout_must_cite_a_layout_clause(tmp_path):
    case = json.loads((corpus.CASES_DIR / "curated" / "LAYOUT.json").read_text())["cases"][0]
    case["clauses"] = ["SLICE.1"]
    path = tmp_path / "uncited.json"
    path.write_text(json.dumps(case))
    errors = corpus.load_file(path).errors
    assert len(errors) == 1 and "$.clauses" in str(errors[0]) and "LAYOUT" in str(errors[0])


def test_layout_fields_round_trip_and_packed_descs_keep_their_json():
    tensor = t("FLOAT16", [2, 3], [8, 2], total_tensor_size_in_bytes=32, guaranteed_base_offset_alignment=16, flags=1)
    assert TensorDesc.from_json(tensor.to_json()) == tensor
    assert t("FLOAT16", [2, 3]).to_json() == {"data_type": "FLOAT16", "sizes": [2, 3]}  # case ids unchanged

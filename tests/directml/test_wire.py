"""The descriptor as the runner receives it: every field as the case states it, nothing converted."""

from __future__ import annotations

import numpy as np
import pytest

import oracle
from conformance.backends.directml.hresults import hresult_text
from conformance.backends.directml.wire import inexpressible, input_payload, request, tensor_desc
from oracle import DataType, FeatureLevel, PaddingDesc, Slice1Desc, SliceDesc, SplitDesc, TensorDesc
from oracle.layout import implied_size


def t(data_type: str, *sizes: int) -> TensorDesc:
    return TensorDesc(DataType[data_type], sizes)


def test_total_tensor_size_rounds_packed_bytes_up_to_four():
    # DMLCalcBufferTensorSize: element size * element count, rounded up to a multiple of 4.
    assert implied_size(t("UINT8", 3)) == 4
    assert implied_size(t("UINT8", 2, 2)) == 4
    assert implied_size(t("FLOAT16", 1, 3)) == 8
    assert implied_size(t("FLOAT64", 2, 3)) == 48
    assert implied_size(t("INT8", 0)) == 0


def test_the_input_payload_is_padded_to_the_total_size():
    # Bytes no element owns hold the documented fill: byte k = (0x5A + 0x3B * k) mod 256.
    x = np.array([1, 2, 3], dtype=np.uint8)
    assert input_payload([x], (t("UINT8", 3),)) == b"\x01\x02\x03\x0b"


def test_join_inputs_travel_one_after_another_each_padded():
    a, b = np.array([1, 2, 3], dtype=np.uint8), np.array([4], dtype=np.uint8)
    assert input_payload([a, b], (t("UINT8", 3), t("UINT8", 1))) == b"\x01\x02\x03\x0b\x04\x95\xd0\x0b"
    desc = oracle.join_desc((t("INT16", 2, 1), t("INT16", 2, 3)), 1)
    req = request(desc, FeatureLevel.FL_4_1)
    assert req["fields"] == {"dimension_count": 2, "axis": 1, "input_count": 2}
    assert [i["sizes"] for i in req["tensors"]["inputs"]] == [[2, 1], [2, 3]]
    assert req["tensors"]["outputs"] == [
        {"data_type": "INT16", "sizes": [2, 4], "flags": 0, "total_size": 16, "alignment": 0}
    ]


def test_padding_value_travels_as_the_float_bits_the_struct_holds():
    desc = PaddingDesc(t("FLOAT16", 2), t("FLOAT16", 3), "CONSTANT", np.float32(-1.5), (1,), (0,))
    fields = request(desc, FeatureLevel.FL_3_0)["fields"]
    assert fields == {
        "dimension_count": 1,
        "start_padding": [1],
        "end_padding": [0],
        "padding_mode": "CONSTANT",
        "padding_value_bits": 0xBFC00000,
    }


def test_a_nan_payload_padding_value_keeps_its_bits():
    value = np.array(0x7FC00001, dtype="<u4").view("<f4")[()]
    desc = PaddingDesc(t("FLOAT32", 2), t("FLOAT32", 3), "CONSTANT", value, (1,), (0,))
    assert request(desc, FeatureLevel.FL_3_0)["fields"]["padding_value_bits"] == 0x7FC00001


def test_slice1_request_names_the_struct_fields_and_the_minimum_feature_level():
    desc = Slice1Desc(t("FLOAT32", 1, 1, 4, 4), t("FLOAT32", 1, 1, 2, 2), (0, 0, 0, 1), (1, 1, 4, 3), (1, 1, -2, 2))
    req = request(desc, FeatureLevel.FL_2_1)
    assert req["operator"] == "SLICE1" and req["min_feature_level"] == "2.1" and req["check_only"] is False
    assert req["fields"] == {
        "dimension_count": 4,
        "window_offsets": [0, 0, 0, 1],
        "window_sizes": [1, 1, 4, 3],
        "window_strides": [1, 1, -2, 2],
    }
    assert req["tensors"]["inputs"] == [
        {"data_type": "FLOAT32", "sizes": [1, 1, 4, 4], "flags": 0, "total_size": 64, "alignment": 0}
    ]
    assert req["tensors"]["outputs"] == [
        {"data_type": "FLOAT32", "sizes": [1, 1, 2, 2], "flags": 0, "total_size": 16, "alignment": 0}
    ]


def test_split_request_carries_every_output_tensor():
    desc = SplitDesc(t("INT16", 2, 5), (t("INT16", 2, 2), t("INT16", 2, 3)), axis=1)
    req = request(desc, FeatureLevel.FL_4_1, check_only=True)
    assert req["fields"] == {"dimension_count": 2, "axis": 1, "output_count": 2}
    assert [o["sizes"] for o in req["tensors"]["outputs"]] == [[2, 2], [2, 3]] and req["check_only"] is True


def test_an_invalid_but_expressible_descriptor_goes_as_stated():
    # A mismatched output size (SLICE.3) is DirectML's to refuse: nothing is corrected on the way.
    desc = SliceDesc(t("UINT8", 4), t("UINT8", 3), (0,), (2,), (1,))
    assert inexpressible(desc) is None
    assert request(desc, FeatureLevel.FL_3_0)["tensors"]["outputs"][0]["sizes"] == [3]


@pytest.mark.parametrize(
    ("desc", "words"),
    [
        (SliceDesc(t("UINT8", 4), t("UINT8", 2), (0,), (2,), (1,), dimension_count=2), "DimensionCount=2"),
        (SliceDesc(t("UINT8", 4), t("UINT8", 2), (2**32,), (2,), (1,)), "UINT field cannot hold"),
        (SliceDesc(t("UINT8", 4), t("UINT8", 2), (-1,), (2,), (1,)), "UINT field cannot hold"),
        (Slice1Desc(t("UINT8", 4), t("UINT8", 2), (0,), (4,), (2**31,)), "INT field cannot hold"),
        (SplitDesc(t("UINT8", 4), (t("UINT8", 4),), axis=0, output_count=2), "OutputCount"),
        (SplitDesc(t("UINT8", 4), (t("UINT8", 4),), axis=-1), "UINT field cannot hold"),
    ],
)
def test_descriptors_without_a_c_form_are_named(desc, words):
    assert words in inexpressible(desc)


def test_hresults_are_named():
    assert hresult_text("0x80070057") == "0x80070057 (E_INVALIDARG)"
    assert hresult_text(0x887A0005) == "0x887a0005 (DXGI_ERROR_DEVICE_REMOVED)"
    assert hresult_text("0x12345678") == "0x12345678"


def test_a_windows_software_adapter_nobody_asked_for_is_refused():
    """A machine whose only adapter is the Microsoft Basic Render Driver: DirectML would run on the CPU."""
    from conformance.backends.directml.backend import software_refusal

    only = {"adapter": "Microsoft Basic Render Driver", "adapters": "0: Microsoft Basic Render Driver"}
    reason = software_refusal(only, None, False)
    assert reason and "software rasteriser" in reason and "--allow-software-adapter" in reason
    assert software_refusal(only, "0", False)  # an index is no request for a software adapter by name
    assert software_refusal(only, "Basic Render", False) is None  # asked for by name: on purpose
    assert software_refusal(only, None, True) is None
    assert software_refusal({"adapter": "Microsoft WARP"}, None, False)
    # The suite's own Linux stack is the adapter expected there.
    assert software_refusal({"adapter": "llvmpipe (LLVM 15.0.6, 256 bits)"}, None, False) is None
    assert software_refusal({"adapter": "NVIDIA GeForce RTX 4090"}, None, False) is None


def test_every_request_of_the_quick_profile_is_sent_as_json_would_write_it():
    # The runner's headers are made with orjson (process.encode_header) for speed: the bytes must be json's
    # compact ones, for every request the quick profile makes on both compile paths (and the graphs').
    import json

    from conformance.backends.directml.graph import graph_request
    from conformance.backends.directml.process import encode_header
    from conformance.cases.compositions import Composition
    from conformance.cases.corpus import Case
    from conformance.run.config import RunConfig
    from conformance.run.selection import select

    requests = []
    for case in (w.unit for w in select(RunConfig(profile="quick", generated=200, hypothesis_examples=0)).works):
        if isinstance(case, Composition):
            requests.append(graph_request(case.graph, case.feature_level, tensor_desc))
        elif isinstance(case, Case) and inexpressible(case.descriptor) is None:
            for graph in (False, True):
                requests.append(request(case.descriptor, case.feature_level, graph=graph))
    assert len(requests) > 3000
    batch = {"op": "batch", "threads": 2, "cases": requests[:300]}
    for header in [*requests, batch]:
        assert encode_header(header) == json.dumps(header, separators=(",", ":")).encode()


@pytest.mark.parametrize(
    "header",
    [
        {"value": 2**64, "fields": [-(2**63) - 1]},  # past 64 bits: orjson refuses, json writes it
        {"message": "caf\u00e9 \u2014 \U0001f600"},  # not ASCII: json escapes it, as the runner's reader expects
        {"text": "".join(map(chr, range(128)))},  # every ASCII character, controls escaped
        {1: "a key that is not a string"},
    ],
)
def test_what_orjson_would_write_otherwise_is_written_by_json(header):
    import json

    from conformance.backends.directml.process import encode_header

    assert encode_header(header) == json.dumps(header, separators=(",", ":")).encode()
    assert encode_header(header).isascii()

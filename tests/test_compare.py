"""conformance.judging.compare: bit-exact, so NaN payloads, -0.0 and float16 bits all count."""

import numpy as np

from conformance.judging.compare import compare_outputs


def test_identical_bits_are_equal_even_for_nan():
    a = np.array([0x7FC00001, 0xFF800000, 0x80000000], dtype="<u4").view("<f4")
    assert compare_outputs([a], [a.copy()]).equal


def test_nan_payload_difference_is_a_mismatch():
    expected = np.array([0x7FC00001], dtype="<u4").view("<f4")
    actual = np.array([0x7FC00000], dtype="<u4").view("<f4")
    result = compare_outputs([expected], [actual])
    assert not result.equal
    assert result.count == 1
    assert result.first[0].expected_hex == "0x7fc00001"
    assert result.first[0].actual_hex == "0x7fc00000"


def test_negative_zero_differs_from_zero():
    result = compare_outputs([np.array([-0.0], dtype=np.float16)], [np.array([0.0], dtype=np.float16)])
    assert not result.equal
    assert result.first[0].expected_hex == "0x8000"
    assert result.first[0].coordinate == [0]


def test_counts_every_mismatch_and_lists_coordinates_in_order():
    expected = np.arange(12, dtype=np.int8).reshape(3, 4)
    actual = expected.copy()
    actual[1, 2] = 100
    actual[2, 0] = -1
    result = compare_outputs([expected], [actual])
    assert result.count == 2
    assert [m.coordinate for m in result.first] == [[1, 2], [2, 0]]
    assert result.first[1].actual == "-1" and result.first[1].actual_hex == "0xff"
    assert "2 element(s) differ" in result.summary()


def test_structural_problems_are_reported_not_compared():
    e = np.zeros((2, 2), dtype=np.float32)
    assert compare_outputs([e], []).problems == ["expected 1 output(s), got 0"]
    assert "shape" in compare_outputs([e], [np.zeros((4,), dtype=np.float32)]).problems[0]
    assert "dtype" in compare_outputs([e], [np.zeros((2, 2), dtype=np.int32)]).problems[0]


def test_nan_payload_only_is_true_only_when_every_mismatch_is_nan_vs_nan():
    quiet, payload = np.array([0x7E00, 0x7E01], dtype="<u2").view("<f2")
    expected = np.array([payload, 1.0], dtype=np.float16)
    assert compare_outputs([expected], [np.array([quiet, 1.0], dtype=np.float16)]).nan_payload_only
    # A NaN where a number was expected is a real difference, not a payload change.
    assert not compare_outputs([expected], [np.array([payload, quiet], dtype=np.float16)]).nan_payload_only
    assert not compare_outputs([expected], [expected.copy()]).nan_payload_only
    assert not compare_outputs([np.array([1], dtype=np.int16)], [np.array([2], dtype=np.int16)]).nan_payload_only


def test_differences_in_open_elements_are_counted_apart_and_listed_last():
    # given: PADDING-negative-into-uint8's expected output, element 0 left open by U-PAD-1
    expected = np.array([0, 1, 2], dtype=np.uint8)
    open_elements = [np.array([True, False, False])]
    # act / assert: a different PaddingValue conversion alone is not a failure
    only_open = compare_outputs([expected], [np.array([255, 1, 2], dtype=np.uint8)], open_elements)
    assert not only_open.equal and not only_open.fails and (only_open.count, only_open.open_count) == (1, 1)
    # garbage everywhere: the judged elements fail, and are listed before the open one
    garbage = compare_outputs([expected], [np.array([90, 90, 90], dtype=np.uint8)], open_elements)
    assert garbage.fails and (garbage.count, garbage.open_count, garbage.judged_count) == (3, 1, 2)
    assert [(m.coordinate, m.open) for m in garbage.first] == [([1], False), ([2], False), ([0], True)]
    assert garbage.summary().startswith("2 element(s) differ where the spec fixes the value; first at output 0 [1]")

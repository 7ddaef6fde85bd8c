"""conformance.compare: bit-exact, so NaN payloads, -0.0 and float16 bits all count."""

import numpy as np

from conformance.compare import compare_outputs


def test_identical_bits_are_equal_even_for_nan():
    a = np.array([0x7FC00001, 0xFF800000, 0x80000000], dtype="<u4").view("<f4")
    assert compare_outputs([a], [a.copy()]).equal


def test_nan_payload_difference_is_a_mismatch():
    expected = np.array([0x7FC00001], dtype="<u4").view("<f4")
    actual = np.array([0x7FC00000], dtype="<u4").view("<f4")
    result = compare_outputs([expected], [actual])
    assert not result.equal
    assert result.mismatch_count == 1
    assert result.mismatches[0].expected_hex == "0x7fc00001"
    assert result.mismatches[0].actual_hex == "0x7fc00000"


def test_negative_zero_differs_from_zero():
    result = compare_outputs([np.array([-0.0], dtype=np.float16)], [np.array([0.0], dtype=np.float16)])
    assert not result.equal
    assert result.mismatches[0].expected_hex == "0x8000"
    assert result.mismatches[0].coordinate == (0,)


def test_counts_every_mismatch_and_lists_coordinates_in_order():
    expected = np.arange(12, dtype=np.int8).reshape(3, 4)
    actual = expected.copy()
    actual[1, 2] = 100
    actual[2, 0] = -1
    result = compare_outputs([expected], [actual])
    assert result.mismatch_count == 2
    assert [m.coordinate for m in result.mismatches] == [(1, 2), (2, 0)]
    assert result.mismatches[1].actual == "-1" and result.mismatches[1].actual_hex == "0xff"
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

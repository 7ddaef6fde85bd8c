"""PaddingValue (a 32-bit FLOAT) into each data type: the U-PAD-1/2/3 policies, bit for bit.

Bit patterns are worked out by hand in the comments (sign | exponent | mantissa), not taken
from numpy: numpy's float16 cast is what the oracle uses, so it cannot be its own witness.
"""

from __future__ import annotations

import numpy as np
import pytest

import oracle
from oracle import DataType, PaddingDesc, TensorDesc, convert_padding_value


def f32(bits: int) -> np.float32:
    return np.array(bits, dtype="<u4").view("<f4")[()]


def bits_of(value: np.ndarray) -> int:
    array = np.asarray(value)
    return int(array.view(f"<u{array.dtype.itemsize}")[()])


# --- FLOAT32: exact --------------------------------------------------------------------------


@pytest.mark.parametrize("bits", [0x7FC00001, 0x7F800001, 0xFFC00000, 0x80000000, 0x00000001, 0x3DCCCCCD, 0x7F800000])
def test_float32_is_bit_exact(bits: int) -> None:
    conversion = convert_padding_value(DataType.FLOAT32, f32(bits))
    assert bits_of(conversion.value) == bits
    assert (conversion.erratum, conversion.observed) == (None, False)


def test_float32_nan_payload_reaches_the_output() -> None:
    x = np.ones((1, 1, 1, 1), dtype=np.float32)
    y = oracle.padding(x, "CONSTANT", [0, 0, 0, 1], [0, 0, 0, 0], padding_value=f32(0x7FC00001))
    assert y.view("<u4").ravel().tolist() == [0x7FC00001, 0x3F800000]


def test_python_float_is_rounded_to_float32_first() -> None:
    """0.1 reaches the C FLOAT as 0x3DCCCCCD (1.6 * 2^-4: exponent 123, mantissa 0x4CCCCD)."""
    assert bits_of(convert_padding_value(DataType.FLOAT32, 0.1).value) == 0x3DCCCCCD


# --- FLOAT16: round to nearest even (U-PAD-3) --------------------------------------------------


@pytest.mark.parametrize(
    ("value", "half_bits", "observed"),
    [
        (1.5, 0x3E00, False),  # 0 01111 1000000000: exact
        (-2.0, 0xC000, False),  # 1 10000 0000000000: exact
        (0.1, 0x2E66, True),  # 1.6 * 2^-4: exponent 11 (01011), mantissa 0.6*1024 = 614.4 -> 614 = 0x266
        (2049.0, 0x6800, True),  # tie between 2048 (mantissa 0, even) and 2050: -> 2048 = 0 11010 0000000000
        (2051.0, 0x6802, True),  # tie between 2050 (mantissa 1, odd) and 2052 (mantissa 2): -> 2052
        (1 + 2**-11, 0x3C00, True),  # tie between 1.0 (even) and 1 + 2^-10: -> 1.0
        (1 + 3 * 2**-11, 0x3C02, True),  # tie between 0x3C01 (odd) and 0x3C02 (even): -> 0x3C02
        (65504.0, 0x7BFF, False),  # largest half: 0 11110 1111111111
        (65520.0, 0x7C00, True),  # tie between 65504 (odd) and 65536 (even, overflows): -> +inf
        (float("inf"), 0x7C00, False),
        (-0.0, 0x8000, False),
    ],
)
def test_float16_round_to_nearest_even(value: float, half_bits: int, observed: bool) -> None:
    conversion = convert_padding_value(DataType.FLOAT16, value)
    assert bits_of(conversion.value) == half_bits
    assert conversion.erratum == "U-PAD-3"
    assert conversion.observed is observed


def test_float16_nan_is_observed() -> None:
    conversion = convert_padding_value(DataType.FLOAT16, f32(0x7FC00001))
    assert np.isnan(conversion.value)
    assert conversion.observed


# --- FLOAT64: the float32 value widened (U-PAD-2) -----------------------------------------------


def test_float64_widens_the_float32_value() -> None:
    # float32 0.1 = 0x3DCCCCCD: exponent -4 -> 1019 = 0x3FB; mantissa 0x4CCCCD << 29 = 0x99999A0000000.
    conversion = convert_padding_value(DataType.FLOAT64, 0.1)
    assert bits_of(conversion.value) == 0x3FB99999A0000000
    assert (conversion.erratum, conversion.observed) == ("U-PAD-2", True)  # fractional: observed
    whole = convert_padding_value(DataType.FLOAT64, 10.0)
    assert bits_of(whole.value) == 0x4024000000000000
    assert (whole.erratum, whole.observed) == ("U-PAD-2", False)
    assert convert_padding_value(DataType.FLOAT64, f32(0x7FC00001)).observed


# --- integers: truncation toward zero (U-PAD-1) -------------------------------------------------


@pytest.mark.parametrize(
    ("data_type", "value", "expected"),
    [
        (DataType.INT32, 10.6, 10),  # the page's own example (PAD.4)
        (DataType.INT32, -3.7, -3),
        (DataType.INT8, -128.9, -128),
        (DataType.UINT8, 255.9, 255),
        (DataType.UINT16, 0.99, 0),
        (DataType.INT64, -16777216.0, -16777216),
        (DataType.UINT64, 3.0, 3),
    ],
)
def test_integer_truncates_toward_zero_judged(data_type: DataType, value: float, expected: int) -> None:
    conversion = convert_padding_value(data_type, value)
    assert int(conversion.value) == expected
    assert (conversion.erratum, conversion.observed) == ("U-PAD-1", False)


@pytest.mark.parametrize(
    ("data_type", "value"),
    [
        (DataType.UINT8, -3.7),  # negative into unsigned
        (DataType.UINT32, -1.0),
        (DataType.INT8, 300.0),  # out of range
        (DataType.UINT8, 256.0),
        (DataType.INT16, -40000.0),
        (DataType.INT32, float("nan")),
        (DataType.INT64, float("inf")),
        (DataType.UINT16, float("-inf")),
    ],
)
def test_integer_open_cases_are_observed(data_type: DataType, value: float) -> None:
    conversion = convert_padding_value(data_type, value)
    assert (conversion.erratum, conversion.observed) == ("U-PAD-1", True)
    info = np.iinfo(data_type.numpy)
    assert info.min <= int(conversion.value) <= info.max  # the oracle's deterministic choice stays in range


def test_integer_truncation_end_to_end() -> None:
    x = np.array([[[[1]]]], dtype=np.int32)
    y = oracle.padding(x, "CONSTANT", [0, 0, 0, 1], [0, 0, 0, 1], padding_value=-3.7)
    assert y.ravel().tolist() == [-3, 1, -3]


# --- unspecified() reports them for CONSTANT only --------------------------------------------


@pytest.mark.parametrize("mode", ["CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC"])
@pytest.mark.parametrize(
    ("data_type", "value", "entry"),
    [
        ("INT8", 300.0, "U-PAD-1"),
        ("FLOAT64", 0.5, "U-PAD-2"),
        ("FLOAT16", 0.1, "U-PAD-3"),
        ("INT8", 10.6, None),
        ("FLOAT32", float("nan"), None),
    ],
)
def test_unspecified_reports_conversion_for_constant_only(
    mode: str, data_type: str, value: float, entry: str | None
) -> None:
    desc = PaddingDesc(
        TensorDesc.of(data_type, [1, 1, 2, 2]),
        TensorDesc.of(data_type, [1, 1, 4, 4]),
        mode,
        value,
        (0, 0, 1, 1),
        (0, 0, 1, 1),
    )
    expected = [entry] if entry and mode == "CONSTANT" else []
    assert oracle.unspecified(desc) == expected

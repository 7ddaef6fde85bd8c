"""PaddingValue (a 32-bit FLOAT, PAD.4) converted to the tensor's data type.

The page documents only FLOAT32 (exact) and in-range truncation for other types
("10.6 becomes 10").  Everything else is the policy of an errata entry, and this module
is the one place that carries it:

- FLOAT32: the value itself, bit for bit (NaN payloads included).
- FLOAT16: round to nearest even (U-PAD-3).  Inexact values and NaN are *observed*.
- FLOAT64: the float32 value widened exactly (U-PAD-2).  Fractional values (where the
  literal "may be truncated" reading differs) and NaN payloads are *observed*.
- integers: truncate toward zero (U-PAD-1, judged when the result is in range and the
  value is not negative into an unsigned type).  Otherwise *observed*; the oracle then
  saturates to the type's range and maps NaN to 0, a deterministic, documented choice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .tables import DataType


@dataclass(frozen=True)
class PaddingValueConversion:
    value: np.ndarray  # 0-d array of the tensor's dtype
    erratum: str | None  # the register entry whose policy decided this value, if any
    observed: bool  # True: the spec does not fix this value; results are observed, not judged
    note: str


def float32_bits(value: float | np.floating) -> int:
    """The 32 bits of a float32 (little-endian view): how PaddingValue crosses a pipe or a file unchanged."""
    return int(np.array(value, dtype="<f4").view("<u4")[()])


def float32_from_bits(bits: int) -> np.float32:
    """The float32 with these 32 bits (NaN payloads and signalling NaNs kept)."""
    return np.float32(np.array(bits, dtype="<u4").view("<f4")[()])


def as_float32(value: float | np.floating) -> np.float32:
    """PaddingValue is a C FLOAT: a Python float reaches the API rounded to float32."""
    if isinstance(value, np.float32):
        return value
    with np.errstate(over="ignore"):
        return np.float32(value)


def _result(data_type: DataType, v: object, erratum: str | None, observed: bool, note: str) -> PaddingValueConversion:
    return PaddingValueConversion(np.asarray(v, dtype=data_type.numpy), erratum, observed, note)


def _to_float16(f32: np.float32) -> PaddingValueConversion:
    """U-PAD-3: round to nearest even; inexact values and NaN are observed."""
    with np.errstate(over="ignore"):
        half = np.float16(f32)
    if math.isnan(f32):
        return _result(DataType.FLOAT16, half, "U-PAD-3", True, "NaN into FLOAT16: payload conversion unspecified")
    if math.isinf(f32) or np.float32(half) == f32:
        return _result(DataType.FLOAT16, half, "U-PAD-3", False, "FLOAT16: exactly representable")
    return _result(
        DataType.FLOAT16, half, "U-PAD-3", True, "FLOAT16: not exactly representable; oracle rounds to nearest even"
    )


def _to_float64(f32: np.float32) -> PaddingValueConversion:
    """U-PAD-2: the float32 value widened exactly; fractions and NaN payloads are observed."""
    wide = np.float64(f32)
    if math.isnan(f32):
        return _result(DataType.FLOAT64, wide, "U-PAD-2", True, "NaN into FLOAT64: payload widening unspecified")
    if math.isinf(f32) or float(f32).is_integer():
        return _result(DataType.FLOAT64, wide, "U-PAD-2", False, "FLOAT64: float32 value widened exactly")
    return _result(
        DataType.FLOAT64, wide, "U-PAD-2", True, "FLOAT64: fractional value; 'may be truncated' read literally differs"
    )


def _to_integer(data_type: DataType, f32: np.float32) -> PaddingValueConversion:
    """U-PAD-1: truncate toward zero; out of range, NaN and infinity are observed (the oracle saturates)."""
    info = np.iinfo(data_type.numpy)
    if math.isnan(f32):
        return _result(data_type, 0, "U-PAD-1", True, "NaN into an integer type: unspecified; oracle uses 0")
    if math.isinf(f32):
        saturated = info.max if f32 > 0 else info.min
        return _result(
            data_type, saturated, "U-PAD-1", True, "infinity into an integer type: unspecified; oracle saturates"
        )
    truncated = int(f32)  # exact: float32 values are exact integers once truncated toward zero
    if info.min == 0 and f32 < 0:
        return _result(
            data_type,
            max(truncated, 0),
            "U-PAD-1",
            True,
            "negative value into an unsigned type: unspecified; oracle saturates to 0",
        )
    if not info.min <= truncated <= info.max:
        return _result(
            data_type,
            min(max(truncated, info.min), info.max),
            "U-PAD-1",
            True,
            f"{float(f32)!r} is out of {data_type.value}'s range: unspecified; oracle saturates",
        )
    return _result(data_type, truncated, "U-PAD-1", False, "integer type: truncated toward zero (documented, PAD.4)")


def convert_padding_value(data_type: DataType, value: float | np.floating) -> PaddingValueConversion:
    """PaddingValue in `data_type`, with the register entry that decided it and whether it is observed."""
    f32 = as_float32(value)
    if data_type is DataType.FLOAT32:
        return _result(data_type, f32, None, False, "FLOAT32: exact")
    if data_type is DataType.FLOAT16:
        return _to_float16(f32)
    if data_type is DataType.FLOAT64:
        return _to_float64(f32)
    return _to_integer(data_type, f32)

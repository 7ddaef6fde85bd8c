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


def as_float32(value: float) -> np.float32:
    """PaddingValue is a C FLOAT: a Python float reaches the API rounded to float32."""
    if isinstance(value, np.floating) and value.dtype == np.float32:
        return value
    with np.errstate(over="ignore"):
        return np.float32(value)


def convert_padding_value(data_type: DataType, value: float) -> PaddingValueConversion:  # noqa: C901 (to split, issue 12)
    f32 = as_float32(value)
    dtype = data_type.numpy

    def result(v, erratum: str | None, observed: bool, note: str) -> PaddingValueConversion:
        return PaddingValueConversion(np.asarray(v, dtype=dtype), erratum, observed, note)

    if data_type is DataType.FLOAT32:
        return result(f32, None, False, "FLOAT32: exact")
    if data_type is DataType.FLOAT16:
        with np.errstate(over="ignore"):
            half = np.float16(f32)
        if math.isnan(f32):
            return result(half, "U-PAD-3", True, "NaN into FLOAT16: payload conversion unspecified")
        exact = math.isinf(f32) or np.float32(half) == f32
        if exact:
            return result(half, "U-PAD-3", False, "FLOAT16: exactly representable")
        return result(half, "U-PAD-3", True, "FLOAT16: not exactly representable; oracle rounds to nearest even")
    if data_type is DataType.FLOAT64:
        wide = np.float64(f32)
        if math.isnan(f32):
            return result(wide, "U-PAD-2", True, "NaN into FLOAT64: payload widening unspecified")
        if math.isinf(f32) or float(f32).is_integer():
            return result(wide, "U-PAD-2", False, "FLOAT64: float32 value widened exactly")
        return result(wide, "U-PAD-2", True, "FLOAT64: fractional value; 'may be truncated' read literally differs")

    info = np.iinfo(dtype)
    if math.isnan(f32):
        return result(0, "U-PAD-1", True, "NaN into an integer type: unspecified; oracle uses 0")
    if math.isinf(f32):
        return result(
            info.max if f32 > 0 else info.min,
            "U-PAD-1",
            True,
            "infinity into an integer type: unspecified; oracle saturates",
        )
    truncated = int(f32)  # exact: float32 values are exact integers once truncated toward zero
    if info.min == 0 and f32 < 0:
        return result(
            max(truncated, 0),
            "U-PAD-1",
            True,
            "negative value into an unsigned type: unspecified; oracle saturates to 0",
        )
    if not info.min <= truncated <= info.max:
        return result(
            min(max(truncated, info.min), info.max),
            "U-PAD-1",
            True,
            f"{float(f32)!r} is out of {data_type.value}'s range: unspecified; oracle saturates",
        )
    return result(truncated, "U-PAD-1", False, "integer type: truncated toward zero (documented, PAD.4)")

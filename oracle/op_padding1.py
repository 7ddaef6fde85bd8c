"""DML_PADDING1_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md, PAD1.*).

DML_PADDING with a typed PaddingValue: PaddingValueDataType must be the output's data type and
PaddingValue is a DML_SCALAR_UNION read as that type (PAD1.4), so, unlike DML_PADDING's FLOAT
(PAD.4 and its U-PAD-1..3 conversions), every value of every type is written as given, bit for
bit: INT64 past 2^53, UINT64, FLOAT64 NaN payloads, FLOAT16 signalling NaNs.  It is what ONNX
Runtime's DirectML provider lowers every Pad to.  The geometry is DML_PADDING's: the same fold
per mode (WRAP included, WRAP.1) and the same literal path, fast path and derivation, with this
descriptor's value as the fill.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from . import op_padding
from .checks import OneInOneOut, TensorDesc, fail
from .descriptor_json import DATA_TYPE, TENSOR, FieldJson, JsonDescriptor
from .op_padding import PADDING_MODE, PaddingMode, check_geometry, check_output_sizes, mode_unspecified
from .tables import ALL_DATA_TYPES, RANKS_1_8, DataType, FeatureLevel, OperatorTables, SupportRow

OPERATOR = "PADDING1"
PAGE_ORDER = 5  # its place in the registry (oracle.registry): the pages' order, then the ones past them
TABLES = OperatorTables(
    support=(SupportRow(FeatureLevel.FL_5_0, RANKS_1_8, ALL_DATA_TYPES),),  # PAD1.6
    support_clause="PAD1.6",
    dimension_count_clause="PAD1.6",
    introduced=(FeatureLevel.FL_5_0, "PAD1.6"),
    clause_prefix="PAD1.",
)


def scalar(value: Any, data_type: DataType, name: str = "padding_value") -> np.generic:
    """A DML_SCALAR_UNION member as a numpy scalar of `data_type`: exact, or ValueError (never converted);
    `name` is the field the message names (FILL_VALUE_* and DIAGONAL_MATRIX1 hold such unions too)."""
    dtype = data_type.numpy
    if isinstance(value, np.generic) and value.dtype == dtype:
        return value
    if data_type.is_float:
        if isinstance(value, np.floating) and value.dtype != dtype:
            raise ValueError(f"{name} {value!r} is a {value.dtype}, not {data_type.value}")
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"{name}={value!r} is not a number")
        with np.errstate(over="ignore"):
            converted = dtype.type(value)
        if np.isfinite(float(value)) and float(converted) != float(value):
            raise ValueError(f"{name}={value!r} is not exactly a {data_type.value}")
        return converted
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name}={value!r} is not an integer, as {data_type.value} needs")
    info = np.iinfo(dtype)
    if not info.min <= int(value) <= info.max:
        raise ValueError(f"{name}={value} is outside {data_type.value} ({info.min}..{info.max})")
    return dtype.type(int(value))


def scalar_bits(value: np.generic) -> int:
    """The value's bits, as the union's low bytes hold them (little-endian, unsigned)."""
    array = np.asarray(value)
    return int(array.view(np.dtype(f"<u{array.itemsize}"))[()])


# --- PaddingValue as JSON (the case format): exact in its own type ------------------------------------


def scalar_to_json(value: np.generic, data_type: DataType) -> int | float | str:
    """A typed PaddingValue (PADDING1) as JSON: an integer exactly; a float as a number when it round-trips,
    else "nan", "inf", "-inf" or its bits in the type's width ("0x7ff8000000000001")."""
    if not data_type.is_float:
        return int(value)
    number = float(value)
    if math.isnan(number):
        width = np.asarray(value).itemsize * 2
        return f"0x{scalar_bits(value):0{width}x}"
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    return number


def scalar_from_json(value: int | float | str, data_type: DataType, name: str = "padding_value") -> np.generic:
    """Inverse of scalar_to_json; a value the type cannot hold exactly is a ValueError naming it."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text.startswith("0x") and data_type.is_float:
            bits = int(text, 16)
            width = data_type.numpy.itemsize
            if bits >= 1 << (8 * width):
                raise ValueError(f"{name}={value!r} has more bits than {data_type.value}")
            return cast(np.generic, np.array(bits, dtype=f"<u{width}").view(data_type.numpy)[()])
        if text in ("nan", "inf", "-inf", "+inf") and data_type.is_float:
            return data_type.numpy.type(float(text))
        raise ValueError(f"{name}={value!r}: expected a number, or for a float type 'nan', 'inf', '-inf' or bits")
    return scalar(value, data_type, name)


def typed_value(name: str, type_field: str) -> FieldJson:
    """The JSON form of a DML_SCALAR_UNION field `name` typed by the descriptor's `type_field` (read from the
    same object: the value's form depends on it)."""
    return FieldJson(
        lambda value, desc: scalar_to_json(value, getattr(desc, type_field)),
        lambda value, obj: scalar_from_json(value, DataType.parse(obj[type_field]), name),
    )


# Read with the padding_value_data_type of the same object: the value's form depends on it.
TYPED_VALUE = FieldJson(
    lambda value, desc: scalar_to_json(value, desc.padding_value_data_type),
    lambda value, obj: scalar_from_json(value, DataType.parse(obj["padding_value_data_type"])),
)


@dataclass(frozen=True)
class Padding1Desc(OneInOneOut, JsonDescriptor):
    """Mirrors DML_PADDING1_OPERATOR_DESC.  padding_value is a numpy scalar of padding_value_data_type."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    padding_mode: PaddingMode
    padding_value_data_type: DataType
    padding_value: Any
    start_padding: tuple[int, ...]
    end_padding: tuple[int, ...]
    dimension_count: int | None = None

    operator = OPERATOR
    JSON_FIELDS = {
        "input_tensor": TENSOR,
        "output_tensor": TENSOR,
        "padding_mode": PADDING_MODE,
        "padding_value_data_type": DATA_TYPE,
        "padding_value": TYPED_VALUE,
    }
    ARRAYS = ("start_padding", "end_padding")
    UINT_ARRAYS = ARRAYS

    def __post_init__(self) -> None:
        object.__setattr__(self, "padding_mode", PaddingMode.parse(self.padding_mode))
        data_type = DataType.parse(self.padding_value_data_type)
        object.__setattr__(self, "padding_value_data_type", data_type)
        object.__setattr__(self, "padding_value", scalar(self.padding_value, data_type))
        super().__post_init__()

    def struct_fields(self) -> dict:
        """PaddingValue travels as the DML_SCALAR_UNION's bits in its type's width."""
        return {
            **super().struct_fields(),
            "padding_mode": self.padding_mode.value,
            "padding_value_data_type": self.padding_value_data_type.value,
            "padding_value_bits": scalar_bits(self.padding_value),
        }


DESCRIPTOR = Padding1Desc


def validate(desc: Padding1Desc, feature_level: FeatureLevel) -> None:
    n = check_geometry(desc, feature_level, TABLES, "PAD1.5", "PAD1.2")
    if desc.padding_value_data_type is not desc.output_tensor.data_type:
        fail(
            f"padding_value_data_type={desc.padding_value_data_type.value}, but it must match "
            f"output_tensor.data_type={desc.output_tensor.data_type.value}",
            "PAD1.4",
            "padding_value_data_type",
        )
    check_output_sizes(desc, n, "PAD1.2")


def unspecified(desc: Padding1Desc) -> list[str]:
    """The value is exact (PAD1.4): only the mode can leave elements open (U-PAD-4, U-WRAP-1)."""
    return mode_unspecified(desc)


def fill_value(desc: Padding1Desc) -> np.ndarray:
    """PaddingValue as the output's type, bit for bit (0-d)."""
    return np.asarray(desc.padding_value, dtype=desc.output_tensor.data_type.numpy)


def index_maps(desc: Padding1Desc) -> list[op_padding.Folded]:
    return op_padding.index_maps(desc)


def compute(desc: Padding1Desc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    return op_padding.compute_with(desc, inputs, fill_value(desc))


def compute_literal(desc: Padding1Desc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    return op_padding.literal_with(desc, inputs, fill_value(desc))


def explain(desc: Padding1Desc, inputs: Sequence[np.ndarray]) -> list[str]:
    return op_padding.explain_with(desc, inputs, fill_value(desc))

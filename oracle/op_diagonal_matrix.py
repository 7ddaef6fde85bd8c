"""DML_DIAGONAL_MATRIX_OPERATOR_DESC (beyond the seed pages: docs/spec/beyond-seeds.md, DIAG.*): an identity-like
matrix, Value where `y + Offset == x` and 0 elsewhere, in every matrix of a stack.

No input tensor.  The output's last two dimensions are the matrix (height y, width x), the leading ones a batch
(DIAG.1, E-DIAG-1).  Value is a 32-bit FLOAT converted to the output's type as DML_PADDING's PaddingValue is (the
page's own words: "might be truncated (for example, 10.6 will become 10)"): exact where the type holds it, the
rest of the conversion open (U-DIAG-1), on the diagonal elements only; every 0 is judged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import buffers, core
from .checks import OutputOnly, TensorDesc, check_sizes, check_support, fail
from .descriptor_json import TENSOR, FieldJson, JsonDescriptor
from .op_padding import padding_value_from_json, padding_value_to_json
from .padding_value import PaddingValueConversion, as_float32, convert_padding_value, float32_bits
from .tables import (
    ALL_DATA_TYPES,
    FL30_TYPES,
    INT_MAX,
    INT_MIN,
    FeatureLevel,
    OperatorTables,
    SupportRow,
    types,
)

OPERATOR = "DIAGONAL_MATRIX"
PAGE_ORDER = 25  # issue 32's place for it, after the two fill operators
RANKS_2_4 = (2, 3, 4)
TABLES = OperatorTables(
    support=(  # DIAG.5, the page's table
        SupportRow(FeatureLevel.FL_5_1, RANKS_2_4, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_4_0, RANKS_2_4, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_0, (4,), types("FLOAT32, FLOAT16")),
    ),
    support_clause="DIAG.5",
    dimension_count_clause="DIAG.5",
    introduced=(FeatureLevel.FL_2_0, "DIAG.5"),
    clause_prefix="DIAG.",
)


def _value_from_json(value: float | int | str, obj: dict) -> np.float32:
    try:
        return padding_value_from_json(value)
    except ValueError as e:
        raise ValueError(str(e).replace("padding_value", "value")) from None


FLOAT_VALUE = FieldJson(lambda value, desc: padding_value_to_json(value), _value_from_json)


@dataclass(frozen=True)
class DiagonalMatrixDesc(OutputOnly, JsonDescriptor):
    """Mirrors DML_DIAGONAL_MATRIX_OPERATOR_DESC: Offset is INT, Value a 32-bit FLOAT (as in the struct)."""

    output_tensor: TensorDesc
    offset: int
    value: float | np.float32

    operator = OPERATOR
    JSON_FIELDS = {"output_tensor": TENSOR, "value": FLOAT_VALUE}

    def __post_init__(self) -> None:
        if isinstance(self.offset, bool) or not hasattr(self.offset, "__index__"):
            raise TypeError(f"offset={self.offset!r} is not an integer")
        object.__setattr__(self, "offset", int(self.offset))
        object.__setattr__(self, "value", as_float32(self.value))

    def struct_fields(self) -> dict:
        """Offset, and Value as the FLOAT's bits (NaN payloads included)."""
        return {"offset": self.offset, "value_bits": float32_bits(self.value)}


DESCRIPTOR = DiagonalMatrixDesc


def validate(desc: DiagonalMatrixDesc, feature_level: FeatureLevel) -> None:
    check_sizes(desc.output_tensor, "output_tensor")
    if not INT_MIN <= desc.offset <= INT_MAX:
        fail(f"offset={desc.offset}, but Offset is INT ({INT_MIN}..{INT_MAX})", "DIAG.3", "offset")
    check_support(OPERATOR, TABLES, desc.tensors, desc.dimension_count, feature_level)


def conversion(desc: DiagonalMatrixDesc) -> PaddingValueConversion:
    """Value in the output's type, and whether the page leaves that value open (U-DIAG-1): PADDING's conversion."""
    return convert_padding_value(desc.output_tensor.data_type, desc.value)


def on_diagonal(sizes: Sequence[int], lower: int, upper: int) -> np.ndarray:
    """Per element: whether its diagonal index x - y lies in [lower, upper) (y, x its last two coordinates)."""
    height, width = sizes[-2], sizes[-1]
    d = np.arange(width)[None, :] - np.arange(height)[:, None]
    return np.broadcast_to((lower <= d) & (d < upper), tuple(sizes))


def open_elements(desc: DiagonalMatrixDesc) -> np.ndarray:
    """U-DIAG-1: the diagonal's elements where Value's conversion is open; every 0 is judged."""
    diagonal = on_diagonal(desc.output_tensor.sizes, desc.offset, desc.offset + 1)
    return diagonal & conversion(desc).observed


def unspecified(desc: DiagonalMatrixDesc) -> list[str]:
    """U-DIAG-1 where some element of the diagonal holds a value the conversion leaves open."""
    return ["U-DIAG-1"] if bool(open_elements(desc).any()) else []


def index_maps(desc: DiagonalMatrixDesc) -> list[list[core.AxisMap]]:
    """No input is read: no index maps."""
    return [[]]


def compute(desc: DiagonalMatrixDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Value's bits on the diagonal x - y == Offset of every matrix, 0 elsewhere."""
    dt = desc.output_tensor.data_type
    value = conversion(desc).value
    out = buffers.empty(desc.output_tensor.sizes, dt.bits)
    out.fill(0)
    out[on_diagonal(desc.output_tensor.sizes, desc.offset, desc.offset + 1)] = value.view(dt.bits)
    return [core.from_bits(out, dt)]


def compute_literal(desc: DiagonalMatrixDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The page's pseudocode: OutputTensor[c] = Value if c.y + Offset == c.x else 0, coordinate by coordinate."""
    dt = desc.output_tensor.data_type
    value = conversion(desc).value
    out = np.empty(desc.output_tensor.sizes, dtype=dt.numpy)
    for c in core.output_coordinates(desc.output_tensor.sizes):
        y, x = c[-2], c[-1]
        out[c] = value if y + desc.offset == x else dt.numpy.type(0)
    return [out]


def explain(desc: DiagonalMatrixDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    value = core.fmt_value(conversion(desc).value[()])
    opened = open_elements(desc)
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        y, x = c[-2], c[-1]
        hit = y + desc.offset == x
        text = f"Value = {value}" + (" (U-DIAG-1)" if opened[c] else "") if hit else "0"
        lines.append(f"OutputTensor[{','.join(map(str, c))}] = ({y} + {desc.offset} == {x}) ? Value : 0 = {text}")
    return lines

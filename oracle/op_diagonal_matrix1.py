"""DML_DIAGONAL_MATRIX1_OPERATOR_DESC (beyond the seed pages: docs/spec/beyond-seeds.md, DIAG1.*): Value on a band
of diagonals [DiagonalFillBegin, DiagonalFillEnd), the rest copied from an optional InputTensor or 0.

The diagonal of an element is x - y (its last two coordinates; leading dimensions a batch, as DML_DIAGONAL_MATRIX's
E-DIAG-1).  An element is filled when DiagonalFillBegin <= x - y < DiagonalFillEnd; with the bounds inverted (begin >
end) "the fill will be reversed": filled outside [end, begin) (DIAG1.3, the page's fourth example).  Value is a typed
DML_SCALAR_UNION (as DML_FILL_VALUE_CONSTANT's): exact, judged.  InputTensor is optional (_Maybenull_): a case
without it carries no inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import buffers, core
from .checks import TensorDesc, check_same_type_and_rank, check_sizes, check_support, fail
from .descriptor_json import DATA_TYPE, FieldJson, JsonDescriptor
from .op_diagonal_matrix import RANKS_2_4
from .op_padding1 import scalar, scalar_bits, typed_value
from .tables import ALL_DATA_TYPES, INT_MAX, INT_MIN, DataType, FeatureLevel, OperatorTables, SupportRow

OPERATOR = "DIAGONAL_MATRIX1"
PAGE_ORDER = 26  # issue 32's place for it, the last of the family
TABLES = OperatorTables(
    support=(SupportRow(FeatureLevel.FL_5_1, RANKS_2_4, ALL_DATA_TYPES),),  # DIAG1.6, the page's one table
    support_clause="DIAG1.6",
    dimension_count_clause="DIAG1.6",
    introduced=(FeatureLevel.FL_5_1, "DIAG1.6"),
    clause_prefix="DIAG1.",
)

# A tensor desc or null (the struct's _Maybenull_ InputTensor).
OPTIONAL_TENSOR = FieldJson(
    lambda value, desc: None if value is None else value.to_json(),
    lambda value, obj: None if value is None else TensorDesc.from_json(value),
)


@dataclass(frozen=True)
class DiagonalMatrix1Desc(JsonDescriptor):
    """Mirrors DML_DIAGONAL_MATRIX1_OPERATOR_DESC.  input_tensor None is the struct's null InputTensor."""

    input_tensor: TensorDesc | None
    output_tensor: TensorDesc
    value_data_type: DataType
    value: Any
    diagonal_fill_begin: int
    diagonal_fill_end: int

    operator = OPERATOR
    JSON_FIELDS = {
        "input_tensor": OPTIONAL_TENSOR,
        "output_tensor": FieldJson(lambda value, desc: value.to_json(), lambda value, obj: TensorDesc.from_json(value)),
        "value_data_type": DATA_TYPE,
        "value": typed_value("value", "value_data_type"),
    }

    def __post_init__(self) -> None:
        data_type = DataType.parse(self.value_data_type)
        object.__setattr__(self, "value_data_type", data_type)
        object.__setattr__(self, "value", scalar(self.value, data_type, "value"))
        for name in ("diagonal_fill_begin", "diagonal_fill_end"):
            v = getattr(self, name)
            if isinstance(v, bool) or not hasattr(v, "__index__"):
                raise TypeError(f"{name}={v!r} is not an integer")
            object.__setattr__(self, name, int(v))

    @property
    def tensors(self) -> dict[str, TensorDesc]:
        found = {"output_tensor": self.output_tensor}
        return found if self.input_tensor is None else {"input_tensor": self.input_tensor, **found}

    @property
    def input_tensors(self) -> tuple[TensorDesc, ...]:
        return () if self.input_tensor is None else (self.input_tensor,)

    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.output_tensor,)

    @property
    def dimension_count(self) -> int:
        return self.output_tensor.dimension_count

    def struct_fields(self) -> dict:
        """ValueDataType, Value's bits, DiagonalFillBegin and DiagonalFillEnd (InputTensor: the request's inputs,
        empty for a null one)."""
        return {
            "value_data_type": self.value_data_type.value,
            "value_bits": scalar_bits(self.value),
            "diagonal_fill_begin": self.diagonal_fill_begin,
            "diagonal_fill_end": self.diagonal_fill_end,
        }


DESCRIPTOR = DiagonalMatrix1Desc


def validate(desc: DiagonalMatrix1Desc, feature_level: FeatureLevel) -> None:
    check_sizes(desc.output_tensor, "output_tensor")
    if desc.input_tensor is not None:
        check_sizes(desc.input_tensor, "input_tensor")
        check_same_type_and_rank(desc.input_tensor, "input_tensor", desc.output_tensor, "output_tensor")
        if desc.input_tensor.sizes != desc.output_tensor.sizes:
            fail(
                f"output_tensor.sizes={list(desc.output_tensor.sizes)}, but input_tensor.sizes="
                f"{list(desc.input_tensor.sizes)}; an element kept is the input's at the same coordinate (E-DIAG1-2)",
                "DIAG1.5",
                "output_tensor.sizes",
            )
    if desc.value_data_type is not desc.output_tensor.data_type:
        fail(
            f"value_data_type={desc.value_data_type.value}, but it must match "
            f"output_tensor.data_type={desc.output_tensor.data_type.value}",
            "DIAG1.2",
            "value_data_type",
        )
    for name in ("diagonal_fill_begin", "diagonal_fill_end"):
        v = getattr(desc, name)
        if not INT_MIN <= v <= INT_MAX:
            fail(f"{name}={v}, but it is INT ({INT_MIN}..{INT_MAX})", "DIAG1.3", name)
    check_support(OPERATOR, TABLES, desc.tensors, desc.dimension_count, feature_level)


def filled(desc: DiagonalMatrix1Desc) -> np.ndarray:
    """Per element: whether Value is written (DIAG1.1, DIAG1.3): x - y in [begin, end), or outside [end, begin)
    when the bounds are inverted."""
    sizes = desc.output_tensor.sizes
    height, width = sizes[-2], sizes[-1]
    d = np.arange(width, dtype=np.int64)[None, :] - np.arange(height, dtype=np.int64)[:, None]
    begin, end = desc.diagonal_fill_begin, desc.diagonal_fill_end
    band = (begin <= d) & (d < end) if begin <= end else ~((end <= d) & (d < begin))
    return np.broadcast_to(band, tuple(sizes))


def unspecified(desc: DiagonalMatrix1Desc) -> list[str]:
    """Value is exact in the output's type (DIAG1.2) and the band is defined: nothing is left open."""
    return []


def index_maps(desc: DiagonalMatrix1Desc) -> list[list[core.AxisMap]]:
    """Where there is an input, output index k reads input index k on every axis (outside the band)."""
    return [[core.Affine(0, 1, n) for n in desc.output_tensor.sizes]] if desc.input_tensor is not None else [[]]


def compute(desc: DiagonalMatrix1Desc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The input's bits (or zeros), then Value's bits over the band."""
    dt = desc.output_tensor.data_type
    out = buffers.empty(desc.output_tensor.sizes, dt.bits)
    if inputs:
        np.copyto(out, core.as_bits(np.asarray(inputs[0]), dt))
    else:
        out.fill(0)
    out[filled(desc)] = scalar_bits(desc.value)
    return [core.from_bits(out, dt)]


def _in_band(desc: DiagonalMatrix1Desc, y: int, x: int) -> bool:
    begin, end, d = desc.diagonal_fill_begin, desc.diagonal_fill_end, x - y
    return begin <= d < end if begin <= end else not end <= d < begin


def compute_literal(desc: DiagonalMatrix1Desc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Element by element: Value inside the band, else the input's element (or 0)."""
    dt = desc.output_tensor.data_type
    out = np.empty(desc.output_tensor.sizes, dtype=dt.numpy)
    for c in core.output_coordinates(desc.output_tensor.sizes):
        if _in_band(desc, c[-2], c[-1]):
            out[c] = desc.value
        else:
            out[c] = inputs[0][c] if inputs else dt.numpy.type(0)
    return [out]


def explain(desc: DiagonalMatrix1Desc, inputs: Sequence[np.ndarray]) -> list[str]:
    (out,) = compute(desc, inputs)
    begin, end = desc.diagonal_fill_begin, desc.diagonal_fill_end
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        d = c[-1] - c[-2]
        what = "Value" if _in_band(desc, c[-2], c[-1]) else ("InputTensor" if inputs else "0")
        lines.append(
            f"OutputTensor[{','.join(map(str, c))}] = diagonal {d} in [{begin}, {end}) ? Value : "
            f"{'InputTensor' if inputs else '0'} = {what} = {core.fmt_value(out[c])}"
        )
    return lines

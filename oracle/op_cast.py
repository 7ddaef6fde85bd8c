"""DML_CAST_OPERATOR_DESC (beyond the seed pages: docs/spec/beyond-seeds.md, CAST.*): each element converted to
the output's data type.

Output[c] = (OutputType) Input[c] (CAST.1).  The page says nothing of how: where the value is exact in the output
type (an integer in range, a float the type holds, +-inf into a float type) the result is judged bit for bit;
everywhere else (NaN, +-inf or out-of-range values into an integer type, a fraction into an integer type, a value
the type cannot hold exactly, NaN payloads) the element is open (U-CAST-1): observed and shown, never failed.
What the suite shows there: truncation toward zero and saturation into integers (NaN as 0), round to nearest
even between floats (numpy's conversion).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import core
from .checks import TensorDesc, UnaryTensors, check_same_sizes, check_sizes, check_support, fail
from .descriptor_json import TENSOR, JsonDescriptor
from .tables import (
    ALL_DATA_TYPES,
    RANKS_1_8,
    DataType,
    FeatureLevel,
    OperatorTables,
    SupportRow,
    types,
)

OPERATOR = "CAST"
PAGE_ORDER = 8  # after ELEMENT_WISE_IDENTITY: the order of the data-movement family
_FL31_TYPES = types("FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8")
TABLES = OperatorTables(
    support=(  # CAST.4, the page's table
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_1, RANKS_1_8, _FL31_TYPES),
        SupportRow(FeatureLevel.FL_3_0, (4,), _FL31_TYPES),
        SupportRow(FeatureLevel.FL_1_0, (4,), types("FLOAT32, FLOAT16, INT16, INT8, UINT16, UINT8")),
    ),
    support_clause="CAST.4",
    dimension_count_clause="CAST.4",
    introduced=(FeatureLevel.FL_1_0, "CAST.4"),
    clause_prefix="CAST.",
)


@dataclass(frozen=True)
class CastDesc(UnaryTensors, JsonDescriptor):
    """Mirrors DML_CAST_OPERATOR_DESC: the output's DataType is the type cast to."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "output_tensor": TENSOR}

    @property
    def dimension_count(self) -> int:
        return self.output_tensor.dimension_count

    def struct_fields(self) -> dict:
        """DML_CAST_OPERATOR_DESC has its two tensor descs only."""
        return {}


DESCRIPTOR = CastDesc


def validate(desc: CastDesc, feature_level: FeatureLevel) -> None:
    check_sizes(desc.input_tensor, "input_tensor")
    check_sizes(desc.output_tensor, "output_tensor")
    if desc.input_tensor.dimension_count != desc.output_tensor.dimension_count:
        fail(
            f"output_tensor has DimensionCount={desc.output_tensor.dimension_count}, but input_tensor has "
            f"{desc.input_tensor.dimension_count}; they must be equal",
            "CAST.2",
            "output_tensor.sizes",
        )
    check_same_sizes(desc, "CAST.2")
    check_support(OPERATOR, TABLES, desc.tensors, desc.dimension_count, feature_level)


def _convert(value: int | float, dt: DataType) -> int | float:
    """One element as the suite shows it in `dt` (exact where the value is exact: CAST.1; U-CAST-1 elsewhere)."""
    if dt.is_float:
        with np.errstate(all="ignore"):
            return value if isinstance(value, float) and math.isnan(value) else float(dt.numpy.type(value))
    if isinstance(value, float):
        if math.isnan(value):
            return 0
        value = math.trunc(value) if math.isfinite(value) else (1 if value > 0 else -1) * 2**70
    info = np.iinfo(dt.numpy)
    return min(max(int(value), int(info.min)), int(info.max))


def open_elements(desc: CastDesc, x: np.ndarray) -> np.ndarray:
    """True where the cast is not exact (U-CAST-1): NaN, +-inf into an integer type, out of range, a fraction
    into an integer type, a value the output type cannot hold exactly.  Python compares int and float exactly."""
    dt = desc.output_tensor.data_type
    values = np.asarray(x).tolist() if np.ndim(x) else [np.asarray(x).item()]
    flat = np.asarray(values, dtype=object).reshape(-1)
    shown = [_convert(v, dt) for v in flat]
    out = np.array([not (v == s) for v, s in zip(flat, shown)], dtype=bool)  # NaN != NaN: open
    return out.reshape(np.shape(x))


def unspecified(desc: CastDesc) -> list[str]:
    """The descriptor alone cannot say whether an element is open (it depends on the values): U-CAST-1 is reached
    wherever the cast can be inexact, i.e. unless every value of the input type is exact in the output type."""
    return [] if exact_pair(desc.input_tensor.data_type, desc.output_tensor.data_type) else ["U-CAST-1"]


def exact_pair(src: DataType, dst: DataType) -> bool:
    """Whether every value of `src` (NaN payloads aside: a float source is never exact) is exact in `dst`."""
    if src.is_float:
        return False  # NaN payloads are open into any type (U-CAST-1)
    info = np.iinfo(src.numpy)
    if dst.is_float:
        return info.bits < np.finfo(dst.numpy).nmant + 2
    target = np.iinfo(dst.numpy)
    return target.min <= info.min and info.max <= target.max


def index_maps(desc: CastDesc) -> list[list[core.Affine]]:
    """Output index k reads input index k on every axis."""
    return [[core.Affine(0, 1, n) for n in desc.output_tensor.sizes]]


def compute_literal(desc: CastDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Element by element: Output[c] = (OutputType) Input[c] (the reference for `compute`)."""
    dt = desc.output_tensor.data_type
    x = np.asarray(inputs[0])
    out = np.empty(desc.output_tensor.sizes, dtype=dt.numpy)
    for c in core.output_coordinates(desc.output_tensor.sizes):
        with np.errstate(all="ignore"):
            out[c] = x[c].astype(dt.numpy) if dt.is_float else _convert(x[c].item(), dt)
    return [out]


def compute(desc: CastDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """numpy's conversion where it is exact, the shown policy (`_convert`) elsewhere."""
    dt = desc.output_tensor.data_type
    x = np.asarray(inputs[0])
    with np.errstate(all="ignore"):
        if dt.is_float:
            return [np.asarray(x.astype(dt.numpy))]
    flat = [_convert(v, dt) for v in x.reshape(-1).tolist()]
    return [np.asarray(flat, dtype=dt.numpy).reshape(x.shape)]


def explain(desc: CastDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    out = compute(desc, inputs)[0]
    dt = desc.output_tensor.data_type.value
    opened = open_elements(desc, inputs[0])
    return [
        f"OutputTensor[{','.join(map(str, c))}] = ({dt}) InputTensor[{core.fmt_coord(c)}] = "
        f"({dt}) {core.fmt_value(inputs[0][c])} = {core.fmt_value(out[c])}" + (" (U-CAST-1)" if opened[c] else "")
        for c in core.output_coordinates(desc.output_tensor.sizes)
    ]

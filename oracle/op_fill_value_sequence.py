"""DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC (beyond the seed pages: docs/spec/beyond-seeds.md, FILLS.*): the output
filled with ValueStart, ValueStart + ValueDelta, ... in the order of its coordinates.

The page's pseudocode is a running sum, `OutputTensor[coordinate] = Value; Value += Delta`, over the coordinates
in row-major order (the last dimension fastest: E-FILLS-2), with Value, ValueStart and ValueDelta all read as
ValueDataType, the output's type (FILLS.3).  So:

- integer types: each addition is in the n-bit type, i.e. modulo 2^n (two's complement for the signed ones), and
  the running sum is then exactly `ValueStart + i * ValueDelta` modulo 2^n: every element judged, wrap-around
  included (FILLS.1 with FILLS.3; the page's own example 2 wraps: E-FILLS-1);
- floating types: the running sum rounds at every step, `ValueStart + i * ValueDelta` once or twice (DirectML
  1.15.4 computes the closed form: 7.4999995 where the running sum gives 7.5); the page does not say which nor in
  what precision (U-FILLS-1).  Where the value is exact along every way (small integers, powers of two, sums that
  stay exact) the element is judged; elsewhere it is open, observed and shown as the running sum in the type (the
  pseudocode read literally), never failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import core
from .checks import OutputOnly, TensorDesc, check_support
from .descriptor_json import DATA_TYPE, TENSOR, JsonDescriptor
from .op_fill_value_constant import check_value_type
from .op_padding1 import scalar, scalar_bits, typed_value
from .tables import (
    FL30_TYPES,
    RANKS_1_8,
    DataType,
    FeatureLevel,
    OperatorTables,
    SupportRow,
    types,
)

OPERATOR = "FILL_VALUE_SEQUENCE"
PAGE_ORDER = 24  # issue 32's place for it, after FILL_VALUE_CONSTANT
TABLES = OperatorTables(
    support=(  # FILLS.5, the page's table (no FLOAT64 at any level)
        SupportRow(
            FeatureLevel.FL_5_0,
            RANKS_1_8,
            types("FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8"),
        ),
        SupportRow(FeatureLevel.FL_4_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
    ),
    support_clause="FILLS.5",
    dimension_count_clause="FILLS.5",
    introduced=(FeatureLevel.FL_2_1, "FILLS.5"),
    clause_prefix="FILLS.",
)


@dataclass(frozen=True)
class FillValueSequenceDesc(OutputOnly, JsonDescriptor):
    """Mirrors DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC.  value_start and value_delta are numpy scalars of
    value_data_type (a negative step in an unsigned type is its two's-complement bits: E-FILLS-1)."""

    output_tensor: TensorDesc
    value_data_type: DataType
    value_start: Any
    value_delta: Any

    operator = OPERATOR
    JSON_FIELDS = {
        "output_tensor": TENSOR,
        "value_data_type": DATA_TYPE,
        "value_start": typed_value("value_start", "value_data_type"),
        "value_delta": typed_value("value_delta", "value_data_type"),
    }

    def __post_init__(self) -> None:
        data_type = DataType.parse(self.value_data_type)
        object.__setattr__(self, "value_data_type", data_type)
        object.__setattr__(self, "value_start", scalar(self.value_start, data_type, "value_start"))
        object.__setattr__(self, "value_delta", scalar(self.value_delta, data_type, "value_delta"))

    def struct_fields(self) -> dict:
        """ValueDataType, ValueStart and ValueDelta (the unions' bits in their type's width)."""
        return {
            "value_data_type": self.value_data_type.value,
            "value_start_bits": scalar_bits(self.value_start),
            "value_delta_bits": scalar_bits(self.value_delta),
        }


DESCRIPTOR = FillValueSequenceDesc


def validate(desc: FillValueSequenceDesc, feature_level: FeatureLevel) -> None:
    check_value_type(desc, "FILLS.3")
    check_support(OPERATOR, TABLES, desc.tensors, desc.dimension_count, feature_level)


def _count(desc: FillValueSequenceDesc) -> int:
    return int(np.prod(desc.output_tensor.sizes, dtype=np.int64))


def _integer_sequence(desc: FillValueSequenceDesc) -> np.ndarray:
    """ValueStart + i * ValueDelta modulo 2^n (n the type's width), flat: the running sum of FILLS.1 in an n-bit
    type (FILLS.3), computed on 64-bit unsigned words, which wrap modulo 2^64, then cut to n bits."""
    dt = desc.output_tensor.data_type
    i = np.arange(_count(desc), dtype=np.uint64)
    words = np.uint64(scalar_bits(desc.value_start)) + i * np.uint64(scalar_bits(desc.value_delta))
    return words.astype(dt.bits).view(dt.numpy)


def _running_sum(desc: FillValueSequenceDesc) -> np.ndarray:
    """The pseudocode in a float type, flat: each element the previous one plus ValueDelta, rounded in the type
    (add.accumulate is sequential, one rounding per step)."""
    dt = desc.output_tensor.data_type.numpy
    steps = np.full(_count(desc), desc.value_delta, dtype=dt)
    steps[0] = desc.value_start
    with np.errstate(all="ignore"):
        return np.add.accumulate(steps, dtype=dt)


def _exact(desc: FillValueSequenceDesc) -> np.ndarray:
    """Per element (flat): whether ValueStart + i * ValueDelta is exact in the type along every way to compute it,
    i.e. i * ValueDelta and the sum are both values of the type and the running sum reached that sum.  In FLOAT64
    (FLOAT32 and FLOAT16 only, FILLS.5) the product is exact while i < 2^29, and the sum's exactness is checked
    with Knuth's TwoSum (its rounding error is 0)."""
    dt = desc.output_tensor.data_type.numpy
    count = _count(desc)
    start, delta = np.float64(desc.value_start), np.float64(desc.value_delta)
    i = np.arange(count, dtype=np.float64)
    with np.errstate(all="ignore"):
        product = i * delta
        total = start + product
        back = total - product  # TwoSum: total = start + product exactly iff the error term is 0
        error = (start - back) + (product - (total - back))
        exact = np.isfinite(total) & (error == 0) & (count < 2**29)
        exact &= (product.astype(dt).astype(np.float64) == product) & (total.astype(dt).astype(np.float64) == total)
        exact &= _running_sum(desc).astype(np.float64) == total
    if start == 0 and np.signbit(start):  # -0.0 + 0.0 is +0.0: whether an element is ValueStart itself or a sum
        exact &= total != 0  # decides the sign of its zeros
    return exact


def open_elements(desc: FillValueSequenceDesc) -> np.ndarray:
    """True where U-FILLS-1 leaves the element open: a float type, and ValueStart + i * ValueDelta not exact along
    every way to compute it (the running sum, one rounding of the closed form, a product then a sum each rounded,
    a fused multiply-add): the ways then differ, and the page does not say which.  Integer types: none."""
    sizes = desc.output_tensor.sizes
    if not desc.output_tensor.data_type.is_float:
        return np.zeros(sizes, dtype=bool)
    return ~_exact(desc).reshape(sizes)


def unspecified(desc: FillValueSequenceDesc) -> list[str]:
    """U-FILLS-1 where some element of a float sequence is open (the descriptor decides: there are no inputs)."""
    return ["U-FILLS-1"] if bool(open_elements(desc).any()) else []


def index_maps(desc: FillValueSequenceDesc) -> list[list[core.AxisMap]]:
    """No input is read: no index maps (each element is computed from its row-major index)."""
    return [[]]


def compute(desc: FillValueSequenceDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Integers: the closed form modulo 2^n (equal to the running sum, FILLS.3); floats: the running sum."""
    sizes = desc.output_tensor.sizes
    flat = _running_sum(desc) if desc.output_tensor.data_type.is_float else _integer_sequence(desc)
    return [flat.reshape(sizes)]


def _add(value: Any, delta: Any, data_type: DataType) -> Any:
    """Value += Delta in the type: integers modulo 2^n (Python ints, then cut), floats rounded (numpy scalars)."""
    if data_type.is_float:
        with np.errstate(all="ignore"):
            return data_type.numpy.type(value + delta)
    bits = np.iinfo(data_type.bits).bits
    total = (int(value) + int(delta)) % (1 << bits)
    return np.array(total, dtype=data_type.bits).view(data_type.numpy)[()]


def compute_literal(desc: FillValueSequenceDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The page's pseudocode, element by element in row-major order (E-FILLS-2): write Value, then Value += Delta."""
    dt = desc.output_tensor.data_type
    out = np.empty(desc.output_tensor.sizes, dtype=dt.numpy)
    value = desc.value_start
    for c in core.output_coordinates(desc.output_tensor.sizes):
        out[c] = value
        value = _add(value, desc.value_delta, dt)
    return [out]


def explain(desc: FillValueSequenceDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    """OutputTensor[c] = ValueStart + i * ValueDelta (i the row-major index), as the type computes it."""
    (out,) = compute(desc, inputs)
    opened = open_elements(desc)
    start, delta = core.fmt_value(desc.value_start), core.fmt_value(desc.value_delta)
    return [
        f"OutputTensor[{','.join(map(str, c))}] = {start} + {i} * {delta} = {core.fmt_value(out[c])}"
        + (" (U-FILLS-1)" if opened[c] else "")
        for i, c in enumerate(core.output_coordinates(desc.output_tensor.sizes))
    ]

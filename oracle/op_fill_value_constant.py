"""DML_FILL_VALUE_CONSTANT_OPERATOR_DESC (beyond the seed pages: docs/spec/beyond-seeds.md, FILLC.*): every
element of the output is Value.

The first operator with no input tensor: a case carries no inputs, the request binds none, and every output
element is the DML_SCALAR_UNION Value read as ValueDataType, which must be the output's data type (FILLC.2),
so every value of every type is written as given, bit for bit (NaN payloads, INT64 past 2^53), as PADDING1's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import buffers, core
from .checks import OutputOnly, TensorDesc, check_sizes, check_support, fail
from .descriptor_json import DATA_TYPE, TENSOR, JsonDescriptor
from .op_padding1 import scalar, scalar_bits, typed_value
from .tables import (
    ALL_DATA_TYPES,
    FL30_TYPES,
    RANKS_1_8,
    DataType,
    FeatureLevel,
    OperatorTables,
    SupportRow,
)

OPERATOR = "FILL_VALUE_CONSTANT"
PAGE_ORDER = 23  # issue 32's place for it (the lead's numbering of the family's second part)
TABLES = OperatorTables(
    support=(  # FILLC.4, the page's table
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_4_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
    ),
    support_clause="FILLC.4",
    dimension_count_clause="FILLC.4",
    introduced=(FeatureLevel.FL_2_1, "FILLC.4"),
    clause_prefix="FILLC.",
)


@dataclass(frozen=True)
class FillValueConstantDesc(OutputOnly, JsonDescriptor):
    """Mirrors DML_FILL_VALUE_CONSTANT_OPERATOR_DESC.  value is a numpy scalar of value_data_type."""

    output_tensor: TensorDesc
    value_data_type: DataType
    value: Any

    operator = OPERATOR
    JSON_FIELDS = {
        "output_tensor": TENSOR,
        "value_data_type": DATA_TYPE,
        "value": typed_value("value", "value_data_type"),
    }

    def __post_init__(self) -> None:
        data_type = DataType.parse(self.value_data_type)
        object.__setattr__(self, "value_data_type", data_type)
        object.__setattr__(self, "value", scalar(self.value, data_type, "value"))

    def struct_fields(self) -> dict:
        """ValueDataType, and Value as the DML_SCALAR_UNION's bits in its type's width."""
        return {"value_data_type": self.value_data_type.value, "value_bits": scalar_bits(self.value)}


DESCRIPTOR = FillValueConstantDesc


def check_value_type(desc: Any, clause: str) -> None:
    """ValueDataType must be OutputTensor.DataType (FILLC.2, FILLS.3): the union is read as the output's type."""
    check_sizes(desc.output_tensor, "output_tensor")
    if desc.value_data_type is not desc.output_tensor.data_type:
        fail(
            f"value_data_type={desc.value_data_type.value}, but it must match "
            f"output_tensor.data_type={desc.output_tensor.data_type.value}",
            clause,
            "value_data_type",
        )


def validate(desc: FillValueConstantDesc, feature_level: FeatureLevel) -> None:
    check_value_type(desc, "FILLC.2")
    check_support(OPERATOR, TABLES, desc.tensors, desc.dimension_count, feature_level)


def unspecified(desc: FillValueConstantDesc) -> list[str]:
    """Value is exact in the output's type (FILLC.2): nothing is left open."""
    return []


def index_maps(desc: FillValueConstantDesc) -> list[list[core.AxisMap]]:
    """No input is read: no index maps (every element is Value)."""
    return [[]]


def compute(desc: FillValueConstantDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Value's bits in every element (NaN payloads and -0.0 kept)."""
    dt = desc.output_tensor.data_type
    out = buffers.empty(desc.output_tensor.sizes, dt.bits)
    out.fill(scalar_bits(desc.value))
    return [core.from_bits(out, dt)]


def compute_literal(desc: FillValueConstantDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The page's pseudocode: for each coordinate in OutputTensor, OutputTensor[coordinate] = Value."""
    out = np.empty(desc.output_tensor.sizes, dtype=desc.output_tensor.data_type.numpy)
    for c in core.output_coordinates(desc.output_tensor.sizes):
        out[c] = desc.value
    return [out]


def explain(desc: FillValueConstantDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    v = core.fmt_value(desc.value)
    return [
        f"OutputTensor[{','.join(map(str, c))}] = Value = {v}"
        for c in core.output_coordinates(desc.output_tensor.sizes)
    ]

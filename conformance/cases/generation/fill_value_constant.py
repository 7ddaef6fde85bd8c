"""DML_FILL_VALUE_CONSTANT cases (beyond the seed pages, FILLC.*): no input tensor; the output's sizes from the
element budget and Value drawn from the data type's own special patterns (values.special_bits: NaN payloads,
signalling NaNs, denormals, the extremes, -1, 2^53 + 1 ...) as that type's bits, so every case checks that Value
reaches every element unconverted (FILLC.2)."""

from __future__ import annotations

import dataclasses

import numpy as np

import oracle
from oracle import FillValueConstantDesc, TensorDesc

from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    before_introduction_config,
    one_output_common_2,
    sizes_in_budget,
    unsupported_rank_config,
    unsupported_type,
    unsupported_type_config,
    with_descriptor,
)
from .padding1 import typed_value

OPERATOR = "FILL_VALUE_CONSTANT"
DESCRIPTOR = FillValueConstantDesc

VALID_CLAUSES = ("COMMON.2", "COMMON.3", "FILLC.1", "FILLC.2", "FILLC.3", "FILLC.4")


def build(ch: Chooser, cfg: Config) -> FillValueConstantDesc:
    """A valid descriptor for `cfg`: the output's sizes in the budget, Value one of the type's special patterns."""
    out = TensorDesc(cfg.data_type, tuple(sizes_in_budget(ch, cfg)))
    return FillValueConstantDesc(out, cfg.data_type, typed_value(ch, cfg.data_type))


def corners(desc: FillValueConstantDesc) -> list[str]:
    value = np.asarray(desc.value)
    if desc.value_data_type.is_float and np.isnan(value):
        return ["FILL of a NaN"]
    return ["FILL of zero"] if not value.view(desc.value_data_type.bits).any() else []


def extra_clauses(desc: FillValueConstantDesc) -> list[str]:
    return []


def other_value_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """ValueDataType other than the output's (its value 0 of that type: representable in every one): FILLC.2,
    FILLS.3, DIAG1.2."""
    d = base.descriptor
    if not isinstance(d, (FillValueConstantDesc, oracle.FillValueSequenceDesc, oracle.DiagonalMatrix1Desc)):
        raise TypeError(f"expected a FILL_VALUE_* or DIAGONAL_MATRIX1 descriptor, got {type(d).__name__}")
    other = ch.choice([t for t in oracle.ALL_DATA_TYPES if t is not d.output_tensor.data_type])
    zero = other.numpy.type(0)
    if isinstance(d, (FillValueConstantDesc, oracle.DiagonalMatrix1Desc)):
        return with_descriptor(base, dataclasses.replace(d, value_data_type=other, value=zero))
    return with_descriptor(base, dataclasses.replace(d, value_data_type=other, value_start=zero, value_delta=zero))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index).  No COMMON.1:
    there is one tensor."""
    return [
        Family("zero size", "COMMON.2", one_output_common_2),
        Family("data type unsupported at level", "FILLC.4", unsupported_type, unsupported_type_config),
        Family("rank unsupported at level", "FILLC.4", unsupported_type, unsupported_rank_config),
        Family("before the operator's introduction", "FILLC.4", unsupported_type, before_introduction_config),
        Family("ValueDataType other than the output's", "FILLC.2", other_value_type),
    ]

"""DML_FILL_VALUE_SEQUENCE cases (beyond the seed pages, FILLS.*): no input tensor; the output's sizes from the
element budget, ValueStart and ValueDelta drawn so that most cases are judged throughout (small whole numbers,
exact in every type) and the rest reach the type's ends: integer sequences that wrap (judged, FILLS.3) and float
sequences whose running sum rounds (the open elements of U-FILLS-1, observed)."""

from __future__ import annotations

from typing import cast

import numpy as np

from oracle import DataType, FillValueSequenceDesc, TensorDesc

from .common import (
    Chooser,
    Config,
    Family,
    before_introduction_config,
    one_output_common_2,
    sizes_in_budget,
    unsupported_rank_config,
    unsupported_type,
    unsupported_type_config,
)
from .fill_value_constant import other_value_type
from .padding1 import typed_value

OPERATOR = "FILL_VALUE_SEQUENCE"
DESCRIPTOR = FillValueSequenceDesc

VALID_CLAUSES = ("COMMON.2", "COMMON.3", "FILLS.1", "FILLS.2", "FILLS.3", "FILLS.4", "FILLS.5")

# How the start and the step are drawn: small whole numbers (exact: judged everywhere), one of the type's special
# patterns (the extremes wrap, NaN and the infinities stay), or a fraction (a float sum that rounds).
VALUE_KINDS = ("small", "small", "special", "fraction")


def small(ch: Chooser, data_type: DataType) -> np.generic:
    """A whole number in -8..8 (an unsigned type: its two's-complement bits, a step down that wraps)."""
    k = ch.integer(-8, 8)
    if data_type.is_float:
        return cast(np.generic, data_type.numpy.type(k))
    return cast(
        np.generic, np.array(k % (1 << (8 * data_type.numpy.itemsize)), dtype=data_type.bits).view(data_type.numpy)[()]
    )


def draw_value(ch: Chooser, data_type: DataType) -> np.generic:
    kind = ch.choice(VALUE_KINDS)
    if kind == "special":
        return typed_value(ch, data_type)
    if kind == "fraction" and data_type.is_float:
        return cast(np.generic, data_type.numpy.type(ch.integer(-40, 40) / 10))
    return small(ch, data_type)


def build(ch: Chooser, cfg: Config) -> FillValueSequenceDesc:
    """A valid descriptor for `cfg`: the output's sizes in the budget, ValueStart and ValueDelta drawn apart."""
    out = TensorDesc(cfg.data_type, tuple(sizes_in_budget(ch, cfg)))
    return FillValueSequenceDesc(out, cfg.data_type, draw_value(ch, cfg.data_type), draw_value(ch, cfg.data_type))


def corners(desc: FillValueSequenceDesc) -> list[str]:
    found = []
    dt = desc.value_data_type
    if not dt.is_float:
        count = int(np.prod(desc.output_tensor.sizes))
        start, delta = int(desc.value_start), int(desc.value_delta)
        info = np.iinfo(dt.numpy)
        if any(not info.min <= start + i * delta <= info.max for i in (0, count - 1)):
            found.append("FILL sequence wraps")
    if not np.asarray(desc.value_delta).view(dt.bits).any():
        found.append("FILL sequence of step 0")
    return found


def extra_clauses(desc: FillValueSequenceDesc) -> list[str]:
    return []


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        Family("zero size", "COMMON.2", one_output_common_2),
        Family("data type unsupported at level", "FILLS.5", unsupported_type, unsupported_type_config),
        Family("rank unsupported at level", "FILLS.5", unsupported_type, unsupported_rank_config),
        Family("before the operator's introduction", "FILLS.5", unsupported_type, before_introduction_config),
        Family("ValueDataType other than the output's", "FILLS.3", other_value_type),
    ]

"""DML_PADDING1 cases (beyond the seed pages, PAD1.*): DML_PADDING's geometry and modes with a typed value.

The value is drawn from the data type's own special patterns (values.special_bits: NaN payloads,
signalling NaNs, denormals, the extremes, -1, 2^53 + 1 ...) as that type's bits, so every case
checks that PaddingValue reaches the output unconverted (PAD1.4).
"""

from __future__ import annotations

import dataclasses
from typing import cast

import numpy as np

import oracle
from oracle import DataType, Padding1Desc, PaddingMode, TensorDesc

from .. import values
from . import padding
from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    common_families,
    field_families,
    one_output_common_1,
    one_output_common_2,
    with_descriptor,
)
from .padding import _pad_2, _pad_2_wrap, _pad_5, geometry, mode_clauses, mode_too_early, padding_of

OPERATOR = "PADDING1"
DESCRIPTOR = Padding1Desc

VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "PAD1.1", "PAD1.2", "PAD1.3", "PAD1.5", "PAD1.6", "PAD1.7")


def typed_value(ch: Chooser, data_type: DataType) -> np.generic:
    """A value of `data_type` from its special patterns, as that type's bits."""
    bits = int(ch.choice(list(values.special_bits(data_type))))
    return cast(np.generic, np.array(bits, dtype=data_type.bits).view(data_type.numpy)[()])


def build(ch: Chooser, cfg: Config) -> Padding1Desc:
    """A valid descriptor for `cfg` (whose padding_mode choose_config has set) and its input's shape."""
    in_sizes, start, end = geometry(ch, cfg)
    tensor = TensorDesc(cfg.data_type, tuple(in_sizes))
    desc = oracle.padding1_desc(tensor, cfg.padding_mode, start, end, typed_value(ch, cfg.data_type))
    return desc


def corners(desc: Padding1Desc) -> list[str]:
    """DML_PADDING's corners (the geometry is the same)."""
    return padding.corners(desc)


def extra_clauses(desc: Padding1Desc) -> list[str]:
    """PAD1.4 where the value is written (CONSTANT), WRAP's clauses for WRAP."""
    return (["PAD1.4"] if desc.padding_mode is PaddingMode.CONSTANT else []) + mode_clauses(desc)


def _pad1_4(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """PaddingValueDataType other than the output's (its value 0 of that type: representable in every one)."""
    d = padding_of(base)
    assert isinstance(d, Padding1Desc)
    other = ch.choice([t for t in oracle.ALL_DATA_TYPES if t is not d.output_tensor.data_type])
    return with_descriptor(
        base, dataclasses.replace(d, padding_value_data_type=other, padding_value=other.numpy.type(0))
    )


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, one_output_common_2),
        *field_families("PAD1.5", "start_padding", "PAD1.2"),
        Family("output size not input + padding", "PAD1.2", _pad_2),
        Family("output size input + padding only modulo 2^32", "PAD1.2", _pad_2_wrap),
        Family("PaddingValueDataType other than the output's", "PAD1.4", _pad1_4),
        Family("padding array length mismatch", "PAD1.5", _pad_5),
        Family("WRAP before FL 6.4", "WRAP.1", *mode_too_early(PaddingMode.WRAP)),
    ]

"""DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC (beyond the seed pages: docs/spec/beyond-seeds.md, IDENT.*): a copy.

Output[c] = Input[c] (IDENT.1), bit for bit (COMMON.3).  With the optional DML_SCALE_BIAS the page says the
element is first mapped through g(x) = x * Scale + Bias (IDENT.3), and says nothing of the arithmetic (its
precision, rounding, fused or not, what integer types do): U-IDENT-1 makes every element of such a case
observed, the value shown being x * Scale + Bias in float32 (float64 for FLOAT64), rounded to the type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import core
from .checks import (
    TensorDesc,
    UnaryTensors,
    check_same_sizes,
    check_support,
    check_unary_tensors,
)
from .descriptor_json import TENSOR, FieldJson, JsonDescriptor
from .op_padding import padding_value_from_json, padding_value_to_json
from .padding_value import float32_bits
from .tables import (
    ALL_DATA_TYPES,
    FL30_TYPES,
    RANKS_1_8,
    DataType,
    FeatureLevel,
    OperatorTables,
    SupportRow,
    types,
)

OPERATOR = "ELEMENT_WISE_IDENTITY"
PAGE_ORDER = 7  # after JOIN: the order of the data-movement family
TABLES = OperatorTables(
    support=(  # IDENT.5, the page's table
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4, 5), FL30_TYPES),
        SupportRow(FeatureLevel.FL_1_0, (4, 5), types("FLOAT32, FLOAT16")),
    ),
    support_clause="IDENT.5",
    dimension_count_clause="IDENT.5",
    introduced=(FeatureLevel.FL_1_0, "IDENT.5"),
    clause_prefix="IDENT.",
)


@dataclass(frozen=True)
class ScaleBias:
    """Mirrors DML_SCALE_BIAS: two 32-bit FLOATs (NaN payloads kept: they are the struct's bits)."""

    scale: float | np.float32
    bias: float | np.float32

    def __post_init__(self) -> None:
        object.__setattr__(self, "scale", np.float32(self.scale))
        object.__setattr__(self, "bias", np.float32(self.bias))

    def __eq__(self, other: object) -> bool:  # by bits: NaN == NaN of the same payload, 0.0 != -0.0
        return isinstance(other, ScaleBias) and self.bits() == other.bits()

    def __hash__(self) -> int:
        return hash(self.bits())

    def bits(self) -> tuple[int, int]:
        """(Scale, Bias) as their float32 bits: what the struct holds."""
        return float32_bits(self.scale), float32_bits(self.bias)


def _scale_bias_to_json(value: ScaleBias | None, desc: object) -> dict | None:
    if value is None:
        return None
    return {
        "scale": padding_value_to_json(np.float32(value.scale)),
        "bias": padding_value_to_json(np.float32(value.bias)),
    }


def _scale_bias_from_json(value: object, obj: dict) -> ScaleBias | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"scale", "bias"}:
        raise ValueError(f"scale_bias={value!r}: expected null or an object with 'scale' and 'bias'")
    return ScaleBias(padding_value_from_json(value["scale"]), padding_value_from_json(value["bias"]))


# DML_SCALE_BIAS as JSON: null (the struct's nullptr) or {"scale": FLOAT, "bias": FLOAT}, each as PADDING's value.
SCALE_BIAS = FieldJson(_scale_bias_to_json, _scale_bias_from_json)


@dataclass(frozen=True)
class IdentityDesc(UnaryTensors, JsonDescriptor):
    """Mirrors DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC; `scale_bias` None is the struct's nullptr."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    scale_bias: ScaleBias | None = None

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "output_tensor": TENSOR, "scale_bias": SCALE_BIAS}

    @property
    def dimension_count(self) -> int:
        return self.output_tensor.dimension_count

    def struct_fields(self) -> dict:
        """The struct's field besides its tensor descs: ScaleBias, as the bits of its two FLOATs (null: nullptr)."""
        return {"scale_bias_bits": None if self.scale_bias is None else list(self.scale_bias.bits())}


DESCRIPTOR = IdentityDesc


def validate(desc: IdentityDesc, feature_level: FeatureLevel) -> None:
    check_unary_tensors(desc)
    check_same_sizes(desc, "IDENT.2")
    check_support(OPERATOR, TABLES, desc.tensors, desc.dimension_count, feature_level)


def unspecified(desc: IdentityDesc) -> list[str]:
    """A ScaleBias makes the operator compute, and the page does not say how (U-IDENT-1): every element."""
    return ["U-IDENT-1"] if desc.scale_bias is not None else []


def index_maps(desc: IdentityDesc) -> list[list[core.Affine]]:
    """Output index k reads input index k on every axis."""
    return [[core.Affine(0, 1, n) for n in desc.output_tensor.sizes]]


def scaled(desc: IdentityDesc, x: np.ndarray) -> np.ndarray:
    """g(x) = x * Scale + Bias as the suite shows it (U-IDENT-1): in float32 (float64 for FLOAT64), multiply then
    add, each rounded to nearest even, then converted to the output's type (integers: truncated, saturated)."""
    assert desc.scale_bias is not None
    dt = desc.output_tensor.data_type
    work = np.float64 if dt is DataType.FLOAT64 else np.float32
    with np.errstate(all="ignore"):
        y = np.asarray(x, dtype=work) * work(desc.scale_bias.scale) + work(desc.scale_bias.bias)
        if dt.is_float:
            return np.asarray(y.astype(dt.numpy))
        info = np.iinfo(dt.numpy)
        y = np.nan_to_num(np.trunc(y.astype(np.float64)), nan=0.0)
        return np.clip(y, info.min, info.max).astype(dt.numpy)


def compute_literal(desc: IdentityDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Element by element: f(x) = x (the reference for `compute`)."""
    dt = desc.output_tensor.data_type
    src = core.as_bits(inputs[0], dt)
    raw = np.empty(desc.output_tensor.sizes, dtype=dt.bits)
    for c in core.output_coordinates(desc.output_tensor.sizes):
        raw[c] = src[c]
    out = core.from_bits(raw, dt)
    return [scaled(desc, out) if desc.scale_bias is not None else out]


def compute(desc: IdentityDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The input's bits copied whole (NaN payloads and -0.0 survive); with ScaleBias, `scaled`."""
    dt = desc.output_tensor.data_type
    if desc.scale_bias is not None:
        return [scaled(desc, inputs[0])]
    return [core.from_bits(np.array(core.as_bits(inputs[0], dt)), dt)]


def explain(desc: IdentityDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    out = compute(desc, inputs)[0]
    g = "" if desc.scale_bias is None else f" * {desc.scale_bias.scale!r} + {desc.scale_bias.bias!r} (U-IDENT-1)"
    return [
        f"OutputTensor[{','.join(map(str, c))}] = InputTensor[{core.fmt_coord(c)}]{g} = {core.fmt_value(out[c])}"
        for c in core.output_coordinates(desc.output_tensor.sizes)
    ]

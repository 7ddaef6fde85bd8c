"""DML_ELEMENT_WISE_IDENTITY cases (beyond the seed pages, IDENT.*): a copy, judged bit for bit; now and then
with a ScaleBias, whose arithmetic is observed only (U-IDENT-1)."""

from __future__ import annotations

import dataclasses

from oracle import DataType, IdentityDesc, ScaleBias, TensorDesc
from oracle.layout import desc_kind
from oracle.padding_value import float32_from_bits

from .. import values
from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    common_families,
    descriptor_of,
    one_output_common_1,
    one_output_common_2,
    replaced_tensor,
    set_at,
    sizes_in_budget,
    with_descriptor,
)

OPERATOR = "ELEMENT_WISE_IDENTITY"
DESCRIPTOR = IdentityDesc

# About one case in this many carries a ScaleBias: its elements are observed only (U-IDENT-1), so most cases
# stay the copy that is judged.
SCALE_BIAS_ONE_IN = 8

# The clauses a valid case exercises (IDENT.3 with a ScaleBias, IDENT.4 with strides: extra_clauses).
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "IDENT.1", "IDENT.2", "IDENT.5")


def scale_bias(ch: Chooser) -> ScaleBias:
    """Scale and Bias from float32's special patterns (NaN payloads, -0.0, denormals, the extremes...)."""
    specials = [int(b) for b in values.special_bits(DataType.FLOAT32)]
    scale, bias = (float32_from_bits(ch.choice(specials)) for _ in range(2))
    return ScaleBias(scale, bias)


def build(ch: Chooser, cfg: Config) -> IdentityDesc:
    """A valid descriptor for `cfg`: input and output of one shape within the element budget."""
    sizes = sizes_in_budget(ch, cfg)
    tensor = TensorDesc(cfg.data_type, tuple(sizes))
    return IdentityDesc(tensor, tensor, scale_bias(ch) if ch.rare(SCALE_BIAS_ONE_IN) else None)


def corners(desc: IdentityDesc) -> list[str]:
    return ["ScaleBias"] if desc.scale_bias is not None else []


def extra_clauses(desc: IdentityDesc) -> list[str]:
    """IDENT.3 with a ScaleBias; IDENT.4 when a tensor has a layout (a strided identity)."""
    found = ["IDENT.3"] if desc.scale_bias is not None else []
    return found + (["IDENT.4"] if desc_kind(desc) != "packed" else [])


def _ident_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """The output's size on one axis one more (or, half the time, one fewer when it can) than the input's."""
    d = descriptor_of(base, IdentityDesc)
    i = ch.integer(0, d.dimension_count - 1)
    n = d.output_tensor.sizes[i]
    changed = n - 1 if n > 1 and ch.choice(("more", "fewer")) == "fewer" else n + 1
    out = replaced_tensor(d.output_tensor, set_at(d.output_tensor.sizes, i, changed), None)
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, one_output_common_2),
        Family("output sizes differ from the input's", "IDENT.2", _ident_2),
    ]

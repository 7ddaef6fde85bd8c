"""DML_CAST cases (beyond the seed pages, CAST.*): every input type into every output type the row in force
allows; the elements whose cast is not exact are observed only (U-CAST-1)."""

from __future__ import annotations

import dataclasses

from oracle import CastDesc, TensorDesc
from oracle.registry import min_feature_level, support_row

from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    descriptor_of,
    one_output_common_2,
    replaced_tensor,
    set_at,
    sizes_in_budget,
    unsupported_rank_config,
    unsupported_type,
    unsupported_type_config,
    with_descriptor,
)

OPERATOR = "CAST"
DESCRIPTOR = CastDesc

# The clauses a valid case exercises (CAST.1's judged elements are the exact ones, U-CAST-1 the rest).
VALID_CLAUSES = ("COMMON.2", "CAST.1", "CAST.2", "CAST.3", "CAST.4")


def build(ch: Chooser, cfg: Config) -> CastDesc:
    """A valid descriptor for `cfg` (its data type is the input's); the output's type any the level allows."""
    sizes = sizes_in_budget(ch, cfg)
    # From the row where the input's type and rank first appear: an invalid family builds its base at the newest
    # level and then moves it to an older one, where an output type newer than the input's would break CAST.4
    # first.  The reach set (value_reach) holds every pair the tables allow.
    level = min_feature_level(OPERATOR, cfg.data_type, cfg.rank) or cfg.feature_level
    row = support_row(OPERATOR, level)
    out_type = ch.choice(row.data_types if row is not None else (cfg.data_type,))
    return CastDesc(TensorDesc(cfg.data_type, tuple(sizes)), TensorDesc(out_type, tuple(sizes)))


def corners(desc: CastDesc) -> list[str]:
    found = []
    src, dst = desc.input_tensor.data_type, desc.output_tensor.data_type
    if src is dst:
        found.append("CAST to the same type")
    if src.is_float and not dst.is_float:
        found.append("CAST float to integer")
    return found


def extra_clauses(desc: CastDesc) -> list[str]:
    return []


def _cast_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """The output's size on one axis one more than the input's."""
    d = descriptor_of(base, CastDesc)
    i = ch.integer(0, d.dimension_count - 1)
    out = replaced_tensor(d.output_tensor, set_at(d.output_tensor.sizes, i, d.output_tensor.sizes[i] + 1), None)
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def _cast_2_rank(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """The output with a size-1 axis more than the input (the same elements, another DimensionCount)."""
    d = descriptor_of(base, CastDesc)
    out = replaced_tensor(d.output_tensor, (*d.output_tensor.sizes, 1), None)
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index).  No COMMON.1:
    a cast's types differ by design (CAST.3)."""
    return [
        Family("zero size", "COMMON.2", one_output_common_2),
        Family("data type unsupported at level", "CAST.4", unsupported_type, unsupported_type_config),
        Family("rank unsupported at level", "CAST.4", unsupported_type, unsupported_rank_config),
        Family("output sizes differ from the input's", "CAST.2", _cast_2),
        Family("output DimensionCount differs from the input's", "CAST.2", _cast_2_rank),
    ]

"""DML_DIAGONAL_MATRIX cases (beyond the seed pages, DIAG.*): no input tensor; a stack of matrices (rank 2 to 4)
in the element budget, an Offset from far left of the matrix to far right of it, and Value drawn from
DML_PADDING's FLOAT pool (whole numbers, fractions, the type's ends and past them, NaN, infinities): exact values
judged on the diagonal, the rest of the conversion observed (U-DIAG-1)."""

from __future__ import annotations

import numpy as np

from oracle import DataType, DiagonalMatrixDesc, TensorDesc
from oracle.padding_value import float32_from_bits
from oracle.tables import INT_MAX, INT_MIN

from .. import values
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

OPERATOR = "DIAGONAL_MATRIX"
DESCRIPTOR = DiagonalMatrixDesc

VALID_CLAUSES = ("COMMON.2", "COMMON.3", "DIAG.1", "DIAG.2", "DIAG.3", "DIAG.4", "DIAG.5")


def draw_value(ch: Chooser) -> np.float32:
    """Mostly 1.0 (the page's standard value) and small whole numbers, else one of the FLOAT32 special patterns."""
    kind = ch.choice(("one", "whole", "special"))
    if kind == "one":
        return np.float32(1.0)
    if kind == "whole":
        return np.float32(ch.integer(-9, 9))
    bits = int(ch.choice(list(values.special_bits(DataType.FLOAT32))))
    return float32_from_bits(bits)


def build(ch: Chooser, cfg: Config) -> DiagonalMatrixDesc:
    """A valid descriptor for `cfg`: the output in the budget, Offset within a width past either side."""
    sizes = tuple(sizes_in_budget(ch, cfg))
    height, width = sizes[-2:] if len(sizes) >= 2 else (1, sizes[0])  # rank 1: an invalid family's base only
    offset = ch.integer(-height - 1, width + 1) if not ch.rare(16) else ch.choice((INT_MIN, INT_MAX))
    return DiagonalMatrixDesc(TensorDesc(cfg.data_type, sizes), offset, draw_value(ch))


def corners(desc: DiagonalMatrixDesc) -> list[str]:
    """Off the matrix, or a non-square one; none on a rank-1 output (an invalid family's base: no matrix)."""
    if desc.output_tensor.dimension_count < 2:
        return []
    height, width = desc.output_tensor.sizes[-2:]
    if not -height < desc.offset < width:
        return ["DIAGONAL off the matrix (all zeros)"]
    return ["DIAGONAL of a non-square matrix"] if height != width else []


def extra_clauses(desc: DiagonalMatrixDesc) -> list[str]:
    return []


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        Family("zero size", "COMMON.2", one_output_common_2),
        Family("data type unsupported at level", "DIAG.5", unsupported_type, unsupported_type_config),
        Family("rank unsupported at level", "DIAG.5", unsupported_type, unsupported_rank_config),
        Family("before the operator's introduction", "DIAG.5", unsupported_type, before_introduction_config),
    ]

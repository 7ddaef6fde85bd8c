"""DML_DIAGONAL_MATRIX1 cases (beyond the seed pages, DIAG1.*): a stack of matrices (rank 2 to 4), with an input
half the time (its elements kept outside the band) and without it the other half (zeros there); a band
[DiagonalFillBegin, DiagonalFillEnd) drawn within the matrix and past it, inverted one time in four (DIAG1.3), and
Value from the type's own special patterns, exact (DIAG1.2)."""

from __future__ import annotations

import dataclasses

import oracle
from oracle import DiagonalMatrix1Desc, TensorDesc
from oracle.tables import INT_MAX, INT_MIN

from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    before_introduction_config,
    descriptor_of,
    one_output_common_2,
    replaced_tensor,
    set_at,
    sizes_in_budget,
    unsupported_rank_config,
    unsupported_type,
    with_descriptor,
)
from .fill_value_constant import other_value_type
from .padding1 import typed_value

OPERATOR = "DIAGONAL_MATRIX1"
DESCRIPTOR = DiagonalMatrix1Desc

VALID_CLAUSES = ("COMMON.2", "COMMON.3", "DIAG1.1", "DIAG1.2", "DIAG1.3", "DIAG1.4", "DIAG1.6")


def _bound(ch: Chooser, height: int, width: int) -> int:
    return ch.integer(-height - 1, width + 1) if not ch.rare(8) else ch.choice((INT_MIN, INT_MAX))


def build(ch: Chooser, cfg: Config) -> DiagonalMatrix1Desc:
    """A valid descriptor for `cfg`: the output in the budget, the input (its twin) or none, a band, a typed Value."""
    sizes = tuple(sizes_in_budget(ch, cfg))
    height, width = sizes[-2:] if len(sizes) >= 2 else (1, sizes[0])  # rank 1: an invalid family's base only
    out = TensorDesc(cfg.data_type, sizes)
    begin, end = sorted((_bound(ch, height, width), _bound(ch, height, width)))
    if ch.rare(4):
        begin, end = end, begin  # inverted: the fill reversed (DIAG1.3)
    inp = out if ch.choice((True, False)) else None
    return DiagonalMatrix1Desc(inp, out, cfg.data_type, typed_value(ch, cfg.data_type), begin, end)


def corners(desc: DiagonalMatrix1Desc) -> list[str]:
    found = ["DIAGONAL_MATRIX1 with an input" if desc.input_tensor is not None else "DIAGONAL_MATRIX1 without input"]
    if desc.diagonal_fill_begin > desc.diagonal_fill_end:
        found.append("DIAGONAL_MATRIX1 band inverted")
    return found


def extra_clauses(desc: DiagonalMatrix1Desc) -> list[str]:
    return ["DIAG1.5"] if desc.input_tensor is not None else []


def _input_sizes_differ(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An input one larger on one axis than the output (E-DIAG1-2: the same Sizes, DIAG1.5)."""
    d = descriptor_of(base, DiagonalMatrix1Desc)
    i = ch.integer(0, d.dimension_count - 1)
    inp = replaced_tensor(d.output_tensor, set_at(d.output_tensor.sizes, i, d.output_tensor.sizes[i] + 1), None)
    return with_descriptor(base, dataclasses.replace(d, input_tensor=inp), tags=("E-DIAG1-2",))


def _common_1(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An input of another data type than the output's (COMMON.1)."""
    d = descriptor_of(base, DiagonalMatrix1Desc)
    other = ch.choice([t for t in oracle.ALL_DATA_TYPES if t is not d.output_tensor.data_type])
    inp = replaced_tensor(d.output_tensor, None, other)
    return with_descriptor(base, dataclasses.replace(d, input_tensor=inp))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        Family("zero size", "COMMON.2", one_output_common_2),
        Family("data type mismatch", "COMMON.1", _common_1),
        Family("rank unsupported at level", "DIAG1.6", unsupported_type, unsupported_rank_config),
        Family("before the operator's introduction", "DIAG1.6", unsupported_type, before_introduction_config),
        Family("ValueDataType other than the output's", "DIAG1.2", other_value_type),
        Family("input sizes differ from the output's", "DIAG1.5", _input_sizes_differ),
    ]

"""Hypothesis strategies for every operator: valid cases and invalid descriptors.

    from conformance.cases.strategies import valid_cases, invalid_cases
    @given(valid_cases("PADDING", padding_mode="REFLECTION", rank=st.integers(1, 3)))

Every parameter is keyword-only and takes a value, a strategy, or None (any).  The cases
come from conformance.cases.generation, the same builders the frozen corpus uses, so both reach the
same corners (generation.operators.corners; each is recorded with hypothesis.event, visible with
``pytest --hypothesis-show-statistics``).

Valid cases are valid by construction: with the defaults nothing is rejected.  A rejection
happens only when explicit arguments contradict the support tables (say rank=3 with
feature_level="2.1"); then the draw is rejected, and Hypothesis reports it.

Shrinking moves toward: rank 1, FLOAT32, the oldest level that supports the case,
CONSTANT padding, the smallest element budget, size-1 axes, no padding, the first output
sizes of 1, and the "ordinal" fill (values 1, 2, 3, ... like the pages' examples).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

from hypothesis import event, reject
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from oracle import OPERATORS, DataType, FeatureLevel, PaddingMode
from oracle.tables import MAX_RANK

from . import values
from .generation.common import CaseSpec, Family, Inconsistent, choose_config, has_modes
from .generation.operators import INVALID_FAMILIES, build_invalid, build_valid

T = TypeVar("T")

__all__ = ["CaseSpec", "invalid_cases", "valid_cases"]


class _DrawChooser:
    """generation.common.Chooser on Hypothesis draws: integers shrink to lo, choices to the first option."""

    def __init__(self, draw):
        self.draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def choice(self, options: Sequence[T], weights: Sequence[float] | None = None) -> T:
        return self.draw(st.sampled_from(options))

    def rare(self, one_in: int) -> bool:
        # Not `integers(0, one_in - 1) == 0`: Hypothesis favours a range's bounds, which would make
        # "rare" common.  A residue in the middle of a wide range is never a bound (nor 2**k or
        # 2**k - 1), and 0, where shrinking goes, gives False.
        return self.draw(st.integers(0, 2**20 - 1)) % one_in == one_in // 2

    def event(self, label: str) -> None:
        event(label)


def _as_strategy(value, parse, name: str) -> st.SearchStrategy | None:
    """None stays None (any); a strategy is mapped through `parse`; a value is parsed now (fail early)."""
    if value is None:
        return None
    if isinstance(value, st.SearchStrategy):
        return value.map(parse)
    try:
        return st.just(parse(value))
    except (ValueError, KeyError, TypeError) as e:
        raise InvalidArgument(f"{name}={value!r}: {e}") from e


def _parse_operator(value: str) -> str:
    if value not in OPERATORS:
        raise ValueError(f"expected one of {', '.join(OPERATORS)}")
    return value


def _parse_rank(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RANK:
        raise ValueError(f"rank must be an int in 1..{MAX_RANK}")
    return value


@st.composite
def _valid(draw, operator, data_type, rank, feature_level, padding_mode, max_elements) -> CaseSpec:
    op = draw(operator)
    given = {
        name: (draw(s) if s is not None else None)
        for name, s in (
            ("data_type", data_type),
            ("rank", rank),
            ("feature_level", feature_level),
            ("padding_mode", padding_mode),
        )
    }
    if not has_modes(op):
        given["padding_mode"] = None
    ch = _DrawChooser(draw)
    try:
        cfg = choose_config(ch, op, **given)
    except Inconsistent as e:
        event(f"rejected: {e}")
        reject()
    cfg = dataclasses.replace(cfg, max_elements=max_elements)
    for label in (
        f"operator={op}",
        f"data_type={cfg.data_type.value}",
        f"rank={cfg.rank}",
        f"feature_level={cfg.feature_level}",
        f"padding_mode={cfg.padding_mode and cfg.padding_mode.value}",
    ):
        event(label)
    return build_valid(ch, cfg)


def valid_cases(
    operator: str | st.SearchStrategy[str] | None = None,
    *,
    data_type: DataType | str | st.SearchStrategy | None = None,
    rank: int | st.SearchStrategy[int] | None = None,
    feature_level: FeatureLevel | str | st.SearchStrategy | None = None,
    padding_mode: PaddingMode | str | st.SearchStrategy | None = None,
    max_elements: int = values.MAX_ELEMENTS,
) -> st.SearchStrategy[CaseSpec]:
    """Valid cases (descriptor, one input, feature level) of `operator` (None: any operator).

    Without `feature_level`, each case is run at the oldest level that supports its data
    type and rank (oracle.tables.min_feature_level) or at a newer one; with it, data type
    and rank are drawn from that level's support row.  `padding_mode` applies to PADDING.
    `max_elements` caps every tensor (at most values.MAX_ELEMENTS): keep it small where a
    counterexample must fit on a screen.
    """
    if (
        isinstance(max_elements, bool)
        or not isinstance(max_elements, int)
        or not 1 <= max_elements <= values.MAX_ELEMENTS
    ):
        raise InvalidArgument(f"max_elements={max_elements!r}: expected an int in 1..{values.MAX_ELEMENTS}")
    op = _as_strategy(operator, _parse_operator, "operator")
    return _valid(
        st.sampled_from(OPERATORS) if op is None else op,
        _as_strategy(data_type, DataType.parse, "data_type"),
        _as_strategy(rank, _parse_rank, "rank"),
        _as_strategy(feature_level, FeatureLevel.parse, "feature_level"),
        _as_strategy(padding_mode, PaddingMode.parse, "padding_mode"),
        max_elements,
    )


@st.composite
def _invalid(draw, operator, clause) -> CaseSpec:
    op = draw(operator)
    families = [f for f in INVALID_FAMILIES[op] if clause is None or f.clause == clause]
    if not families:
        event(f"rejected: {op} has no invalid family for {clause}")
        reject()
    family: Family = draw(st.sampled_from(families))
    event(f"operator={op}")
    return build_invalid(_DrawChooser(draw), op, family)


def invalid_cases(
    operator: str | st.SearchStrategy[str] | None = None,
    *,
    clause: str | None = None,
) -> st.SearchStrategy[CaseSpec]:
    """Invalid descriptors, one family per validation rule (generation.operators.INVALID_FAMILIES).

    Each case's `.clause` is the one clause oracle.validate reports for it at its
    `.feature_level`; `clause=` keeps only the families that break that clause.
    """
    op = _as_strategy(operator, _parse_operator, "operator")
    ops = [operator] if isinstance(operator, str) else list(OPERATORS)
    if clause is not None and not any(f.clause == clause for o in ops for f in INVALID_FAMILIES[o]):
        raise InvalidArgument(f"clause={clause!r}: no invalid family of {', '.join(ops)} breaks it")
    return _invalid(st.sampled_from(OPERATORS) if op is None else op, clause)

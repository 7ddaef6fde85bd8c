"""What every operator's generation shares: choosers, configs, size caps and the common families.

Every choice a builder makes goes through a `Chooser`: conformance.cases.strategies backs it with
Hypothesis draws (so cases shrink: integers toward their lower bound, choices toward the
first option), generation.corpus with numpy's PCG64 (so a seed gives the same corpus on every
machine).  One set of builders means the corpus and the property tests reach the same
corners.

Valid cases are valid by construction: each size, stride, window and padding is drawn
inside the bounds the spec allows, given what was drawn before; nothing is filtered.
Invalid cases start from a valid one and break exactly one rule (a `Family`), so each
carries the one clause oracle.validate reports for it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np

import oracle
from oracle import DataType, FeatureLevel, PaddingMode, TensorDesc
from oracle.op_padding import MODE_INTRODUCED
from oracle.registry import min_feature_level, support_row
from oracle.tables import ALL_DATA_TYPES, MAX_RANK, UINT_MAX, SupportRow

from .. import values

T = TypeVar("T")

# --- size caps (each with its reason) -----------------------------------------------------

# Largest input extent per axis.  Why: room for windows, offsets and strides > 1 on one axis
# while a failing case still prints on a screen; the element budget bounds the product.
MAX_AXIS = 12
# Element budgets a case draws from, smallest first (what shrinking moves to).  The largest
# is values.MAX_ELEMENTS; the generator weights the small ones so the committed corpus stays
# a few MB and the literal re-check fast (Hypothesis ignores the weights).
ELEMENT_BUDGETS = (16, 64, 256, 1024, values.MAX_ELEMENTS)
ELEMENT_BUDGET_WEIGHTS = (0.45, 0.3, 0.17, 0.07, 0.01)
# How far past the window (or input) a stride may go: "stride larger than the window".
STRIDE_SLACK = 3
# DirectML's fields are UINT: a validation sum computed in 32 bits agrees with the true one only modulo this.
UINT32_WRAP = 2**32


class Chooser(Protocol):
    """The source of every choice a builder makes."""

    def integer(self, lo: int, hi: int) -> int:
        """An int in [lo, hi]; shrinks toward lo."""

    def choice(self, options: Sequence[T], weights: Sequence[float] | None = None) -> T:
        """One of `options`; shrinks toward the first.  `weights` bias the generator only."""

    def rare(self, one_in: int) -> bool:
        """True about once in `one_in` draws; shrinks to False."""

    def event(self, label: str) -> None:
        """Record that a corner was reached (Hypothesis statistics; a no-op for the generator)."""


class RngChooser:
    """A Chooser on numpy's PCG64: deterministic for a seed, uniform over each range."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi, endpoint=True))

    def choice(self, options: Sequence[T], weights: Sequence[float] | None = None) -> T:
        if weights is None:
            return options[int(self.rng.integers(len(options)))]
        return options[int(self.rng.choice(len(options), p=np.asarray(weights) / sum(weights)))]

    def rare(self, one_in: int) -> bool:
        return int(self.rng.integers(one_in)) == one_in - 1

    def event(self, label: str) -> None:
        pass


class Quiet:
    """A Chooser that passes choices through and drops events."""

    def __init__(self, inner: Chooser):
        self.inner = inner

    def integer(self, lo: int, hi: int) -> int:
        return self.inner.integer(lo, hi)

    def choice(self, options: Sequence[T], weights: Sequence[float] | None = None) -> T:
        return self.inner.choice(options, weights)

    def rare(self, one_in: int) -> bool:
        return self.inner.rare(one_in)

    def event(self, label: str) -> None:
        pass


class Inconsistent(ValueError):
    """The requested data type, rank, feature level and mode cannot go together."""


@dataclass(frozen=True)
class Config:
    operator: str
    data_type: DataType
    rank: int
    feature_level: FeatureLevel
    padding_mode: PaddingMode | None = None
    max_elements: int = values.MAX_ELEMENTS  # cap on every tensor's element count


@dataclass(frozen=True)
class CaseSpec:
    """A built case before encoding: what conformance.cases.corpus needs, plus the invalid rule broken."""

    operator: str
    feature_level: FeatureLevel
    descriptor: oracle.Descriptor
    inputs: tuple[np.ndarray, ...]
    clause: str | None = None  # None: valid; else the one clause validation reports
    family: str = ""  # for invalid cases: the family's name
    tags: tuple[str, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return self.clause is None


D = TypeVar("D")


def descriptor_of(base: CaseSpec, cls: type[D]) -> D:
    """`base.descriptor` as its concrete class: an operator's families only see their own."""
    d = base.descriptor
    if not isinstance(d, cls):
        raise TypeError(f"expected a {cls.__name__}, got {type(d).__name__}")
    return d


def with_descriptor(base: CaseSpec, descriptor: oracle.Descriptor, tags: tuple[str, ...] | None = None) -> CaseSpec:
    """`base` with another descriptor (and tags, when given)."""
    if tags is None:
        return dataclasses.replace(base, descriptor=descriptor)
    return dataclasses.replace(base, descriptor=descriptor, tags=tags)


def levels_from(level: FeatureLevel) -> list[FeatureLevel]:
    return [fl for fl in FeatureLevel if fl >= level]


@functools.cache
def data_type_order(operator: str) -> tuple[DataType, ...]:
    """Data types ordered by the level that first supports them (shrinks toward FLOAT32)."""
    return tuple(sorted(ALL_DATA_TYPES, key=lambda dt: min_feature_level(operator, dt, 4) or max(FeatureLevel)))


@functools.cache
def supported_data_types(operator: str) -> tuple[DataType, ...]:
    """data_type_order without the types no level of the table supports (DML_TILE's FLOAT64): what a valid
    case can be drawn in.  The same list, and so the same draws, for an operator whose table has every type."""
    ranks = range(1, MAX_RANK + 1)
    return tuple(dt for dt in data_type_order(operator) if any(min_feature_level(operator, dt, r) for r in ranks))


@functools.cache
def has_modes(operator: str) -> bool:
    """Whether the operator's descriptor has a padding_mode (PADDING): its configs then carry one."""
    return any(f.name == "padding_mode" for f in dataclasses.fields(oracle.DESCRIPTOR_TYPES[operator]))


def _config_at_level(
    ch: Chooser,
    operator: str,
    feature_level: FeatureLevel,
    data_type: DataType | None,
    rank: int | None,
    padding_mode: PaddingMode | None,
) -> Config:
    """A config at a given level: the row in force there decides the types and ranks."""
    row = support_row(operator, feature_level)
    if row is None:
        raise Inconsistent(f"{operator} does not exist at feature level {feature_level}")
    if data_type is None:
        data_type = ch.choice([dt for dt in data_type_order(operator) if dt in row.data_types])
    if rank is None:
        rank = ch.choice(row.ranks)
    if data_type not in row.data_types or rank not in row.ranks:
        raise Inconsistent(f"{operator} at {feature_level} does not support {data_type.value} rank {rank}")
    if padding_mode in MODE_INTRODUCED and feature_level < MODE_INTRODUCED[padding_mode][0]:
        raise Inconsistent(f"{padding_mode.value} needs {MODE_INTRODUCED[padding_mode][0]}, not {feature_level}")
    return Config(operator, data_type, rank, feature_level, padding_mode)


def choose_config(
    ch: Chooser,
    operator: str,
    *,
    data_type: DataType | None = None,
    rank: int | None = None,
    feature_level: FeatureLevel | None = None,
    padding_mode: PaddingMode | None = None,
) -> Config:
    """Fill in whatever was not given, consistently with the support tables, without filtering.

    Without a feature level, the level is the oldest that supports the data type and rank
    (min_feature_level) or, half the time, any newer one (levels between table rows check
    that they inherit the row below, U-ALL-1).
    """
    if padding_mode is None:
        padding_mode = _mode_at(ch, operator, feature_level or max(FeatureLevel))  # no level: any mode
    if feature_level is not None:
        return _config_at_level(ch, operator, feature_level, data_type, rank, padding_mode)
    if data_type is None:
        data_type = ch.choice(supported_data_types(operator))
    if rank is None:
        # An operator whose tables name fewer ranks (the depth-space family: 4 only) draws among those; the
        # others draw as they always did (their corpus does not move).
        ranks = sorted({r for row in oracle.SUPPORT[operator] for r in row.ranks})
        rank = ch.integer(1, MAX_RANK) if len(ranks) == MAX_RANK else ch.choice(ranks)
    lowest = min_feature_level(operator, data_type, rank, padding_mode)
    if lowest is None:
        raise Inconsistent(f"no feature level supports {operator} {data_type.value} rank {rank}")
    level = lowest if ch.choice(("oldest", "newer")) == "oldest" else ch.choice(levels_from(lowest))
    return Config(operator, data_type, rank, level, padding_mode)


# --- valid cases ------------------------------------------------------------------------------


def budget(ch: Chooser, cfg: Config) -> int:
    """The case's element budget: one of ELEMENT_BUDGETS, or fewer when cfg.max_elements is lower."""
    if cfg.max_elements >= values.MAX_ELEMENTS:
        return ch.choice(ELEMENT_BUDGETS, ELEMENT_BUDGET_WEIGHTS)
    return ch.choice([b for b in ELEMENT_BUDGETS if b < cfg.max_elements] + [cfg.max_elements])


def sizes_in_budget(ch: Chooser, cfg: Config) -> list[int]:
    """One tensor's sizes, cfg.rank of them, each 1..MAX_AXIS, their product inside the case's element budget."""
    left = budget(ch, cfg)
    sizes = []
    for _ in range(cfg.rank):
        n = ch.integer(1, max(1, min(MAX_AXIS, left)))
        left = max(1, left // n)
        sizes.append(n)
    return sizes


def axis_pieces(ch: Chooser, cfg: Config, max_pieces: int) -> tuple[list[int], int, list[int]]:
    """The whole tensor's sizes, an axis, and that axis cut into 1..max_pieces pieces in order (SPLIT's outputs,
    JOIN's inputs)."""
    sizes = sizes_in_budget(ch, cfg)
    axis = ch.integer(0, cfg.rank - 1)
    count = ch.integer(1, min(sizes[axis], max_pieces))
    pieces, rest = [], sizes[axis]
    for j in range(count - 1):
        piece = ch.integer(1, rest - (count - 1 - j))
        pieces.append(piece)
        rest -= piece
    pieces.append(rest)
    return sizes, axis, pieces


def wrapped_pieces(ch: Chooser, pieces: tuple[TensorDesc, ...], axis: int) -> tuple[TensorDesc, ...]:
    """The pieces (SPLIT's outputs, JOIN's inputs) with one replaced by two, 2^31 larger each along `axis`: their
    sum is 2^32 more than before, equal to the whole's only in UINT32 arithmetic."""
    j = ch.integer(0, len(pieces) - 1)
    t = pieces[j]
    half = UINT32_WRAP // 2
    bigger = TensorDesc(t.data_type, set_at(t.sizes, axis, t.sizes[axis] + half))
    extra = TensorDesc(t.data_type, set_at(t.sizes, axis, half))
    return (*pieces[:j], bigger, extra, *pieces[j + 1 :])


def input_tensor(ch: Chooser, data_type: DataType, shape: tuple[int, ...]) -> np.ndarray:
    fill = ch.choice(values.FILLS)
    seed = 0 if fill == "ordinal" else ch.integer(0, 2**32 - 1)
    ch.event(f"fill={fill}")
    return values.fill_input(data_type, shape, fill, seed)


def first_tensor(desc: oracle.Descriptor) -> TensorDesc:
    """The tensor a case is drawn in (oracle.case_tensor): ONE_HOT's output, the output where there is no input."""
    return oracle.case_tensor(desc)


def common_corners(desc: oracle.Descriptor) -> list[str]:
    """The corners every operator can reach: a size-1 dimension, 8-D."""
    found = []
    sizes = first_tensor(desc).sizes
    if 1 in sizes:
        found.append("size-1 dimension")
    if len(sizes) == MAX_RANK:
        found.append("8-D")
    return found


# --- invalid cases ----------------------------------------------------------------------------


def set_at(seq: Sequence[int], i: int, value: int) -> tuple[int, ...]:
    out = list(seq)
    out[i] = value
    return tuple(out)


def replaced_tensor(t: TensorDesc, sizes: Sequence[int] | None, data_type: DataType | None) -> TensorDesc:
    """`t` with its sizes or data type changed."""
    return TensorDesc(data_type or t.data_type, tuple(sizes) if sizes is not None else t.sizes)


Mutation = Callable[[Chooser, CaseSpec], CaseSpec]
ConfigMaker = Callable[[Chooser, str], Config]


@dataclass(frozen=True)
class Family:
    """One validation rule: how to get a base config that can break it, and how to break it."""

    name: str
    clause: str
    mutate: Mutation
    # the function building the base config; None: any config (choose_config)
    config: ConfigMaker | None = None


def unsupported_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    return base  # built by the family's config: the level is what makes it invalid


def _old_level(ch: Chooser, operator: str, wants: Callable[[SupportRow], bool]) -> tuple[FeatureLevel, SupportRow]:
    """A feature level (any, rows or between them) whose row in force satisfies `wants`, and that row."""
    levels = [(fl, row) for fl in FeatureLevel if (row := support_row(operator, fl)) is not None and wants(row)]
    return ch.choice(levels)


def modes(level: FeatureLevel) -> list[PaddingMode]:
    return [m for m in PaddingMode if m not in MODE_INTRODUCED or level >= MODE_INTRODUCED[m][0]]


# A seed page's operator (PADDING) takes a mode from past the seed pages (WRAP, WRAP.*) in about one
# case in this many: its cases stay about the page, and WRAP's padding is observed only (U-WRAP-1).
BEYOND_SEEDS_MODE_ONE_IN = 10


def _mode_at(ch: Chooser, operator: str, level: FeatureLevel) -> PaddingMode | None:
    if not has_modes(operator):
        return None
    choices = modes(level)
    page_operator = not oracle.beyond_seeds(oracle.REGISTRY[operator].TABLES.clause_prefix)
    beyond = [m for m in choices if m in MODE_INTRODUCED and oracle.beyond_seeds(MODE_INTRODUCED[m][1])]
    if page_operator and beyond and ch.integer(1, BEYOND_SEEDS_MODE_ONE_IN) != 1:
        choices = [m for m in choices if m not in beyond]
    return ch.choice(choices)


def unsupported_type_config(ch: Chooser, operator: str) -> Config:
    """A level whose row lacks some type, and that type: invalid by the support table alone."""
    level, row = _old_level(ch, operator, lambda row: set(row.data_types) != set(ALL_DATA_TYPES))
    dt = ch.choice([t for t in data_type_order(operator) if t not in row.data_types])
    return Config(operator, dt, ch.choice(row.ranks), level, _mode_at(ch, operator, level))


def unsupported_rank_config(ch: Chooser, operator: str) -> Config:
    level, row = _old_level(ch, operator, lambda row: len(row.ranks) < MAX_RANK)
    rank = ch.choice([r for r in range(1, MAX_RANK + 1) if r not in row.ranks])
    dt = ch.choice([t for t in data_type_order(operator) if t in row.data_types])
    return Config(operator, dt, rank, level, _mode_at(ch, operator, level))


def before_introduction_config(ch: Chooser, operator: str) -> Config:
    introduced = oracle.REGISTRY[operator].TABLES.introduced[0]
    level = ch.choice([fl for fl in FeatureLevel if fl < introduced])
    return Config(
        operator,
        ch.choice(data_type_order(operator)[:2]),
        ch.choice((4, 5)),
        level,
        _mode_at(ch, operator, level),
    )


def common_families(operator: str, common_1: Mutation, common_2: Mutation) -> list[Family]:
    """The families every operator has: COMMON.1 and COMMON.2 (built by the operator), and the support table's."""
    tables = oracle.REGISTRY[operator].TABLES
    families = [Family("data type mismatch", "COMMON.1", common_1), Family("zero size", "COMMON.2", common_2)]
    # Only where some row of the table leaves a data type or a rank out (DML_PADDING1's one row has them all).
    if any(set(row.data_types) != set(ALL_DATA_TYPES) for row in tables.support):
        families.append(
            Family("data type unsupported at level", tables.support_clause, unsupported_type, unsupported_type_config)
        )
    if any(len(row.ranks) < MAX_RANK for row in tables.support):
        families.append(
            Family(
                "rank unsupported at level", tables.dimension_count_clause, unsupported_type, unsupported_rank_config
            )
        )
    if any(fl < tables.introduced[0] for fl in FeatureLevel):
        families.append(
            Family(
                "before the operator's introduction", tables.introduced[1], unsupported_type, before_introduction_config
            )
        )
    return families


def other_data_type(ch: Chooser, base: CaseSpec) -> DataType:
    """A data type other than the input's, for COMMON.1."""
    dt = first_tensor(base.descriptor).data_type
    return ch.choice([t for t in data_type_order(base.operator) if t is not dt])


def dimension_count(
    desc: oracle.SliceDesc | oracle.Slice1Desc | oracle.PaddingDesc | oracle.Padding1Desc | oracle.SliceGradDesc,
) -> int:
    """The DimensionCount field (filled in from the arrays when the descriptor was made)."""
    n = desc.dimension_count
    if n is None:  # OneInOneOut.__post_init__ sets it
        raise AssertionError(f"{desc.operator} descriptor without a dimension_count")
    return n


# --- families of the one-input operators (SLICE, SLICE1, PADDING) -----------------------------


OneOutput = TypeVar("OneOutput", oracle.SliceDesc, oracle.Slice1Desc, oracle.PaddingDesc, oracle.Padding1Desc)


def replace_output(desc: OneOutput, sizes: Sequence[int] | None = None, data_type: DataType | None = None) -> OneOutput:
    """The descriptor with its output tensor's sizes or data type changed."""
    return dataclasses.replace(desc, output_tensor=replaced_tensor(desc.output_tensor, sizes, data_type))


# The descriptors whose COMMON.2 family is `one_output_common_2` (SLICE has its own: its Sizes field follows the
# output; TILE, REVERSE_SUBSEQUENCES and SLICE_GRAD theirs: the output follows an input, or the rank is a field).
ZERO_OUTPUT_DESCS = (
    oracle.Slice1Desc,
    oracle.PaddingDesc,
    oracle.Padding1Desc,
    oracle.CastDesc,
    oracle.FillValueConstantDesc,
    oracle.FillValueSequenceDesc,
    oracle.DiagonalMatrixDesc,
    oracle.DiagonalMatrix1Desc,
    oracle.IdentityDesc,
    oracle.DepthToSpaceDesc,
    oracle.DepthToSpace1Desc,
    oracle.SpaceToDepthDesc,
    oracle.SpaceToDepth1Desc,
)


def one_output_common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """COMMON.2: one of the output's sizes is 0 (COMMON.2 fires before the operator's own size rules)."""
    d = base.descriptor
    if not isinstance(d, ZERO_OUTPUT_DESCS):
        raise TypeError(f"{d.operator} has its own COMMON.2 family")
    rank = dimension_count(d) if isinstance(d, DIMENSION_COUNT_DESCS) else len(d.output_tensor.sizes)
    i = ch.integer(0, rank - 1)
    out = replaced_tensor(d.output_tensor, set_at(d.output_tensor.sizes, i, 0), None)
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def one_output_common_1(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """COMMON.1: the output's data type differs from the input's."""
    d = base.descriptor
    if isinstance(d, (oracle.SplitDesc, oracle.JoinDesc)):
        raise TypeError(f"{d.operator} has its own COMMON.1 family")
    out = replaced_tensor(d.output_tensor, None, other_data_type(ch, base))
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


# The descriptors with a DimensionCount field and per-dimension arrays (SLICE, SLICE1, PADDING, PADDING1,
# SLICE_GRAD: the ones dimension_count() takes).
DIMENSION_COUNT_DESCS = (
    oracle.SliceDesc,
    oracle.Slice1Desc,
    oracle.PaddingDesc,
    oracle.Padding1Desc,
    oracle.SliceGradDesc,
)


def _dimension_count_field(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    if not isinstance(d, DIMENSION_COUNT_DESCS):  # named positively: a new operator's descriptor is not one
        raise TypeError(f"{d.operator} has no DimensionCount field")
    return with_descriptor(base, dataclasses.replace(d, dimension_count=dimension_count(d) + 1))


def _uint_overflow(field_name: str) -> Mutation:
    def mutate(ch: Chooser, base: CaseSpec) -> CaseSpec:
        d = base.descriptor
        if not isinstance(d, DIMENSION_COUNT_DESCS):
            raise TypeError(f"{d.operator} has no per-dimension UINT array")
        i = ch.integer(0, dimension_count(d) - 1)
        changes: dict[str, Any] = {field_name: set_at(getattr(d, field_name), i, UINT_MAX + 1)}
        return with_descriptor(base, dataclasses.replace(d, **changes))

    return mutate


def field_families(count_clause: str, uint_field: str, uint_clause: str) -> list[Family]:
    """The DimensionCount field and a UINT array's overflow: the one-input operators' descriptors have both."""
    return [
        Family("dimension_count field mismatch", count_clause, _dimension_count_field),
        Family("UINT field overflow", uint_clause, _uint_overflow(uint_field)),
    ]

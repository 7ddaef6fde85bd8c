"""Case builders shared by the Hypothesis strategies and the frozen-corpus generator.

Every choice a builder makes goes through a `Chooser`: `strategies.py` backs it with
Hypothesis draws (so cases shrink: integers toward their lower bound, choices toward the
first option), `generate.py` with numpy's PCG64 (so a seed gives the same corpus on every
machine).  One set of builders means the corpus and the property tests reach the same
corners.

Valid cases are valid by construction: each size, stride, window and padding is drawn
inside the bounds the spec allows, given what was drawn before; nothing is filtered.
Invalid cases start from a valid one and break exactly one rule (`INVALID_FAMILIES`), so
each carries the one clause oracle.validate reports for it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import numpy as np

import oracle
from oracle import DataType, FeatureLevel, PaddingMode, TensorDesc
from oracle.op_slice1 import max_copied_elements
from oracle.tables import (
    ALL_DATA_TYPES,
    DIMENSION_COUNT_CLAUSE,
    INTRODUCED,
    MAX_RANK,
    SUPPORT,
    SUPPORT_CLAUSE,
    SYMMETRIC_INTRODUCED,
    UINT_MAX,
    SupportRow,
    min_feature_level,
    support_row,
)

from . import values

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
# Padding "many times larger than the size": up to this multiple of the axis size.
MAX_PADDING_FACTOR = 4
# Most outputs of one SPLIT.  Why: every output is a separate buffer in a backend; 8
# covers "size-1 pieces" for axes up to 8 long.
MAX_SPLIT_OUTPUTS = 8
# Share (1 in N per axis) of SLICE axes given stride 0 (U-SLICE-1, observed not judged).
ZERO_STRIDE_ONE_IN = 16


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


class _Quiet:
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
    """A built case before encoding: what conformance.corpus needs, plus the invalid rule broken."""

    operator: str
    feature_level: FeatureLevel
    descriptor: oracle.Descriptor
    inputs: tuple[np.ndarray, ...]
    clause: str | None = None  # None: valid; else the one clause validation reports
    family: str = ""  # for invalid cases: the INVALID_FAMILIES key
    tags: tuple[str, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return self.clause is None


def _levels_from(level: FeatureLevel) -> list[FeatureLevel]:
    return [fl for fl in FeatureLevel if fl >= level]


@functools.cache
def data_type_order(operator: str) -> tuple[DataType, ...]:
    """Data types ordered by the level that first supports them (shrinks toward FLOAT32)."""
    return tuple(sorted(ALL_DATA_TYPES, key=lambda dt: min_feature_level(operator, dt, 4) or max(FeatureLevel)))


def choose_config(  # noqa: C901 (to split, issue 12)
    ch: Chooser,
    operator: str,
    *,
    data_type: DataType | None = None,
    rank: int | None = None,
    feature_level: FeatureLevel | None = None,
    padding_mode: PaddingMode | None = None,
) -> Config:
    """Fill in whatever was not given, consistently with oracle.tables, without filtering.

    Without a feature level, the level is the oldest that supports the data type and rank
    (min_feature_level) or, half the time, any newer one (levels between table rows check
    that they inherit the row below, U-ALL-1).
    """
    if operator == "PADDING" and padding_mode is None:
        modes = list(PaddingMode)
        if feature_level is not None and feature_level < SYMMETRIC_INTRODUCED[0]:
            modes.remove(PaddingMode.SYMMETRIC)
        padding_mode = ch.choice(modes)
    if feature_level is not None:
        row = support_row(operator, feature_level)
        if row is None:
            raise Inconsistent(f"{operator} does not exist at feature level {feature_level}")
        if data_type is None:
            data_type = ch.choice([dt for dt in data_type_order(operator) if dt in row.data_types])
        if rank is None:
            rank = ch.choice(row.ranks)
        if data_type not in row.data_types or rank not in row.ranks:
            raise Inconsistent(f"{operator} at {feature_level} does not support {data_type.value} rank {rank}")
        if padding_mode is PaddingMode.SYMMETRIC and feature_level < SYMMETRIC_INTRODUCED[0]:
            raise Inconsistent(f"SYMMETRIC needs {SYMMETRIC_INTRODUCED[0]}, not {feature_level}")
        return Config(operator, data_type, rank, feature_level, padding_mode)
    if data_type is None:
        data_type = ch.choice(data_type_order(operator))
    if rank is None:
        rank = ch.integer(1, MAX_RANK)
    lowest = min_feature_level(operator, data_type, rank)
    if lowest is None:
        raise Inconsistent(f"no feature level supports {operator} {data_type.value} rank {rank}")
    if padding_mode is PaddingMode.SYMMETRIC:
        lowest = max(lowest, SYMMETRIC_INTRODUCED[0])
    level = lowest if ch.choice(("oldest", "newer")) == "oldest" else ch.choice(_levels_from(lowest))
    return Config(operator, data_type, rank, level, padding_mode)


# --- valid cases ------------------------------------------------------------------------------


def _budget(ch: Chooser, cfg: Config) -> int:
    """The case's element budget: one of ELEMENT_BUDGETS, or fewer when cfg.max_elements is lower."""
    if cfg.max_elements >= values.MAX_ELEMENTS:
        return ch.choice(ELEMENT_BUDGETS, ELEMENT_BUDGET_WEIGHTS)
    return ch.choice([b for b in ELEMENT_BUDGETS if b < cfg.max_elements] + [cfg.max_elements])


def _input(ch: Chooser, data_type: DataType, shape: tuple[int, ...]) -> np.ndarray:
    fill = ch.choice(values.FILLS)
    seed = 0 if fill == "ordinal" else ch.integer(0, 2**32 - 1)
    ch.event(f"fill={fill}")
    return values.fill_input(data_type, shape, fill, seed)


def _slice(ch: Chooser, cfg: Config) -> tuple[oracle.Descriptor, tuple[int, ...]]:
    budget = _budget(ch, cfg)
    in_sizes, offsets, sizes, strides = [], [], [], []
    for _ in range(cfg.rank):
        n_in = ch.integer(1, min(MAX_AXIS, budget))
        budget //= n_in
        n = ch.integer(1, n_in)
        if ch.rare(ZERO_STRIDE_ONE_IN):
            stride = 0  # U-SLICE-1: valid, the formula repeats one element
        elif n == 1:
            stride = ch.integer(1, n_in + STRIDE_SLACK)  # only the offset is read
        else:
            stride = ch.integer(1, (n_in - 1) // (n - 1))
        offset = ch.integer(0, n_in - 1 - stride * (n - 1))
        in_sizes.append(n_in)
        offsets.append(offset)
        sizes.append(n)
        strides.append(stride)
    dt = cfg.data_type
    desc = oracle.SliceDesc(TensorDesc(dt, tuple(in_sizes)), TensorDesc(dt, tuple(sizes)), offsets, sizes, strides)
    return desc, tuple(in_sizes)


def _slice1(ch: Chooser, cfg: Config) -> tuple[oracle.Descriptor, tuple[int, ...]]:
    budget = _budget(ch, cfg)
    in_sizes, offsets, windows, strides, out = [], [], [], [], []
    for _ in range(cfg.rank):
        n_in = ch.integer(1, min(MAX_AXIS, budget))
        budget //= n_in
        window = ch.integer(1, n_in)
        offset = ch.integer(0, n_in - window)
        stride = ch.integer(1, window + STRIDE_SLACK) * ch.choice((1, -1))
        in_sizes.append(n_in)
        offsets.append(offset)
        windows.append(window)
        strides.append(stride)
        out.append(ch.integer(1, max_copied_elements(window, stride)))
    dt = cfg.data_type
    desc = oracle.Slice1Desc(TensorDesc(dt, tuple(in_sizes)), TensorDesc(dt, tuple(out)), offsets, windows, strides)
    return desc, tuple(in_sizes)


def _padding_amount(ch: Chooser, size: int, room: int) -> int:
    """0, a little, exactly the size, or a multiple of it (periodic folding), within `room`."""
    kind = ch.choice(("zero", "small", "size", "multiple"))
    if kind == "zero" or room == 0:
        return 0
    if kind == "small":
        return ch.integer(1, min(room, max(1, size - 1)))
    if kind == "size" and size <= room:
        return size
    if kind == "multiple" and 2 * size <= room:
        return size * ch.integer(2, min(MAX_PADDING_FACTOR, room // size))
    return ch.integer(0, room)


def _padding(ch: Chooser, cfg: Config) -> tuple[oracle.Descriptor, tuple[int, ...]]:
    budget = _budget(ch, cfg)
    in_sizes, start, end = [], [], []
    for _ in range(cfg.rank):
        extent = min(MAX_AXIS * (1 + 2 * MAX_PADDING_FACTOR), budget)  # output extent on this axis
        n_in = ch.integer(1, min(MAX_AXIS, extent))
        s = _padding_amount(ch, n_in, extent - n_in)
        e = _padding_amount(ch, n_in, extent - n_in - s)
        budget //= n_in + s + e
        in_sizes.append(n_in)
        start.append(s)
        end.append(e)
    dt = cfg.data_type
    out_sizes = tuple(n + s + e for n, s, e in zip(in_sizes, start, end))
    value = values.padding_value_from_bits(ch.choice(values.PADDING_VALUE_BITS))
    desc = oracle.PaddingDesc(
        TensorDesc(dt, tuple(in_sizes)), TensorDesc(dt, out_sizes), cfg.padding_mode, value, start, end
    )
    return desc, tuple(in_sizes)


def _split(ch: Chooser, cfg: Config) -> tuple[oracle.Descriptor, tuple[int, ...]]:
    budget = _budget(ch, cfg)
    in_sizes = []
    for _ in range(cfg.rank):
        n_in = ch.integer(1, min(MAX_AXIS, budget))
        budget //= n_in
        in_sizes.append(n_in)
    axis = ch.integer(0, cfg.rank - 1)
    size = in_sizes[axis]
    count = ch.integer(1, min(size, MAX_SPLIT_OUTPUTS))
    pieces, left = [], size
    for j in range(count - 1):
        piece = ch.integer(1, left - (count - 1 - j))
        pieces.append(piece)
        left -= piece
    pieces.append(left)
    dt = cfg.data_type
    outs = tuple(TensorDesc(dt, (*in_sizes[:axis], p, *in_sizes[axis + 1 :])) for p in pieces)
    return oracle.SplitDesc(TensorDesc(dt, tuple(in_sizes)), outs, axis), tuple(in_sizes)


_BUILDERS: dict[str, Callable[[Chooser, Config], tuple[oracle.Descriptor, tuple[int, ...]]]] = {
    "SLICE": _slice,
    "SLICE1": _slice1,
    "PADDING": _padding,
    "SPLIT": _split,
}


def build_valid(ch: Chooser, cfg: Config) -> CaseSpec:
    """A valid case for `cfg`: descriptor and input drawn through `ch`."""
    desc, shape = _BUILDERS[cfg.operator](ch, cfg)
    x = _input(ch, cfg.data_type, shape)
    for label in corners(desc):
        ch.event(label)
    return CaseSpec(cfg.operator, cfg.feature_level, desc, (x,))


def corners(desc: oracle.Descriptor) -> list[str]:  # noqa: C901 (to split, issue 12)
    """The interesting corners a descriptor reaches (issue 3's list), as short labels."""
    found = []
    sizes = desc.input_tensor.sizes
    if 1 in sizes:
        found.append("size-1 dimension")
    if len(sizes) == MAX_RANK:
        found.append("8-D")
    if desc.operator == "SLICE":
        if any(st > n - o for st, n, o in zip(desc.strides, sizes, desc.offsets)):
            found.append("stride larger than the window")
        if 0 in desc.strides:
            found.append("stride 0 (U-SLICE-1)")
    elif desc.operator == "SLICE1":
        if any(abs(st) > w for st, w in zip(desc.window_strides, desc.window_sizes)):
            found.append("stride larger than the window")
        negative = sum(st < 0 for st in desc.window_strides)
        if negative >= 2:
            found.append("negative strides on several axes")
        if any(
            o < max_copied_elements(w, st)
            for o, w, st in zip(desc.output_tensor.sizes, desc.window_sizes, desc.window_strides)
        ):
            found.append("output smaller than MaxCopiedElements")
    elif desc.operator == "PADDING":
        pads = list(zip(sizes, desc.start_padding, desc.end_padding))
        if any(s == 0 or e == 0 for _, s, e in pads):
            found.append("padding 0")
        if any(s == n or e == n for n, s, e in pads):
            found.append("padding equal to the size")
        if any(max(s, e) >= 2 * n for n, s, e in pads):
            found.append("padding many times the size")
        if desc.padding_mode is PaddingMode.REFLECTION and any(n == 1 and (s or e) for n, s, e in pads):
            found.append("REFLECTION on size 1 (U-PAD-4)")
    elif desc.operator == "SPLIT":
        if desc.output_count == 1:
            found.append("SPLIT into one output")
        if len(desc.output_tensors) > 1 and all(n == 1 for n in desc.output_sizes):
            found.append("SPLIT into size-1 pieces")
    return found


# --- invalid cases: one family per validation rule ------------------------------------------


def _replace_out(
    desc: oracle.Descriptor, sizes: Sequence[int] | None = None, data_type: DataType | None = None
) -> oracle.Descriptor:
    """The descriptor with its (first) output tensor's sizes or data type changed."""
    if desc.operator == "SPLIT":
        t = desc.output_tensors[0]
        new = TensorDesc(data_type or t.data_type, tuple(sizes) if sizes is not None else t.sizes)
        return dataclasses.replace(desc, output_tensors=(new, *desc.output_tensors[1:]))
    t = desc.output_tensor
    new = TensorDesc(data_type or t.data_type, tuple(sizes) if sizes is not None else t.sizes)
    return dataclasses.replace(desc, output_tensor=new)


def _set(seq: Sequence[int], i: int, value: int) -> tuple[int, ...]:
    out = list(seq)
    out[i] = value
    return tuple(out)


def _old_level(ch: Chooser, operator: str, wants: Callable[[SupportRow], bool]) -> FeatureLevel:
    """A feature level (any, rows or between them) whose row in force satisfies `wants`."""
    levels = [fl for fl in FeatureLevel if (row := support_row(operator, fl)) is not None and wants(row)]
    return ch.choice(levels)


def _common_1(ch: Chooser, base: CaseSpec) -> CaseSpec:
    dt = base.descriptor.input_tensor.data_type
    other = ch.choice([t for t in data_type_order(base.operator) if t is not dt])
    return dataclasses.replace(base, descriptor=_replace_out(base.descriptor, data_type=other))


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    if d.operator == "SPLIT":  # an output of size 0 along Axis (U-SPLIT-1): COMMON.2 fires first
        zero = dataclasses.replace(d.output_tensors[0], sizes=_set(d.output_tensors[0].sizes, d.axis, 0))
        return dataclasses.replace(
            base, descriptor=dataclasses.replace(d, output_tensors=(zero, *d.output_tensors[1:])), tags=("U-SPLIT-1",)
        )
    i = ch.integer(0, d.dimension_count - 1)
    out = _set(d.output_tensor.sizes, i, 0)
    if d.operator == "SLICE":
        return dataclasses.replace(
            base, descriptor=dataclasses.replace(_replace_out(d, out), sizes=out), tags=("U-SLICE-2",)
        )
    return dataclasses.replace(base, descriptor=_replace_out(d, out))


def _unsupported_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    return base  # built by _config_for: the level is what makes it invalid


def _dimension_count_field(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    return dataclasses.replace(base, descriptor=dataclasses.replace(d, dimension_count=d.dimension_count + 1))


def _uint_overflow(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    name = {"SLICE": "offsets", "SLICE1": "window_offsets", "PADDING": "start_padding"}[d.operator]
    i = ch.integer(0, d.dimension_count - 1)
    return dataclasses.replace(
        base, descriptor=dataclasses.replace(d, **{name: _set(getattr(d, name), i, UINT_MAX + 1)})
    )


def _slice_3(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    i = ch.integer(0, d.dimension_count - 1)
    return dataclasses.replace(base, descriptor=_replace_out(d, _set(d.output_tensor.sizes, i, d.sizes[i] + 1)))


def _slice_4(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    i = ch.integer(0, d.dimension_count - 1)
    # The last element read lands one past the input: Offsets + Strides * (Sizes - 1) = InputSizes.
    offset = d.input_tensor.sizes[i] - d.strides[i] * (d.sizes[i] - 1)
    if offset < 0:  # cannot happen for a valid base, whose last read is inside the input
        raise AssertionError(f"negative offset for {d}")
    return dataclasses.replace(base, descriptor=dataclasses.replace(d, offsets=_set(d.offsets, i, offset)))


def _slice1_3(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    i = ch.integer(0, d.dimension_count - 1)
    if ch.choice(("past the input", "empty window")) == "empty window":
        return dataclasses.replace(base, descriptor=dataclasses.replace(d, window_sizes=_set(d.window_sizes, i, 0)))
    offset = d.input_tensor.sizes[i] - d.window_sizes[i] + 1
    return dataclasses.replace(
        base, descriptor=dataclasses.replace(d, window_offsets=_set(d.window_offsets, i, offset))
    )


def _slice1_4(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    i = ch.integer(0, d.dimension_count - 1)
    limit = max_copied_elements(d.window_sizes[i], d.window_strides[i])
    return dataclasses.replace(
        base,
        descriptor=_replace_out(d, _set(d.output_tensor.sizes, i, limit + 1)),
        tags=("E-SLICE1-3",) if d.window_strides[i] < 0 else (),
    )


def _slice1_5(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    i = ch.integer(0, d.dimension_count - 1)
    stride = ch.choice((0, 2**31, -(2**31) - 1))  # zero, or outside INT (E-SLICE1-1: the field is signed)
    tags = ("E-SLICE1-1",) if stride else ()
    return dataclasses.replace(
        base, descriptor=dataclasses.replace(d, window_strides=_set(d.window_strides, i, stride)), tags=tags
    )


def _pad_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    i = ch.integer(0, d.dimension_count - 1)
    n = d.output_tensor.sizes[i]
    return dataclasses.replace(
        base, descriptor=_replace_out(d, _set(d.output_tensor.sizes, i, n + ch.choice((1, -1)) if n > 1 else n + 1))
    )


def _pad_3(ch: Chooser, base: CaseSpec) -> CaseSpec:
    return dataclasses.replace(
        base, descriptor=dataclasses.replace(base.descriptor, padding_mode=PaddingMode.SYMMETRIC)
    )


def _pad_5(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    name = ch.choice(("start_padding", "end_padding"))
    shorter = getattr(d, name)[:-1]
    return dataclasses.replace(base, descriptor=dataclasses.replace(d, **{name: shorter}))


def _split_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    t = d.output_tensors[-1]
    others = [i for i in range(d.dimension_count) if i != d.axis]
    if others and ch.choice(("size", "rank")) == "size":
        i = ch.choice(others)
        new = dataclasses.replace(t, sizes=_set(t.sizes, i, t.sizes[i] + 1))
    else:
        new = dataclasses.replace(t, sizes=(*t.sizes, 1))
    return dataclasses.replace(base, descriptor=dataclasses.replace(d, output_tensors=(*d.output_tensors[:-1], new)))


def _split_3(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    t = d.output_tensors[-1]
    n = t.sizes[d.axis]
    new = dataclasses.replace(t, sizes=_set(t.sizes, d.axis, n + ch.choice((1, -1)) if n > 1 else n + 1))
    return dataclasses.replace(base, descriptor=dataclasses.replace(d, output_tensors=(*d.output_tensors[:-1], new)))


def _split_5(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = base.descriptor
    how = ch.choice(("axis", "count 0", "count mismatch"))
    if how == "axis":
        return dataclasses.replace(base, descriptor=dataclasses.replace(d, axis=d.dimension_count))
    count = 0 if how == "count 0" else len(d.output_tensors) + 1
    return dataclasses.replace(base, descriptor=dataclasses.replace(d, output_count=count))


@dataclass(frozen=True)
class Family:
    """One validation rule: how to get a base config that can break it, and how to break it."""

    name: str
    clause: str
    mutate: Callable[[Chooser, CaseSpec], CaseSpec]
    # base config: keyword overrides for choose_config, or a function building the config
    config: Callable[[Chooser, str], Config] | None = None


def _any_config(ch: Chooser, operator: str) -> Config:
    return choose_config(ch, operator)


def _unsupported_type_config(ch: Chooser, operator: str) -> Config:
    """A level whose row lacks some type, and that type: invalid by the support table alone."""
    level = _old_level(ch, operator, lambda row: set(row.data_types) != set(ALL_DATA_TYPES))
    row = support_row(operator, level)
    dt = ch.choice([t for t in data_type_order(operator) if t not in row.data_types])
    return Config(
        operator, dt, ch.choice(row.ranks), level, ch.choice(_modes(level)) if operator == "PADDING" else None
    )


def _unsupported_rank_config(ch: Chooser, operator: str) -> Config:
    level = _old_level(ch, operator, lambda row: len(row.ranks) < MAX_RANK)
    row = support_row(operator, level)
    rank = ch.choice([r for r in range(1, MAX_RANK + 1) if r not in row.ranks])
    dt = ch.choice([t for t in data_type_order(operator) if t in row.data_types])
    return Config(operator, dt, rank, level, ch.choice(_modes(level)) if operator == "PADDING" else None)


def _before_introduction_config(ch: Chooser, operator: str) -> Config:
    level = ch.choice([fl for fl in FeatureLevel if fl < INTRODUCED[operator][0]])
    return Config(
        operator,
        ch.choice(data_type_order(operator)[:2]),
        ch.choice((4, 5)),
        level,
        ch.choice(_modes(level)) if operator == "PADDING" else None,
    )


def _symmetric_too_early_config(ch: Chooser, operator: str) -> Config:
    level = ch.choice([fl for fl in FeatureLevel if fl < SYMMETRIC_INTRODUCED[0]])
    cfg = choose_config(ch, operator, feature_level=level, padding_mode=PaddingMode.CONSTANT)
    return cfg


def _modes(level: FeatureLevel) -> list[PaddingMode]:
    return [m for m in PaddingMode if m is not PaddingMode.SYMMETRIC or level >= SYMMETRIC_INTRODUCED[0]]


def _families() -> dict[str, list[Family]]:
    out: dict[str, list[Family]] = {}
    for op in SUPPORT:
        fams = [
            Family("data type mismatch", "COMMON.1", _common_1),
            Family("zero size", "COMMON.2", _common_2),
            Family("data type unsupported at level", SUPPORT_CLAUSE[op], _unsupported_type, _unsupported_type_config),
            Family(
                "rank unsupported at level", DIMENSION_COUNT_CLAUSE[op], _unsupported_type, _unsupported_rank_config
            ),
        ]
        if any(fl < INTRODUCED[op][0] for fl in FeatureLevel):
            fams.append(
                Family(
                    "before the operator's introduction",
                    INTRODUCED[op][1],
                    _unsupported_type,
                    _before_introduction_config,
                )
            )
        if op != "SPLIT":
            fams.append(
                Family(
                    "dimension_count field mismatch",
                    DIMENSION_COUNT_CLAUSE[op] if op != "PADDING" else "PAD.5",
                    _dimension_count_field,
                )
            )
            fams.append(
                Family(
                    "UINT field overflow",
                    {"SLICE": "SLICE.2", "SLICE1": "SLICE1.3", "PADDING": "PAD.2"}[op],
                    _uint_overflow,
                )
            )
        out[op] = fams
    out["SLICE"] += [
        Family("sizes differ from output sizes", "SLICE.3", _slice_3),
        Family("out-of-bounds read", "SLICE.4", _slice_4),
    ]
    out["SLICE1"] += [
        Family("window past the input or empty", "SLICE1.3", _slice1_3),
        Family("output larger than MaxCopiedElements", "SLICE1.4", _slice1_4),
        Family("stride 0 or outside INT", "SLICE1.5", _slice1_5),
    ]
    out["PADDING"] += [
        Family("output size not input + padding", "PAD.2", _pad_2),
        Family("SYMMETRIC before FL 3.0", "PAD.3", _pad_3, _symmetric_too_early_config),
        Family("padding array length mismatch", "PAD.5", _pad_5),
    ]
    out["SPLIT"] += [
        Family("output sizes differ off Axis or rank", "SPLIT.2", _split_2),
        Family("output sizes do not sum to the input's", "SPLIT.3", _split_3),
        Family("Axis out of range or OutputCount wrong", "SPLIT.5", _split_5),
    ]
    return out


INVALID_FAMILIES: dict[str, list[Family]] = _families()


def build_invalid(ch: Chooser, operator: str, family: Family) -> CaseSpec:
    """A valid base case, broken by `family` so that validation reports exactly `family.clause`."""
    cfg = (family.config or _any_config)(ch, operator)
    # The base is built at the newest level so that it is valid; the config's level, which may be
    # older (support-table families), is where the case is judged.
    base_cfg = dataclasses.replace(cfg, feature_level=max(FeatureLevel))
    base = build_valid(_Quiet(ch), base_cfg)  # the base's corners are not this case's
    broken = family.mutate(ch, dataclasses.replace(base, feature_level=cfg.feature_level))
    tags = list(broken.tags)
    row_levels = {row.level for row in SUPPORT[operator]}
    if family.config in (_unsupported_type_config, _unsupported_rank_config) and cfg.feature_level not in row_levels:
        tags.append("U-ALL-1")  # a level between table rows: it inherits the row below
    ch.event(f"invalid: {family.clause} {family.name}")
    return dataclasses.replace(broken, clause=family.clause, family=family.name, tags=tuple(tags))

"""The reach set's value classes: every class of every parameter (conformance.cases.value_classes), in
every data type, by construction.

Random generation reaches a FLOAT16 PaddingValue of -0.0, a UINT16 SLICE1 with a negative stride, or
a JOIN along a middle axis in UINT32 by chance, and a new GENERATOR_VERSION moves the cases: a bug that
lives in one class of one type then slips through the quick profile.  The tables below (one per
operator, data) name each case's parameters; each row is made in every data type the operator takes,
at the oldest feature level that supports it, so each row x type is a case with a stable name
(`PADDING-reach-value-signalling-nan-FLOAT16`, `SLICE1-reach-negative-strides-UINT16`).  One row holds
several classes at once (one per axis), so the set stays small.  The rows do not list the classes they
hold: tests/cases/test_value_classes.py classifies the cases themselves and holds the grid full.

A row whose outcome the spec leaves open (an out-of-range PaddingValue, U-PAD-1; SLICE's stride 0,
U-SLICE-1; WRAP's padding, U-WRAP-1) is made all the same: its case carries the erratum and is observed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import numpy as np

import oracle
from oracle import DataType, PaddingMode, TensorDesc
from oracle.padding_value import float32_from_bits
from oracle.registry import min_feature_level
from oracle.tables import ALL_DATA_TYPES

from .. import values
from ..value_classes import float32_min_max, type_range
from . import layouts
from .common import CaseSpec

# --- PADDING and PADDING1: the value --------------------------------------------------------------

# Where a value row pads (CONSTANT): rank 2, small; the fold modes' rows below hold the geometry classes.
VALUE_SIZES, VALUE_START, VALUE_END = (2, 3), (0, 4), (1, 3)

# DML_PADDING's FLOAT PaddingValue: name -> the float32 for a data type (None: the class cannot occur there).
PaddingValueRule = Callable[[DataType], np.float32 | None]


def _above(dt: DataType) -> np.float32 | None:
    """Twice the max: past it in every type narrower than float32, truncated or not."""
    return None if dt in (DataType.FLOAT32, DataType.FLOAT64) else np.float32(float32_min_max(dt)[1] * 2)


def _below(dt: DataType) -> np.float32 | None:
    """Twice the min, or -1 for an unsigned type (min 0)."""
    lo = float32_min_max(dt)[0]
    return None if dt in (DataType.FLOAT32, DataType.FLOAT64) else np.float32(lo * 2 if lo < 0 else -1.0)


PADDING_VALUES: dict[str, PaddingValueRule] = {
    "zero": lambda dt: np.float32(0.0),
    "negative-zero": lambda dt: np.float32(-0.0),
    "negative-fraction": lambda dt: np.float32(-2.5),
    "quiet-nan": lambda dt: float32_from_bits(0x7FC00005),
    "signalling-nan": lambda dt: float32_from_bits(0x7F800005),
    "inf": lambda dt: np.float32(np.inf),
    "minus-inf": lambda dt: np.float32(-np.inf),
    "max": lambda dt: float32_min_max(dt)[1],
    "min": lambda dt: float32_min_max(dt)[0],
    "above-max": _above,
    "below-min": _below,
}

# NaN bits per float width: a quiet NaN with a payload, a signalling NaN with one (DML_PADDING1's value).
_NAN_BITS = {
    DataType.FLOAT16: (0x7E05, 0x7C05),
    DataType.FLOAT32: (0x7FC00005, 0x7F800005),
    DataType.FLOAT64: (0x7FF8000000000005, 0x7FF0000000000005),
}


def _typed(dt: DataType, value: float | int) -> np.generic:
    return dt.numpy.type(value)


def _typed_bits(dt: DataType, bits: int) -> np.generic:
    return cast(np.generic, np.array(bits, dtype=dt.bits).view(dt.numpy)[()])


def _float_only(make: Callable[[DataType], np.generic]) -> Callable[[DataType], np.generic | None]:
    return lambda dt: make(dt) if dt.is_float else None


# DML_PADDING1's typed PaddingValue: name -> the value in a data type (None: the class cannot occur there).
PADDING1_VALUES: dict[str, Callable[[DataType], np.generic | None]] = {
    "zero": lambda dt: _typed(dt, 0),
    "negative-zero": _float_only(lambda dt: _typed(dt, -0.0)),
    "negative-fraction": _float_only(lambda dt: _typed(dt, -2.5)),
    "quiet-nan": _float_only(lambda dt: _typed_bits(dt, _NAN_BITS[dt][0])),
    "signalling-nan": _float_only(lambda dt: _typed_bits(dt, _NAN_BITS[dt][1])),
    "inf": _float_only(lambda dt: _typed(dt, np.inf)),
    "minus-inf": _float_only(lambda dt: _typed(dt, -np.inf)),
    "max": lambda dt: _typed(dt, type_range(dt)[1]),
    # an unsigned type's min is its zero (the "zero" row)
    "min": lambda dt: _typed(dt, type_range(dt)[0]) if type_range(dt)[0] != 0 else None,
}

# --- PADDING and PADDING1: the geometry, per fold mode -------------------------------------------


@dataclass(frozen=True)
class PaddingRow:
    """Input sizes and paddings: each axis one (start, end) pair of classes (0, inside, = size, past)."""

    sizes: tuple[int, ...]
    start: tuple[int, ...]
    end: tuple[int, ...]


# Axes of 2 (REFLECTION needs 2 to fold, U-PAD-4): (0, = size), (inside, 0), (past, inside), (= size, past).
PADDING_GEOMETRY = PaddingRow(sizes=(2, 2, 2, 2), start=(0, 1, 5, 2), end=(2, 0, 1, 3))
FOLD_MODES = (PaddingMode.EDGE, PaddingMode.REFLECTION, PaddingMode.SYMMETRIC, PaddingMode.WRAP)

# --- SLICE, SLICE1, SPLIT, JOIN: one row a case, one class of each parameter per axis ---------------


@dataclass(frozen=True)
class SliceRow:
    sizes: tuple[int, ...]
    offsets: tuple[int, ...]
    windows: tuple[int, ...]  # SLICE: Sizes (the output); SLICE1: InputWindowSizes
    strides: tuple[int, ...]
    outputs: tuple[int, ...] | None = None  # SLICE1's output sizes (None: MaxCopiedElements)


SLICE_ROWS: dict[str, SliceRow] = {
    # offset 0 / full axis / stride 1; interior / partial / stride 2; last / size 1 / stride past the axis
    "mixed": SliceRow(sizes=(3, 4, 5), offsets=(0, 1, 4), windows=(3, 2, 1), strides=(1, 2, 6)),
    # last / size 1 / stride 1; 0 / partial / stride 2; interior / partial / stride 1
    "mixed-other-axes": SliceRow(sizes=(4, 5, 3), offsets=(3, 0, 1), windows=(1, 3, 2), strides=(1, 2, 1)),
    # U-SLICE-1: stride 0 repeats one element (observed)
    "stride-0": SliceRow(sizes=(3, 4), offsets=(1, 0), windows=(3, 4), strides=(0, 1)),
}

SLICE1_ROWS: dict[str, SliceRow] = {
    # full window, stride 1, all it gives; interior, stride -2, fewer; last element, window 1, stride -1
    "negative-strides": SliceRow(
        sizes=(3, 6, 5), offsets=(0, 1, 4), windows=(3, 4, 1), strides=(1, -2, -1), outputs=(3, 1, 1)
    ),
    # interior, stride 2, all; full axis, stride -1, all; offset 0, stride past the window
    "full-axis-reversed": SliceRow(
        sizes=(4, 5, 3), offsets=(1, 0, 0), windows=(3, 5, 3), strides=(2, -1, 7), outputs=(2, 5, 1)
    ),
    # interior, stride 1, fewer than the window gives; last element, window 1, stride 3
    "fewer-outputs": SliceRow(sizes=(5, 4), offsets=(2, 3), windows=(3, 1), strides=(1, 3), outputs=(2, 1)),
    # full axis, stride -3 (< -1), fewer than it gives; interior, stride 2 (> 1), all it gives
    "reversed-fewer": SliceRow(sizes=(7, 6), offsets=(0, 1), windows=(7, 5), strides=(-3, 2), outputs=(2, 3)),
}


@dataclass(frozen=True)
class PiecesRow:
    """A tensor cut along `axis` into `pieces` (SPLIT's outputs, JOIN's inputs)."""

    sizes: tuple[int, ...]  # the whole tensor's sizes but along `axis`, where the pieces' sum goes
    axis: int
    pieces: tuple[int, ...]


PIECES_ROWS: dict[str, PiecesRow] = {
    "axis0-one": PiecesRow(sizes=(0, 2, 3), axis=0, pieces=(3,)),
    "middle-two-uneven": PiecesRow(sizes=(2, 0, 3), axis=1, pieces=(1, 4)),
    "last-many-equal": PiecesRow(sizes=(3, 2, 0), axis=2, pieces=(2, 2, 2)),
    "middle-many-uneven": PiecesRow(sizes=(2, 0, 2, 2), axis=1, pieces=(3, 1, 2, 1)),
    "axis0-two-equal": PiecesRow(sizes=(0, 3), axis=0, pieces=(2, 2)),
}

# --- TILE: sizes and repeats -------------------------------------------------------------------------

TILE_ROWS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {  # name -> (input sizes, repeats)
    # repeats 1 / many / 2, the middle axis of size 1 tiled (a broadcast)
    "mixed": ((2, 1, 3), (1, 4, 2)),
    # every repeat 1: a copy
    "copy": ((3, 2), (1, 1)),
}

# --- DEPTH_TO_SPACE(1), SPACE_TO_DEPTH(1): the blocks -----------------------------------------------------------------


@dataclass(frozen=True)
class BlockRow:
    """The space side's sizes {N, C, H * b, W * b} given as {N, C, H, W} and BlockSize b."""

    small: tuple[int, int, int, int]
    block_size: int


BLOCK_ROWS: dict[str, BlockRow] = {
    "block2-batch-channels": BlockRow(small=(2, 3, 2, 3), block_size=2),  # several of each
    "block3-single": BlockRow(small=(1, 1, 2, 2), block_size=3),  # BlockSize 3, one batch, one channel
    "block1-copy": BlockRow(small=(1, 2, 3, 2), block_size=1),  # BlockSize 1: a copy
}


# --- REVERSE_SUBSEQUENCES: the axis and the lengths' values --------------------------------------------


@dataclass(frozen=True)
class ReverseRow:
    """Input sizes, Axis, the lengths' type and values (row-major over the lengths' sizes: the input's, 1 on Axis)."""

    sizes: tuple[int, ...]
    axis: int
    lengths_type: DataType
    lengths: tuple[int, ...]


U32_MAX, U64_MAX = 2**32 - 1, 2**64 - 1
REVERSE_ROWS: dict[str, ReverseRow] = {
    # the middle axis (size 5): 0 and 1 (no change, REVSEQ.4), inside, the whole axis, past it and UINT32's end
    # (clamped, REVSEQ.3)
    "lengths-mixed": ReverseRow((2, 5, 3), 1, DataType.UINT32, (0, 1, 3, 5, 9, U32_MAX)),
    # axis 0 with UINT64 lengths (FL 5.0): inside, past 2^32 (a 32-bit read wraps to 1), 2^63 and UINT64's end
    "lengths-uint64": ReverseRow((3, 4), 0, DataType.UINT64, (2, 2**32 + 1, 2**63, U64_MAX)),
    # the last axis, every line reversed whole and one in part
    "axis-last": ReverseRow((2, 6), 1, DataType.UINT32, (6, 4)),
}


# --- GATHER_ND(1): the counts, the tuples and the indices' values --------------------------------------------


@dataclass(frozen=True)
class GatherNdRow:
    """Input and indices sizes, InputDimensionCount, IndicesDimensionCount, BatchDimensionCount (GATHER_ND1 only:
    a row with batches is GATHER_ND1's alone), the indices' type and values (row-major), and the entries it
    reaches (U-GND-1: an out-of-range tuple, observed)."""

    x_sizes: tuple[int, ...]
    ind_sizes: tuple[int, ...]
    input_count: int
    indices_count: int
    batches: int
    ind_type: DataType
    indices: tuple[int, ...]
    tags: tuple[str, ...] = ()


GND_ROWS: dict[str, GatherNdRow] = {
    # rows of a 3x4 picked by UINT32 tuples of 1 (FL 2.1's one type and rank), past two ignored ones
    "rows-uint32": GatherNdRow((1, 1, 3, 4), (1, 1, 2, 1), 2, 2, 0, DataType.UINT32, (2, 0)),
    # single elements of a 2x3x4 by INT32 tuples of 3, negatives counting from the end (GND.6)
    "elements-int32-negative": GatherNdRow(
        (2, 3, 4), (1, 4, 3), 3, 2, 0, DataType.INT32, (0, 0, 0, -1, -1, -1, 1, -3, 2, -2, 0, -4)
    ),
    # 2x2 blocks by INT64 tuples of 1, the last block by -1
    "blocks-int64": GatherNdRow((3, 2, 2), (1, 2, 1), 3, 2, 0, DataType.INT64, (-1, 0)),
    # elements of a 4x5 by UINT64 tuples of 2
    "elements-uint64": GatherNdRow((4, 5), (3, 2), 2, 2, 0, DataType.UINT64, (3, 4, 0, 0, 2, 1)),
    # one tuple in range, one past axis 0 and one past axis 1: their elements open (U-GND-1)
    "out-of-range": GatherNdRow((1, 1, 3, 4), (1, 1, 3, 2), 2, 2, 0, DataType.UINT32, (0, 0, 3, 0, 2, 9), ("U-GND-1",)),
    # GATHER_ND1: GATHER_ND1's example 2 with INT32 and negatives; then blocks of 4 per batch by UINT64 tuples
    "batches-int32": GatherNdRow(
        (1, 3, 2, 2), (1, 3, 2, 2), 3, 3, 1, DataType.INT32, (0, 0, -1, -1, 1, 1, 0, 0, 0, -1, -1, 0)
    ),
    "batches-blocks-uint64": GatherNdRow((2, 3, 4), (2, 2, 1), 3, 3, 1, DataType.UINT64, (2, 0, 1, 1)),
}


def _gather_nd_cases(operator: str, dt: DataType) -> list[Built]:
    """Each GND_ROWS row (GATHER_ND: those without batches) at the oldest level taking its data type, rank and
    indices' type (GND.9)."""
    module = oracle.REGISTRY[operator]
    tables = module.INDICES_TABLES  # type: ignore[attr-defined]
    out = []
    for name, row in GND_ROWS.items():
        nd1 = operator == "GATHER_ND1"
        if row.batches and not nd1:
            continue
        rank = len(row.x_sizes)
        levels = [min_feature_level(operator, dt, rank), tables.min_level(row.ind_type, rank)]
        if None in levels:
            continue
        level = max(lv for lv in levels if lv is not None)
        desc = oracle.gather_nd_desc(
            TensorDesc(dt, row.x_sizes),
            TensorDesc(row.ind_type, row.ind_sizes),
            row.input_count,
            row.indices_count,
            row.batches if nd1 else None,
        )
        xs = (_ordinal(dt, row.x_sizes), np.asarray(row.indices, dtype=row.ind_type.numpy).reshape(row.ind_sizes))
        out.append((f"{operator}-reach-{name}-{dt.value}", CaseSpec(operator, level, desc, xs, tags=row.tags)))
    return out


# --- GATHER: the axis, IndexDimensions, the indices' type and values -----------------------------------------


@dataclass(frozen=True)
class GatherRow:
    """Input sizes, Axis, IndexDimensions, the indices' sizes, type and values (row-major)."""

    sizes: tuple[int, ...]
    axis: int
    index_dimensions: int
    indices_sizes: tuple[int, ...]
    indices_type: DataType
    indices: tuple[int, ...]


I64_MIN, I64_MAX = -(2**63), 2**63 - 1
GATHER_ROWS: dict[str, GatherRow] = {
    # the last axis, in range, UINT32 (every level's type)
    "axis-last": GatherRow((2, 5), 1, 1, (1, 3), DataType.UINT32, (4, 0, 2)),
    # axis 0, negative INT32 indices from the end (GATHER.3) and in range
    "negative": GatherRow((5, 3), 0, 1, (1, 4), DataType.INT32, (-1, -5, 2, 0)),
    # IndexDimensions 2 in INT64 (a leading one cropped: E-GATHER-2's reading), one negative
    "index-dimensions-2": GatherRow((1, 4, 3), 1, 2, (1, 2, 2), DataType.INT64, (3, 0, -1, 1)),
    # IndexDimensions 0 in UINT64: one scalar index, a leading one added
    "scalar-index": GatherRow((3, 4), 0, 0, (1, 1), DataType.UINT64, (2,)),
    # out of range (U-GATHER-1: open, each element one of the input buffer's values): past the axis, UINT32's end
    "out-of-range": GatherRow((2, 5), 1, 1, (1, 3), DataType.UINT32, (1, 5, U32_MAX)),
    # out of range in INT64: below -n, past the axis, both ends of the type
    "out-of-range-int64": GatherRow((4, 2), 0, 1, (1, 5), DataType.INT64, (-5, 4, I64_MAX, I64_MIN, 1)),
}


# --- GATHER_ELEMENTS: the axis, the indices' sizes along it, type and values -------------------------------------


@dataclass(frozen=True)
class GatherElementsRow:
    """Input sizes, Axis, the indices' sizes (the input's off Axis), type and values (row-major)."""

    sizes: tuple[int, ...]
    axis: int
    indices_sizes: tuple[int, ...]
    indices_type: DataType
    indices: tuple[int, ...]


GATHER_ELEMENTS_ROWS: dict[str, GatherElementsRow] = {
    # the page's example: axis 0, fewer indices along it than the input's size, UINT32
    "axis-first": GatherElementsRow((3, 3), 0, (2, 3), DataType.UINT32, (1, 2, 0, 2, 0, 0)),
    # the last axis in INT32, negative indices from the end (GELEM.3)
    "negative": GatherElementsRow((2, 4), 1, (2, 3), DataType.INT32, (-1, 0, -4, 3, -2, 1)),
    # the middle axis in INT64, more indices along it than the input's size
    "axis-middle": GatherElementsRow(
        (3, 2, 2), 1, (3, 3, 2), DataType.INT64, (1, 0, 0, 1, -1, -2, 0, 0, 1, 1, -2, 0, 1, 1, 0, 0, -1, 1)
    ),
    # UINT64 indices along the last axis
    "uint64": GatherElementsRow((2, 3), 1, (2, 3), DataType.UINT64, (2, 1, 0, 0, 1, 2)),
    # out of range (U-GELEM-1: open, observed): past the axis, UINT32's end
    "out-of-range": GatherElementsRow((2, 3), 1, (2, 2), DataType.UINT32, (3, U32_MAX, 0, 5)),
    # out of range in INT64: below -n, INT64's maximum, the axis' size
    "out-of-range-int64": GatherElementsRow((4,), 0, (3,), DataType.INT64, (-5, I64_MAX, 4)),
}


# --- SCATTER: the axis and the indices' values ------------------------------------------------------


@dataclass(frozen=True)
class ScatterRow:
    """Input sizes, Axis, the indices' sizes, type and values (row-major; the updates are ordinals after the input's)."""

    sizes: tuple[int, ...]
    axis: int
    indices_sizes: tuple[int, ...]
    indices_type: DataType
    indices: tuple[int, ...]


SCATTER_ROWS: dict[str, ScatterRow] = {
    # the middle axis, distinct targets per line (every element judged)
    "distinct-middle": ScatterRow((2, 5, 3), 1, (2, 2, 3), DataType.UINT32, (4, 0, 2, 1, 3, 0, 0, 1, 4, 2, 4, 3)),
    # axis 0, INT32 indices counted from the end (SCATTER.3): columns [3, 0], [0, 3], [1, 2]
    "negative-first": ScatterRow((4, 3), 0, (2, 3), DataType.INT32, (-1, -4, 1, 0, 3, -2)),
    # the last axis, INT64, negative and not: rows [3, 0], [0, 2], [3, 1]
    "int64-last": ScatterRow((3, 4), 1, (3, 2), DataType.INT64, (3, -4, 0, 2, -1, 1)),
    # UINT64 past 2^32 (a 32-bit read would take it for 1): outside the axis, the output open (U-SCATTER-2)
    "uint64-outside": ScatterRow((2, 4), 1, (2, 2), DataType.UINT64, (1, 2**32 + 1, 0, 3)),
    # the page's example 1 shape: index 3 twice (U-SCATTER-1: that element open)
    "repeats": ScatterRow((5,), 0, (4,), DataType.UINT32, (3, 1, 3, 0)),
}


# --- SCATTER_ND: what a tuple addresses and the tuples' values ------------------------------------------


@dataclass(frozen=True)
class ScatterNdRow:
    """Input sizes, InputDimensionCount, the indices' sizes, IndicesDimensionCount, type and values (row-major)."""

    sizes: tuple[int, ...]
    input_dimension_count: int
    indices_sizes: tuple[int, ...]
    indices_dimension_count: int
    indices_type: DataType
    indices: tuple[int, ...]


SCATTER_ND_ROWS: dict[str, ScatterNdRow] = {
    # whole tuples (one element each), distinct
    "elements": ScatterNdRow((3, 4), 2, (3, 2), 2, DataType.UINT32, (0, 1, 2, 3, 1, 0)),
    # one-coordinate tuples addressing 2x2 slices, INT32 from the end (SCATND.3): rows 2 and 0
    "slices-negative": ScatterNdRow((3, 2, 2), 3, (1, 2, 1), 2, DataType.INT32, (-1, 0)),
    # two ignored leading dimensions, INT64: rows 3, 0 and 1 of a 4x2
    "leading-int64": ScatterNdRow((1, 1, 4, 2), 2, (1, 1, 3, 1), 2, DataType.INT64, (3, -4, 1)),
    # UINT64 past 2^32 (a 32-bit read would take it for 1): outside, the output open (U-SCATND-2)
    "uint64-outside": ScatterNdRow((2, 3), 2, (2, 2), 2, DataType.UINT64, (1, 2**32 + 1, 0, 0)),
    # element 2 written twice (U-SCATND-1: that element open)
    "repeats": ScatterNdRow((1, 4), 1, (3, 1), 2, DataType.UINT32, (2, 0, 2)),
}


# --- building ---------------------------------------------------------------------------------------

Built = tuple[str, CaseSpec]  # (the case's name, its spec)


def _ordinal(dt: DataType, sizes: tuple[int, ...]) -> np.ndarray:
    """1, 2, 3, ...: every element distinct, so a misplaced one shows."""
    return values.fill_input(dt, sizes, "ordinal", 0)


def _spec(operator: str, desc: oracle.Descriptor, rank: int, mode: PaddingMode | None = None) -> CaseSpec | None:
    dt = desc.input_tensors[0].data_type
    level = min_feature_level(operator, dt, rank, mode)
    if level is None:
        return None  # the tables never allow it: nothing to reach
    xs = tuple(_ordinal(dt, t.sizes) for t in desc.input_tensors)
    return CaseSpec(operator, level, desc, xs)


def _padding_cases(operator: str, dt: DataType) -> list[Built]:
    make: Callable[..., oracle.Descriptor] = oracle.padding_desc if operator == "PADDING" else oracle.padding1_desc
    rules = PADDING_VALUES if operator == "PADDING" else PADDING1_VALUES
    out: list[tuple[str, CaseSpec | None]] = []
    for name, rule in rules.items():
        value = rule(dt)
        if value is None:
            continue
        desc = make(TensorDesc(dt, VALUE_SIZES), PaddingMode.CONSTANT, VALUE_START, VALUE_END, value)
        out.append((f"{operator}-reach-value-{name}-{dt.value}", _spec(operator, desc, len(VALUE_SIZES))))
    row = PADDING_GEOMETRY
    for mode in FOLD_MODES:
        desc = make(TensorDesc(dt, row.sizes), mode, row.start, row.end)
        out.append((f"{operator}-reach-{mode.value}-paddings-{dt.value}", _spec(operator, desc, len(row.sizes), mode)))
    return [(n, s) for n, s in out if s is not None]


def _slice_cases(operator: str, dt: DataType) -> list[Built]:
    out: list[tuple[str, CaseSpec | None]] = []
    for name, row in (SLICE_ROWS if operator == "SLICE" else SLICE1_ROWS).items():
        tensor = TensorDesc(dt, row.sizes)
        if operator == "SLICE":
            desc: oracle.Descriptor = oracle.slice_desc(tensor, row.offsets, row.windows, row.strides)
        else:
            desc = oracle.slice1_desc(tensor, row.offsets, row.windows, row.strides, row.outputs)
        out.append((f"{operator}-reach-{name}-{dt.value}", _spec(operator, desc, len(row.sizes))))
    return [(n, s) for n, s in out if s is not None]


def _pieces_cases(operator: str, dt: DataType) -> list[Built]:
    out: list[tuple[str, CaseSpec | None]] = []
    for name, row in PIECES_ROWS.items():
        whole = tuple(sum(row.pieces) if d == row.axis else n for d, n in enumerate(row.sizes))
        if operator == "SPLIT":
            desc: oracle.Descriptor = oracle.split_desc(TensorDesc(dt, whole), row.axis, row.pieces)
        else:
            parts = [TensorDesc(dt, tuple(p if d == row.axis else n for d, n in enumerate(whole))) for p in row.pieces]
            desc = oracle.join_desc(parts, row.axis)
        out.append((f"{operator}-reach-{name}-{dt.value}", _spec(operator, desc, len(whole))))
    return [(n, s) for n, s in out if s is not None]


# DML_ELEMENT_WISE_IDENTITY: name -> (input sizes, input strides, output strides, ScaleBias or None).  The
# strided rows are what ONNX Runtime's DirectML provider makes of Transpose and Expand.
IDENTITY_ROWS: dict[str, tuple[tuple[int, ...], tuple[int, ...] | None, tuple[int, ...] | None, tuple | None]] = {
    "copy": ((2, 3, 4), None, None, None),
    "transposed": ((2, 3, 4), (1, 2, 6), None, None),
    "broadcast": ((3, 4), (0, 1), None, None),
    "padded-output": ((2, 3), None, (5, 1), None),
    "scale-bias": ((2, 3), None, None, (2.0, 0.5)),
}


def _identity_cases(operator: str, dt: DataType) -> list[Built]:
    out: list[tuple[str, CaseSpec | None]] = []
    for name, (sizes, in_strides, out_strides, sb) in IDENTITY_ROWS.items():
        desc = oracle.IdentityDesc(
            TensorDesc(dt, sizes, in_strides),
            TensorDesc(dt, sizes, out_strides),
            None if sb is None else oracle.ScaleBias(*sb),
        )
        spec = _spec(operator, desc, len(sizes))
        if spec is not None:  # a broadcast input holds one value per address: what its buffer holds
            spec = dataclasses.replace(spec, inputs=(layouts.conform(spec.inputs[0], desc.input_tensor),))
        out.append((f"{operator}-reach-{name}-{dt.value}", spec))
    return [(n, s) for n, s in out if s is not None]


def _tile_cases(operator: str, dt: DataType) -> list[Built]:
    out: list[tuple[str, CaseSpec | None]] = []
    for name, (sizes, repeats) in TILE_ROWS.items():
        desc = oracle.tile_desc(TensorDesc(dt, sizes), repeats)
        out.append((f"{operator}-reach-{name}-{dt.value}", _spec(operator, desc, len(sizes))))
    return [(n, s) for n, s in out if s is not None]


def _block_cases(operator: str, dt: DataType) -> list[Built]:
    """Each BLOCK_ROWS row, in every order the struct takes (the plain operators' is DEPTH_COLUMN_ROW); the
    space side is SPACE_TO_DEPTH(1)'s input, DEPTH_TO_SPACE(1)'s output."""
    desc_type = oracle.DESCRIPTOR_TYPES[operator]
    reads_space = operator.startswith("SPACE_TO_DEPTH")
    has_order: bool = getattr(desc_type, "HAS_ORDER", False)
    orders = list(oracle.DepthSpaceOrder) if has_order else [oracle.DepthSpaceOrder.DEPTH_COLUMN_ROW]
    out: list[tuple[str, CaseSpec | None]] = []
    for name, row in BLOCK_ROWS.items():
        n, c, h, w = row.small
        b = row.block_size
        depth, space = TensorDesc(dt, (n, c * b * b, h, w)), TensorDesc(dt, (n, c, h * b, w * b))
        for order in orders:
            extra = (order,) if has_order else ()
            desc = desc_type(*((space, depth) if reads_space else (depth, space)), b, *extra)
            suffix = f"-{order.value.lower().replace('_', '-')}" if has_order else ""
            out.append((f"{operator}-reach-{name}{suffix}-{dt.value}", _spec(operator, desc, 4)))
    return [(n, s) for n, s in out if s is not None]


def _reverse_cases(operator: str, dt: DataType) -> list[Built]:
    """Each REVERSE_ROWS row at the oldest level that takes its data type, rank and lengths' type (REVSEQ.8)."""
    out = []
    for name, row in REVERSE_ROWS.items():
        desc = oracle.reverse_subsequences_desc(TensorDesc(dt, row.sizes), row.axis, row.lengths_type)
        level = min_feature_level(operator, dt, len(row.sizes))
        if level is None:
            continue
        if row.lengths_type is DataType.UINT64:
            level = max(level, oracle.FeatureLevel.FL_5_0)
        lengths = np.asarray(row.lengths, dtype=np.uint64).astype(row.lengths_type.numpy)
        xs = (_ordinal(dt, row.sizes), lengths.reshape(desc.sequence_lengths_tensor.sizes))
        out.append((f"{operator}-reach-{name}-{dt.value}", CaseSpec(operator, level, desc, xs)))
    return out


def _scatter_cases(operator: str, dt: DataType) -> list[Built]:
    """Each SCATTER_ROWS row at the oldest level that takes its data type, rank and indices' type (SCATTER.9)."""
    out = []
    for name, row in SCATTER_ROWS.items():
        desc = oracle.scatter_desc(TensorDesc(dt, row.sizes), row.indices_sizes, row.axis, row.indices_type)
        level = min_feature_level(operator, dt, len(row.sizes))
        if level is None:
            continue
        if row.indices_type is not DataType.UINT32:
            level = max(level, oracle.FeatureLevel.FL_3_0)
        indices = np.asarray(row.indices, dtype=object).astype(row.indices_type.numpy).reshape(row.indices_sizes)
        # the updates continue the input's ordinals: every write changes its element, so a misplaced one shows
        n, m = int(np.prod(row.sizes)), int(np.prod(row.indices_sizes))
        both = _ordinal(dt, (n + m,))
        xs = (both[:n].reshape(row.sizes), indices, both[n:].reshape(row.indices_sizes))
        out.append((f"{operator}-reach-{name}-{dt.value}", CaseSpec(operator, level, desc, xs)))
    return out


def _scatter_nd_cases(operator: str, dt: DataType) -> list[Built]:
    """Each SCATTER_ND_ROWS row at the oldest level that takes its data type, rank and indices' type (SCATND.10);
    the updates continue the input's ordinals, so every write shows."""
    out = []
    for name, row in SCATTER_ND_ROWS.items():
        desc = oracle.scatter_nd_desc(
            TensorDesc(dt, row.sizes),
            row.indices_sizes,
            row.input_dimension_count,
            row.indices_dimension_count,
            row.indices_type,
        )
        level = min_feature_level(operator, dt, len(row.sizes))
        if level is None:
            continue
        if row.indices_type is not DataType.UINT32:
            level = max(level, oracle.FeatureLevel.FL_3_0)
        indices = np.asarray(row.indices, dtype=object).astype(row.indices_type.numpy).reshape(row.indices_sizes)
        n, m = int(np.prod(row.sizes)), int(np.prod(desc.updates_tensor.sizes))
        both = _ordinal(dt, (n + m,))
        xs = (both[:n].reshape(row.sizes), indices, both[n:].reshape(desc.updates_tensor.sizes))
        out.append((f"{operator}-reach-{name}-{dt.value}", CaseSpec(operator, level, desc, xs)))
    return out


def _slice_grad_cases(operator: str, dt: DataType) -> list[Built]:
    """SLICE1's rows read backwards: the row's sizes are OutputGradient's, its outputs InputGradient's."""
    out: list[tuple[str, CaseSpec | None]] = []
    for name, row in SLICE1_ROWS.items():
        forward = oracle.slice1_desc(TensorDesc(dt, row.sizes), row.offsets, row.windows, row.strides, row.outputs)
        desc = oracle.SliceGradDesc(forward.output_tensor, forward.input_tensor, row.offsets, row.windows, row.strides)
        out.append((f"{operator}-reach-{name}-{dt.value}", _spec(operator, desc, len(row.sizes))))
    return [(n, s) for n, s in out if s is not None]


# DML_CAST: each input type into every output type (CAST.3), rank 4 (every level's rank); the inputs are the type's
# special patterns (NaN payloads, -0.0, the extremes...) and ordinals, so the exact and the open (U-CAST-1) meet.
CAST_SIZES = (1, 1, 2, 4)


def _cast_cases(operator: str, dt: DataType) -> list[Built]:
    out: list[Built] = []
    for to in ALL_DATA_TYPES:
        desc = oracle.CastDesc(TensorDesc(dt, CAST_SIZES), TensorDesc(to, CAST_SIZES))
        levels = [min_feature_level(operator, t, len(CAST_SIZES)) for t in (dt, to)]
        if None in levels:
            continue
        level = max(lv for lv in levels if lv is not None)
        x = values.fill_input(dt, CAST_SIZES, "sprinkle", 0)
        out.append((f"{operator}-reach-to-{to.value}-{dt.value}", CaseSpec(operator, level, desc, (x,))))
    return out


# Issue 32, no input tensor.  FILL_VALUE_CONSTANT: PADDING1's values, rank 4 (every level's rank).
FILL_SIZES = (1, 1, 2, 3)


def _fill_constant_cases(operator: str, dt: DataType) -> list[Built]:
    out: list[Built] = []
    level = min_feature_level(operator, dt, len(FILL_SIZES))
    if level is None:
        return out
    for name, rule in PADDING1_VALUES.items():
        value = rule(dt)
        if value is not None:
            desc = oracle.FillValueConstantDesc(TensorDesc(dt, FILL_SIZES), dt, value)
            out.append((f"{operator}-reach-value-{name}-{dt.value}", CaseSpec(operator, level, desc, ())))
    return out


# FILL_VALUE_SEQUENCE: name -> (start, step) in a type (None: not in that type), 1-D of 6 (ONNX Range's form);
# a negative step in an unsigned type is its two's-complement bits (E-FILLS-1).
SEQUENCE_LENGTH = 6
SEQUENCE_ROWS: dict[str, Callable[[DataType], tuple[float | int, float | int] | None]] = {
    "up": lambda dt: (1, 2),
    "down": lambda dt: (100, -3),
    "max-step-zero": lambda dt: (type_range(dt)[1], 0),
    "from-min": lambda dt: (type_range(dt)[0], 1),
    "wraps": lambda dt: None if dt.is_float else (type_range(dt)[1] - 2, 1),
    "rounds": lambda dt: (0.1, 0.1) if dt.is_float else None,
}


def _in_type(dt: DataType, value: float | int) -> np.generic:
    if dt.is_float:
        return _typed(dt, value)
    return _typed_bits(dt, int(value) % (1 << (8 * dt.numpy.itemsize)))


def _fill_sequence_cases(operator: str, dt: DataType) -> list[Built]:
    out: list[Built] = []
    level = min_feature_level(operator, dt, 1)
    if level is None:
        return out
    for name, rule in SEQUENCE_ROWS.items():
        row = rule(dt)
        if row is not None:
            start, step = (_in_type(dt, v) for v in row)
            desc = oracle.FillValueSequenceDesc(TensorDesc(dt, (SEQUENCE_LENGTH,)), dt, start, step)
            out.append((f"{operator}-reach-{name}-{dt.value}", CaseSpec(operator, level, desc, ())))
    return out


# DIAGONAL_MATRIX: name -> (sizes, Offset, Value); each row holds several classes at once.
DIAGONAL_ROWS: dict[str, tuple[tuple[int, ...], int, float]] = {
    "identity": ((1, 1, 3, 3), 0, 1.0),
    "batch-right-fraction": ((2, 3, 4), 1, 2.5),
    "left": ((3, 2), -1, 7.0),
    "past-the-matrix": ((2, 2), 5, 1.0),
    "value-past-range": ((2, 3), 0, 1e10),
    "value-past-64-bits": ((2, 2), -1, 1e20),  # past INT64 and UINT64 too
    "nan": ((2, 2), 0, float("nan")),
}


def _diagonal_cases(operator: str, dt: DataType) -> list[Built]:
    out: list[Built] = []
    for name, (sizes, offset, value) in DIAGONAL_ROWS.items():
        level = min_feature_level(operator, dt, len(sizes))
        if level is not None:
            desc = oracle.DiagonalMatrixDesc(TensorDesc(dt, sizes), offset, value)
            out.append((f"{operator}-reach-{name}-{dt.value}", CaseSpec(operator, level, desc, ())))
    return out


# DIAGONAL_MATRIX1: name -> (sizes, with an input, begin, end, Value rule); the input is ordinal (1, 2, ...).
DIAGONAL1_ROWS: dict[str, tuple[tuple[int, ...], bool, int, int, str]] = {
    "identity": ((4, 5), False, 0, 1, "max"),
    "strip-batch": ((2, 3, 4), False, 0, 3, "zero"),
    "upper-triangle": ((4, 5), True, -(2**31), 1, "zero"),
    "diagonal-only-inverted": ((1, 2, 4, 5), True, 1, 0, "nan"),
    "empty-band": ((3, 3), True, 2, 2, "max"),
}


def _diagonal1_value(dt: DataType, rule: str) -> np.generic:
    if rule == "zero":
        return _typed(dt, 0)
    if rule == "nan" and dt.is_float:
        return _typed_bits(dt, _NAN_BITS[dt][0])
    return _typed(dt, type_range(dt)[1])


def _diagonal1_cases(operator: str, dt: DataType) -> list[Built]:
    out: list[Built] = []
    for name, (sizes, with_input, begin, end, rule) in DIAGONAL1_ROWS.items():
        level = min_feature_level(operator, dt, len(sizes))
        if level is None:
            continue
        tensor = TensorDesc(dt, sizes)
        desc = oracle.DiagonalMatrix1Desc(
            tensor if with_input else None, tensor, dt, _diagonal1_value(dt, rule), begin, end
        )
        xs = (values.fill_input(dt, sizes, "ordinal", 0),) if with_input else ()
        out.append((f"{operator}-reach-{name}-{dt.value}", CaseSpec(operator, level, desc, xs)))
    return out


# DML_ONE_HOT: every indices type (ONEHOT.10) in every values type, each row's indices inside the axis, at its
# end, at or past it (ignored: ONEHOT.2, E-ONEHOT-1), negative (ONEHOT.3) and one below -size (open, U-ONEHOT-1);
# UINT64 past 2^32 and 2^63 (a public report: large UINT64 indices wrong before DirectML 1.9.1).
@dataclass(frozen=True)
class OneHotRow:
    """Output sizes, Axis, the indices' type and values (row-major over the output's sizes with 1 on Axis)."""

    sizes: tuple[int, ...]
    axis: int
    indices_type: DataType
    indices: tuple[int, ...]


ONE_HOT_ROWS: dict[str, OneHotRow] = {
    "indices-uint32": OneHotRow((1, 5, 3, 1), 1, DataType.UINT32, (0, 4, 5)),  # a middle axis: 4-D, FL 2.0
    "indices-uint64": OneHotRow((4, 4), 1, DataType.UINT64, (2**32 + 1, 2**63, U64_MAX, 1)),
    "indices-int32": OneHotRow((3, 4), 1, DataType.INT32, (-1, -4, -5)),
    "indices-int64": OneHotRow((3, 4), 0, DataType.INT64, (0, -1, 2**40, -3)),
}


def _one_hot_cases(operator: str, dt: DataType) -> list[Built]:
    """Each ONE_HOT_ROWS row at the oldest level that takes its values type, rank and indices type (ONEHOT.10);
    the values [OffValue, OnValue] are the type's first two ordinals."""
    out = []
    for name, row in ONE_HOT_ROWS.items():
        indices = TensorDesc(row.indices_type, tuple(1 if d == row.axis else n for d, n in enumerate(row.sizes)))
        desc = oracle.one_hot_desc(indices, row.sizes[row.axis], row.axis, dt)
        level = min_feature_level(operator, dt, len(row.sizes))
        if level is None:
            continue
        if row.indices_type is not DataType.UINT32:
            level = max(level, oracle.FeatureLevel.FL_3_0)
        xs = (
            np.asarray(row.indices, dtype=object).astype(row.indices_type.numpy).reshape(indices.sizes),
            _ordinal(dt, desc.values_tensor.sizes),
        )
        out.append((f"{operator}-reach-{name}-{dt.value}", CaseSpec(operator, level, desc, xs)))
    return out


def _gather_cases(operator: str, dt: DataType) -> list[Built]:
    """Each GATHER_ROWS row at the oldest level that takes its data type, rank and indices' type (GATHER.9)."""
    out = []
    for name, row in GATHER_ROWS.items():
        desc = oracle.gather_desc(
            TensorDesc(dt, row.sizes), row.indices_sizes, row.axis, row.index_dimensions, row.indices_type
        )
        level = min_feature_level(operator, dt, len(row.sizes))
        if level is None:
            continue
        if row.indices_type is not DataType.UINT32:
            level = max(level, oracle.FeatureLevel.FL_3_0)
        idx = np.asarray(row.indices, dtype=object).astype(row.indices_type.numpy).reshape(row.indices_sizes)
        xs = (_ordinal(dt, row.sizes), idx)
        out.append((f"{operator}-reach-{name}-{dt.value}", CaseSpec(operator, level, desc, xs)))
    return out


def _gather_elements_cases(operator: str, dt: DataType) -> list[Built]:
    """Each GATHER_ELEMENTS_ROWS row at the oldest level that takes its data type, rank and indices' type."""
    out = []
    for name, row in GATHER_ELEMENTS_ROWS.items():
        desc = oracle.gather_elements_desc(TensorDesc(dt, row.sizes), row.indices_sizes, row.axis, row.indices_type)
        level = min_feature_level(operator, dt, len(row.sizes))
        if level is None:
            continue
        if row.indices_type is not DataType.UINT32:
            level = max(level, oracle.FeatureLevel.FL_3_0)
        idx = np.asarray(row.indices, dtype=object).astype(row.indices_type.numpy).reshape(row.indices_sizes)
        xs = (_ordinal(dt, row.sizes), idx)
        out.append((f"{operator}-reach-{name}-{dt.value}", CaseSpec(operator, level, desc, xs)))
    return out


BUILDERS: dict[str, Callable[[str, DataType], list[Built]]] = {
    "PADDING": _padding_cases,
    "PADDING1": _padding_cases,
    "SLICE": _slice_cases,
    "SLICE1": _slice_cases,
    "SPLIT": _pieces_cases,
    "JOIN": _pieces_cases,
    "ELEMENT_WISE_IDENTITY": _identity_cases,
    "TILE": _tile_cases,
    "SPACE_TO_DEPTH": _block_cases,
    "SPACE_TO_DEPTH1": _block_cases,
    "DEPTH_TO_SPACE": _block_cases,
    "DEPTH_TO_SPACE1": _block_cases,
    "REVERSE_SUBSEQUENCES": _reverse_cases,
    "GATHER": _gather_cases,
    "GATHER_ELEMENTS": _gather_elements_cases,
    "SCATTER": _scatter_cases,
    "SCATTER_ND": _scatter_nd_cases,
    "SLICE_GRAD": _slice_grad_cases,
    "CAST": _cast_cases,
    "FILL_VALUE_CONSTANT": _fill_constant_cases,
    "FILL_VALUE_SEQUENCE": _fill_sequence_cases,
    "DIAGONAL_MATRIX": _diagonal_cases,
    "DIAGONAL_MATRIX1": _diagonal1_cases,
    "GATHER_ND": _gather_nd_cases,
    "GATHER_ND1": _gather_nd_cases,
    "ONE_HOT": _one_hot_cases,
}


def value_class_specs() -> list[Built]:
    """Every operator's rows in every data type, in a fixed order: (name, spec)."""
    return [built for op in oracle.OPERATORS for dt in ALL_DATA_TYPES for built in BUILDERS[op](op, dt)]

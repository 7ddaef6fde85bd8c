"""DML_PADDING_OPERATOR_DESC (seed 001): inflate the input with constant or mirrored edges.

Per axis, output index k maps to input index i = k - StartPadding, folded back into
[0, size) by the mode's rule (PAD.3; WRAP, beyond the seed page: WRAP.1, U-WRAP-1).  The literal path folds step by step, as the page
describes ("fold the new padding region over the previous one"); the index maps use the
closed form with the period (2*(size-1) for REFLECTION, 2*size for SYMMETRIC, U-PAD-5).
The fast path reads neither: it copies the interior once and builds the bands from block
copies of the output already written (mirrored slices, then whole periods).  Property tests
hold all three equal.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import buffers, core
from .checks import (
    OneInOneOut,
    TensorDesc,
    check_one_in_one_out,
    check_support,
    check_uint,
    fail,
)
from .descriptor_json import TENSOR, FieldJson, JsonDescriptor, enumeration
from .padding_value import as_float32, convert_padding_value, float32_bits, float32_from_bits
from .tables import (
    ALL_DATA_TYPES,
    FL30_TYPES,
    RANKS_1_8,
    FeatureLevel,
    OperatorTables,
    SupportRow,
    types,
)

OPERATOR = "PADDING"
PAGE_ORDER = 3  # its place in the registry (oracle.registry): the pages' order, then the ones past them
# Its rows of the spec's tables: support table, clause ids (oracle.registry derives the rest).
TABLES = OperatorTables(
    support=(  # PAD.6, seed 001: 1-8 dims from FL 3.1, not 3.0
        SupportRow(FeatureLevel.FL_5_0, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_1, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4, 5), FL30_TYPES),
        SupportRow(FeatureLevel.FL_1_0, (4, 5), types("FLOAT32, FLOAT16")),
    ),
    support_clause="PAD.6",
    dimension_count_clause="PAD.6",
    introduced=(FeatureLevel.FL_1_0, "PAD.6"),
    clause_prefix="PAD.",
)


class PaddingMode(enum.Enum):
    """DML_PADDING_MODE.  WRAP is DirectML.h's (0x6400), beyond the seed page's four (WRAP.1)."""

    CONSTANT = "CONSTANT"
    EDGE = "EDGE"
    REFLECTION = "REFLECTION"
    SYMMETRIC = "SYMMETRIC"
    WRAP = "WRAP"

    @classmethod
    def parse(cls, value: PaddingMode | str) -> PaddingMode:
        if isinstance(value, PaddingMode):
            return value
        key = str(value).upper().removeprefix("DML_PADDING_MODE_")
        if key in cls.__members__:
            return cls[key]
        raise ValueError(
            f"unknown padding mode {value!r}; expected one of {', '.join(m.lower() for m in cls.__members__)}"
        )


# --- PaddingValue as JSON (the case format): a FLOAT, with NaN payloads as their bits -----------------


def padding_value_to_json(value: np.float32) -> float | str:
    """A float32 as JSON: a number when it round-trips, else its bits ("0x7fc00001") for NaN payloads."""
    value = np.float32(value)
    if math.isnan(value):
        bits = float32_bits(value)
        return "nan" if bits == 0x7FC00000 else f"0x{bits:08x}"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return float(value)


def padding_value_from_json(value: float | int | str) -> np.float32:
    if isinstance(value, bool):
        raise ValueError(f"padding_value={value!r} is not a number")
    if isinstance(value, (int, float)):
        return np.float32(value)
    if isinstance(value, str):
        text = value.strip().lower()
        if text.startswith("0x"):
            return float32_from_bits(int(text, 16))
        if text in ("nan", "inf", "-inf", "+inf"):
            return np.float32(float(text))
    raise ValueError(f"padding_value={value!r}: expected a number, 'nan', 'inf', '-inf' or float32 bits '0x........'")


PADDING_MODE = enumeration(PaddingMode.parse)
FLOAT32_VALUE = FieldJson(
    lambda value, desc: padding_value_to_json(value), lambda value, obj: padding_value_from_json(value)
)


@dataclass(frozen=True)
class PaddingDesc(OneInOneOut, JsonDescriptor):
    """Mirrors DML_PADDING_OPERATOR_DESC.  padding_value is a 32-bit FLOAT, as in the struct."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    padding_mode: PaddingMode
    padding_value: float | np.float32
    start_padding: tuple[int, ...]
    end_padding: tuple[int, ...]
    dimension_count: int | None = None

    operator = OPERATOR
    JSON_FIELDS = {
        "input_tensor": TENSOR,
        "output_tensor": TENSOR,
        "padding_mode": PADDING_MODE,
        "padding_value": FLOAT32_VALUE,
    }
    ARRAYS = ("start_padding", "end_padding")
    UINT_ARRAYS = ARRAYS

    def __post_init__(self) -> None:
        object.__setattr__(self, "padding_mode", PaddingMode.parse(self.padding_mode))
        object.__setattr__(self, "padding_value", as_float32(self.padding_value))
        super().__post_init__()

    def struct_fields(self) -> dict:
        """PaddingValue travels as the FLOAT's bits, NaN payloads included."""
        return {
            **super().struct_fields(),
            "padding_mode": self.padding_mode.value,
            "padding_value_bits": float32_bits(self.padding_value),
        }


DESCRIPTOR = PaddingDesc

# The modes that came after the operator: the level and clause that introduce each (data: generation,
# validation and min_feature_level read it).  WRAP: DirectML 1.15.0, for DML_PADDING and DML_PADDING1.
MODE_INTRODUCED: dict[PaddingMode, tuple[FeatureLevel, str]] = {
    PaddingMode.SYMMETRIC: (FeatureLevel.FL_3_0, "PAD.3"),
    PaddingMode.WRAP: (FeatureLevel.FL_6_4, "WRAP.1"),
}


def check_mode(mode: PaddingMode, feature_level: FeatureLevel) -> None:
    """A mode newer than the feature level is invalid there (PAD.3 for SYMMETRIC, WRAP.1 for WRAP)."""
    if mode in MODE_INTRODUCED:
        introduced, clause = MODE_INTRODUCED[mode]
        if feature_level < introduced:
            fail(
                f"padding_mode={mode.value} needs {introduced.dml_name}, but feature_level={feature_level}",
                clause,
                "padding_mode",
            )


def check_output_sizes(desc, n: int, clause: str) -> None:
    """OutputSizes = InputSizes + StartPadding + EndPadding in every dimension (PAD.2, PAD1.2)."""
    for i in range(n):
        expected = desc.input_tensor.sizes[i] + desc.start_padding[i] + desc.end_padding[i]
        if desc.output_tensor.sizes[i] != expected:
            fail(
                f"output_tensor.sizes[{i}]={desc.output_tensor.sizes[i]}, but input_tensor.sizes[{i}] + "
                f"start_padding[{i}] + end_padding[{i}] = {desc.input_tensor.sizes[i]} + {desc.start_padding[i]} + "
                f"{desc.end_padding[i]} = {expected}",
                clause,
                "output_tensor.sizes",
            )


def check_geometry(desc: Any, feature_level: FeatureLevel, tables: OperatorTables, count: str, sizes: str) -> int:
    """What DML_PADDING and DML_PADDING1 check alike, in order, but the output sizes: the dimension count
    (clause `count`), the UINT paddings (`sizes`), the support table and the mode's level.  Returns the rank."""
    n = check_one_in_one_out(desc, count)
    check_uint(desc.start_padding, "start_padding", sizes)
    check_uint(desc.end_padding, "end_padding", sizes)
    check_support(desc.operator, tables, desc.tensors, n, feature_level)
    check_mode(desc.padding_mode, feature_level)
    return n


def validate(desc: PaddingDesc, feature_level: FeatureLevel) -> None:
    n = check_geometry(desc, feature_level, TABLES, "PAD.5", "PAD.2")
    check_output_sizes(desc, n, "PAD.2")


def unspecified(desc: PaddingDesc) -> list[str]:
    """Register entries whose open behaviour this descriptor reaches (results observed)."""
    found = []
    if desc.padding_mode is PaddingMode.CONSTANT:
        conversion = convert_padding_value(desc.input_tensor.data_type, desc.padding_value)
        if conversion.observed and conversion.erratum is not None:
            found.append(conversion.erratum)
    return found + mode_unspecified(desc)


def mode_unspecified(desc) -> list[str]:
    """What the mode leaves open (PADDING and PADDING1 alike): REFLECTION across a size-1 axis (U-PAD-4), and
    every padding element of WRAP, whose values no page gives (U-WRAP-1)."""
    padded = [(size, s or e) for size, s, e in zip(desc.input_tensor.sizes, desc.start_padding, desc.end_padding)]
    found = []
    if desc.padding_mode is PaddingMode.REFLECTION and any(size == 1 and any_pad for size, any_pad in padded):
        found.append("U-PAD-4")
    if desc.padding_mode is PaddingMode.WRAP and any(any_pad for _, any_pad in padded):
        found.append("U-WRAP-1")
    return found


# --- the literal fold, one step at a time, as the page describes it -----------------------


def fold_literal(i: int, size: int, mode: PaddingMode) -> int | None:
    """Fold an input index i (possibly outside [0, size)) back in, one mirror at a time."""
    if mode is PaddingMode.CONSTANT:
        return i if 0 <= i < size else None
    if mode is PaddingMode.EDGE:
        return min(max(i, 0), size - 1)
    if mode is PaddingMode.REFLECTION and size == 1:
        return 0  # U-PAD-4: the mirror is undefined; the only element is repeated (numpy 'reflect')
    if mode is PaddingMode.WRAP:
        return i % size  # U-WRAP-1: wrap-around, as ONNX's Pad 'wrap' and numpy's 'wrap'
    while not 0 <= i < size:
        if mode is PaddingMode.REFLECTION:  # fold at the edge element: it is not repeated
            i = -i if i < 0 else 2 * (size - 1) - i
        else:  # SYMMETRIC: fold beyond the edge element: it is repeated
            i = -i - 1 if i < 0 else 2 * size - 1 - i
    return i


# --- the closed forms the fast path uses ------------------------------------------------


def fold_reflection(i: np.ndarray, size: int) -> np.ndarray:
    """REFLECTION with period 2*(size-1) (U-PAD-5); size 1 repeats its element (U-PAD-4)."""
    if size == 1:
        return np.zeros_like(i)
    period = 2 * (size - 1)
    m = np.mod(i, period)
    return np.where(m < size, m, period - m)


def fold_symmetric(i: np.ndarray, size: int) -> np.ndarray:
    """SYMMETRIC with period 2*size (U-PAD-5)."""
    period = 2 * size
    m = np.mod(i, period)
    return np.where(m < size, m, period - 1 - m)


def fold(i: np.ndarray, size: int, mode: PaddingMode) -> np.ndarray:
    """Vectorised fold; -1 marks CONSTANT's outside."""
    if mode is PaddingMode.CONSTANT:
        return np.where((i >= 0) & (i < size), i, -1)
    if mode is PaddingMode.EDGE:
        return np.clip(i, 0, size - 1)
    if mode is PaddingMode.REFLECTION:
        return fold_reflection(i, size)
    if mode is PaddingMode.WRAP:
        return np.mod(i, size)
    return fold_symmetric(i, size)


@dataclass(frozen=True)
class Folded(core.AxisMap):
    """PAD.3 for one axis: output index k reads fold(k - start) of an axis of `input_size` (-1: outside)."""

    start: int
    input_size: int
    size: int
    mode: PaddingMode

    def at(self, k: np.ndarray) -> np.ndarray:
        return fold(k - self.start, self.input_size, self.mode)


def index_maps(desc) -> list[Folded]:
    return [
        Folded(start, size, out, desc.padding_mode)
        for out, start, size in zip(desc.output_tensor.sizes, desc.start_padding, desc.input_tensor.sizes)
    ]


def fill_value(desc: PaddingDesc) -> np.ndarray:
    return convert_padding_value(desc.input_tensor.data_type, desc.padding_value).value


def source(desc, c: Sequence[int]) -> tuple[int, ...] | None:
    """The input coordinate output c reads, or None for PaddingValue."""
    src = []
    for k, start, size in zip(c, desc.start_padding, desc.input_tensor.sizes):
        i = fold_literal(k - start, size, desc.padding_mode)
        if i is None:
            return None
        src.append(i)
    return tuple(src)


def compute_literal(desc: PaddingDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    return literal_with(desc, inputs, fill_value(desc))


def literal_with(desc, inputs: Sequence[np.ndarray], fill: np.ndarray) -> list[np.ndarray]:
    """The literal fold for any padding descriptor (PADDING, PADDING1), `fill` its PaddingValue as the type."""
    (x,) = inputs
    return [
        core.copy_elementwise(x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, c), fill)
    ]


# --- the fast path: block copies -------------------------------------------------------

# Indices along an axis moved by one band copy at most, in bytes.  The bands are copied from
# the output itself, and numpy copies the source of such a self-overlapping assignment into a
# temporary first: this caps the temporary (and the source is never more than the part
# already written, so it stays under half the output).
BAND_CHUNK_BYTES = 64 * 2**20


def _along(array: np.ndarray, axis: int, index: slice) -> np.ndarray:
    return array[(slice(None),) * axis + (index,)]


def _copy_along(array: np.ndarray, axis: int, dst_start: int, src_start: int, count: int, step: int) -> None:
    """array[dst_start + i] = array[src_start + step * i] along `axis` for i < count; step is -1, 0 or 1.

    Done in chunks of at most BAND_CHUNK_BYTES; a step of 0 broadcasts one slab (EDGE).
    """
    slab = array.size // array.shape[axis] * array.itemsize
    chunk = max(1, BAND_CHUNK_BYTES // max(1, slab))
    for i0 in range(0, count, chunk):
        i1 = min(count, i0 + chunk)
        if step == 0:
            src = slice(src_start, src_start + 1)
        else:
            first, stop = src_start + step * i0, src_start + step * i1
            src = slice(first, None if stop < 0 else stop, step)
        np.copyto(_along(array, axis, slice(dst_start + i0, dst_start + i1)), _along(array, axis, src))


def _fill_periodic(region: np.ndarray, axis: int, start: int, size: int, mode: PaddingMode) -> None:
    """Fill region[:start] and region[start + size:] along `axis` from region[start:start + size].

    EDGE broadcasts the edge slabs.  REFLECTION and SYMMETRIC first mirror the interior once
    on each side (REFLECTION skips the edge element, SYMMETRIC repeats it), which leaves at
    least one whole period written wherever more padding is needed; the rest is periodic,
    out[k] = out[k + period], so it is copied from written blocks whose length doubles each
    round (U-PAD-5: padding larger than the axis is many periods).
    """
    length = region.shape[axis]
    lo, hi = start, start + size
    if mode is PaddingMode.EDGE or (mode is PaddingMode.REFLECTION and size == 1):
        # U-PAD-4: REFLECTION on a size-1 axis has period 0; the only element is repeated, as EDGE does.
        _copy_along(region, axis, 0, lo, lo, 0)
        _copy_along(region, axis, hi, hi - 1, length - hi, 0)
        return
    if mode is PaddingMode.WRAP:
        period = size  # U-WRAP-1: the interior itself is one whole period
    else:
        skip = 1 if mode is PaddingMode.REFLECTION else 0
        period = 2 * (size - skip)
        before, after = min(lo, size - skip), min(length - hi, size - skip)
        _copy_along(region, axis, lo - before, lo + before - 1 + skip, before, -1)
        _copy_along(region, axis, hi, hi - 1 - skip, after, -1)
        lo, hi = lo - before, hi + after
    while lo > 0 or hi < length:
        shift = (hi - lo) // period * period  # whole periods already written
        count = min(lo, shift)
        _copy_along(region, axis, lo - count, lo - count + shift, count, 1)
        lo -= count
        count = min(length - hi, shift)
        _copy_along(region, axis, hi, hi - shift, count, 1)
        hi += count


def compute(desc: PaddingDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Fast path: the interior copied once, then only the bands, axis by axis.

    The band along axis d spans the whole output on the axes before d (already padded) and the
    interior on the axes after d; CONSTANT writes PaddingValue there, the other modes copy
    blocks of the output already written.  No index array, no gather: peak memory is the output
    and a bounded temporary (BAND_CHUNK_BYTES).
    """
    return compute_with(desc, inputs, fill_value(desc))


def compute_with(desc, inputs: Sequence[np.ndarray], fill_array: np.ndarray) -> list[np.ndarray]:
    """The fast path for any padding descriptor (PADDING, PADDING1), `fill_array` its PaddingValue as the type."""
    (x,) = inputs
    data_type = desc.input_tensor.data_type
    out = buffers.empty(desc.output_tensor.sizes, data_type.bits)
    interior = tuple(slice(s, s + n) for s, n in zip(desc.start_padding, desc.input_tensor.sizes))
    out[interior] = core.as_bits(x, data_type)
    constant = desc.padding_mode is PaddingMode.CONSTANT
    fill = core.as_bits(fill_array, data_type)[()] if constant else None
    for axis, (start, size) in enumerate(zip(desc.start_padding, desc.input_tensor.sizes)):
        region = out[(slice(None),) * (axis + 1) + interior[axis + 1 :]]
        if constant:
            _along(region, axis, slice(0, start))[...] = fill
            _along(region, axis, slice(start + size, None))[...] = fill
        else:
            _fill_periodic(region, axis, start, size, desc.padding_mode)
    return [core.from_bits(out, data_type)]


def explain(desc: PaddingDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    return explain_with(desc, inputs, fill_value(desc))


def explain_with(desc, inputs: Sequence[np.ndarray], fill: np.ndarray) -> list[str]:
    """The derivation lines for any padding descriptor (PADDING, PADDING1)."""
    (x,) = inputs
    start = desc.start_padding
    mode = desc.padding_mode.value
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        shifted = tuple(k - s for k, s in zip(c, start))
        src = source(desc, c)
        head = f"Output[{','.join(map(str, c))}] = {mode}({core.fmt_coord(c)} - {core.fmt_coord(start)})"
        if src is None:
            lines.append(f"{head} = {core.fmt_coord(shifted)} outside = PaddingValue = {core.fmt_value(fill[()])}")
        else:
            lines.append(f"{head} = Input[{core.fmt_coord(src)}] = {core.fmt_value(x[src])}")
    return lines

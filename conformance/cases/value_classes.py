"""Value classes: what each parameter of each operator can be, and which of them a case holds.

A bug in defined behaviour often lives in one class of one parameter in one data type (a FLOAT16
PaddingValue of -0.0 written as +0.0, a negative SLICE1 stride read forward in a UINT16 kernel).
The classes below name those values, operator by operator; `classify` says which a case actually
holds, read from its descriptor (not from whatever built it), and `grid` counts them per data type
over a selection, so that `dml-conformance cases coverage` and tests/cases/test_value_classes.py
show and hold every (class x data type) cell of the quick profile covered.  The cases that cover
them by construction are the reach set's (conformance.cases.generation.value_reach).

Only valid descriptors count: the invalid families cover the rules' other side.  A class whose
outcome the spec leaves open is still a class (its cases are observed, with the erratum's tag).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

import oracle
from oracle import DataType, PaddingMode
from oracle.op_fill_value_sequence import open_elements as sequence_open_elements
from oracle.tables import ALL_DATA_TYPES

if TYPE_CHECKING:  # cases are only read here
    from .corpus import Case


def _all(data_type: DataType) -> bool:
    return True


def _float(data_type: DataType) -> bool:
    return data_type.is_float


def _signed(data_type: DataType) -> bool:
    return data_type.is_float or np.iinfo(data_type.numpy).min < 0


def _narrower_than_float32(data_type: DataType) -> bool:
    """A FLOAT PaddingValue can lie outside the type's range (every type but FLOAT32 and FLOAT64)."""
    return data_type not in (DataType.FLOAT32, DataType.FLOAT64)


@dataclass(frozen=True)
class ValueClass:
    """One class of one parameter: its name, and the data types in which it can occur at all."""

    name: str
    applies: Callable[[DataType], bool] = _all


def _supported_by(operator: str) -> Callable[[DataType], bool]:
    """The data types some level of the operator's table takes (DML_TILE has no FLOAT64): its classes occur
    in those only."""
    return lambda data_type: any(data_type in row.data_types for row in oracle.SUPPORT[operator])


def _geometry_classes(*names: str) -> tuple[ValueClass, ...]:
    return tuple(ValueClass(n) for n in names)


_PADDING_GEOMETRY = (
    *(ValueClass(f"mode {m.value}") for m in PaddingMode),
    *(ValueClass(f"{m.value} padding past the axis") for m in PaddingMode if m is not PaddingMode.CONSTANT),
    *_geometry_classes(
        *(f"{side} padding {what}" for side in ("start", "end") for what in ("0", "inside", "= size", "past the axis"))
    ),
)

# The depth-space family's classes: BlockSize, the batch, the channels of the small side (the space side:
# DEPTH_TO_SPACE's output, SPACE_TO_DEPTH's input; depth / BlockSize^2), and DML_DEPTH_SPACE_ORDER.
BLOCK_CLASSES = ("block 1", "block 2", "block 3+", "batch 1", "batch several", "channels 1", "channels several")
ORDER_CLASSES = tuple(f"order {o.value}" for o in oracle.DepthSpaceOrder)
GATHER_ND_CLASSES = (
    *(f"indices {t}" for t in ("UINT32", "INT32", "UINT64", "INT64")),
    "tuples pick elements",
    "tuples pick blocks",
    "leading ones ignored",
)

# Operator -> its classes, in the order the grid prints them (data: the one list of classes).
CLASSES: dict[str, tuple[ValueClass, ...]] = {
    "PADDING": (
        ValueClass("value 0"),
        ValueClass("value -0.0"),
        ValueClass("value negative"),
        ValueClass("value fractional"),
        ValueClass("value quiet NaN payload"),
        ValueClass("value signalling NaN"),
        ValueClass("value +inf"),
        ValueClass("value -inf"),
        ValueClass("value the type's max"),
        ValueClass("value the type's min"),
        ValueClass("value above the type's max", _narrower_than_float32),
        ValueClass("value below the type's min", _narrower_than_float32),
        *_PADDING_GEOMETRY,
    ),
    "PADDING1": (
        ValueClass("value 0"),
        ValueClass("value -0.0", _float),
        ValueClass("value negative", _signed),
        ValueClass("value fractional", _float),
        ValueClass("value quiet NaN payload", _float),
        ValueClass("value signalling NaN", _float),
        ValueClass("value +inf", _float),
        ValueClass("value -inf", _float),
        ValueClass("value the type's max"),
        ValueClass("value the type's min"),
        *_PADDING_GEOMETRY,
    ),
    "SLICE": _geometry_classes(
        "stride 0 (U-SLICE-1)",
        "stride 1",
        "stride > 1",
        "stride >= axis size",
        "offset 0",
        "offset interior",
        "offset last element",
        "size 1",
        "size partial",
        "size full axis",
    ),
    "SLICE1": _geometry_classes(
        "stride 1",
        "stride > 1",
        "stride -1",
        "stride < -1",
        "|stride| >= window",
        "offset 0",
        "offset interior",
        "offset last element",
        "window 1",
        "window partial",
        "window full axis",
        "output = MaxCopiedElements",
        "output < MaxCopiedElements",
    ),
    **{
        op: _geometry_classes(
            "axis 0",
            "axis middle",
            "axis last",
            f"{what} 1",
            f"{what} 2",
            f"{what} many (3+)",
            "piece of size 1",
            "pieces equal",
            "pieces uneven",
        )
        for op, what in (("SPLIT", "outputs"), ("JOIN", "inputs"))
    },
    "ELEMENT_WISE_IDENTITY": _geometry_classes(
        "copy (no ScaleBias)",
        "ScaleBias (U-IDENT-1)",
        "input transposed (permuted strides)",
        "input broadcast (a 0 stride)",
        "output rows padded",
    ),
    "TILE": tuple(
        ValueClass(name, _supported_by("TILE"))
        for name in ("repeats 1", "repeats 2", "repeats many (3+)", "size-1 axis tiled", "every repeat 1 (a copy)")
    ),
    # Issue 31, the depth-space family: the blocks' geometry (and the order where the struct has one).
    "SPACE_TO_DEPTH": _geometry_classes(*BLOCK_CLASSES),
    "SPACE_TO_DEPTH1": _geometry_classes(*BLOCK_CLASSES, *ORDER_CLASSES),
    "DEPTH_TO_SPACE": _geometry_classes(*BLOCK_CLASSES),
    "DEPTH_TO_SPACE1": _geometry_classes(*BLOCK_CLASSES, *ORDER_CLASSES),
    # REVERSE_SUBSEQUENCES: where Axis lies and the lengths' type (their values, 0 to past the type's end, are
    # the reach rows' own: value_reach.REVERSE_ROWS; a class is read from the descriptor alone).
    "REVERSE_SUBSEQUENCES": _geometry_classes(
        "axis first", "axis middle", "axis last", "lengths UINT32", "lengths UINT64"
    ),
    # SCATTER: where Axis lies and the indices' type (their values, negative, repeated or outside the axis, are the
    # reach rows' own: value_reach.SCATTER_ROWS; a class is read from the descriptor alone).
    "SCATTER": _geometry_classes(
        "axis first", "axis middle", "axis last", *(f"indices {t}" for t in ("UINT32", "INT32", "INT64", "UINT64"))
    ),
    # SCATTER_ND: what a tuple addresses, ignored leading dimensions, and the indices' type (their values are the
    # reach rows' own: value_reach.SCATTER_ND_ROWS).
    "SCATTER_ND": _geometry_classes(
        "tuple addresses elements",
        "tuple addresses slices",
        "ignored leading dimensions",
        *(f"indices {t}" for t in ("UINT32", "INT32", "INT64", "UINT64")),
    ),
    # GATHER: where Axis lies, IndexDimensions and the indices' type (their values, negative and out of range,
    # are the reach rows' own: value_reach.GATHER_ROWS; a class is read from the descriptor alone).
    "GATHER": _geometry_classes(
        "axis first",
        "axis middle",
        "axis last",
        "IndexDimensions 0",
        "IndexDimensions 1",
        "IndexDimensions 2+",
        *(f"indices {t}" for t in ("UINT32", "INT32", "UINT64", "INT64")),
    ),
    # GATHER_ELEMENTS: where Axis lies, the indices' size along it against the input's, and the indices' type
    # (their values are the reach rows' own: value_reach.GATHER_ELEMENTS_ROWS).
    "GATHER_ELEMENTS": _geometry_classes(
        "axis first",
        "axis middle",
        "axis last",
        "indices along Axis = input's",
        "indices along Axis != input's",
        *(f"indices {t}" for t in ("UINT32", "INT32", "UINT64", "INT64")),
    ),
    "SLICE_GRAD": _geometry_classes(  # SLICE1's window, on OutputGradientTensor; InputGradient is SLICE1's output
        "stride 1",
        "stride > 1",
        "stride -1",
        "stride < -1",
        "|stride| >= window",
        "offset 0",
        "offset interior",
        "offset last element",
        "window 1",
        "window partial",
        "window full axis",
        "input gradient = MaxCopiedElements",
        "input gradient < MaxCopiedElements",
    ),
    # Issue 32: GATHER_ND(1): the indices' type, what a tuple picks, the ignored leading ones (and the batches);
    # the indices' values (negative from the end, out of range: U-GND-1) are the reach rows' own (value_reach.GND_ROWS).
    "GATHER_ND": _geometry_classes(*GATHER_ND_CLASSES),
    "GATHER_ND1": _geometry_classes(*GATHER_ND_CLASSES, "no batch", "batches"),
    # DML_CAST: the output's type, per input type (the grid's column): every pair the tables allow.
    "CAST": tuple(ValueClass(f"to {t.value}") for t in ALL_DATA_TYPES),
    # Issue 32, no input tensor.  FILL_VALUE_CONSTANT: its typed Value, as PADDING1's.
    "FILL_VALUE_CONSTANT": (
        ValueClass("value 0"),
        ValueClass("value -0.0", _float),
        ValueClass("value negative", _signed),
        ValueClass("value fractional", _float),
        ValueClass("value quiet NaN payload", _float),
        ValueClass("value signalling NaN", _float),
        ValueClass("value +inf", _float),
        ValueClass("value -inf", _float),
        ValueClass("value the type's max"),
        ValueClass("value the type's min"),
    ),
    # FILL_VALUE_SEQUENCE: the step's sign (an unsigned type's step down is a delta past half its range), where it
    # starts, and what each kind of type does at its end: integers wrap (judged, FILLS.3), floats round (U-FILLS-1).
    "FILL_VALUE_SEQUENCE": (
        *(
            ValueClass(name, _supported_by("FILL_VALUE_SEQUENCE"))
            for name in ("step 0", "step up", "step down", "start the type's min", "start the type's max")
        ),
        ValueClass("sequence wraps", lambda dt: not dt.is_float),
        ValueClass("sum rounds (U-FILLS-1)", lambda dt: dt in (DataType.FLOAT32, DataType.FLOAT16)),
    ),
    # DIAGONAL_MATRIX: where the diagonal lies, the matrix's shape, and its FLOAT Value in the type (U-DIAG-1).
    "DIAGONAL_MATRIX": (
        *_geometry_classes(
            "offset 0",
            "offset right",
            "offset left",
            "offset past the matrix",
            "matrix not square",
            "batch of matrices",
        ),
        ValueClass("value 1"),
        ValueClass("value fractional"),
        ValueClass("value past the type's range", _narrower_than_float32),
        ValueClass("value NaN"),
    ),
    # DIAGONAL_MATRIX1: the optional input, the band's shape and its typed Value (exact, DIAG1.2).
    "DIAGONAL_MATRIX1": (
        *_geometry_classes(
            "with an input",
            "without input",
            "band of one diagonal",
            "band of several",
            "band empty (begin = end)",
            "band inverted",
            "band from INT_MIN",
            "batch of matrices",
        ),
        ValueClass("value 0"),
        ValueClass("value NaN payload", _float),
        ValueClass("value the type's max"),
    ),
    # DML_ONE_HOT: where Axis lies and the indices' type (their values, inside, past and before the axis, are the
    # reach rows' own: value_reach.ONE_HOT_ROWS; a class is read from the descriptor alone).
    "ONE_HOT": _geometry_classes(
        "axis first", "axis middle", "axis last", "indices UINT32", "indices UINT64", "indices INT32", "indices INT64"
    ),
}


# --- what a descriptor holds ------------------------------------------------------------------


def type_range(data_type: DataType) -> tuple[int | float, int | float]:
    """The type's min and max: exact ints for integer types (INT64 and UINT64 lie past a float's 2^53)."""
    if data_type.is_float:
        info = np.finfo(data_type.numpy)
        return float(info.min), float(info.max)
    iinfo = np.iinfo(data_type.numpy)
    return int(iinfo.min), int(iinfo.max)


def float32_min_max(data_type: DataType) -> tuple[np.float32, np.float32]:
    """The type's min and max as a FLOAT PaddingValue: the float32 nearest each inside the range."""
    lo, hi = type_range(data_type)
    f32 = np.finfo(np.float32)
    top, bottom = np.float32(min(float(hi), float(f32.max))), np.float32(max(float(lo), float(f32.min)))
    if float(top) > hi:  # float32 rounded it up, past the max (INT32, UINT32, INT64, UINT64)
        top = np.nextafter(top, np.float32(0))
    if float(bottom) < lo:
        bottom = np.nextafter(bottom, np.float32(0))
    return bottom, top


def _nan_kind(value: np.generic) -> str | None:
    """'quiet NaN payload', 'signalling NaN' or None; a canonical quiet NaN (no payload) is neither."""
    array = np.asarray(value)
    if array.dtype.kind != "f" or not np.isnan(array):
        return None
    bits = int(array.view(np.dtype(f"<u{array.itemsize}"))[()])
    quiet = 1 << (np.finfo(array.dtype).nmant - 1)
    if bits & quiet:
        return "quiet NaN payload" if bits & (quiet - 1) else None
    return "signalling NaN"


def _value_classes(value: np.generic, data_type: DataType, lo: int | float, hi: int | float) -> set[str]:
    """The classes of a padding value: a float32 for DML_PADDING, the type's own for DML_PADDING1.

    `lo` and `hi` are the type's min and max as that value can hold them (float32_min_max for a FLOAT
    PaddingValue); above and below the range are judged against the type's own range (type_range),
    after the truncation an integer type applies (PAD.4: 127.9 is inside INT8's, 128.0 is not).
    """
    nan = _nan_kind(value)
    if nan is not None:
        return {f"value {nan}"}
    if isinstance(value, np.integer):
        v: int | float = int(value)
    else:
        v = float(value)
        if math.isnan(v):
            return set()
        if math.isinf(v):
            return {"value +inf" if v > 0 else "value -inf"}
    found = set()
    if v == 0:
        negative_zero = isinstance(v, float) and math.copysign(1.0, v) < 0
        found.add("value -0.0" if negative_zero else "value 0")
    if v < 0:
        found.add("value negative")
    if isinstance(v, float) and not v.is_integer():
        found.add("value fractional")
    if v == hi:
        found.add("value the type's max")
    if v == lo and not (v == 0 and "value -0.0" in found):
        found.add("value the type's min")
    type_lo, type_hi = type_range(data_type)
    landed = v if data_type.is_float else math.trunc(v)
    if landed > type_hi:
        found.add("value above the type's max")
    if landed < type_lo:
        found.add("value below the type's min")
    return found


def _padding_geometry(desc: oracle.PaddingDesc | oracle.Padding1Desc) -> set[str]:
    mode = desc.padding_mode
    found = {f"mode {mode.value}"}
    for n, s, e in zip(desc.input_tensor.sizes, desc.start_padding, desc.end_padding):
        for side, p in (("start", s), ("end", e)):
            what = "0" if p == 0 else "inside" if p < n else "= size" if p == n else "past the axis"
            found.add(f"{side} padding {what}")
        if max(s, e) > n and mode is not PaddingMode.CONSTANT:
            found.add(f"{mode.value} padding past the axis")
    return found


def _padded(desc: oracle.PaddingDesc | oracle.Padding1Desc) -> bool:
    """Whether the descriptor writes PaddingValue anywhere (CONSTANT, some padding)."""
    return desc.padding_mode is PaddingMode.CONSTANT and (any(desc.start_padding) or any(desc.end_padding))


def _padding(desc: oracle.PaddingDesc) -> set[str]:
    found = _padding_geometry(desc)
    if _padded(desc):
        dt = desc.input_tensor.data_type
        found |= _value_classes(np.float32(desc.padding_value), dt, *(float(b) for b in float32_min_max(dt)))
    return found


def _padding1(desc: oracle.Padding1Desc) -> set[str]:
    found = _padding_geometry(desc)
    if _padded(desc):
        dt = desc.output_tensor.data_type
        found |= _value_classes(desc.padding_value, dt, *type_range(dt))
    return found


def _offset_class(offset: int, n: int) -> str:
    if offset == 0:
        return "offset 0"
    return "offset last element" if offset == n - 1 else "offset interior"


def _size_class(size: int, n: int, name: str) -> str | None:
    if n < 2:
        return None  # a size-1 axis: size 1 and the full axis are one
    return f"{name} 1" if size == 1 else f"{name} full axis" if size == n else f"{name} partial"


def _slice(desc: oracle.SliceDesc) -> set[str]:
    found: set[str] = set()
    for n, o, size, s in zip(desc.input_tensor.sizes, desc.offsets, desc.sizes, desc.strides):
        found.add(_offset_class(o, n))
        found.add(_size_class(size, n, "size") or "")
        if s == 0:
            found.add("stride 0 (U-SLICE-1)" if size > 1 else "")
        else:
            found.add("stride 1" if s == 1 else "stride > 1")
            if s >= n and n > 1:
                found.add("stride >= axis size")
    return found - {""}


def _slice1(desc: oracle.Slice1Desc) -> set[str]:
    found: set[str] = set()
    for n, o, w, s, out in zip(
        desc.input_tensor.sizes, desc.window_offsets, desc.window_sizes, desc.window_strides, desc.output_tensor.sizes
    ):
        found.add(_offset_class(o, n))
        found.add(_size_class(w, n, "window") or "")
        found.add({1: "stride 1", -1: "stride -1"}.get(s, "stride > 1" if s > 1 else "stride < -1"))
        if abs(s) >= w > 1:
            found.add("|stride| >= window")
        if w > 1:
            limit = oracle.op_slice1.max_copied_elements(w, s)
            found.add("output = MaxCopiedElements" if out == limit else "output < MaxCopiedElements")
    return found - {""}


def _pieces(axis: int, rank: int, pieces: list[int], what: str) -> set[str]:
    found = set()
    if rank > 1:
        found.add("axis 0" if axis == 0 else "axis last" if axis == rank - 1 else "axis middle")
    count = len(pieces)
    found.add(f"{what} {count}" if count <= 2 else f"{what} many (3+)")
    if 1 in pieces and max(pieces) > 1:
        found.add("piece of size 1")
    if count > 1:
        found.add("pieces equal" if len(set(pieces)) == 1 else "pieces uneven")
    return found


def _split(desc: oracle.SplitDesc) -> set[str]:
    pieces = [t.sizes[desc.axis] for t in desc.output_tensors]
    return _pieces(desc.axis, desc.input_tensor.dimension_count, pieces, "outputs")


def _join(desc: oracle.JoinDesc) -> set[str]:
    pieces = [t.sizes[desc.axis] for t in desc.input_tensors]
    return _pieces(desc.axis, desc.output_tensor.dimension_count, pieces, "inputs")


def _identity(desc: oracle.IdentityDesc) -> set[str]:
    """The ScaleBias, and the layouts of a strided identity (ONNX Runtime's Transpose and Expand)."""
    found = {"copy (no ScaleBias)" if desc.scale_bias is None else "ScaleBias (U-IDENT-1)"}
    strides = desc.input_tensor.strides
    if strides is not None and 0 in strides:
        found.add("input broadcast (a 0 stride)")
    elif strides is not None and list(strides) != sorted(strides, reverse=True):
        found.add("input transposed (permuted strides)")
    out = desc.output_tensor
    if out.strides is not None and out.strides[-1] == 1 and len(out.sizes) > 1 and out.strides[-2] > out.sizes[-1]:
        found.add("output rows padded")
    return found


def _tile(desc: oracle.TileDesc) -> set[str]:
    found = {f"repeats {r}" if r <= 2 else "repeats many (3+)" for r in desc.repeats}
    if any(r > 1 and n == 1 for r, n in zip(desc.repeats, desc.input_tensor.sizes)):
        found.add("size-1 axis tiled")
    if all(r == 1 for r in desc.repeats):
        found.add("every repeat 1 (a copy)")
    return found


def _blocks(
    desc: oracle.DepthToSpaceDesc | oracle.DepthToSpace1Desc | oracle.SpaceToDepthDesc | oracle.SpaceToDepth1Desc,
) -> set[str]:
    """BLOCK_CLASSES (ORDER_CLASSES where the struct has an Order) read from the descriptor."""
    b = desc.block_size
    n = desc.input_tensor.sizes[0]
    channels = min(desc.input_tensor.sizes[1], desc.output_tensor.sizes[1])  # the space side's
    found = {"block 1" if b == 1 else "block 2" if b == 2 else "block 3+"}
    found.add("batch 1" if n == 1 else "batch several")
    found.add("channels 1" if channels == 1 else "channels several")
    if desc.HAS_ORDER:
        found.add(f"order {desc.order.value}")
    return found


def _reverse(desc: oracle.ReverseSubsequencesDesc) -> set[str]:
    n = desc.input_tensor.dimension_count
    found = {f"lengths {desc.sequence_lengths_tensor.data_type.value}"}
    found.add("axis last" if desc.axis == n - 1 else "axis first" if desc.axis == 0 else "axis middle")
    return found


def _gather(desc: oracle.GatherDesc) -> set[str]:
    n, k = desc.input_tensor.dimension_count, desc.index_dimensions
    found = {f"indices {desc.indices_tensor.data_type.value}", f"IndexDimensions {k if k < 2 else '2+'}"}
    found.add("axis last" if desc.axis == n - 1 else "axis first" if desc.axis == 0 else "axis middle")
    return found


def _gather_elements(desc: oracle.GatherElementsDesc) -> set[str]:
    n, a = desc.input_tensor.dimension_count, desc.axis
    same = desc.indices_tensor.sizes[a] == desc.input_tensor.sizes[a]
    found = {f"indices {desc.indices_tensor.data_type.value}", f"indices along Axis {'=' if same else '!='} input's"}
    found.add("axis last" if a == n - 1 else "axis first" if a == 0 else "axis middle")
    return found


def _scatter(desc: oracle.ScatterDesc) -> set[str]:
    n = desc.input_tensor.dimension_count
    found = {f"indices {desc.indices_tensor.data_type.value}"}
    found.add("axis last" if desc.axis == n - 1 else "axis first" if desc.axis == 0 else "axis middle")
    return found


def _scatter_nd(desc: oracle.ScatterNdDesc) -> set[str]:
    found = {f"indices {desc.indices_tensor.data_type.value}"}
    found.add("tuple addresses elements" if desc.tuple_size == desc.input_dimension_count else "tuple addresses slices")
    if desc.input_dimension_count < desc.input_tensor.dimension_count:
        found.add("ignored leading dimensions")
    return found


def _slice_grad(desc: oracle.SliceGradDesc) -> set[str]:
    """SLICE1's classes read on SLICE_GRAD: the window against OutputGradient, InputGradient as SLICE1's output."""
    as_slice1 = oracle.Slice1Desc(
        desc.output_tensor, desc.input_tensor, desc.window_offsets, desc.window_sizes, desc.window_strides
    )
    found = _slice1(as_slice1)
    for name in ("output = MaxCopiedElements", "output < MaxCopiedElements"):
        if name in found:
            found = (found - {name}) | {name.replace("output", "input gradient")}
    return found


def _gather_nd(desc: oracle.GatherNdDesc | oracle.GatherNd1Desc) -> set[str]:
    found = {f"indices {desc.indices_tensor.data_type.value}"}
    whole = desc.tuple_size == desc.input_dimension_count - desc.batch_count
    found.add("tuples pick elements" if whole else "tuples pick blocks")
    if desc.input_dimension_count < desc.dimension_count:
        found.add("leading ones ignored")
    if isinstance(desc, oracle.GatherNd1Desc):
        found.add("batches" if desc.batch_dimension_count else "no batch")
    return found


def _cast(desc: oracle.CastDesc) -> set[str]:
    return {f"to {desc.output_tensor.data_type.value}"}


def _fill_constant(desc: oracle.FillValueConstantDesc) -> set[str]:
    dt = desc.output_tensor.data_type
    return _value_classes(desc.value, dt, *type_range(dt))


def signed_step(desc: oracle.FillValueSequenceDesc) -> int | float:
    """ValueDelta as a step: an unsigned type's delta past half its range is a step down modulo 2^n (E-FILLS-1's
    254 on UINT8 is -2)."""
    dt, delta = desc.value_data_type, desc.value_delta
    if dt.is_float:
        return float(delta)
    bits = 8 * dt.numpy.itemsize
    d = int(delta)
    return d - (1 << bits) if np.iinfo(dt.numpy).min == 0 and d >= 1 << (bits - 1) else d


def _fill_sequence(desc: oracle.FillValueSequenceDesc) -> set[str]:
    dt = desc.output_tensor.data_type
    step, found = signed_step(desc), set()
    if not math.isnan(step):
        found.add("step 0" if step == 0 else "step up" if step > 0 else "step down")
    lo, hi = type_range(dt)
    start = float(desc.value_start) if dt.is_float else int(desc.value_start)
    if start == lo:
        found.add("start the type's min")
    if start == hi:
        found.add("start the type's max")
    count = int(np.prod(desc.output_tensor.sizes))
    if dt.is_float:
        if sequence_open_elements(desc).any():
            found.add("sum rounds (U-FILLS-1)")
    elif not lo <= start + (count - 1) * int(step) <= hi:
        found.add("sequence wraps")
    return found


def _diagonal(desc: oracle.DiagonalMatrixDesc) -> set[str]:
    sizes, k = desc.output_tensor.sizes, desc.offset
    height, width = sizes[-2:]
    found = {"offset 0" if k == 0 else "offset right" if k > 0 else "offset left"}
    if not -height < k < width:
        found.add("offset past the matrix")
    if height != width:
        found.add("matrix not square")
    if int(np.prod(sizes[:-2])) > 1:
        found.add("batch of matrices")
    v = float(desc.value)
    if math.isnan(v):
        found.add("value NaN")
    elif v == 1.0:
        found.add("value 1")
    elif math.isfinite(v) and not v.is_integer():
        found.add("value fractional")
    lo, hi = type_range(desc.output_tensor.data_type)
    if math.isfinite(v) and not lo <= math.trunc(v) <= hi:
        found.add("value past the type's range")
    return found


def _diagonal1(desc: oracle.DiagonalMatrix1Desc) -> set[str]:
    begin, end = desc.diagonal_fill_begin, desc.diagonal_fill_end
    found = {"with an input" if desc.input_tensor is not None else "without input"}
    found.add(
        "band inverted"
        if begin > end
        else "band empty (begin = end)"
        if begin == end
        else "band of one diagonal"
        if end == begin + 1
        else "band of several"
    )
    if begin == -(2**31):
        found.add("band from INT_MIN")
    if int(np.prod(desc.output_tensor.sizes[:-2])) > 1:
        found.add("batch of matrices")
    dt = desc.output_tensor.data_type
    bits = np.asarray(desc.value).view(dt.bits)
    if not bits.any():
        found.add("value 0")
    if dt.is_float and np.isnan(desc.value):
        found.add("value NaN payload")
    value = float(desc.value) if dt.is_float else int(desc.value)
    if value == type_range(dt)[1]:  # NaN is no max
        found.add("value the type's max")
    return found


def _one_hot(desc: oracle.OneHotDesc) -> set[str]:
    n = desc.output_tensor.dimension_count
    found = {f"indices {desc.indices_tensor.data_type.value}"}
    found.add("axis last" if desc.axis == n - 1 else "axis first" if desc.axis == 0 else "axis middle")
    return found


CLASSIFIERS: dict[str, Callable[[oracle.Descriptor], set[str]]] = {
    "PADDING": _padding,  # type: ignore[dict-item]
    "PADDING1": _padding1,  # type: ignore[dict-item]
    "SLICE": _slice,  # type: ignore[dict-item]
    "SLICE1": _slice1,  # type: ignore[dict-item]
    "SPLIT": _split,  # type: ignore[dict-item]
    "JOIN": _join,  # type: ignore[dict-item]
    "ELEMENT_WISE_IDENTITY": _identity,  # type: ignore[dict-item]
    "TILE": _tile,  # type: ignore[dict-item]
    "SPACE_TO_DEPTH": _blocks,  # type: ignore[dict-item]
    "SPACE_TO_DEPTH1": _blocks,  # type: ignore[dict-item]
    "DEPTH_TO_SPACE": _blocks,  # type: ignore[dict-item]
    "DEPTH_TO_SPACE1": _blocks,  # type: ignore[dict-item]
    "REVERSE_SUBSEQUENCES": _reverse,  # type: ignore[dict-item]
    "GATHER": _gather,  # type: ignore[dict-item]
    "GATHER_ELEMENTS": _gather_elements,  # type: ignore[dict-item]
    "SCATTER": _scatter,  # type: ignore[dict-item]
    "SCATTER_ND": _scatter_nd,  # type: ignore[dict-item]
    "SLICE_GRAD": _slice_grad,  # type: ignore[dict-item]
    "CAST": _cast,  # type: ignore[dict-item]
    "FILL_VALUE_CONSTANT": _fill_constant,  # type: ignore[dict-item]
    "FILL_VALUE_SEQUENCE": _fill_sequence,  # type: ignore[dict-item]
    "DIAGONAL_MATRIX": _diagonal,  # type: ignore[dict-item]
    "DIAGONAL_MATRIX1": _diagonal1,  # type: ignore[dict-item]
    "GATHER_ND": _gather_nd,  # type: ignore[dict-item]
    "GATHER_ND1": _gather_nd,  # type: ignore[dict-item]
    "ONE_HOT": _one_hot,  # type: ignore[dict-item]
}


def classify(descriptor: oracle.Descriptor) -> set[str]:
    """The value classes a valid descriptor holds (names of CLASSES[its operator])."""
    return CLASSIFIERS[descriptor.operator](descriptor)


# --- the grid ---------------------------------------------------------------------------------

NOT_APPLICABLE = -1  # a cell whose class cannot occur in that data type


@dataclass(frozen=True)
class Grid:
    """Operator -> class -> data type -> how many cases hold it (NOT_APPLICABLE where it cannot occur)."""

    cells: dict[str, dict[str, dict[DataType, int]]]

    def empty(self) -> list[tuple[str, str, DataType]]:
        """The applicable cells no case holds: (operator, class, data type)."""
        return [
            (op, name, dt)
            for op, rows in self.cells.items()
            for name, row in rows.items()
            for dt, n in row.items()
            if n == 0
        ]

    def applicable(self) -> int:
        return sum(n != NOT_APPLICABLE for rows in self.cells.values() for row in rows.values() for n in row.values())

    def render(self) -> str:
        """One table per operator: a row per class, a column per data type; '.' an empty cell, '-' not applicable."""
        lines = []
        for op, rows in self.cells.items():
            types = next(iter(rows.values()))
            short = [dt.value.replace("FLOAT", "F").replace("UINT", "U").replace("INT", "I") for dt in types]
            width = max(len(name) for name in rows)
            lines.append(f"{op}")
            lines.append(f"  {'':<{width}}  " + " ".join(f"{s:>5}" for s in short))
            for name, row in rows.items():
                cells = ("-" if n == NOT_APPLICABLE else "." if n == 0 else str(n) for n in row.values())
                lines.append(f"  {name:<{width}}  " + " ".join(f"{c:>5}" for c in cells))
            lines.append("")
        empty = self.empty()
        lines.append(
            f"{self.applicable() - len(empty)} of {self.applicable()} cells covered ('.': no case; '-': "
            "cannot occur in that data type)"
        )
        return "\n".join(lines)


def grid(
    cases: Iterable[Case], operators: Iterable[str] | None = None, data_types: Iterable[DataType] | None = None
) -> Grid:
    """The value-class grid of the valid cases among `cases`, for `operators` and `data_types` (default: all)."""
    ops = [op for op in (operators or CLASSES) if op in CLASSES]
    types = [dt for dt in ALL_DATA_TYPES if dt in set(data_types or ALL_DATA_TYPES)]
    cells = {
        op: {c.name: {dt: 0 if c.applies(dt) else NOT_APPLICABLE for dt in types} for c in CLASSES[op]} for op in ops
    }
    for case in cases:
        if case.operator not in cells or case.expected.outcome != "valid":
            continue
        dt = case.data_type  # the first input's; the output's for FILL_VALUE_*
        rows = cells[case.operator]
        for name in classify(case.descriptor):
            if rows.get(name, {}).get(dt, NOT_APPLICABLE) != NOT_APPLICABLE:
                rows[name][dt] += 1
    return Grid(cells)

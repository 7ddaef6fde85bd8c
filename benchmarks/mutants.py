"""Seeded bugs: realistic implementation mistakes, each a backend that is right everywhere else.

Each mutant is the oracle with one bug planted in behaviour the pages define, the kind a driver
or runtime really ships: a table sized for 8 outputs, a 64-bit copy done in 32-bit words, a
fold that handles one period only, validation off by one.  `benchmarks/bench_mutants.py` runs
them through the profiles and reports which cases catch which bug.  Two correct implementations
(`Correct`, the oracle itself, and `CorrectViaLiteral`, its element-by-element path) must be
caught by nothing: a suite that flags them has false alarms.
"""

from __future__ import annotations

import dataclasses

import numpy as np

import oracle
from conformance.backends.base import Capabilities, RunResult
from conformance.backends.oracle_backend import OracleBackend
from oracle import FeatureLevel, InvalidDescriptor, PaddingMode, op_gather, op_slice_grad


class Correct(OracleBackend):
    """The oracle claiming every feature level: the baseline every mutant changes in one place."""

    name = "correct"

    def capabilities(self) -> Capabilities:
        return Capabilities(checks_invalid_descriptors=True, feature_level=max(FeatureLevel))

    def outputs(self, descriptor, inputs, feature_level) -> list[np.ndarray]:
        return [np.array(y, copy=True) for y in oracle.compute(descriptor, inputs, feature_level=feature_level)]

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        try:
            ys = self.outputs(descriptor, inputs, feature_level)
        except InvalidDescriptor as e:
            return RunResult.rejected(str(e))
        return RunResult.ok(ys, reached_operator=f"DML_{descriptor.operator}")


class CorrectViaLiteral(Correct):
    """A second correct implementation: the pages' pseudo-code, element by element."""

    name = "correct-literal"

    def outputs(self, descriptor, inputs, feature_level):
        return [
            np.array(y, copy=True)
            for y in oracle.compute(descriptor, inputs, feature_level=feature_level, literal=True)
        ]


def _bits(y: np.ndarray) -> np.ndarray:
    return y.reshape(-1).view(np.dtype(f"<u{y.dtype.itemsize}"))


class SplitDropsPast8(Correct):
    """SPLIT writes only the first 8 outputs (a fixed-size table of output bindings); the rest stay zero."""

    table = 8

    def outputs(self, descriptor, inputs, feature_level):
        ys = super().outputs(descriptor, inputs, feature_level)
        if descriptor.operator == "SPLIT":
            for y in ys[self.table :]:
                y[...] = 0
        return ys


class SplitDropsPast64(SplitDropsPast8):
    """SPLIT loses outputs past the 64th (a 64-bit mask of bound outputs)."""

    table = 64


class Copy64InLowWord(Correct):
    """64-bit elements copied as 32-bit words: the high word is lost."""

    def outputs(self, descriptor, inputs, feature_level):
        ys = super().outputs(descriptor, inputs, feature_level)
        for y in ys:
            if y.dtype.itemsize == 8 and y.size:
                _bits(y)[...] &= np.uint64(0xFFFFFFFF)
        return ys


class Float64ThroughFloat32(Correct):
    """FLOAT64 moved through float32 registers."""

    def outputs(self, descriptor, inputs, feature_level):
        ys = super().outputs(descriptor, inputs, feature_level)
        return [y.astype(np.float32).astype(np.float64) if y.dtype == np.float64 else y for y in ys]


class QuietsNaNs(Correct):
    """Float copies through arithmetic: signalling NaNs come back quiet (the quiet bit set)."""

    def outputs(self, descriptor, inputs, feature_level):
        ys = super().outputs(descriptor, inputs, feature_level)
        for y in ys:
            if y.dtype.kind == "f" and y.size:
                nan = np.isnan(y.reshape(-1))
                quiet = {2: 0x0200, 4: 0x00400000, 8: 0x0008000000000000}[y.dtype.itemsize]
                bits = _bits(y)
                bits[nan] |= bits.dtype.type(quiet)
        return ys


class FlushesFloat16Denormals(Correct):
    """FLOAT16 through a path that flushes denormals to zero (sign kept)."""

    def outputs(self, descriptor, inputs, feature_level):
        ys = super().outputs(descriptor, inputs, feature_level)
        for y in ys:
            if y.dtype == np.float16 and y.size:
                bits = _bits(y)
                denormal = (bits & 0x7C00) == 0
                bits[denormal] &= np.uint16(0x8000)
        return ys


class LosesNegativeZero(Correct):
    """-0.0 becomes +0.0 (a copy through x + 0.0)."""

    def outputs(self, descriptor, inputs, feature_level):
        ys = super().outputs(descriptor, inputs, feature_level)
        return [np.where(y == 0, np.zeros_like(y), y) if y.dtype.kind == "f" else y for y in ys]


def _mode(descriptor) -> PaddingMode | None:
    return getattr(descriptor, "padding_mode", None)


class ReflectOnePeriod(Correct):
    """REFLECTION folds once: padding longer than the axis repeats the edge instead of folding on (PAD.3)."""

    def outputs(self, descriptor, inputs, feature_level):
        if _mode(descriptor) is not PaddingMode.REFLECTION:
            return super().outputs(descriptor, inputs, feature_level)
        return [_pad_clamped(descriptor, inputs[0], "reflect")]


class SymmetricOnePeriod(Correct):
    """SYMMETRIC folds once, then repeats the edge."""

    def outputs(self, descriptor, inputs, feature_level):
        if _mode(descriptor) is not PaddingMode.SYMMETRIC:
            return super().outputs(descriptor, inputs, feature_level)
        return [_pad_clamped(descriptor, inputs[0], "symmetric")]


def _pad_clamped(desc, x: np.ndarray, mode: str) -> np.ndarray:
    """numpy's pad of one period per axis, then edge padding for the rest."""
    out = np.asarray(x)
    for axis, (s, e, n) in enumerate(zip(desc.start_padding, desc.end_padding, desc.input_tensor.sizes)):
        reach = n - 1 if mode == "reflect" else n
        one = [(0, 0)] * out.ndim
        one[axis] = (min(s, reach), min(e, reach))
        out = np.pad(out, one, mode=mode) if n > 1 or mode == "symmetric" else np.pad(out, one, mode="edge")
        rest = [(0, 0)] * out.ndim
        rest[axis] = (s - one[axis][0], e - one[axis][1])
        out = np.pad(out, rest, mode="edge")
    return np.ascontiguousarray(out, dtype=x.dtype)


class SymmetricAsReflect(Correct):
    """SYMMETRIC computed as REFLECTION (the edge element not repeated)."""

    def outputs(self, descriptor, inputs, feature_level):
        if _mode(descriptor) is PaddingMode.SYMMETRIC:
            descriptor = dataclasses.replace(descriptor, padding_mode=PaddingMode.REFLECTION)
            feature_level = max(FeatureLevel)
        return super().outputs(descriptor, inputs, feature_level)


class ConstantIgnoresValue(Correct):
    """CONSTANT pads with zero whatever PaddingValue says."""

    def outputs(self, descriptor, inputs, feature_level):
        if _mode(descriptor) is PaddingMode.CONSTANT:
            descriptor = dataclasses.replace(descriptor, padding_value=0.0)
        return super().outputs(descriptor, inputs, feature_level)


class PaddingValueRounds(Correct):
    """PaddingValue into an integer type rounded to nearest, where the page truncates (10.6 becomes 10, PAD.4)."""

    def outputs(self, descriptor, inputs, feature_level):
        ys = super().outputs(descriptor, inputs, feature_level)
        value = float(descriptor.padding_value) if _mode(descriptor) is PaddingMode.CONSTANT else float("nan")
        if ys[0].dtype.kind in "iu" and np.isfinite(value) and value != int(value):
            info = np.iinfo(ys[0].dtype)
            rounded = round(value)
            if info.min <= rounded <= info.max and info.min <= int(value) <= info.max:
                y = ys[0]
                interior = np.zeros(y.shape, dtype=bool)
                interior[
                    tuple(slice(s, s + n) for s, n in zip(descriptor.start_padding, descriptor.input_tensor.sizes))
                ] = True
                y[~interior] = y.dtype.type(rounded)
        return ys


class EdgeOffByOne(Correct):
    """EDGE repeats the element next to the edge (index 1, or n-2) instead of the edge itself."""

    def outputs(self, descriptor, inputs, feature_level):
        if _mode(descriptor) is not PaddingMode.EDGE:
            return super().outputs(descriptor, inputs, feature_level)
        x = np.asarray(inputs[0])
        out = x
        for axis, (s, e, n) in enumerate(zip(descriptor.start_padding, descriptor.end_padding, x.shape)):
            if n < 2 or (s == 0 and e == 0):
                out = np.pad(out, [(s, e) if a == axis else (0, 0) for a in range(out.ndim)], mode="edge")
                continue
            first = np.take(out, [1], axis=axis)
            last = np.take(out, [n - 2], axis=axis)
            out = np.concatenate([np.repeat(first, s, axis=axis), out, np.repeat(last, e, axis=axis)], axis=axis)
        return [np.ascontiguousarray(out, dtype=x.dtype)]


class Slice1CopyStartOffByOne(Correct):
    """SLICE1 with a negative stride starts one element early (CopyStart = offset + size, not + size - 1)."""

    def outputs(self, descriptor, inputs, feature_level):
        if descriptor.operator != "SLICE1" or all(s > 0 for s in descriptor.window_strides):
            return super().outputs(descriptor, inputs, feature_level)
        offsets = tuple(
            max(0, o - 1) if s < 0 else o for o, s in zip(descriptor.window_offsets, descriptor.window_strides)
        )
        shifted = dataclasses.replace(descriptor, window_offsets=offsets)
        try:
            return super().outputs(shifted, inputs, feature_level)
        except InvalidDescriptor:
            return super().outputs(descriptor, inputs, feature_level)


class SliceStrideIgnored(Correct):
    """DML_SLICE copies with stride 1 whatever Strides says (strides > 1 only in a later driver)."""

    def outputs(self, descriptor, inputs, feature_level):
        if descriptor.operator != "SLICE":
            return super().outputs(descriptor, inputs, feature_level)
        x = np.asarray(inputs[0])
        window = tuple(slice(o, o + n) for o, n in zip(descriptor.offsets, descriptor.sizes))
        return [np.ascontiguousarray(x[window])]


class RefusesRank(Correct):
    """Refuses rank 8 descriptors (a table of 7 dimensions)."""

    rank = 8

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        if descriptor.input_tensor.dimension_count == self.rank:
            return RunResult.rejected(f"E_INVALIDARG: rank {self.rank}")
        return super().run(descriptor, inputs, feature_level)


class RefusesRank1(RefusesRank):
    """Refuses 1-D tensors (expects at least 2 dimensions, a common lowering assumption)."""

    rank = 1


class AcceptsInvalid(Correct):
    """Validation missing: every invalid descriptor is accepted."""

    def check_descriptor(self, descriptor, feature_level) -> RunResult:
        return RunResult.ok([])


class ValidationOffByOne(Correct):
    """Validation compares with <= where the pages say <: a window ending one past the input is accepted."""

    def check_descriptor(self, descriptor, feature_level) -> RunResult:
        result = super().check_descriptor(descriptor, feature_level)
        if result.status == "rejected" and _one_past(descriptor):
            return RunResult.ok([])
        return result


def _one_past(desc) -> bool:
    sizes = desc.input_tensor.sizes
    if desc.operator == "SLICE1":
        return any(o + w == n + 1 for o, w, n in zip(desc.window_offsets, desc.window_sizes, sizes))
    if desc.operator == "SLICE":
        return any(
            o + (w - 1) * max(s, 1) + 1 == n + 1 for o, w, s, n in zip(desc.offsets, desc.sizes, desc.strides, sizes)
        )
    if desc.operator == "SPLIT" and 0 <= desc.axis < len(sizes):
        return sum(t.sizes[desc.axis] for t in desc.output_tensors if len(t.sizes) > desc.axis) == sizes[desc.axis] + 1
    return False


class SplitAxisLastOnly(Correct):
    """SPLIT along any axis but the last splits the flat buffer as if the axis were the last."""

    def outputs(self, descriptor, inputs, feature_level):
        if descriptor.operator != "SPLIT" or descriptor.axis == descriptor.input_tensor.dimension_count - 1:
            return super().outputs(descriptor, inputs, feature_level)
        flat = np.asarray(inputs[0]).reshape(-1)
        out, at = [], 0
        for t in descriptor.output_tensors:
            n = int(np.prod(t.sizes))
            out.append(np.ascontiguousarray(flat[at : at + n]).reshape(t.sizes))
            at += n
        return out


class NegativePaddingValueInt8Zero(Correct):
    """PaddingValue into INT8 converted through an unsigned byte clamped at 0: every negative value pads 0."""

    def outputs(self, descriptor, inputs, feature_level):
        ys = super().outputs(descriptor, inputs, feature_level)
        if _mode(descriptor) is PaddingMode.CONSTANT and ys[0].dtype == np.int8:
            value = np.float64(descriptor.padding_value)
            if np.isfinite(value) and value < 0:
                y = ys[0]
                interior = np.zeros(y.shape, dtype=bool)
                interior[
                    tuple(slice(s, s + n) for s, n in zip(descriptor.start_padding, descriptor.input_tensor.sizes))
                ] = True
                y[~interior] = 0
        return ys


# --- bugs in one value class of one data type (issue 29: reach by construction) ---------------------------


class OneClass(Correct):
    """A bug that acts on one value class (conformance.cases.value_classes) of one operator in one data type.

    `operator`, `data_type` and `value_class` say where: tests/runner/test_seeded_bugs.py runs the quick
    profile on that operator and type (in one run with its OneClassGroup's other members, each acting in its
    own) and requires a reach case there to catch it (made there by construction).
    `wrong(descriptor, inputs, ys)` returns the outputs with the bug, or None where the bug does not act.
    """

    operator = ""
    data_type = ""
    value_class = ""

    def outputs(self, descriptor, inputs, feature_level):
        ys = super().outputs(descriptor, inputs, feature_level)
        # the case's data type as --data-types reads it (ONE_HOT's is its output's, FILL_VALUE_*'s their output's)
        if descriptor.operator != self.operator or oracle.case_tensor(descriptor).data_type.value != self.data_type:
            return ys
        wrong = self.wrong(descriptor, inputs, ys)
        return ys if wrong is None else wrong

    def wrong(self, descriptor, inputs, ys):
        raise NotImplementedError


def _padding_elements(descriptor) -> np.ndarray | None:
    """Where CONSTANT padding writes PaddingValue (None: another mode)."""
    if _mode(descriptor) is not PaddingMode.CONSTANT:
        return None
    mask = np.ones(descriptor.output_tensor.sizes, dtype=bool)
    mask[tuple(slice(s, s + n) for s, n in zip(descriptor.start_padding, descriptor.input_tensor.sizes))] = False
    return mask


class PaddingValueBug(OneClass):
    """The padding elements written with `bad(value as the type)` where `acts(it)`, the rest right."""

    def acts(self, value: np.generic) -> bool:
        raise NotImplementedError

    def bad(self, value: np.generic) -> np.generic:
        raise NotImplementedError

    def wrong(self, descriptor, inputs, ys):
        mask = _padding_elements(descriptor)
        y = ys[0]
        if mask is None or not mask.any():
            return None
        value = y[mask][0]
        if not self.acts(value):
            return None
        y[mask] = self.bad(value)
        return ys


class Float16PaddingNegativeZeroPositive(PaddingValueBug):
    """DML_PADDING into FLOAT16: a PaddingValue of -0.0 written as +0.0 (the half conversion drops a zero's sign)."""

    operator, data_type, value_class = "PADDING", "FLOAT16", "value -0.0"

    def acts(self, value):
        return value == 0 and np.signbit(value)

    def bad(self, value):
        return np.float16(0.0)


class Float16PaddingFractionTruncated(PaddingValueBug):
    """DML_PADDING into FLOAT16 through the integer path: -2.5 becomes -2 (PAD.4's truncation applied to a float)."""

    operator, data_type, value_class = "PADDING", "FLOAT16", "value fractional"

    def acts(self, value):
        return bool(np.isfinite(value)) and float(value) != int(value)

    def bad(self, value):
        return np.float16(np.trunc(value))


class Float32PaddingInfinityClamped(PaddingValueBug):
    """DML_PADDING into FLOAT32 through a saturating conversion: +inf padded as FLT_MAX."""

    operator, data_type, value_class = "PADDING", "FLOAT32", "value +inf"

    def acts(self, value):
        return bool(np.isposinf(value))

    def bad(self, value):
        return np.finfo(np.float32).max


class Uint32PaddingThroughInt32(PaddingValueBug):
    """DML_PADDING into UINT32 converted by a signed 32-bit conversion (x86 cvttss2si): 2^31 and up become 2^31."""

    operator, data_type, value_class = "PADDING", "UINT32", "value the type's max"

    def acts(self, value):
        return int(value) >= 2**31

    def bad(self, value):
        return np.uint32(2**31)


class Int16PaddingFloorsNegatives(OneClass):
    """DML_PADDING into INT16 rounded toward minus infinity (floor), not toward zero: -2.5 becomes -3 (PAD.4)."""

    operator, data_type, value_class = "PADDING", "INT16", "value negative"

    def wrong(self, descriptor, inputs, ys):
        value = float(descriptor.padding_value)
        mask = _padding_elements(descriptor)
        if mask is None or not np.isfinite(value) or value >= 0 or value == int(value) or value < -32768:
            return None
        ys[0][mask] = np.int16(np.floor(value))
        return ys


class Float64Padding1SignallingNaNQuieted(PaddingValueBug):
    """DML_PADDING1 in FLOAT64: a signalling NaN PaddingValue comes back quiet (the fill goes through an FPU load)."""

    operator, data_type, value_class = "PADDING1", "FLOAT64", "value signalling NaN"

    def acts(self, value):
        return bool(np.isnan(value)) and not int(np.asarray(value).view(np.uint64)) & 0x0008000000000000

    def bad(self, value):
        bits = np.asarray(value).view(np.uint64) | np.uint64(0x0008000000000000)
        return bits.view(np.float64)[()]


class Float16Padding1MinusInfSaturated(PaddingValueBug):
    """DML_PADDING1 in FLOAT16: -inf written as -65504 (the fill converted with saturation)."""

    operator, data_type, value_class = "PADDING1", "FLOAT16", "value -inf"

    def acts(self, value):
        return bool(np.isneginf(value))

    def bad(self, value):
        return np.float16(-65504.0)


class Int8Padding1MinSymmetricClamp(PaddingValueBug):
    """DML_PADDING1 in INT8: the fill clamped to [-127, 127] (a symmetric-quantization clamp): -128 becomes -127."""

    operator, data_type, value_class = "PADDING1", "INT8", "value the type's min"

    def acts(self, value):
        return int(value) == -128

    def bad(self, value):
        return np.int8(-127)


class Uint64Padding1ThroughDouble(PaddingValueBug):
    """DML_PADDING1 in UINT64: the union read through a double: values past 2^53 lose their low bits."""

    operator, data_type, value_class = "PADDING1", "UINT64", "value the type's max"

    def acts(self, value):
        return int(value) >= 2**53 and int(value) & 0x7FF

    def bad(self, value):
        return np.uint64(int(value) & ~0x7FF)


class Int16SymmetricPastAxisOnePeriod(OneClass):
    """DML_PADDING SYMMETRIC in INT16: padding past the axis folds once, then repeats the edge."""

    operator, data_type, value_class = "PADDING", "INT16", "SYMMETRIC padding past the axis"

    def wrong(self, descriptor, inputs, ys):
        if _mode(descriptor) is not PaddingMode.SYMMETRIC:
            return None
        return [_pad_clamped(descriptor, inputs[0], "symmetric")]


class Uint16Slice1NegativeStrideForward(OneClass):
    """DML_SLICE1 in UINT16: a negative stride read forward from the window's start (its sign dropped)."""

    operator, data_type, value_class = "SLICE1", "UINT16", "stride -1"

    def wrong(self, descriptor, inputs, ys):
        if all(s > 0 for s in descriptor.window_strides):
            return None
        forward = dataclasses.replace(descriptor, window_strides=tuple(abs(s) for s in descriptor.window_strides))
        return Correct.outputs(self, forward, inputs, max(FeatureLevel))


class Float16Slice1FewerOutputsStart(OneClass):
    """DML_SLICE1 in FLOAT16: with a negative stride, CopyStart counted back from the outputs, not from the window's
    end (offset + (out - 1) * |stride|, not offset + size - 1): right only where the outputs reach the window's start
    exactly, wrong whenever fewer are taken than the window gives."""

    operator, data_type, value_class = "SLICE1", "FLOAT16", "output < MaxCopiedElements"

    def wrong(self, descriptor, inputs, ys):
        # the window the bug believes in, on each axis with a negative stride: it ends where the outputs end
        windows = [
            (out - 1) * -s + 1 if s < 0 else w
            for w, s, out in zip(descriptor.window_sizes, descriptor.window_strides, descriptor.output_tensor.sizes)
        ]
        if tuple(windows) == descriptor.window_sizes:
            return None
        changed = dataclasses.replace(descriptor, window_sizes=tuple(windows))
        return Correct.outputs(self, changed, inputs, max(FeatureLevel))


class Float64SliceLastOffsetOffByOne(OneClass):
    """DML_SLICE in FLOAT64: an offset at the axis's last element clamped to the one before (a bound of size - 2)."""

    operator, data_type, value_class = "SLICE", "FLOAT64", "offset last element"

    def wrong(self, descriptor, inputs, ys):
        sizes = descriptor.input_tensor.sizes
        offsets = tuple(o - 1 if o == n - 1 and n > 1 else o for o, n in zip(descriptor.offsets, sizes))
        if offsets == descriptor.offsets:
            return None
        return Correct.outputs(self, dataclasses.replace(descriptor, offsets=offsets), inputs, max(FeatureLevel))


class Int64SplitOneOutputHalfCopied(OneClass):
    """DML_SPLIT in INT64 into one output (a plain copy path) sized with 4-byte elements: only the first half of
    the bytes copied, the rest left zero."""

    operator, data_type, value_class = "SPLIT", "INT64", "outputs 1"

    def wrong(self, descriptor, inputs, ys):
        if len(ys) != 1 or ys[0].size < 2:
            return None
        flat = ys[0].reshape(-1)
        flat[(flat.size + 1) // 2 :] = 0
        return ys


class Uint8SplitAxis0BaseIgnored(OneClass):
    """DML_SPLIT in UINT8 along axis 0 of a tensor of rank 2 or more: every output read from the input's start."""

    operator, data_type, value_class = "SPLIT", "UINT8", "axis 0"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.axis != 0 or descriptor.input_tensor.dimension_count < 2 or len(ys) < 2:
            return None
        x = np.asarray(inputs[0])
        return [np.ascontiguousarray(x[: y.shape[0]]) for y in ys]


class Uint32JoinMiddleAxisFlat(OneClass):
    """DML_JOIN in UINT32 along a middle axis: the inputs' buffers laid end to end, as if the axis were the first."""

    operator, data_type, value_class = "JOIN", "UINT32", "axis middle"

    def wrong(self, descriptor, inputs, ys):
        rank = descriptor.output_tensor.dimension_count
        if not 0 < descriptor.axis < rank - 1:
            return None
        flat = np.concatenate([np.asarray(x).reshape(-1) for x in inputs])
        return [np.ascontiguousarray(flat.reshape(ys[0].shape))]


class Float64JoinSizeOnePieceSkipped(OneClass):
    """DML_JOIN in FLOAT64: an input of size 1 along the axis (taken for a broadcast) is not written: zeros."""

    operator, data_type, value_class = "JOIN", "FLOAT64", "piece of size 1"

    def wrong(self, descriptor, inputs, ys):
        pieces = [t.sizes[descriptor.axis] for t in descriptor.input_tensors]
        if 1 not in pieces or max(pieces) == 1:
            return None
        y = ys[0]
        at = 0
        for n in pieces:
            if n == 1:
                y[(slice(None),) * descriptor.axis + (slice(at, at + 1),)] = 0
            at += n
        return ys


class LayoutOneClass(OneClass):
    """A one-class bug in a layout (a strided identity): this backend takes tensor layouts, as DirectML does."""

    def capabilities(self) -> Capabilities:
        return dataclasses.replace(super().capabilities(), tensor_layouts=True)


class Uint16IdentityTransposeReadPacked(LayoutOneClass):
    """DML_ELEMENT_WISE_IDENTITY in UINT16 with a transposed input: the input's strides ignored, its buffer read
    as if packed (a strided UINT16 copy shader miscompiled, as reported against DirectML's copy shaders)."""

    operator, data_type, value_class = "ELEMENT_WISE_IDENTITY", "UINT16", "input transposed (permuted strides)"

    def wrong(self, descriptor, inputs, ys):
        t = descriptor.input_tensor
        if t.strides is None or 0 in t.strides or list(t.strides) == sorted(t.strides, reverse=True):
            return None
        buffer = oracle.layout.pack(np.asarray(inputs[0]), t).view(ys[0].dtype)
        return [np.ascontiguousarray(buffer[: ys[0].size].reshape(ys[0].shape))]


class Float16IdentityBroadcastFirstRowOnly(LayoutOneClass):
    """DML_ELEMENT_WISE_IDENTITY in FLOAT16 with a broadcast input (a 0 stride): only the first copy along the
    broadcast axis written, the repeats left zero (ONNX Runtime's Expand through a strided identity)."""

    operator, data_type, value_class = "ELEMENT_WISE_IDENTITY", "FLOAT16", "input broadcast (a 0 stride)"

    def wrong(self, descriptor, inputs, ys):
        strides = descriptor.input_tensor.strides
        if strides is None or 0 not in strides:
            return None
        axis = list(strides).index(0)
        if ys[0].shape[axis] < 2:
            return None
        ys[0][(slice(None),) * axis + (slice(1, None),)] = 0
        return ys


class Uint16TileSizeOneAxisWrittenOnce(OneClass):
    """DML_TILE in UINT16: an axis of size 1 tiled (a broadcast the kernel takes for a plain copy) gets its first
    copy only; the other copies along it stay zero."""

    operator, data_type, value_class = "TILE", "UINT16", "size-1 axis tiled"

    def wrong(self, descriptor, inputs, ys):
        axes = [
            i for i, (n, r) in enumerate(zip(descriptor.input_tensor.sizes, descriptor.repeats)) if n == 1 and r > 1
        ]
        if not axes:
            return None
        ys[0][(slice(None),) * axes[0] + (slice(1, None),)] = 0
        return ys


class Int64TileThirdCopyOnward(OneClass):
    """DML_TILE in INT64 with 3 or more copies along an axis: a loop unrolled for two copies, the third and later
    ones left zero."""

    operator, data_type, value_class = "TILE", "INT64", "repeats many (3+)"

    def wrong(self, descriptor, inputs, ys):
        axes = [i for i, r in enumerate(descriptor.repeats) if r >= 3]
        if not axes:
            return None
        i = axes[0]
        ys[0][(slice(None),) * i + (slice(2 * descriptor.input_tensor.sizes[i], None),)] = 0
        return ys


# --- issue 32, no input tensor --------------------------------------------------------------------------------


class Int64FillConstantLowWordSignExtended(OneClass):
    """DML_FILL_VALUE_CONSTANT in INT64 reading the union's low 32 bits and sign-extending them (a 32-bit
    constant buffer): the type's max, 0x7FFFFFFFFFFFFFFF, fills as -1."""

    operator, data_type, value_class = "FILL_VALUE_CONSTANT", "INT64", "value the type's max"

    def wrong(self, descriptor, inputs, ys):
        low = np.int64(np.array(int(descriptor.value) & 0xFFFFFFFF, dtype=np.uint32).view(np.int32))
        if low == descriptor.value:
            return None
        return [np.full_like(ys[0], low)]


class Uint8FillSequenceSaturates(OneClass):
    """DML_FILL_VALUE_SEQUENCE in UINT8 computing in 32 bits and saturating into the type instead of wrapping
    (FILLS.3): a sequence past 255 stays at 255."""

    operator, data_type, value_class = "FILL_VALUE_SEQUENCE", "UINT8", "sequence wraps"

    def wrong(self, descriptor, inputs, ys):
        start, delta = int(descriptor.value_start), int(descriptor.value_delta)
        if delta >= 128:  # a step down (E-FILLS-1): not this bug's
            return None
        i = np.arange(ys[0].size, dtype=np.int64)
        flat = np.minimum(start + i * delta, 255).astype(np.uint8)
        return None if np.array_equal(flat, ys[0].reshape(-1)) else [flat.reshape(ys[0].shape)]


class Float16DiagonalLeftShiftedRight(OneClass):
    """DML_DIAGONAL_MATRIX in FLOAT16 taking |Offset|: a diagonal shifted left/down (Offset < 0) is drawn to the
    right/up instead."""

    operator, data_type, value_class = "DIAGONAL_MATRIX", "FLOAT16", "offset left"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.offset >= 0:
            return None
        return oracle.compute(dataclasses.replace(descriptor, offset=-descriptor.offset), [], feature_level="6.4")


class Int16Diagonal1InvertedBandEmpty(OneClass):
    """DML_DIAGONAL_MATRIX1 in INT16 with DiagonalFillBegin > DiagonalFillEnd: the band read as empty (nothing
    filled) instead of reversed (DIAG1.3)."""

    operator, data_type, value_class = "DIAGONAL_MATRIX1", "INT16", "band inverted"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.diagonal_fill_begin <= descriptor.diagonal_fill_end:
            return None
        kept = np.asarray(inputs[0]) if inputs else np.zeros_like(ys[0])
        return [kept.copy()]


# --- issue 31, the depth-space family ---------------------------------------------------------------------


def _to_space(x: np.ndarray, b: int, axes: tuple[int, ...], depth_first: bool) -> np.ndarray:
    """Depth {N, C*b*b, H, W} to space, the depth split as [b, b, C] (depth_first) or [C, b, b], then `axes`."""
    n, c, h, w = x.shape
    view = (n, b, b, c // (b * b), h, w) if depth_first else (n, c // (b * b), b, b, h, w)
    return np.ascontiguousarray(x.reshape(view).transpose(axes).reshape(n, c // (b * b), h * b, w * b))


class Uint16DepthToSpace1CrdReadAsDcr(OneClass):
    """DML_DEPTH_TO_SPACE1 in UINT16 with COLUMN_ROW_DEPTH: the depth read as DEPTH_COLUMN_ROW (the Order ignored)."""

    operator, data_type, value_class = "DEPTH_TO_SPACE1", "UINT16", "order COLUMN_ROW_DEPTH"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.order.value != "COLUMN_ROW_DEPTH" or descriptor.block_size == 1:
            return None
        return [_to_space(np.asarray(inputs[0]), descriptor.block_size, (0, 3, 4, 1, 5, 2), True)]


class Int8DepthToSpaceBlock3RowColumnSwapped(OneClass):
    """DML_DEPTH_TO_SPACE in INT8 with BlockSize 3 or more: BlockHeight and BlockWidth swapped in the depth."""

    operator, data_type, value_class = "DEPTH_TO_SPACE", "INT8", "block 3+"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.block_size < 3:
            return None
        return [_to_space(np.asarray(inputs[0]), descriptor.block_size, (0, 3, 4, 2, 5, 1), True)]


class Float16SpaceToDepth1CrdWrittenAsDcr(OneClass):
    """DML_SPACE_TO_DEPTH1 in FLOAT16 with COLUMN_ROW_DEPTH: the depth written as DEPTH_COLUMN_ROW (the Order
    ignored; the two agree when there is one channel)."""

    operator, data_type, value_class = "SPACE_TO_DEPTH1", "FLOAT16", "order COLUMN_ROW_DEPTH"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.order.value != "COLUMN_ROW_DEPTH":
            return None
        dcr = dataclasses.replace(descriptor, order=oracle.DepthSpaceOrder.DEPTH_COLUMN_ROW)
        return Correct.outputs(self, dcr, inputs, max(FeatureLevel))


class Uint32SpaceToDepthFirstBatchOnly(OneClass):
    """DML_SPACE_TO_DEPTH in UINT32 with several batches: one dispatch's worth, every batch written from the
    first batch's space (the batch offset never added to the input's address)."""

    operator, data_type, value_class = "SPACE_TO_DEPTH", "UINT32", "batch several"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.input_tensor.sizes[0] < 2:
            return None
        y = ys[0]
        y[1:] = y[0]
        return ys


class Int8SliceGradNegativeStrideForward(OneClass):
    """DML_SLICE_GRAD in INT8: a stride below -1 written forwards from the window's offset (the sign dropped)."""

    operator, data_type, value_class = "SLICE_GRAD", "INT8", "stride < -1"

    def wrong(self, descriptor, inputs, ys):
        if not any(s < -1 for s in descriptor.window_strides):
            return None
        forward = dataclasses.replace(descriptor, window_strides=tuple(abs(s) for s in descriptor.window_strides))
        return Correct.outputs(self, forward, inputs, max(FeatureLevel))


class Float32SliceGradGapsNotZeroed(OneClass):
    """DML_SLICE_GRAD in FLOAT32 with a stride > 1: the elements between the written ones are left as the buffer
    held them (0xCDCDCDCD), not set to 0."""

    operator, data_type, value_class = "SLICE_GRAD", "FLOAT32", "stride > 1"

    def wrong(self, descriptor, inputs, ys):
        if not any(s > 1 for s in descriptor.window_strides):
            return None
        written = np.ones(descriptor.output_tensor.sizes, dtype=bool)
        for axis, m in enumerate(op_slice_grad.index_maps(descriptor)):  # -1: no input element lands there
            shape = [1] * written.ndim
            shape[axis] = len(m)
            written &= (np.asarray(m) >= 0).reshape(shape)
        y = ys[0]
        y.view(np.uint32)[~written] = 0xCDCDCDCD
        return ys


# --- issue 31, DML_REVERSE_SUBSEQUENCES ---------------------------------------------------------------------


class Uint16ReverseSubsequencesAxis0WholeAxis(OneClass):
    """DML_REVERSE_SUBSEQUENCES in UINT16 along axis 0: the lengths ignored, every subsequence reversed whole (a
    UINT16 reversal miscompiled, as reported against DirectML's copy shaders)."""

    operator, data_type, value_class = "REVERSE_SUBSEQUENCES", "UINT16", "axis first"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.axis != 0 or descriptor.input_tensor.dimension_count < 2:
            return None
        return [np.ascontiguousarray(np.flip(np.asarray(inputs[0]), axis=0))]


class Int32ReverseSubsequencesUint64LengthsLowWord(OneClass):
    """DML_REVERSE_SUBSEQUENCES in INT32 with UINT64 lengths: each length read as its low 32 bits (2^32 + 1 is 1)."""

    operator, data_type, value_class = "REVERSE_SUBSEQUENCES", "INT32", "lengths UINT64"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.sequence_lengths_tensor.data_type.value != "UINT64":
            return None
        low = (np.asarray(inputs[1], dtype=np.uint64) & np.uint64(2**32 - 1)).astype(np.uint64)
        return Correct.outputs(self, descriptor, [inputs[0], low], max(FeatureLevel))


# --- issue 32, DML_GATHER_ND(1) ---------------------------------------------------------------------------------


class Float16GatherNdNegativeIndexAsZero(OneClass):
    """DML_GATHER_ND in FLOAT16 with INT32 indices: a negative index read as 0, not from the end (GND.6; a kernel
    that clamps below instead of wrapping)."""

    operator, data_type, value_class = "GATHER_ND", "FLOAT16", "indices INT32"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.indices_tensor.data_type.value != "INT32":
            return None
        indices = np.maximum(np.asarray(inputs[1]), 0).astype(np.int32)
        return Correct.outputs(self, descriptor, [inputs[0], indices], max(FeatureLevel))


class Uint8GatherNd1BatchesIgnored(OneClass):
    """DML_GATHER_ND1 in UINT8 with batches: every batch reads batch 0's data (the batch offset dropped)."""

    operator, data_type, value_class = "GATHER_ND1", "UINT8", "batches"

    def wrong(self, descriptor, inputs, ys):
        b = descriptor.batch_dimension_count
        if not b:
            return None
        x = np.asarray(inputs[0])
        first = descriptor.dimension_count - descriptor.input_dimension_count
        at = tuple(slice(0, 1) if first <= d < first + b else slice(None) for d in range(x.ndim))
        return Correct.outputs(self, descriptor, [np.broadcast_to(x[at], x.shape).copy(), inputs[1]], max(FeatureLevel))


# --- issue 32, DML_GATHER -----------------------------------------------------------------------------------------


class Int16GatherNegativeIndicesClamped(OneClass):
    """DML_GATHER in INT16 with INT32 indices: a negative index clamped to 0 instead of counted from the end
    (GATHER.3), as a kernel that clamps every index into [0, n) before the sign is looked at."""

    operator, data_type, value_class = "GATHER", "INT16", "indices INT32"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.indices_tensor.data_type.value != "INT32":
            return None
        return Correct.outputs(self, descriptor, [inputs[0], np.maximum(np.asarray(inputs[1]), 0)], max(FeatureLevel))


class Float32GatherOutOfRangeZero(OneClass):
    """DML_GATHER in FLOAT32 with UINT32 indices: an out-of-range index yields 0.0, a value read from outside the
    input (a robust-access zero), where GATHER.4 promises every read clamped within the input's memory."""

    operator, data_type, value_class = "GATHER", "FLOAT32", "indices UINT32"

    def wrong(self, descriptor, inputs, ys):
        bad = op_gather.open_elements(descriptor, inputs)
        if not bad.any():
            return None
        y = np.array(ys[0])
        y[bad] = 0.0
        return [y]


class Uint8GatherElementsLastAxisReadsFirstRow(OneClass):
    """DML_GATHER_ELEMENTS in UINT8 along the last axis: every element read from row 0 of the dimensions before
    Axis (the index applied, the output's own coordinate off Axis dropped), as a kernel that strides only Axis."""

    operator, data_type, value_class = "GATHER_ELEMENTS", "UINT8", "axis last"

    def wrong(self, descriptor, inputs, ys):
        n = descriptor.input_tensor.dimension_count
        if descriptor.axis != n - 1 or n < 2:
            return None
        x = np.asarray(inputs[0])
        first = np.broadcast_to(x[(0,) * (n - 1)][None], (int(np.prod(x.shape[:-1])), x.shape[-1]))
        first = first.reshape(x.shape)
        return Correct.outputs(self, descriptor, [np.ascontiguousarray(first), inputs[1]], max(FeatureLevel))


# --- issue 32, DML_SCATTER ---------------------------------------------------------------------------------


class Int16ScatterNegativeIndicesDropped(OneClass):
    """DML_SCATTER in INT16 with INT32 indices: a negative index taken for an out-of-range one and its write
    dropped, not counted from the end (SCATTER.3)."""

    operator, data_type, value_class = "SCATTER", "INT16", "indices INT32"

    def wrong(self, descriptor, inputs, ys):
        indices = np.asarray(inputs[1])
        if descriptor.indices_tensor.data_type.value != "INT32" or not (indices < 0).any():
            return None
        outside = np.where(indices < 0, np.iinfo(np.int32).max, indices).astype(indices.dtype)  # a write dropped
        return Correct.outputs(self, descriptor, [inputs[0], outside, inputs[2]], max(FeatureLevel))


class Float16ScatterMiddleAxisUpdatesIgnored(OneClass):
    """DML_SCATTER in FLOAT16 on a middle axis: the updates never written (the output is the input copied)."""

    operator, data_type, value_class = "SCATTER", "FLOAT16", "axis middle"

    def wrong(self, descriptor, inputs, ys):
        n = descriptor.input_tensor.dimension_count
        if not 0 < descriptor.axis < n - 1:
            return None
        return [np.array(inputs[0], copy=True)]


class Float32ScatterNdNegativeTuplesDropped(OneClass):
    """DML_SCATTER_ND in FLOAT32 with INT32 indices: a tuple with a negative coordinate taken for an out-of-range one
    and its slice not written, not counted from the end (SCATND.3)."""

    operator, data_type, value_class = "SCATTER_ND", "FLOAT32", "indices INT32"

    def wrong(self, descriptor, inputs, ys):
        indices = np.asarray(inputs[1])
        if descriptor.indices_tensor.data_type.value != "INT32" or not (indices < 0).any():
            return None
        outside = np.where(indices < 0, np.iinfo(np.int32).max, indices).astype(indices.dtype)  # the slice dropped
        return Correct.outputs(self, descriptor, [inputs[0], outside, inputs[2]], max(FeatureLevel))


# --- issue 31, DML_CAST (its value classes: the output's type, per input type) ----------------------------------


class CastOneClass(OneClass):
    """A DML_CAST bug acting on one input type cast into one output type (`to_type`, the class "to <type>")."""

    to_type = ""

    def outputs(self, descriptor, inputs, feature_level):
        if descriptor.operator == "CAST" and descriptor.output_tensor.data_type.value != self.to_type:
            return Correct.outputs(self, descriptor, inputs, feature_level)
        return super().outputs(descriptor, inputs, feature_level)


class Int64CastToFloat64LowWordOnly(CastOneClass):
    """DML_CAST from INT64 to FLOAT64 through the low 32-bit word, read unsigned: -1 becomes 4294967295 (the
    emulated INT64 to FLOAT64 cast shader reported miscompiled)."""

    operator, data_type, value_class, to_type = "CAST", "INT64", "to FLOAT64", "FLOAT64"

    def wrong(self, descriptor, inputs, ys):
        low = np.asarray(inputs[0]).astype(np.int64).view(np.uint64) & np.uint64(0xFFFFFFFF)
        return [low.astype(np.float64).reshape(ys[0].shape)]


class Uint16CastToUint64SignExtended(CastOneClass):
    """DML_CAST from UINT16 to UINT64 with the sign extended (read as INT16): 32768 becomes 0xFFFFFFFFFFFF8000 (16-
    to 64-bit casts reported wrong on some GPUs before DirectML 1.10)."""

    operator, data_type, value_class, to_type = "CAST", "UINT16", "to UINT64", "UINT64"

    def wrong(self, descriptor, inputs, ys):
        signed = np.asarray(inputs[0]).astype(np.uint16).view(np.int16).astype(np.int64)
        return [signed.view(np.uint64).reshape(ys[0].shape)]


class Float16CastToFloat32DenormalsFlushed(CastOneClass):
    """DML_CAST from FLOAT16 to FLOAT32 with FLOAT16's subnormals flushed to a zero of their sign."""

    operator, data_type, value_class, to_type = "CAST", "FLOAT16", "to FLOAT32", "FLOAT32"

    def wrong(self, descriptor, inputs, ys):
        x = np.asarray(inputs[0]).astype(np.float16)
        subnormal = (x != 0) & (np.abs(x) < np.finfo(np.float16).smallest_normal)
        y = ys[0]
        y[subnormal] = np.copysign(np.float32(0), y[subnormal])
        return ys


# --- issue 32, DML_ONE_HOT ------------------------------------------------------------------------------------


class Uint8OneHotUint64IndicesLowWord(OneClass):
    """DML_ONE_HOT in UINT8 with UINT64 indices read as their low 32 bits: 2^32 + 1 puts OnValue at 1 where the page
    ignores the index (ONEHOT.2; the public report of large UINT64 indices, fixed in DirectML 1.9.1)."""

    operator, data_type, value_class = "ONE_HOT", "UINT8", "indices UINT64"

    def wrong(self, descriptor, inputs, ys):
        if descriptor.indices_tensor.data_type.value != "UINT64":
            return None
        low = np.asarray(inputs[0], dtype=np.uint64) & np.uint64(2**32 - 1)
        return Correct.outputs(self, descriptor, [low, inputs[1]], max(FeatureLevel))


# Each acts on one class of one operator in one type: the quick profile must catch each (test_seeded_bugs.py).
ONE_CLASS_MUTANTS: list[type[OneClass]] = [
    Float16PaddingNegativeZeroPositive,
    Float16PaddingFractionTruncated,
    Float32PaddingInfinityClamped,
    Uint32PaddingThroughInt32,
    Int16PaddingFloorsNegatives,
    Float64Padding1SignallingNaNQuieted,
    Float16Padding1MinusInfSaturated,
    Int8Padding1MinSymmetricClamp,
    Uint64Padding1ThroughDouble,
    Int16SymmetricPastAxisOnePeriod,
    Uint16Slice1NegativeStrideForward,
    Float16Slice1FewerOutputsStart,
    Float64SliceLastOffsetOffByOne,
    Int64SplitOneOutputHalfCopied,
    Uint8SplitAxis0BaseIgnored,
    Uint32JoinMiddleAxisFlat,
    Float64JoinSizeOnePieceSkipped,
    Uint16IdentityTransposeReadPacked,
    Float16IdentityBroadcastFirstRowOnly,
    Uint16TileSizeOneAxisWrittenOnce,
    Int64TileThirdCopyOnward,
    # issue 31, the depth-space family
    Uint16DepthToSpace1CrdReadAsDcr,
    Int8DepthToSpaceBlock3RowColumnSwapped,
    Float16SpaceToDepth1CrdWrittenAsDcr,
    Uint32SpaceToDepthFirstBatchOnly,
    Int8SliceGradNegativeStrideForward,
    Float32SliceGradGapsNotZeroed,
    Uint16ReverseSubsequencesAxis0WholeAxis,
    Int32ReverseSubsequencesUint64LengthsLowWord,
    # issue 32
    Float16GatherNdNegativeIndexAsZero,
    Uint8GatherNd1BatchesIgnored,
    # issue 32, DML_GATHER
    Int16GatherNegativeIndicesClamped,
    Float32GatherOutOfRangeZero,
    Uint8GatherElementsLastAxisReadsFirstRow,
    # issue 32, DML_SCATTER
    Int16ScatterNegativeIndicesDropped,
    Float16ScatterMiddleAxisUpdatesIgnored,
    Float32ScatterNdNegativeTuplesDropped,
    # issue 31, DML_CAST
    Int64CastToFloat64LowWordOnly,
    Uint16CastToUint64SignExtended,
    # issue 32, no input tensor
    Int64FillConstantLowWordSignExtended,
    Uint8FillSequenceSaturates,
    Float16DiagonalLeftShiftedRight,
    Int16Diagonal1InvertedBandEmpty,
    # issue 32
    Uint8OneHotUint64IndicesLowWord,
]


class OneClassGroup(Correct):
    """Several one-class bugs as one backend, so that one run checks them all (test_seeded_bugs.py's speed).

    Each member acts where it would alone: a case goes to the member of its operator and data type (no two
    members share one, nor differ in capabilities), any other case to Correct; a failing case of a member's
    operator and type is therefore that member's catch.  ONE_CLASS_GROUPS below deals the table into them.
    """

    members: tuple[type[OneClass], ...] = ()

    def __init__(self) -> None:
        super().__init__()
        self._at = {(m.operator, m.data_type): m() for m in self.members}
        self._correct = Correct()
        self._capabilities = next(iter(self._at.values())).capabilities()  # the members' own, all alike

    def _member(self, descriptor) -> Correct:
        place = (descriptor.operator, oracle.case_tensor(descriptor).data_type.value)
        return self._at.get(place, self._correct)

    def capabilities(self) -> Capabilities:
        return self._capabilities

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        return self._member(descriptor).run(descriptor, inputs, feature_level)

    def check_descriptor(self, descriptor, feature_level) -> RunResult:
        return self._member(descriptor).check_descriptor(descriptor, feature_level)


def _one_class_groups(mutants: list[type[OneClass]]) -> list[type[OneClassGroup]]:
    """The mutants dealt, in order, into the first group with their capabilities and without their place."""
    dealt: list[list[type[OneClass]]] = []
    for m in mutants:
        fits = (
            g
            for g in dealt
            if g[0]().capabilities() == m().capabilities()
            and (m.operator, m.data_type) not in {(o.operator, o.data_type) for o in g}
        )
        group = next(fits, None)
        if group is None:
            dealt.append(group := [])
        group.append(m)
    return [
        type(f"OneClassGroup{i}", (OneClassGroup,), {"members": tuple(g), "name": f"OneClassGroup{i}"})
        for i, g in enumerate(dealt, 1)
    ]


# `mutants:OneClassGroup1`, ...: each a module attribute, so that a run (and its repro lines) can name it.
ONE_CLASS_GROUPS = _one_class_groups(ONE_CLASS_MUTANTS)
globals().update({g.__name__: g for g in ONE_CLASS_GROUPS})


MUTANTS = [
    SplitDropsPast8,
    SplitDropsPast64,
    Copy64InLowWord,
    Float64ThroughFloat32,
    QuietsNaNs,
    FlushesFloat16Denormals,
    LosesNegativeZero,
    ReflectOnePeriod,
    SymmetricOnePeriod,
    SymmetricAsReflect,
    ConstantIgnoresValue,
    PaddingValueRounds,
    EdgeOffByOne,
    Slice1CopyStartOffByOne,
    SliceStrideIgnored,
    RefusesRank,
    RefusesRank1,
    AcceptsInvalid,
    ValidationOffByOne,
    SplitAxisLastOnly,
    NegativePaddingValueInt8Zero,
    *ONE_CLASS_MUTANTS,
    # One-class, but benchmarked only: the test suite's seeded-bug test runs the two CAST bugs the issue names.
    Float16CastToFloat32DenormalsFlushed,
]
CORRECT = [Correct, CorrectViaLiteral]
for _cls in MUTANTS:
    _cls.name = _cls.__name__
del _cls

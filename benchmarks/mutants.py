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
from oracle import FeatureLevel, InvalidDescriptor, PaddingMode


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
]
CORRECT = [Correct, CorrectViaLiteral]
for _cls in MUTANTS:
    _cls.name = _cls.__name__
del _cls

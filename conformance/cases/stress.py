"""The stress profile: about thirty named cases at DirectML's limits, made from recipes, never stored.

Issue 13.  Every other case is small; these reach what breaks on real hardware: an axis longer
than 65,535 (the D3D12 limit on thread groups per dimension) for each operator, an input past
2^31 bytes and outputs past 2^31 and 2^32 bytes (32-bit offsets), 8-D tensors with every axis
> 1 and large strides, SPLIT into many outputs, and padding longer than its axis in every
periodic mode the spec allows.  A `StressCase` holds the descriptor and a recipe (`make_input`),
not tensors: the worker builds the input when it runs the case, computes the oracle's outputs in
chunks along axis 0 (`expected_chunks`), compares them chunk by chunk and drops everything
before the next case (conformance.run.large).  Ids are names, stable across runs and versions.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

import oracle
from oracle import (
    CastDesc,
    DataType,
    Descriptor,
    FeatureLevel,
    JoinDesc,
    Padding1Desc,
    PaddingDesc,
    Slice1Desc,
    SliceDesc,
    SplitDesc,
)
from oracle.checks import TensorDesc
from oracle.indices import signed as signed_index
from oracle.op_padding1 import scalar_bits

from .corpus import CaseFacts, Expected

STRESS_SOURCE = "stress profile (conformance/cases/stress.py)"
VALID = Expected("valid")  # every stress case is a valid descriptor
CHUNK_BYTES = 64 << 20  # the oracle's expected rows held at once (the run's budget counts one chunk)
PERIOD = 1_000_003  # a prime: the fill's random block repeats at no power-of-two stride
# The operators with an IndicesTensor (input 1), whose values make_input keeps in range (`_indices`).
INDEXED = (
    oracle.GatherDesc,
    oracle.GatherElementsDesc,
    oracle.GatherNdDesc,
    oracle.GatherNd1Desc,
    oracle.ScatterDesc,
    oracle.ScatterNdDesc,
)


@dataclass(frozen=True)
class StressCase(CaseFacts):
    """A valid case whose input is made from a recipe in the worker (`make_input`), and never stored."""

    id: str
    descriptor: Descriptor
    description: str
    clauses: tuple[str, ...] = ()
    tags: tuple[str, ...] = ("stress",)
    seed: int = 0  # the recipe's: which random block fills the input
    expected: Expected = VALID
    unspecified: tuple[str, ...] = ()
    source: str = STRESS_SOURCE
    path: str = ""

    @property
    def operator(self) -> str:
        return self.descriptor.operator

    @property
    def feature_level(self) -> FeatureLevel:
        """The oldest level whose support table has this data type and rank (stress tests sizes, not levels)."""
        mode = getattr(self.descriptor, "padding_mode", None)
        indices = getattr(oracle.REGISTRY[self.operator], "INDICES_TABLES", None)  # an index type's own column
        levels = [  # every tensor: CAST's output type too
            indices.min_level(t.data_type, self.rank)
            if name == "indices_tensor" and indices is not None
            else oracle.min_feature_level(self.operator, t.data_type, self.rank, mode)
            for name, t in self.descriptor.tensors.items()
        ]
        assert None not in levels, f"{self.id}: no feature level supports it"
        return max(lv for lv in levels if lv is not None)


# --- the recipe --------------------------------------------------------------------------------------


def make_inputs(case: StressCase) -> list[np.ndarray]:
    """The case's inputs, one per input tensor desc (JOIN has several)."""
    return [make_input(case, j) for j in range(len(case.descriptor.input_tensors))]


def make_input(case: StressCase, j: int = 0) -> np.ndarray:
    """The case's input `j`, deterministic in its id, seed and j, filled in bounded steps.

    Element i is block[i mod PERIOD] + i // PERIOD (wrapping): a random block of prime length,
    shifted every period, so a read from the wrong position almost never returns the right bits.
    Floating-point types get small integers (exact in FLOAT16), so no NaN payload is in play.
    """
    tensor = case.descriptor.input_tensors[j]
    dtype, bits = tensor.data_type.numpy, tensor.data_type.bits
    count = math.prod(tensor.sizes)
    digest = hashlib.sha256(f"{case.id}/{case.seed}{f'/{j}' if j else ''}".encode()).digest()
    block = np.random.default_rng(int.from_bytes(digest[:8], "little")).integers(0, 2**16, PERIOD, dtype=np.uint64)
    # REVERSE_SUBSEQUENCES' lengths: 0 to the axis' size.  Not past it: the stress profile tests sizes, and a stress
    # case keeps digests, not the outputs a known issue's model is checked against (DirectML's clamp: the reach set).
    if isinstance(case.descriptor, oracle.ReverseSubsequencesDesc) and j == 1:
        size = case.descriptor.input_tensor.sizes[case.descriptor.axis]
        return (_spread(block, count) % np.uint64(size + 1)).astype(dtype).reshape(tensor.sizes)
    # ONE_HOT's indices: 0 to the axis' size (that one ignored: ONEHOT.2, E-ONEHOT-1), unsigned (no U-ONEHOT-1).
    if isinstance(case.descriptor, oracle.OneHotDesc) and j == 0:
        size = case.descriptor.output_tensor.sizes[case.descriptor.axis]
        return (_spread(block, count) % np.uint64(size + 1)).astype(dtype).reshape(tensor.sizes)
    indices = _indices(case.descriptor, j, block, count)
    if indices is not None:
        return indices.astype(dtype).reshape(tensor.sizes)
    out = np.empty(count, dtype=dtype)
    wrap = 1 << (8 * dtype.itemsize)
    base = None if tensor.data_type.is_float else block.astype(bits)  # the low bits: the same as wrapping
    out_bits = out.view(bits)
    for k, start in enumerate(range(0, count, PERIOD)):  # one period at a time: a bounded temporary
        n = min(PERIOD, count - start)
        if base is None:
            out[start : start + n] = ((block[:n] + np.uint64(k)) % 2048).astype(dtype)
        else:
            np.add(base[:n], np.asarray(k % wrap, dtype=bits), out=out_bits[start : start + n])
    return out.reshape(tensor.sizes)


def _spread(block: np.ndarray, count: int) -> np.ndarray:
    """`count` deterministic uint64s that no stride repeats: block[i mod PERIOD] * 7919 + i."""
    index = np.arange(count, dtype=np.uint64)
    return block[index % np.uint64(PERIOD)] * np.uint64(7919) + index


def _from_end(positions: np.ndarray, bounds, spread: np.ndarray, data_type: oracle.DataType) -> np.ndarray:
    """Positions in [0, bound) as an index type holds them (int64): in a signed type about half counted from the end,
    position - bound (GATHER.3, GELEM.3, GND.6, SCATTER.3, SCATND.3), every one in range."""
    wide = positions.astype(np.int64)
    if not signed_index(data_type):
        return wide
    from_end = ((spread >> np.uint64(16)) & np.uint64(1)).astype(bool)
    return np.where(from_end, wide - np.asarray(bounds, dtype=np.int64), wide)


def _coprime(n: int) -> int:
    """A step from 7,919 on that walks all of [0, n) before it repeats (gcd 1): distinct positions, no two alike."""
    return next(p for p in itertools.count(7919) if math.gcd(p, n) == 1)


def _indices(desc: Descriptor, j: int, block: np.ndarray, count: int) -> np.ndarray | None:
    """Input `j` when it is an IndicesTensor (GATHER*, SCATTER*): every index in range, as int64, else None.

    An index out of range leaves elements open (U-GATHER-1, U-GELEM-1, U-GND-1, U-SCATTER-2, U-SCATND-2) and a target
    written twice does too (U-SCATTER-1, U-SCATND-1; E-SCATTER-*): a stress case keeps digests, so it reaches
    neither.  SCATTER's targets are distinct along each line, SCATTER_ND's tuples distinct (an affine permutation).
    """
    if j != 1 or not isinstance(desc, INDEXED):
        return None
    data_type = desc.indices_tensor.data_type
    if isinstance(desc, (oracle.GatherDesc, oracle.GatherElementsDesc)):
        bound = desc.input_tensor.sizes[desc.axis]
        spread = _spread(block, count)
        return _from_end(spread % np.uint64(bound), bound, spread, data_type)
    if isinstance(desc, (oracle.GatherNdDesc, oracle.GatherNd1Desc)):
        b, q = desc.batch_count, desc.tuple_size
        dims = desc.input_tensor.sizes[desc.dimension_count - desc.input_dimension_count :][b : b + q]
        bounds = np.asarray(dims, dtype=np.uint64)[np.arange(count) % q]
        spread = _spread(block, count)
        return _from_end(spread % bounds, bounds, spread, data_type)
    if isinstance(desc, oracle.ScatterDesc):  # along Axis, each line's targets distinct
        a, sizes = desc.axis, desc.indices_tensor.sizes
        n, m = desc.input_tensor.sizes[a], sizes[a]
        lines = count // m
        offsets = block[np.arange(lines, dtype=np.uint64) % np.uint64(PERIOD)][:, None] % np.uint64(n)
        positions = (np.arange(m, dtype=np.uint64)[None, :] * np.uint64(_coprime(n)) + offsets) % np.uint64(n)
        wide = _from_end(positions, n, _spread(block, count).reshape(lines, m), data_type)
        return np.moveaxis(wide.reshape(*sizes[:a], *sizes[a + 1 :], m), -1, a)
    # SCATTER_ND: distinct tuples over the input's first k meaningful dimensions
    k, n = desc.tuple_size, desc.dimension_count
    dims = desc.input_tensor.sizes[n - desc.input_dimension_count :][:k]
    total, tuples = math.prod(dims), count // k
    flat = (np.arange(tuples, dtype=np.uint64) * np.uint64(_coprime(total)) + block[0] % np.uint64(total)) % np.uint64(
        total
    )
    coords = np.stack(np.unravel_index(flat.astype(np.int64), dims), axis=1)
    return _from_end(coords, np.asarray(dims), _spread(block, count).reshape(tuples, k), data_type)


# --- the oracle's outputs, in chunks along axis 0 ---------------------------------------------------


def expected_chunks(
    desc: Descriptor, xs: list[np.ndarray], chunk_bytes: int = CHUNK_BYTES
) -> Iterator[tuple[int, int, np.ndarray]]:
    """(output, first row, the oracle's rows of that output from there): the outputs in pieces along axis 0.

    Each piece is the oracle's answer to a descriptor restricted to those rows (the same
    clauses, fewer rows), so only one piece is held at a time.  A descriptor that cannot be
    cut that way (PADDING that pads axis 0, SPLIT along axis 0, `cuttable` False) gives its outputs whole.
    """
    cut = _cutter(desc, xs)
    if cut is None:
        for j, out in enumerate(oracle.compute(desc, xs)):
            yield j, 0, out
        return
    tensors = desc.output_tensors
    rows = tensors[0].sizes[0]
    row_bytes = max(1, sum(int(np.prod(t.sizes[1:], dtype=object)) * t.data_type.numpy.itemsize for t in tensors))
    step = max(1, chunk_bytes // row_bytes)
    for a in range(0, rows, step):
        b = min(rows, a + step)
        sub_desc, sub_xs = cut(a, b)
        for j, out in enumerate(oracle.compute(sub_desc, sub_xs)):
            yield j, a, out


def _rows(t: TensorDesc, n: int) -> TensorDesc:
    return TensorDesc(t.data_type, (n, *t.sizes[1:]))


Cut = Callable[[int, int], tuple[Descriptor, list[np.ndarray]]]


def cuttable(desc: Descriptor) -> bool:
    """Whether the oracle's outputs come in chunks along axis 0 (else whole: the budget counts them whole)."""
    return _cutter(desc, []) is not None


def _last(t: TensorDesc, n: int) -> TensorDesc:
    return TensorDesc(t.data_type, (*t.sizes[:-1], n))


def _cutter(desc: Descriptor, xs: list[np.ndarray]) -> Cut | None:
    """A function giving the descriptor and inputs whose outputs are rows [a, b) of `desc`'s, or None.

    Which it is depends on the descriptor alone (`cuttable` asks with no inputs); the inputs are read when it is
    called."""
    cut = _cutter_issue32(desc, xs)
    if cut is not None:
        return cut
    x = xs[0] if xs else np.empty(0)
    if isinstance(desc, SliceDesc):
        o, s = desc.offsets[0], desc.strides[0]
        return lambda a, b: (
            replace(
                desc,
                output_tensor=_rows(desc.output_tensor, b - a),
                offsets=(o + s * a, *desc.offsets[1:]),
                sizes=(b - a, *desc.sizes[1:]),
            ),
            [x],
        )
    if isinstance(desc, Slice1Desc):
        o, n, s = desc.window_offsets[0], desc.window_sizes[0], desc.window_strides[0]
        start = oracle.op_slice1.copy_start(o, n, s)

        def cut_slice1(a: int, b: int) -> tuple[Descriptor, list[np.ndarray]]:
            size = (b - a - 1) * abs(s) + 1
            first = start + s * a  # the first element these rows copy: a window that starts (or ends) there
            offset = first if s > 0 else first - size + 1
            return (
                replace(
                    desc,
                    output_tensor=_rows(desc.output_tensor, b - a),
                    window_offsets=(offset, *desc.window_offsets[1:]),
                    window_sizes=(size, *desc.window_sizes[1:]),
                ),
                [x],
            )

        return cut_slice1
    if isinstance(desc, (PaddingDesc, Padding1Desc)) and desc.start_padding[0] == desc.end_padding[0] == 0:
        return lambda a, b: (
            replace(desc, input_tensor=_rows(desc.input_tensor, b - a), output_tensor=_rows(desc.output_tensor, b - a)),
            [x[a:b]],
        )
    if isinstance(desc, SplitDesc) and desc.axis != 0:
        return lambda a, b: (
            replace(
                desc,
                input_tensor=_rows(desc.input_tensor, b - a),
                output_tensors=tuple(_rows(t, b - a) for t in desc.output_tensors),
            ),
            [x[a:b]],
        )
    if isinstance(desc, oracle.ReverseSubsequencesDesc) and desc.axis != 0:  # the lengths' rows go with the data's
        return lambda a, b: (
            oracle.reverse_subsequences_desc(
                _rows(desc.input_tensor, b - a), desc.axis, desc.sequence_lengths_tensor.data_type
            ),
            [x[a:b], xs[1][a:b]],
        )
    if isinstance(desc, CastDesc):  # element by element: any rows
        return lambda a, b: (
            replace(desc, input_tensor=_rows(desc.input_tensor, b - a), output_tensor=_rows(desc.output_tensor, b - a)),
            [x[a:b]],
        )
    if isinstance(desc, JoinDesc) and desc.axis != 0:
        return lambda a, b: (
            replace(
                desc,
                input_tensors=tuple(_rows(t, b - a) for t in desc.input_tensors),
                output_tensor=_rows(desc.output_tensor, b - a),
            ),
            [x[a:b] for x in xs],
        )
    return None


def _cutter_issue32(desc: Descriptor, xs: list[np.ndarray]) -> Cut | None:
    """`_cutter` for issue 32's operators: rows of the data (and of the indices, where an output row is an index row),
    a fill's rows with its start moved, a diagonal's rows with its band moved (rank 2: rows are y, so x - y grows)."""
    if isinstance(desc, oracle.GatherDesc) and desc.index_dimensions == 1:  # GATHER.5: the output has the input's rank
        if desc.axis:
            return lambda a, b: (
                replace(
                    desc, input_tensor=_rows(desc.input_tensor, b - a), output_tensor=_rows(desc.output_tensor, b - a)
                ),
                [xs[0][a:b], xs[1]],
            )
        return (
            lambda a, b: (  # along axis 0 the output's rows are the indices': the data whole
                replace(
                    desc,
                    indices_tensor=_last(desc.indices_tensor, b - a),
                    output_tensor=_rows(desc.output_tensor, b - a),
                ),
                [xs[0], xs[1][..., a:b]],
            )
        )
    if isinstance(desc, oracle.GatherElementsDesc):  # the indices' rows are the output's; the data's too off axis 0
        return lambda a, b: (
            replace(
                desc,
                input_tensor=desc.input_tensor if desc.axis == 0 else _rows(desc.input_tensor, b - a),
                indices_tensor=_rows(desc.indices_tensor, b - a),
                output_tensor=_rows(desc.output_tensor, b - a),
            ),
            [xs[0] if desc.axis == 0 else xs[0][a:b], xs[1][a:b]],
        )
    if isinstance(desc, (oracle.GatherNdDesc, oracle.GatherNd1Desc)):
        n, b0, q = desc.dimension_count, desc.batch_count, desc.tuple_size
        # output axis 0 is the indices' axis 0 when every indices dimension is meaningful and one input one trails
        if desc.indices_dimension_count == n and desc.input_dimension_count - b0 - q == 1:
            whole = b0 == 0  # no batch: each row of indices reads the whole input; else the batch's rows
            if whole or desc.input_dimension_count == n:
                return lambda a, b: (
                    replace(
                        desc,
                        input_tensor=desc.input_tensor if whole else _rows(desc.input_tensor, b - a),
                        indices_tensor=_rows(desc.indices_tensor, b - a),
                        output_tensor=_rows(desc.output_tensor, b - a),
                    ),
                    [xs[0] if whole else xs[0][a:b], xs[1][a:b]],
                )
        return None
    if isinstance(desc, oracle.ScatterDesc) and desc.axis != 0:
        return lambda a, b: (
            replace(
                desc,
                input_tensor=_rows(desc.input_tensor, b - a),
                indices_tensor=_rows(desc.indices_tensor, b - a),
                updates_tensor=_rows(desc.updates_tensor, b - a),
                output_tensor=_rows(desc.output_tensor, b - a),
            ),
            [x[a:b] for x in xs],
        )
    if isinstance(desc, oracle.FillValueConstantDesc):
        return lambda a, b: (replace(desc, output_tensor=_rows(desc.output_tensor, b - a)), [])
    if isinstance(desc, oracle.FillValueSequenceDesc) and not desc.output_tensor.data_type.is_float:
        return lambda a, b: (  # FILLS.3: the integers wrap, so the sequence from row a starts at start + i * delta
            replace(desc, output_tensor=_rows(desc.output_tensor, b - a), value_start=_sequence_at(desc, a)),
            [],
        )
    if isinstance(desc, (oracle.DiagonalMatrixDesc, oracle.DiagonalMatrix1Desc)):
        shift = desc.output_tensor.dimension_count == 2  # rows are y: rows from a hold x - y + a
        return lambda a, b: (
            _diagonal_rows(desc, a, b, a if shift else 0),
            [x[a:b] for x in xs],
        )
    return None


def _sequence_at(desc: oracle.FillValueSequenceDesc, row: int) -> Any:
    """ValueStart + i * ValueDelta modulo 2^n, i the first element of `row`: an integer sequence's value there."""
    dt = desc.output_tensor.data_type
    i = row * math.prod(desc.output_tensor.sizes[1:])
    bits = (scalar_bits(desc.value_start) + i * scalar_bits(desc.value_delta)) % (1 << (8 * dt.numpy.itemsize))
    return np.array(bits, dtype=dt.bits).view(dt.numpy)[()]


def _diagonal_rows(
    desc: oracle.DiagonalMatrixDesc | oracle.DiagonalMatrix1Desc, a: int, b: int, shift: int
) -> Descriptor:
    out = _rows(desc.output_tensor, b - a)
    if isinstance(desc, oracle.DiagonalMatrixDesc):
        return replace(desc, output_tensor=out, offset=desc.offset + shift)
    return replace(
        desc,
        input_tensor=None if desc.input_tensor is None else _rows(desc.input_tensor, b - a),
        output_tensor=out,
        diagonal_fill_begin=desc.diagonal_fill_begin + shift,
        diagonal_fill_end=desc.diagonal_fill_end + shift,
    )


# --- the cases ------------------------------------------------------------------------------------


def _slice(dt: str, sizes, offsets, out, strides) -> SliceDesc:
    return oracle.slice_desc(TensorDesc.of(dt, sizes), offsets, out, strides)


def _slice1(dt: str, sizes, offsets, windows, strides) -> Slice1Desc:
    return oracle.slice1_desc(TensorDesc.of(dt, sizes), offsets, windows, strides)


def _cast(src: str, dst: str, sizes) -> CastDesc:
    return CastDesc(TensorDesc.of(src, sizes), TensorDesc.of(dst, sizes))


def _pad(dt: str, sizes, mode: str, start, end, value: float = 0.0) -> PaddingDesc:
    return oracle.padding_desc(TensorDesc.of(dt, sizes), mode, start, end, value)


def _pad1(dt: str, sizes, mode: str, start, end, value: int | float = 0) -> Padding1Desc:
    return oracle.padding1_desc(TensorDesc.of(dt, sizes), mode, start, end, value)


def _join(dt: str, axis: int, *sizes) -> JoinDesc:
    return oracle.join_desc([TensorDesc.of(dt, s) for s in sizes], axis)


def _split(dt: str, sizes, axis: int, parts) -> SplitDesc:
    return oracle.split_desc(TensorDesc.of(dt, sizes), axis, parts)


def _identity(dt: str, sizes) -> oracle.IdentityDesc:
    t = TensorDesc.of(dt, sizes)
    return oracle.IdentityDesc(t, t)


def _slice_grad(dt: str, sizes, out, offsets, windows, strides) -> oracle.SliceGradDesc:
    return oracle.SliceGradDesc(TensorDesc.of(dt, sizes), TensorDesc.of(dt, out), offsets, windows, strides)


CRD = oracle.DepthSpaceOrder.COLUMN_ROW_DEPTH


def _s2d(
    data_type: str, sizes: list[int], b: int, order: oracle.DepthSpaceOrder | None = None
) -> oracle.SpaceToDepthDesc | oracle.SpaceToDepth1Desc:
    """SPACE_TO_DEPTH (no order) or SPACE_TO_DEPTH1 of the space `sizes` in BlockSize b blocks."""
    n, c, h, w = sizes
    space, depth = TensorDesc.of(data_type, sizes), TensorDesc.of(data_type, [n, c * b * b, h // b, w // b])
    return (
        oracle.SpaceToDepthDesc(space, depth, b) if order is None else oracle.SpaceToDepth1Desc(space, depth, b, order)
    )


def _cases() -> list[StressCase]:
    c = StressCase
    return [
        # An axis longer than 65,535, for each operator.
        c("SLICE-stress-axis-past-65535", _slice("FLOAT32", [2, 3, 1, 300000], [1, 0, 0, 7], [1, 3, 1, 149990], [1, 1, 1, 2]), "output axis 3 of 149,990 elements, stride 2", ("SLICE.1",)),
        c("SLICE1-stress-axis-past-65535", _slice1("FLOAT16", [4, 1, 1, 262144], [0, 0, 0, 5], [4, 1, 1, 262139], [1, 1, 1, -3]), "a reversed window: output axis 3 of 87,380 elements", ("SLICE1.1", "SLICE1.2")),
        c("PADDING-stress-axis-past-65535", _pad("UINT8", [3, 1, 1, 70000], "CONSTANT", [0, 0, 0, 3], [0, 0, 0, 1000], 7.0), "CONSTANT 7 on an axis of 70,000", ("PAD.2", "PAD.3")),
        c("PADDING-stress-axis2-past-65535-edge", _pad("INT16", [1, 2, 70001, 3], "EDGE", [0, 0, 4, 1], [0, 0, 9, 2]), "EDGE along a non-last axis of 70,001", ("PAD.3",)),
        c("SPLIT-stress-axis-past-65535", _split("INT32", [2, 1, 1, 200003], 3, [70000, 130003]), "two outputs along an axis of 200,003", ("SPLIT.1",)),
        # Past 2^31 and 2^32 bytes.
        c("SLICE-stress-in-past-2GiB", _slice("UINT8", [2, 16, 8192, 8200], [1, 3, 1, 7], [1, 13, 4095, 1024], [1, 1, 2, 8]), "reads bytes past 2^31 of a 2,149,580,800-byte input", ("SLICE.1",)),
        c("PADDING-stress-out-past-2GiB", _pad("UINT8", [16, 1, 4096, 8], "EDGE", [0, 0, 0, 16384], [0, 0, 0, 16377]), "EDGE into a 2,147,549,184-byte output", ("PAD.3",)),
        c("PADDING-stress-out-past-4GiB", _pad("UINT8", [64, 1, 1024, 64], "CONSTANT", [0, 0, 3584, 4064], [0, 0, 3584, 4065], 3.0), "CONSTANT into a 4,295,491,584-byte output", ("PAD.3",)),
        # 8-D, every axis > 1, large strides.
        c("SLICE-stress-8d-large-strides", _slice("FLOAT32", [3, 4, 5, 6, 7, 8, 9, 200], [1, 0, 2, 1, 0, 3, 1, 5], [2, 4, 2, 3, 7, 2, 4, 4], [1, 1, 2, 2, 1, 2, 2, 61]), "8-D, strides up to 61", ("SLICE.1",)),
        c("SLICE1-stress-8d-negative-strides", _slice1("FLOAT16", [4, 3, 5, 2, 6, 7, 4, 90], [0, 1, 0, 0, 1, 0, 0, 3], [4, 2, 5, 2, 5, 7, 4, 87], [-1, 1, -2, 1, -2, 3, -1, -29]), "8-D, negative and large strides", ("SLICE1.1", "SLICE1.2")),
        c("PADDING-stress-8d-reflection", _pad("INT16", [2, 3, 2, 3, 2, 3, 2, 40], "REFLECTION", [1, 2, 1, 2, 1, 2, 1, 41], [1, 1, 2, 1, 2, 1, 2, 3]), "8-D REFLECTION, padding past the axis on most", ("PAD.3",)),
        c("SPLIT-stress-8d", _split("UINT16", [2, 3, 4, 5, 6, 7, 8, 9], 4, [1, 2, 3]), "8-D SPLIT along axis 4", ("SPLIT.1",)),
        # SPLIT into many outputs.
        c("SPLIT-stress-many-outputs", _split("FLOAT32", [2, 4, 64, 4096], 3, [8] * 512), "512 outputs", ("SPLIT.1",)),
        c("SPLIT-stress-uneven-256MiB", _split("INT8", [8, 1, 4096, 8192], 2, [1, 4094, 1]), "a 256 MiB input into 1, 4,094 and 1 rows", ("SPLIT.1",)),
        # Padding longer than its axis, each periodic mode (REFLECTION and SYMMETRIC: PAD.3).
        c("PADDING-stress-reflection-past-axis", _pad("FLOAT32", [2, 3, 5, 7], "REFLECTION", [0, 0, 23, 40], [0, 0, 31, 17]), "REFLECTION many periods long", ("PAD.3",)),
        c("PADDING-stress-symmetric-past-axis", _pad("FLOAT16", [2, 3, 5, 7], "SYMMETRIC", [0, 1, 23, 40], [0, 2, 31, 17]), "SYMMETRIC many periods long", ("PAD.3",)),
        c("PADDING-stress-edge-past-axis", _pad("UINT32", [2, 3, 5, 7], "EDGE", [0, 4, 23, 40], [0, 5, 31, 17]), "EDGE far past the axis", ("PAD.3",)),
        # Bandwidth-sized: 256 MiB and more.
        c("SLICE1-stress-reverse-256MiB", _slice1("FLOAT32", [16, 4, 1024, 1024], [0, 0, 0, 0], [16, 4, 1024, 1024], [1, -1, -1, -1]), "a 256 MiB tensor reversed on three axes", ("SLICE1.2",)),
        c("PADDING-stress-symmetric-256MiB", _pad("FLOAT32", [16, 4, 1000, 1000], "SYMMETRIC", [0, 0, 12, 12], [0, 0, 12, 12]), "SYMMETRIC around a 256 MiB tensor", ("PAD.3",)),
        c("SLICE-stress-stride-past-65535", _slice("UINT8", [4, 1, 3, 1048576], [0, 0, 0, 11], [4, 1, 3, 15], [1, 1, 1, 69905]), "a stride of 69,905 elements", ("SLICE.1",)),
        # DML_PADDING1 and DML_JOIN (beyond the seed pages): a typed value no float holds, axes past 65,535, 8-D.
        c("PADDING1-stress-axis-past-65535", _pad1("INT64", [2, 1, 1, 70000], "CONSTANT", [0, 0, 0, 5], [0, 0, 0, 1000], 2**53 + 1), "CONSTANT 2^53 + 1 (no float holds it) on an axis of 70,000", ("PAD1.2", "PAD1.4")),
        c("PADDING1-stress-8d-edge", _pad1("UINT16", [2, 3, 2, 3, 2, 3, 2, 40], "EDGE", [1, 2, 1, 2, 1, 2, 1, 41], [1, 1, 2, 1, 2, 1, 2, 3]), "8-D EDGE, padding past the axis on most", ("PAD1.3",)),
        c("JOIN-stress-axis-past-65535", _join("INT32", 3, [2, 1, 1, 70000], [2, 1, 1, 130003]), "two inputs into an axis of 200,003", ("JOIN.1", "JOIN.3")),
        c("JOIN-stress-8d", _join("UINT16", 4, [2, 3, 4, 5, 2, 7, 8, 9], [2, 3, 4, 5, 3, 7, 8, 9], [2, 3, 4, 5, 2, 7, 8, 9]), "8-D JOIN along axis 4", ("JOIN.1",)),
        # DML_TILE (beyond the seed pages): an output axis past 65,535, 8-D, a 256 MiB output tiled from 4 KiB.
        c("TILE-stress-axis-past-65535", oracle.tile_desc(TensorDesc.of("UINT8", [2, 1, 1, 70001]), [1, 1, 1, 3]), "three copies along an axis of 70,001: an output axis of 210,003", ("TILE.1", "TILE.2")),
        c("TILE-stress-8d", oracle.tile_desc(TensorDesc.of("INT16", [2, 3, 2, 3, 2, 3, 2, 5]), [2, 1, 3, 1, 2, 1, 3, 7]), "8-D, copies on every other axis", ("TILE.1",)),
        c("TILE-stress-256MiB-from-4KiB", oracle.tile_desc(TensorDesc.of("FLOAT32", [1, 1, 1, 1024]), [16, 4, 1024, 1]), "a 4 KiB row copied 65,536 times into 256 MiB", ("TILE.1",)),
        # Issue 31's other operators: an axis past 65,535 each, 8-D where the table allows it (D2S.6, D2S1.7: 4-D only).
        c("ELEMENT_WISE_IDENTITY-stress-axis-past-65535", _identity("UINT16", [3, 1, 1, 100003]), "a copy along an axis of 100,003", ("IDENT.1",)),
        c("ELEMENT_WISE_IDENTITY-stress-8d", _identity("FLOAT64", [2, 3, 2, 3, 2, 3, 2, 5]), "an 8-D copy, every axis > 1", ("IDENT.1",)),
        c("DEPTH_TO_SPACE-stress-axis-past-65535", oracle.DepthToSpaceDesc(TensorDesc.of("INT32", [2, 8, 3, 40000]), TensorDesc.of("INT32", [2, 2, 6, 80000]), 2), "BlockSize 2 into an output width of 80,000", ("D2S.1", "D2S.2")),
        c("DEPTH_TO_SPACE1-stress-axis-past-65535", oracle.DepthToSpace1Desc(TensorDesc.of("UINT16", [1, 18, 2, 30000]), TensorDesc.of("UINT16", [1, 2, 6, 90000]), 3, oracle.DepthSpaceOrder.COLUMN_ROW_DEPTH), "BlockSize 3, COLUMN_ROW_DEPTH, into an output width of 90,000", ("D2S1.1", "D2S1.4")),
        c("SLICE_GRAD-stress-axis-past-65535", _slice_grad("FLOAT32", [2, 1, 1, 40000], [2, 1, 1, 120005], [0, 0, 0, 4], [2, 1, 1, 119998], [1, 1, 1, -3]), "40,000 elements written backwards, every third, into an axis of 120,005", ("SGRAD.1", "SGRAD.2")),
        c("SLICE_GRAD-stress-8d-negative-strides", _slice_grad("INT16", [2, 3, 2, 3, 2, 3, 2, 5], [3, 4, 5, 7, 4, 7, 5, 160], [1, 0, 1, 0, 1, 0, 0, 3], [2, 3, 4, 7, 3, 7, 5, 153], [1, 1, -3, 3, -2, 3, -4, -38]), "8-D, negative and large strides, every window fully covered", ("SGRAD.1", "SGRAD.5")),
        # DML_SPACE_TO_DEPTH(1) (beyond the seed pages): a BlockSize past 256 into 66,049 channels, an output axis past
        # 65,535, a 256 MiB space in COLUMN_ROW_DEPTH.
        c("SPACE_TO_DEPTH-stress-block-257", _s2d("UINT16", [1, 1, 257, 257], 257), "one 257 x 257 block: 66,049 output channels", ("S2D.1", "S2D.3")),
        c("SPACE_TO_DEPTH1-stress-axis-past-65535", _s2d("UINT8", [1, 2, 2, 140002], 2, CRD), "output width 70,001", ("S2D1.1", "S2D1.4")),
        c("SPACE_TO_DEPTH1-stress-256MiB", _s2d("FLOAT32", [4, 16, 1024, 1024], 4, CRD), "a 256 MiB space into 256 channels per batch", ("S2D1.1", "S2D1.4")),
        # DML_REVERSE_SUBSEQUENCES (beyond the seed pages): an axis past 65,535, 8-D, 64 MiB in 4,096 subsequences;
        # lengths from 0 to the axis' size (make_input).
        c("REVERSE_SUBSEQUENCES-stress-axis-past-65535", oracle.reverse_subsequences_desc(TensorDesc.of("UINT16", [3, 70001]), 1), "three subsequences of 70,001", ("REVSEQ.1", "REVSEQ.3")),
        c("REVERSE_SUBSEQUENCES-stress-8d", oracle.reverse_subsequences_desc(TensorDesc.of("INT8", [2, 3, 2, 3, 2, 3, 2, 5]), 4), "8-D along axis 4", ("REVSEQ.1",)),
        c("REVERSE_SUBSEQUENCES-stress-64MiB-uint64-lengths", oracle.reverse_subsequences_desc(TensorDesc.of("FLOAT64", [4096, 2048]), 1, "UINT64"), "64 MiB in 4,096 subsequences of 2,048, UINT64 lengths (FLOAT64 data: 5.0, where UINT64 lengths are)", ("REVSEQ.1", "REVSEQ.8")),
        # DML_CAST (beyond the seed pages), exact pairs only (every element judged, U-CAST-1 unreached) and no 64-bit
        # type (a shader model 6 kernel: unsupported on vkd3d's shader model 5.1): an axis past 65,535, 8-D, 256 MiB.
        c("CAST-stress-axis-past-65535", _cast("UINT8", "INT16", [2, 1, 1, 70001]), "UINT8 into INT16 along an axis of 70,001", ("CAST.1", "CAST.2")),
        c("CAST-stress-8d", _cast("INT16", "FLOAT32", [2, 3, 2, 3, 2, 3, 2, 5]), "8-D INT16 into FLOAT32", ("CAST.1",)),
        c("CAST-stress-256MiB", _cast("UINT16", "UINT32", [16, 4, 1024, 1024]), "128 MiB of UINT16 into 256 MiB of UINT32", ("CAST.1",)),
        # DML_ONE_HOT (issue 32): an axis past 65,535, 8-D with UINT64 indices, 64 MiB generated from 16 KiB of indices;
        # indices from 0 to the axis' size (make_input).
        c("ONE_HOT-stress-axis-past-65535", _one_hot("UINT32", [3, 1], 70001, 1, "UINT16"), "three sequences of 70,001", ("ONEHOT.1", "ONEHOT.2")),
        c("ONE_HOT-stress-8d", _one_hot("UINT64", [2, 3, 2, 3, 1, 3, 2, 5], 2, 4, "INT8"), "8-D along axis 4, UINT64 indices", ("ONEHOT.1", "ONEHOT.10")),
        c("ONE_HOT-stress-64MiB", _one_hot("UINT32", [4096, 1], 4096, 1, "FLOAT32"), "4,096 sequences of 4,096 FLOAT32: 64 MiB", ("ONEHOT.1",)),
        # Issue 32's other operators: an axis past 65,535 each, 8-D where the table allows it (DIAG.5, DIAG1.6: ranks
        # 2-4), and five of 64-256 MiB.  Indices in range, about half negative in a signed type; SCATTER's targets and
        # SCATTER_ND's tuples distinct (make_input).  GATHER's IndexDimensions <= Axis + 1 (dml-gather-heap-corruption).
        c("GATHER-stress-axis-past-65535", _gather("UINT16", [1, 2, 3, 70001], [1, 1, 2, 70000], 3, 2, "INT32"), "140,000 INT32 indices into an axis of 70,001, IndexDimensions 2: output [2,3,2,70000]", ("GATHER.1", "GATHER.3", "GATHER.5", "GATHER.7")),
        c("GATHER-stress-8d", _gather("FLOAT16", [2, 3, 2, 3, 2, 3, 2, 5], [1, 1, 1, 1, 1, 1, 1, 7], 5, 1, "UINT64"), "8-D along axis 5, seven UINT64 indices", ("GATHER.1", "GATHER.5")),
        c("GATHER-stress-embedding-64MiB", _gather("FLOAT32", [100003, 1, 1, 256], [1, 1, 1, 65536], 0, 1, "INT64"), "65,536 rows of a 100,003-row table (98 MiB): 64 MiB out", ("GATHER.1", "GATHER.3")),
        c("GATHER_ELEMENTS-stress-axis-past-65535", _gather_elements("UINT8", [3, 1, 1, 70001], [3, 1, 1, 100000], 3, "INT64"), "100,000 INT64 indices per row into an axis of 70,001", ("GELEM.1", "GELEM.2", "GELEM.3")),
        c("GATHER_ELEMENTS-stress-8d", _gather_elements("FLOAT32", [2, 3, 2, 3, 2, 3, 2, 5], [4, 3, 2, 3, 2, 3, 2, 5], 0, "INT32"), "8-D along axis 0, four indices per line of two", ("GELEM.1", "GELEM.3")),
        c("GATHER_ND-stress-axis-past-65535", _gather_nd("UINT16", [1, 300, 200, 3], [1, 1, 70001, 2], 3, 2, None, "INT64"), "70,001 tuples of two INT64 coordinates: output [1,1,70001,3]", ("GND.1", "GND.3", "GND.6")),
        c("GATHER_ND-stress-8d", _gather_nd("INT32", [2, 3, 2, 3, 2, 3, 2, 5], [2, 3, 2, 3, 2, 3, 2, 7], 8, 8, None, "UINT32"), "8-D, tuples of seven coordinates", ("GND.1", "GND.2")),
        c("GATHER_ND1-stress-axis-past-65535", _gather_nd("INT8", [1, 3, 70001, 2], [1, 3, 80000, 1], 3, 3, 1, "INT32"), "3 batches of 80,000 tuples into an axis of 70,001", ("GND1.1", "GND1.6", "GND1.10")),
        c("GATHER_ND1-stress-8d", _gather_nd("UINT16", [2, 3, 2, 3, 2, 3, 2, 5], [2, 3, 2, 2, 2, 2, 2, 5], 8, 8, 2, "INT64"), "8-D, 2 batch dimensions, tuples of five", ("GND1.1", "GND1.10")),
        c("SCATTER-stress-axis-past-65535", _scatter("UINT32", [1, 1, 2, 100003], [1, 1, 2, 70001], 3, "INT32"), "70,001 distinct targets per line of 100,003", ("SCATTER.1", "SCATTER.2", "SCATTER.3")),
        c("SCATTER-stress-8d", _scatter("INT16", [2, 3, 2, 3, 2, 3, 2, 5], [2, 3, 2, 3, 2, 2, 2, 5], 5, "UINT64"), "8-D along axis 5, two of three targets per line", ("SCATTER.1", "SCATTER.2")),
        c("SCATTER-stress-64MiB", _scatter("FLOAT32", [4096, 4096], [4096, 1024], 1, "UINT32"), "1,024 distinct targets in each of 4,096 rows of 4,096 FLOAT32: 64 MiB", ("SCATTER.1",)),
        c("SCATTER_ND-stress-axis-past-65535", _scatter_nd("UINT16", [1, 1, 2, 100003], [1, 1, 70001, 2], 2, 2, "INT32"), "70,001 distinct tuples of two INT32 coordinates over [2,100003]", ("SCATND.1", "SCATND.2", "SCATND.3", "SCATND.4")),
        c("SCATTER_ND-stress-8d", _scatter_nd("FLOAT16", [2, 3, 2, 3, 2, 3, 2, 5], [1, 1, 1, 1, 1, 1, 6, 3], 8, 2, "UINT32"), "8-D, six distinct tuples of three, each a [3,2,3,2,5] slice", ("SCATND.1", "SCATND.4")),
        c("FILL_VALUE_CONSTANT-stress-axis-past-65535", _fill("INT64", [2, 1, 1, 70001], -(2**53 + 1)), "-(2^53 + 1) (no float holds it) along an axis of 70,001", ("FILLC.1", "FILLC.2")),
        c("FILL_VALUE_CONSTANT-stress-8d", _fill("FLOAT64", [2, 3, 2, 3, 2, 3, 2, 5], 0.1), "8-D FLOAT64 0.1 (no narrower float holds it)", ("FILLC.1", "FILLC.3")),
        c("FILL_VALUE_CONSTANT-stress-256MiB", _fill("FLOAT32", [16, 4, 1024, 1024], -1.5), "256 MiB of -1.5", ("FILLC.1",)),
        c("FILL_VALUE_SEQUENCE-stress-axis-past-65535", _sequence("FLOAT32", [2, 1, 1, 70001], -35000.25, 0.5), "-35,000.25 by 0.5 to 35,000.25: exact every way (U-FILLS-1 unreached)", ("FILLS.1", "FILLS.4")),
        c("FILL_VALUE_SEQUENCE-stress-8d-wrap", _sequence("INT8", [2, 3, 2, 3, 2, 3, 2, 5], 100, 37), "8-D INT8 from 100 by 37, wrapping", ("FILLS.1", "FILLS.3")),
        c("FILL_VALUE_SEQUENCE-stress-64MiB-wrap", _sequence("UINT32", [16, 1, 1024, 1024], 7, 0x9E3779B9), "64 MiB of UINT32 from 7 by 0x9E3779B9, wrapping", ("FILLS.1", "FILLS.3")),
        c("DIAGONAL_MATRIX-stress-axis-past-65535", oracle.DiagonalMatrixDesc(TensorDesc.of("INT16", [2, 1, 3, 100003]), 99999, -3.0), "-3 at x = y + 99,999 of 3 x 100,003 matrices", ("DIAG.1", "DIAG.3", "DIAG.4")),
        c("DIAGONAL_MATRIX-stress-height-past-65535", oracle.DiagonalMatrixDesc(TensorDesc.of("FLOAT16", [70001, 5]), -69998, 2.0), "2 at y = x + 69,998 of a 70,001 x 5 matrix", ("DIAG.1", "DIAG.3", "DIAG.4")),
        c("DIAGONAL_MATRIX1-stress-height-past-65535", _diagonal1("UINT8", [70001, 3], True, 200, 2, -69998), "the band reversed (filled outside [-69998, 2)) over a 70,001 x 3 input", ("DIAG1.1", "DIAG1.3", "DIAG1.4")),
        c("DIAGONAL_MATRIX1-stress-width-past-65535-no-input", _diagonal1("INT32", [2, 3, 100003], False, -7, 99990, 100003), "no input: -7 on diagonals 99,990 to 100,002, 0 elsewhere", ("DIAG1.1", "DIAG1.4")),
        c("DIAGONAL_MATRIX1-stress-64MiB", _diagonal1("FLOAT32", [16, 1024, 1024], True, 0.5, -1, 2), "a tridiagonal 0.5 over a 64 MiB input", ("DIAG1.1", "DIAG1.5")),
    ]  # fmt: skip


def _one_hot(indices_type: str, indices_sizes, depth: int, axis: int, values_type: str) -> oracle.OneHotDesc:
    return oracle.one_hot_desc(TensorDesc.of(indices_type, indices_sizes), depth, axis, values_type)


def _gather(data_type: str, sizes, indices_sizes, axis: int, index_dimensions: int, indices: str) -> oracle.GatherDesc:
    return oracle.gather_desc(TensorDesc.of(data_type, sizes), indices_sizes, axis, index_dimensions, indices)


def _gather_elements(data_type: str, sizes, indices_sizes, axis: int, indices: str) -> oracle.GatherElementsDesc:
    return oracle.gather_elements_desc(TensorDesc.of(data_type, sizes), indices_sizes, axis, indices)


def _gather_nd(
    data_type: str, sizes, indices_sizes, input_count: int, indices_count: int, batch: int | None, indices: str
) -> oracle.GatherNdDesc | oracle.GatherNd1Desc:
    """GATHER_ND (batch None) or GATHER_ND1."""
    x, ind = TensorDesc.of(data_type, sizes), TensorDesc.of(indices, indices_sizes)
    return oracle.gather_nd_desc(x, ind, input_count, indices_count, batch)


def _scatter(data_type: str, sizes, indices_sizes, axis: int, indices: str) -> oracle.ScatterDesc:
    return oracle.scatter_desc(TensorDesc.of(data_type, sizes), indices_sizes, axis, indices)


def _scatter_nd(
    data_type: str, sizes, indices_sizes, input_count: int, indices_count: int, indices: str
) -> oracle.ScatterNdDesc:
    return oracle.scatter_nd_desc(TensorDesc.of(data_type, sizes), indices_sizes, input_count, indices_count, indices)


def _fill(data_type: str, sizes, value: int | float) -> oracle.FillValueConstantDesc:
    return oracle.FillValueConstantDesc(TensorDesc.of(data_type, sizes), DataType.parse(data_type), value)


def _sequence(data_type: str, sizes, start: int | float, delta: int | float) -> oracle.FillValueSequenceDesc:
    return oracle.FillValueSequenceDesc(TensorDesc.of(data_type, sizes), DataType.parse(data_type), start, delta)


def _diagonal1(
    data_type: str, sizes, with_input: bool, value: int | float, begin: int, end: int
) -> oracle.DiagonalMatrix1Desc:
    t = TensorDesc.of(data_type, sizes)
    return oracle.DiagonalMatrix1Desc(t if with_input else None, t, DataType.parse(data_type), value, begin, end)


STRESS_CASES: tuple[StressCase, ...] = tuple(_cases())


def stress_cases() -> list[StressCase]:
    """The stress profile's cases, in their stable order."""
    return list(STRESS_CASES)

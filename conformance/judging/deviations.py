"""Known deviations, each an exact model of what an implementation computes instead of the pages.

A waiver excuses a failure only in the form observed: `"when": {"mismatch": NAME}`.  On every
mismatch the runner asks each model for its prediction and records the names whose prediction
the actual outputs equal bit for bit (`mismatch.explained_by`).  A failure that no model predicts
exactly is never excused by one, so a new or different wrong answer still fails.  Where an
implementation returns memory it never wrote, a model says which elements those are (`free`):
they may hold anything; every other element must equal the prediction bit for bit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

import oracle
from oracle import (
    DataType,
    Descriptor,
    FeatureLevel,
    InvalidDescriptor,
    Padding1Desc,
    PaddingDesc,
    PaddingMode,
    ScatterNdDesc,
    Slice1Desc,
    TensorDesc,
)
from oracle.op_one_hot import compute as one_hot_compute
from oracle.op_reverse_subsequences import compute as reverse_subsequences_compute
from oracle.op_scatter_nd import INDICES_TABLES as SCATTER_ND_INDICES_TABLES
from oracle.op_scatter_nd import TABLES as SCATTER_ND_TABLES
from oracle.op_slice1 import compute as slice1_compute
from oracle.op_slice_grad import compute as slice_grad_compute

from .compare import compare_outputs


@dataclass(frozen=True)
class Deviation:
    name: str
    operators: tuple[str, ...]  # the descriptors' operators it applies to (PADDING1 shares PADDING's model)
    summary: str
    # The outputs the deviating implementation produces, or None where the model does not apply.
    predict: Callable[[Descriptor, Sequence[np.ndarray]], list[np.ndarray] | None]
    # Per output, the elements the implementation leaves unwritten or reads from outside its input (any value), or
    # None: none.  Given the inputs too: where REVERSE_SUBSEQUENCES reads depends on its lengths' values.
    free: Callable[[Descriptor, Sequence[np.ndarray]], list[np.ndarray]] | None = None
    # The implementation's FLOAT16 path goes through float32, so a NaN may come back with other payload bits.
    float16_nan_payloads: bool = False
    # A validation deviation: whether the implementation accepts this invalid descriptor (None: not one).
    accepts: Callable[[Descriptor, FeatureLevel], bool] | None = None
    # Where the implementation reads outside its input: there a crash (an out-of-bounds read faults when it leaves
    # mapped memory, not every time) is this deviation too, and a waiver naming it excuses that crash.
    reads_out_of_bounds: Callable[[Descriptor], bool] | None = None
    # Where the implementation's process dies on this descriptor whatever the values (CreateOperator does not
    # return): a crash there is this deviation, and a waiver naming it excuses that crash.
    dies_on: Callable[[Descriptor], bool] | None = None
    # A validation deviation: whether the implementation refuses this valid descriptor (None: not one).
    refuses: Callable[[Descriptor, FeatureLevel], bool] | None = None


def dml_slice1_merged_axes(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray] | None:
    """DML_SLICE1 as DirectML 1.15.4 computes it.

    Working outwards, axes i and i+1 are merged into one when axis i+1's window is the whole axis
    (offset 0, size = the input's) with stride 1 and axis i's stride is 1; the merged axis copies
    OutputSizes[i] * OutputSizes[i+1] consecutive elements.  That is right only when the output
    copies the whole window on axis i+1; SLICE1.4 allows fewer, and then DirectML reads the wrong
    elements.  Checked against DirectML on 1,500 random descriptors: it predicted every output.
    None for any other operator's descriptor.
    """
    if not isinstance(desc, Slice1Desc):
        return None
    sizes, offsets = list(desc.input_tensor.sizes), list(desc.window_offsets)
    windows, strides, outputs = list(desc.window_sizes), list(desc.window_strides), list(desc.output_tensor.sizes)
    merged_any = False
    for i in range(len(sizes) - 2, -1, -1):
        j = i + 1
        if offsets[j] == 0 and windows[j] == sizes[j] and strides[j] == 1 and strides[i] == 1:
            merged = (sizes[i] * sizes[j], offsets[i] * sizes[j], windows[i] * sizes[j], outputs[i] * outputs[j])
            for values, value in zip((sizes, offsets, windows, outputs), merged):
                values[i : j + 1] = [value]
            strides[i : j + 1] = [1]
            merged_any = True
    if not merged_any:
        return None
    data_type = desc.input_tensor.data_type
    merged_desc = Slice1Desc(
        TensorDesc(data_type, tuple(sizes)),
        TensorDesc(data_type, tuple(outputs)),
        tuple(offsets),
        tuple(windows),
        tuple(strides),
    )
    (y,) = slice1_compute(merged_desc, [np.asarray(inputs[0]).reshape(sizes)])
    return [y.reshape(desc.output_tensor.sizes)]


PADS = (PaddingDesc, Padding1Desc)  # DML_PADDING and DML_PADDING1 share these models


def _reflect_past_axis(desc: Descriptor) -> bool:
    return (
        isinstance(desc, PADS)
        and desc.padding_mode is PaddingMode.REFLECTION
        and any(s >= n or e >= n for s, e, n in zip(desc.start_padding, desc.end_padding, desc.input_tensor.sizes))
    )


def ort_reflect_within_one_reflection(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray] | None:
    """ONNX Runtime's CPU Pad before 1.32, reflect mode with a pad >= its axis: every element that one
    reflection reaches is right (the pages' value); the rest come back unwritten (`ort_reflect_unwritten`).
    ORT 1.32 refuses these pads ("Pad reflect: pre-pad exceeds maximum allowed")."""
    if not _reflect_past_axis(desc):
        return None
    return oracle.REGISTRY[desc.operator].compute(desc, [np.asarray(inputs[0])])


def ort_reflect_unwritten(desc: Descriptor, inputs: Sequence[np.ndarray] = ()) -> list[np.ndarray]:
    """The output elements one reflection does not reach: on some axis, further than size - 1 from the edge."""
    assert isinstance(desc, PADS)
    reach = np.ones(desc.output_tensor.sizes, dtype=bool)
    for axis, (s, n, m) in enumerate(zip(desc.start_padding, desc.input_tensor.sizes, desc.output_tensor.sizes)):
        k = np.arange(m)
        ok = (k >= s - (n - 1)) & (k <= s + n - 1 + (n - 1))
        shape = [1] * reach.ndim
        shape[axis] = m
        reach &= ok.reshape(shape)
    return [~reach]


UINT32 = 2**32


def dml_padding_sizes_wrap(desc: Descriptor, level: FeatureLevel) -> bool:
    """DirectML 1.15.4 checks PAD.2 (and PAD1.2) as InputSizes + StartPadding + EndPadding computed in UINT32: it accepts a
    descriptor whose output sizes equal that sum only modulo 2^32, when nothing else is wrong with it.
    (Measured: what it then computes indexes with the same wrapped arithmetic; EDGE clamps, so no read
    leaves the input.)"""
    if not isinstance(desc, PADS):
        return False
    sizes, out = desc.input_tensor.sizes, desc.output_tensor.sizes
    sums = [n + s + e for n, s, e in zip(sizes, desc.start_padding, desc.end_padding)]
    if len(sums) != len(out) or sums == list(out) or any(t % UINT32 != o for t, o in zip(sums, out)):
        return False
    fits = tuple(o - n for o, n in zip(out, sizes))  # the same output reached without the wrap
    if any(f < 0 for f in fits):
        return False
    try:
        oracle.validate(dataclasses.replace(desc, start_padding=fits, end_padding=(0,) * len(fits)), level)
    except InvalidDescriptor:
        return False
    return True


def dml_tile_sizes_wrap(desc: Descriptor, level: FeatureLevel) -> bool:
    """DirectML checks TILE.2 as InputSizes * Repeats computed in UINT32: it accepts output sizes that equal the
    product only modulo 2^32, when the descriptor is otherwise valid (with the Repeats the output sizes imply).
    (Measured on 1.15.4: it then tiles the output sizes it was given, Output[c] = Input[c mod InputSizes].)"""
    if not isinstance(desc, oracle.TileDesc) or len(desc.repeats) != desc.input_tensor.dimension_count:
        return False
    sizes, out = desc.input_tensor.sizes, desc.output_tensor.sizes
    products = [n * r for n, r in zip(sizes, desc.repeats)]
    if len(out) != len(products) or products == list(out) or any(p % UINT32 != o for p, o in zip(products, out)):
        return False
    if any(n < 1 or o % n for n, o in zip(sizes, out)):
        return False
    try:
        oracle.validate(dataclasses.replace(desc, repeats=tuple(o // n for n, o in zip(sizes, out))), level)
    except InvalidDescriptor:
        return False
    return True


def dml_tile_float64(desc: Descriptor, level: FeatureLevel) -> bool:
    """DirectML takes a FLOAT64 DML_TILE, which no row of the page's table lists (TILE.6), as it takes UINT64:
    accepted where the same descriptor in UINT64 is valid at the newest level (the device's, not the case's).
    (Measured on 1.15.4: it then tiles the 8-byte values bit for bit, NaN payloads and -0.0 intact.)"""
    if not isinstance(desc, oracle.TileDesc) or desc.input_tensor.data_type is not DataType.FLOAT64:
        return False
    as_uint64 = dataclasses.replace(
        desc,
        input_tensor=dataclasses.replace(desc.input_tensor, data_type=DataType.UINT64),
        output_tensor=dataclasses.replace(desc.output_tensor, data_type=DataType.UINT64),
    )
    try:
        oracle.validate(as_uint64, max(FeatureLevel))
    except InvalidDescriptor:
        return False
    return desc.output_tensor.data_type is DataType.FLOAT64


def dml_gather_nd1_unequal_batches(desc: Descriptor, level: FeatureLevel) -> bool:
    """DirectML takes a DML_GATHER_ND1 whose input and indices batch sizes differ (GND1.10; the page does not say
    they must agree: E-GND1-1): accepted where the descriptor with the input's batch sizes made the indices' is
    valid at the newest level (the device's, not the case's). Measured on 1.12.0 and 1.15.4 with input {2}, indices {3}."""
    if not isinstance(desc, oracle.GatherNd1Desc) or not desc.batch_dimension_count:
        return False
    b, n = desc.batch_dimension_count, desc.dimension_count
    x, ind = desc.input_tensor.sizes, desc.indices_tensor.sizes
    x_at, ind_at = n - desc.input_dimension_count, n - desc.indices_dimension_count
    if min(x_at, ind_at) < 0 or x[x_at : x_at + b] == ind[ind_at : ind_at + b]:
        return False
    sizes = x[:x_at] + ind[ind_at : ind_at + b] + x[x_at + b :]
    equal = dataclasses.replace(desc, input_tensor=dataclasses.replace(desc.input_tensor, sizes=sizes))
    try:
        oracle.validate(equal, max(FeatureLevel))
    except InvalidDescriptor:
        return False
    return True


def dml_graph_quiets_float16_snans(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray] | None:
    """DirectML 1.15.4's CompileGraph on a FLOAT16 node with a strided tensor: every signalling NaN of the outputs
    comes back quiet (its quiet bit, 0x0200, set), the rest bit-exact, as if the graph's layout conversion went
    through float arithmetic.  None for other data types and for packed descs (which the graph copies exactly)."""
    first = oracle.case_tensor(desc)  # FILL_VALUE_*: no input tensor
    if first.data_type is not DataType.FLOAT16 or not oracle.layout.has_layout(desc):
        return None
    try:
        outputs = oracle.compute(desc, list(inputs))
    except InvalidDescriptor:
        return None
    quieted = []
    for out in outputs:
        bits = out.view(np.uint16).copy()
        signalling = ((bits & 0x7C00) == 0x7C00) & ((bits & 0x03FF) != 0) & ((bits & 0x0200) == 0)
        bits[signalling] |= 0x0200
        quieted.append(bits.view(np.float16))
    return quieted


def _slice_grad_windows(desc: oracle.SliceGradDesc) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The smallest window (offsets, sizes) that holds every element SLICE_GRAD writes, as SGRAD.1 places them from
    the descriptor's own CopyStart; None where some element lands outside OutputGradientTensor."""
    offsets, sizes = [], []
    for offset, size, stride, count, n in zip(
        desc.window_offsets,
        desc.window_sizes,
        desc.window_strides,
        desc.input_tensor.sizes,
        desc.output_tensor.sizes,
    ):
        start = offset + max(size, 1) - 1 if stride < 0 else offset
        last = start + stride * (count - 1)
        low, high = min(start, last), max(start, last)
        if low < 0 or high >= n:
            return None
        offsets.append(low)
        sizes.append(high - low + 1)
    return tuple(offsets), tuple(sizes)


def dml_slice_grad_unchecked_window(desc: Descriptor, level: FeatureLevel) -> bool:
    """DirectML 1.15.4 checks DML_SLICE_GRAD's InputGradientTensor against OutputGradientTensor, not against the
    window: it accepts an InputGradient past MaxCopiedElements (SGRAD.4, U-SGRAD-1) and an empty window (SGRAD.3)
    when every element lands inside OutputGradientTensor and nothing else is wrong; it refuses the rest."""
    if not isinstance(desc, oracle.SliceGradDesc):
        return False
    try:
        oracle.validate(desc, level)
        return False  # valid: nothing to explain
    except InvalidDescriptor:
        pass
    if any(o + s > n for o, s, n in zip(desc.window_offsets, desc.window_sizes, desc.output_tensor.sizes)):
        return False  # a window past OutputGradientTensor is refused (SGRAD.3's bound is checked)
    windows = _slice_grad_windows(desc)
    if windows is None:
        return False
    offsets, sizes = windows  # the same writes from a valid window (its CopyStart is the descriptor's)
    try:
        oracle.validate(dataclasses.replace(desc, window_offsets=offsets, window_sizes=sizes), level)
    except InvalidDescriptor:
        return False
    return True


def dml_slice_grad_merged_axes(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray] | None:
    """DML_SLICE_GRAD as DirectML 1.15.4 computes it: dml-slice1-merged-axes read backwards.

    Working outwards, axes i and i+1 are merged when axis i+1's window is the whole axis (offset 0, size =
    OutputGradient's) with stride 1 and axis i's stride is 1; the merged axis writes InputSizes[i] * InputSizes[i+1]
    consecutive elements.  Right only when InputGradient covers the whole window there; SGRAD.4 allows fewer.
    None for any other operator's descriptor, and where nothing merges.
    """
    if not isinstance(desc, oracle.SliceGradDesc):
        return None
    sizes, offsets = list(desc.output_tensor.sizes), list(desc.window_offsets)
    windows, strides, counts = list(desc.window_sizes), list(desc.window_strides), list(desc.input_tensor.sizes)
    merged_any = False
    for i in range(len(sizes) - 2, -1, -1):
        j = i + 1
        if offsets[j] == 0 and windows[j] == sizes[j] and strides[j] == 1 and strides[i] == 1:
            merged = (sizes[i] * sizes[j], offsets[i] * sizes[j], windows[i] * sizes[j], counts[i] * counts[j])
            for values, value in zip((sizes, offsets, windows, counts), merged):
                values[i : j + 1] = [value]
            strides[i : j + 1] = [1]
            merged_any = True
    if not merged_any:
        return None
    data_type = desc.input_tensor.data_type
    merged_desc = oracle.SliceGradDesc(
        TensorDesc(data_type, tuple(counts)),
        TensorDesc(data_type, tuple(sizes)),
        tuple(offsets),
        tuple(windows),
        tuple(strides),
    )
    (y,) = slice_grad_compute(merged_desc, [np.asarray(inputs[0]).reshape(counts)])
    return [y.reshape(desc.output_tensor.sizes)]


def _reverse_sources(desc: oracle.ReverseSubsequencesDesc, lengths: np.ndarray) -> np.ndarray:
    """Where DirectML reads each element along Axis: L - 1 - k for k < L, with L a length's low 32 bits unclamped."""
    a, n = desc.axis, desc.input_tensor.sizes[desc.axis]
    low = (np.asarray(lengths, dtype=np.uint64) & np.uint64(UINT32_MASK)).astype(np.int64)
    shape = [1] * desc.input_tensor.dimension_count
    shape[a] = n
    k = np.arange(n, dtype=np.int64).reshape(shape)
    return np.broadcast_to(np.where(k < low, low - 1 - k, k), desc.input_tensor.sizes)


def dml_reverse_subsequences_lengths(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray] | None:
    """DML_REVERSE_SUBSEQUENCES as DirectML 1.15.4 computes it: each length read as its low 32 bits (a UINT64
    length's high word ignored: 2^32 + 1 is 1, 2^63 is 0) and not clamped to the axis (REVSEQ.3): element k < L
    reads L - 1 - k clamped to the last element, so past the axis the subsequence repeats its last element and
    the rest is reversed shifted.  None for any other operator's descriptor."""
    if not isinstance(desc, oracle.ReverseSubsequencesDesc):
        return None
    x, lengths = inputs
    n = desc.input_tensor.sizes[desc.axis]
    index = np.minimum(_reverse_sources(desc, lengths), n - 1)
    data_type = desc.input_tensor.data_type
    bits = np.take_along_axis(np.asarray(x, dtype=data_type.numpy).view(data_type.bits), index, axis=desc.axis)
    return [np.ascontiguousarray(bits).view(data_type.numpy)]


def dml_reverse_subsequences_outside(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """DirectML 1.12.0's DML_REVERSE_SUBSEQUENCES past the axis: the elements it reads from L - 1 - k >= the axis'
    size, outside the subsequence (another subsequence's, another tensor's or zeros: whatever the address holds)."""
    assert isinstance(desc, oracle.ReverseSubsequencesDesc)
    return [_reverse_sources(desc, inputs[1]) >= desc.input_tensor.sizes[desc.axis]]


def ort_reverse_sequence_right(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray] | None:
    """The page's answer (REVSEQ.1): ONNX Runtime's CPU ReverseSequence before 1.32 computes it where it writes."""
    if not isinstance(desc, oracle.ReverseSubsequencesDesc):
        return None
    return reverse_subsequences_compute(desc, list(inputs))


def ort_reverse_sequence_unwritten(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The elements ONNX Runtime 1.24's CPU ReverseSequence leaves unwritten: every subsequence of length 0, which
    REVSEQ.4 copies unchanged; every other element must be right."""
    assert isinstance(desc, oracle.ReverseSubsequencesDesc)
    return [np.broadcast_to(np.asarray(inputs[1]) == 0, desc.input_tensor.sizes)]


def _gather_leading_indices(desc: Descriptor) -> bool:
    """A DML_GATHER whose IndicesTensor has a size other than 1 before its last IndexDimensions (GATHER.7 broken):
    DirectML's CreateOperator ends the process there instead of refusing the descriptor."""
    if not isinstance(desc, oracle.GatherDesc):
        return False
    sizes = desc.indices_tensor.sizes
    return any(n != 1 for n in sizes[: max(0, len(sizes) - desc.index_dimensions)])


def _gather_crops_index_dimensions(desc: Descriptor) -> bool:
    """A DML_GATHER whose output, right-aligned in the input's DimensionCount (GATHER.5), loses leading ones of the
    indices' own IndexDimensions: IndexDimensions > Axis + 1.  There DirectML's CreateOperator writes before an array
    of its own and damages the process heap (the runner's HeapValidate ends the process, as Windows' heap would)."""
    return isinstance(desc, oracle.GatherDesc) and desc.index_dimensions > desc.axis + 1


def _scatter_nd_counts_in_range(desc: ScatterNdDesc) -> bool:
    n = desc.input_tensor.dimension_count
    return 1 <= desc.input_dimension_count <= n and 1 <= desc.indices_dimension_count <= n


def dml_scatter_nd_dies_on_long_tuple(desc: Descriptor) -> bool:
    """DirectML 1.12.0 and 1.15.4 kill the process inside CreateOperator on a DML_SCATTER_ND tuple longer than
    InputDimensionCount (SCATND.2) when the updates' dimension count the counts give, IndicesDimensionCount - 1 +
    InputDimensionCount - tuple size, is not negative; where it is negative, they refuse it (measured on both, from
    the descriptor alone: batch, types and UpdatesTensor's sizes play no part)."""
    if not isinstance(desc, ScatterNdDesc) or not _scatter_nd_counts_in_range(desc):
        return False
    k, idc = desc.tuple_size, desc.input_dimension_count
    return k > idc and desc.indices_dimension_count - 1 + idc - k >= 0


def _leading_ones(t: TensorDesc, n: int) -> TensorDesc:
    """`t` with leading 1s up to n dimensions (its strides, if any, with 0s there: the same addresses)."""
    pad = n - t.dimension_count
    strides = None if t.strides is None else (0,) * pad + tuple(t.strides)
    return dataclasses.replace(t, sizes=(1,) * pad + tuple(t.sizes), strides=strides)


def dml_scatter_nd_other_dimension_counts(desc: Descriptor, level: FeatureLevel) -> bool:
    """DirectML 1.12.0 and 1.15.4 check DML_SCATTER_ND per tensor, not that IndicesTensor and UpdatesTensor have
    InputTensor's DimensionCount (SCATND.8): they accept one whose own DimensionCount holds its meaningful
    dimensions (InputDimensionCount in InputTensor's, IndicesDimensionCount in IndicesTensor's, the updates'
    IndicesDimensionCount - 1 + InputDimensionCount - tuple size in UpdatesTensor's) and which, every tensor given
    leading 1s up to the largest DimensionCount, is valid; they refuse the rest (OutputTensor's DimensionCount not
    InputTensor's too, COMMON.1)."""
    if not isinstance(desc, ScatterNdDesc):
        return False
    i, x, u, o = desc.input_tensor, desc.indices_tensor, desc.updates_tensor, desc.output_tensor
    if o.dimension_count != i.dimension_count or x.dimension_count == u.dimension_count == i.dimension_count:
        return False
    idc, ixdc, k = desc.input_dimension_count, desc.indices_dimension_count, desc.tuple_size
    if not (1 <= idc <= i.dimension_count and 1 <= ixdc <= x.dimension_count):
        return False
    if ixdc - 1 + idc - k > u.dimension_count:
        return False
    row, indices_row = SCATTER_ND_TABLES.row(level), SCATTER_ND_INDICES_TABLES.row(level)
    if row is None or indices_row is None or x.data_type not in indices_row.data_types:
        return False
    if any(t.dimension_count not in row.ranks or t.data_type not in row.data_types for t in (i, u, o)):
        return False  # each tensor's own rank and type as the table at `level` takes them
    n = max(t.dimension_count for t in (i, x, u))
    padded = dataclasses.replace(
        desc,
        input_tensor=_leading_ones(i, n),
        indices_tensor=_leading_ones(x, n),
        updates_tensor=_leading_ones(u, n),
        output_tensor=_leading_ones(o, n),
    )
    # The padded rank may be past the level's table (a 4-D input at 2.1 beside a 5-D IndicesTensor): its shapes are
    # checked at the oldest level that takes that rank.
    shapes_level = level if n in row.ranks else SCATTER_ND_TABLES.min_level(i.data_type, n)
    if shapes_level is None:
        return False
    try:
        oracle.validate(padded, max(level, shapes_level))
    except InvalidDescriptor:
        return False
    return True


def dml_scatter_nd_refuses_broadcast_indices(desc: Descriptor, level: FeatureLevel) -> bool:
    """DirectML 1.12.0 and 1.15.4 refuse (E_INVALIDARG) a DML_SCATTER_ND whose IndicesTensor has a stride of 0 on a
    dimension of size > 1 (a broadcast batch or tuple, LAYOUT.2), whatever the index type; a 0 on a dimension of
    size 1, strides that give two other elements one address, and zero strides in the other tensors are taken."""
    if not isinstance(desc, ScatterNdDesc):
        return False
    t = desc.indices_tensor
    return t.strides is not None and any(stride == 0 and size > 1 for stride, size in zip(t.strides, t.sizes))


UINT32_MASK = 2**32 - 1


def _one_hot_int32_indices(desc: oracle.OneHotDesc, indices: np.ndarray) -> np.ndarray:
    """INT64 indices as DirectML 1.15.4 reads them: their low 32 bits, signed (2^40 is 0, 2^63 - 1 is -1); the
    other index types as they are (UINT64 past 2^32 is read whole: the 1.9.1 fix)."""
    if desc.indices_tensor.data_type is not DataType.INT64:
        return np.asarray(indices)
    return np.asarray(indices, dtype=np.int64).astype(np.int32).astype(np.int64)


def _one_hot_on_offset(desc: oracle.OneHotDesc, graph: bool) -> int:
    """Where DirectML reads OnValue in ValuesTensor's buffer: one step along its LAST dimension (that dimension's
    stride, in elements), not along the fastest-changing dimension of size > 1 (ONEHOT.5).  Through CompileGraph a
    size-1 last dimension steps 0 (OnValue is OffValue)."""
    t = desc.values_tensor
    if graph and t.sizes[-1] == 1:
        return 0
    return int(oracle.layout.element_strides(t)[-1])


def _one_hot_as_read(desc: Descriptor, inputs: Sequence[np.ndarray], graph: bool) -> list[np.ndarray] | None:
    if not isinstance(desc, oracle.OneHotDesc):
        return None
    indices, values = inputs
    where = np.flatnonzero(oracle.layout.offsets(desc.values_tensor).reshape(-1) == _one_hot_on_offset(desc, graph))
    flat = np.asarray(values).reshape(-1)
    on = flat[where[0]] if len(where) else flat[1]  # no element there: OnValue's elements are free (any value)
    as_read = np.array([flat[0], on], dtype=flat.dtype).reshape((1,) * (desc.dimension_count - 1) + (2,))
    packed = dataclasses.replace(desc, values_tensor=oracle.TensorDesc(desc.values_tensor.data_type, as_read.shape))
    return one_hot_compute(packed, [_one_hot_int32_indices(desc, indices), as_read])


def dml_one_hot_reads(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray] | None:
    """DML_ONE_HOT as DirectML 1.15.4 computes it through CompileOperator: INT64 indices read as their low 32 bits
    (signed), and OnValue read one step along ValuesTensor's last dimension (its stride) whatever that dimension's
    size: the same element for a packed ValuesTensor, another (or an address past the tensor) for a strided one."""
    return _one_hot_as_read(desc, inputs, graph=False)


def dml_graph_one_hot_reads(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray] | None:
    """As `dml_one_hot_reads`, through CompileGraph: a packed ValuesTensor whose last dimension has size 1 gives
    OnValue = OffValue (the step along it is 0)."""
    return _one_hot_as_read(desc, inputs, graph=True)


def _one_hot_on_unread(desc: Descriptor, inputs: Sequence[np.ndarray], graph: bool) -> list[np.ndarray]:
    """Where OnValue is read from an address that holds no element of ValuesTensor: every OnValue position of the
    model is free (whatever the address holds)."""
    assert isinstance(desc, oracle.OneHotDesc)
    offsets = oracle.layout.offsets(desc.values_tensor).reshape(-1)
    if (offsets == _one_hot_on_offset(desc, graph)).any():
        return [np.zeros(desc.output_tensor.sizes, dtype=bool)]
    indices = inputs[0]
    marker = np.array([0, 1], dtype=np.uint8).reshape((1,) * (desc.dimension_count - 1) + (2,))
    packed = dataclasses.replace(desc, values_tensor=oracle.TensorDesc(DataType.UINT8, marker.shape))
    packed = dataclasses.replace(packed, output_tensor=oracle.TensorDesc(DataType.UINT8, desc.output_tensor.sizes))
    return [one_hot_compute(packed, [_one_hot_int32_indices(desc, indices), marker])[0] == 1]


def dml_one_hot_values_rank(desc: Descriptor, level: FeatureLevel) -> bool:
    """DirectML does not check ONEHOT.8's DimensionCount for ValuesTensor: it accepts a ValuesTensor of another
    DimensionCount when the descriptor is otherwise valid (its sizes brought to the output's count)."""
    if not isinstance(desc, oracle.OneHotDesc):
        return False
    values, n = desc.values_tensor, desc.output_tensor.dimension_count
    if values.dimension_count == n or values.strides is not None:
        return False
    count = int(np.prod(values.sizes, dtype=object))
    sizes = (1,) * (n - 1) + (count,)
    try:
        oracle.validate(dataclasses.replace(desc, values_tensor=oracle.TensorDesc(values.data_type, sizes)), level)
    except InvalidDescriptor:
        return False
    return True


DEVIATIONS: dict[str, Deviation] = {
    d.name: d
    for d in (
        Deviation(
            "dml-slice1-merged-axes",
            ("SLICE1",),
            "DML_SLICE1 merges an axis whose window is the whole axis with stride 1 into its outer neighbour "
            "without checking that the output copies the whole window there (SLICE1.4)",
            dml_slice1_merged_axes,
        ),
        Deviation(
            "ort-cpu-reflect-past-axis",
            ("PADDING", "PADDING1"),
            "ONNX Runtime's CPU Pad before 1.32 runs a reflect pad >= its axis instead of refusing it, and leaves "
            "the elements one reflection does not reach unwritten (whatever the memory held); FLOAT16 goes through "
            "float32 there, so NaN payloads may change too",
            ort_reflect_within_one_reflection,
            ort_reflect_unwritten,
            float16_nan_payloads=True,
            reads_out_of_bounds=_reflect_past_axis,
        ),
        Deviation(
            "dml-graph-float16-snan-quieted",
            tuple(oracle.OPERATORS),
            "DirectML's CompileGraph quiets every FLOAT16 signalling NaN when a tensor of the node is strided "
            "(COMMON.3); CompileOperator copies them bit for bit",
            dml_graph_quiets_float16_snans,
        ),
        Deviation(
            "dml-identity-strided-float16-snan-quieted",
            ("ELEMENT_WISE_IDENTITY",),
            "DML_ELEMENT_WISE_IDENTITY quiets every FLOAT16 signalling NaN when a tensor is strided, through "
            "CompileOperator as well as CompileGraph (COMMON.3); packed, it copies them bit for bit",
            dml_graph_quiets_float16_snans,
        ),
        Deviation(
            "dml-padding-sizes-wrap",
            ("PADDING", "PADDING1"),
            "DML_PADDING's check of PAD.2 (and DML_PADDING1's of PAD1.2) adds InputSizes + StartPadding + EndPadding in UINT32 and accepts output "
            "sizes that equal the sum only modulo 2^32",
            lambda desc, inputs: None,
            accepts=dml_padding_sizes_wrap,
        ),
        Deviation(
            "dml-tile-sizes-wrap",
            ("TILE",),
            "DML_TILE's check of TILE.2 multiplies InputSizes * Repeats in UINT32 and accepts output sizes that equal "
            "the product only modulo 2^32",
            lambda desc, inputs: None,
            accepts=dml_tile_sizes_wrap,
        ),
        Deviation(
            "dml-tile-float64",
            ("TILE",),
            "DML_TILE accepts FLOAT64 tensors, which no row of its page's table lists (TILE.6), as 8-byte values",
            lambda desc, inputs: None,
            accepts=dml_tile_float64,
        ),
        Deviation(
            "dml-slice-grad-merged-axes",
            ("SLICE_GRAD",),
            "DML_SLICE_GRAD merges an axis whose window is the whole axis with stride 1 into its outer neighbour "
            "without checking that InputGradient covers the whole window there (SGRAD.4), as DML_SLICE1 does",
            dml_slice_grad_merged_axes,
        ),
        Deviation(
            "dml-reverse-subsequences-lengths",
            ("REVERSE_SUBSEQUENCES",),
            "DML_REVERSE_SUBSEQUENCES reads each sequence length as its low 32 bits (UINT64 lengths of 2^32 and more "
            "wrap) and does not clamp a length past the axis (REVSEQ.3): element k < L reads L - 1 - k clamped to "
            "the axis' last element",
            dml_reverse_subsequences_lengths,
        ),
        Deviation(
            "dml-reverse-subsequences-reads-outside",
            ("REVERSE_SUBSEQUENCES",),
            "DML_REVERSE_SUBSEQUENCES (1.12.0) reads each sequence length as its low 32 bits and does not clamp a "
            "length past the axis (REVSEQ.3): element k < L reads L - 1 - k, past the axis outside the subsequence "
            "(whatever that address holds); every element read inside it is right",
            dml_reverse_subsequences_lengths,
            dml_reverse_subsequences_outside,
        ),
        Deviation(
            "dml-gather-leading-indices-crash",
            ("GATHER",),
            "DML_GATHER's CreateOperator ends the process on an IndicesTensor with a size other than 1 before its last "
            "IndexDimensions (GATHER.7), where it should return E_INVALIDARG",
            lambda desc, inputs: None,
            reads_out_of_bounds=_gather_leading_indices,
        ),
        Deviation(
            "dml-gather-heap-corruption",
            ("GATHER",),
            "DML_GATHER with IndexDimensions > Axis + 1 (the right-aligned output crops leading ones of the indices' "
            "own dimensions, GATHER.5) damages the process heap in CreateOperator: a write before an array of "
            "DirectML's own, whatever the values; the runner's HeapValidate ends the process there",
            lambda desc, inputs: None,
            dies_on=_gather_crops_index_dimensions,
        ),
        Deviation(
            "ort-cpu-reverse-sequence-unwritten",
            ("REVERSE_SUBSEQUENCES",),
            "ONNX Runtime's CPU ReverseSequence before 1.32 does not write a subsequence of length 0 (REVSEQ.4: copied "
            "unchanged): zeros or whatever the memory held, not the same from one run to the next; every other "
            "element is right",
            ort_reverse_sequence_right,
            ort_reverse_sequence_unwritten,
        ),
        Deviation(
            "dml-one-hot-reads",
            ("ONE_HOT",),
            "DML_ONE_HOT reads INT64 indices as their low 32 bits (2^40 is 0, 2^63 - 1 is -1) and OnValue one step "
            "along ValuesTensor's last dimension (its stride) whatever that dimension's size (ONEHOT.5: along the "
            "fastest-changing dimension of size > 1): right for a packed ValuesTensor, not for a strided one",
            dml_one_hot_reads,
            lambda desc, inputs: _one_hot_on_unread(desc, inputs, graph=False),
        ),
        Deviation(
            "dml-graph-one-hot-reads",
            ("ONE_HOT",),
            "DML_ONE_HOT through CompileGraph: as dml-one-hot-reads, and a ValuesTensor whose last dimension has size "
            "1 gives OnValue = OffValue (the step along that dimension is 0)",
            dml_graph_one_hot_reads,
            lambda desc, inputs: _one_hot_on_unread(desc, inputs, graph=True),
        ),
        Deviation(
            "dml-one-hot-values-rank",
            ("ONE_HOT",),
            "DML_ONE_HOT does not check that ValuesTensor has the output's DimensionCount (ONEHOT.8, COMMON.1)",
            lambda desc, inputs: None,
            accepts=dml_one_hot_values_rank,
        ),
        Deviation(
            "dml-scatter-nd-long-tuple-dies",
            ("SCATTER_ND",),
            "DML_SCATTER_ND with a tuple longer than InputDimensionCount (SCATND.2): CreateOperator kills the process "
            "where IndicesDimensionCount - 1 + InputDimensionCount - tuple size is not negative (refused where it is)",
            lambda desc, inputs: None,
            dies_on=dml_scatter_nd_dies_on_long_tuple,
        ),
        Deviation(
            "dml-scatter-nd-other-dimension-counts",
            ("SCATTER_ND",),
            "DML_SCATTER_ND accepts IndicesTensor and UpdatesTensor of DimensionCounts other than InputTensor's "
            "(SCATND.8) where each holds its meaningful dimensions and the descriptor, with leading 1s up to the "
            "largest DimensionCount, is valid",
            lambda desc, inputs: None,
            accepts=dml_scatter_nd_other_dimension_counts,
        ),
        Deviation(
            "dml-scatter-nd-broadcast-indices",
            ("SCATTER_ND",),
            "DML_SCATTER_ND refuses an IndicesTensor with a stride of 0 on a dimension of size > 1 (LAYOUT.2: a "
            "broadcast batch or tuple), whatever the index type",
            lambda desc, inputs: None,
            refuses=dml_scatter_nd_refuses_broadcast_indices,
        ),
        Deviation(
            "dml-slice-grad-unchecked-window",
            ("SLICE_GRAD",),
            "DML_SLICE_GRAD checks InputGradientTensor against OutputGradientTensor, not against the window: it "
            "accepts an InputGradient past MaxCopiedElements (SGRAD.4) and an empty window (SGRAD.3) whose writes "
            "all land inside OutputGradientTensor",
            lambda desc, inputs: None,
            accepts=dml_slice_grad_unchecked_window,
        ),
        Deviation(
            "dml-gather-nd1-unequal-batches",
            ("GATHER_ND1",),
            "DML_GATHER_ND1 accepts input and indices batch sizes that differ (GND1.10, E-GND1-1)",
            lambda desc, inputs: None,
            accepts=dml_gather_nd1_unequal_batches,
        ),
    )
}


def explain_acceptance(desc: Descriptor, level: FeatureLevel) -> list[str]:
    """Names of the validation deviations that accept this invalid descriptor."""
    return [
        d.name
        for d in DEVIATIONS.values()
        if d.accepts is not None and desc.operator in d.operators and d.accepts(desc, level)
    ]


def explain_refusal(desc: Descriptor, level: FeatureLevel) -> list[str]:
    """Names of the validation deviations that refuse this valid descriptor."""
    return [
        d.name
        for d in DEVIATIONS.values()
        if d.refuses is not None and desc.operator in d.operators and d.refuses(desc, level)
    ]


def explain(desc: Descriptor, inputs: Sequence[np.ndarray], actual: Sequence[np.ndarray]) -> list[str]:
    """Names of the deviations whose prediction `actual` equals bit for bit (outside the elements it leaves free)."""
    found = []
    for deviation in DEVIATIONS.values():
        if desc.operator not in deviation.operators:
            continue
        predicted = deviation.predict(desc, inputs)
        if predicted is None:
            continue
        free = deviation.free(desc, inputs) if deviation.free is not None else None
        comparison = compare_outputs(predicted, list(actual), free)
        first = oracle.case_tensor(desc)
        nan_payloads = deviation.float16_nan_payloads and first.data_type is DataType.FLOAT16
        if comparison.equal or (
            not comparison.problems and (comparison.judged_count == 0 or (nan_payloads and comparison.nan_payload_only))
        ):
            found.append(deviation.name)
    return found

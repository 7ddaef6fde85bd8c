"""The oracle's entry points: descriptors in, validation, outputs, derivations out.

`validate`, `compute`, `explain` and `unspecified` dispatch on the descriptor to its
operator module; `slice`, `slice1`, `padding`, `split` (and `padding1`, `join`) are thin wrappers that build a
descriptor from numpy arrays the way a caller of directml.h would fill the struct.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from . import core, gather_nd, layout, op_slice1
from .checks import TensorDesc, as_ints
from .descriptor_json import JsonDescriptor
from .op_cast import CastDesc
from .op_depth_to_space import DepthToSpaceDesc
from .op_depth_to_space1 import DepthToSpace1Desc
from .op_diagonal_matrix import DiagonalMatrixDesc
from .op_diagonal_matrix1 import DiagonalMatrix1Desc
from .op_element_wise_identity import IdentityDesc
from .op_fill_value_constant import FillValueConstantDesc
from .op_fill_value_sequence import FillValueSequenceDesc
from .op_gather import GatherDesc
from .op_gather import output_sizes as gather_output_sizes
from .op_gather_elements import GatherElementsDesc
from .op_gather_nd import GatherNdDesc
from .op_gather_nd1 import GatherNd1Desc
from .op_join import JoinDesc
from .op_one_hot import OneHotDesc
from .op_padding import PaddingDesc, PaddingMode
from .op_padding1 import Padding1Desc
from .op_reverse_subsequences import ReverseSubsequencesDesc, lengths_sizes
from .op_scatter import ScatterDesc
from .op_scatter_nd import ScatterNdDesc, updates_sizes
from .op_slice import SliceDesc
from .op_slice1 import Slice1Desc
from .op_slice_grad import SliceGradDesc
from .op_space_to_depth import SpaceToDepthDesc
from .op_space_to_depth1 import SpaceToDepth1Desc
from .op_split import SplitDesc
from .op_tile import TileDesc
from .registry import DESCRIPTOR_TYPES, REGISTRY, OperatorModule
from .size import check_size
from .tables import DataType, FeatureLevel

# Static, for mypy (a union cannot be built from the registry at type-check time);
# tests/test_structure.py checks it names exactly registry.DESCRIPTOR_TYPES.
Descriptor = (
    SliceDesc
    | Slice1Desc
    | PaddingDesc
    | SplitDesc
    | Padding1Desc
    | JoinDesc
    # issue 31
    | IdentityDesc
    | TileDesc
    | SpaceToDepthDesc
    | SpaceToDepth1Desc
    | DepthToSpaceDesc
    | DepthToSpace1Desc
    | SliceGradDesc
    | ReverseSubsequencesDesc
    | GatherDesc
    | GatherElementsDesc
    | ScatterDesc
    | ScatterNdDesc
    | CastDesc
    | FillValueConstantDesc
    | FillValueSequenceDesc
    | DiagonalMatrixDesc
    | DiagonalMatrix1Desc
    # issue 32
    | GatherNdDesc
    | GatherNd1Desc
    # issue 32
    | OneHotDesc
)


def _module(desc: Descriptor) -> OperatorModule:
    try:
        return REGISTRY[desc.operator]
    except (AttributeError, KeyError):
        raise TypeError(f"{desc!r} is not an oracle descriptor") from None


def case_tensor(desc: Descriptor) -> TensorDesc:
    """The tensor a case's data type and rank are read from: the descriptor's own `input_tensor` where it names
    one (ONE_HOT's and JOIN's point elsewhere than their first input: ONE_HOT's is its output, whose type is the
    values'), else the output where there is no input (FILL_VALUE_*, DIAGONAL_MATRIX, DIAGONAL_MATRIX1 without its
    optional one)."""
    named = getattr(desc, "input_tensor", None)
    return named if named is not None else (desc.input_tensors or desc.output_tensors)[0]


def validate(desc: Descriptor, feature_level: FeatureLevel | str | None = None) -> None:
    """Raise InvalidDescriptor (with the broken clause) unless `desc` is valid at `feature_level`."""
    _module(desc).validate(desc, FeatureLevel.parse(feature_level))
    layout.validate(desc)  # LAYOUT.*: each tensor's Strides, TotalTensorSizeInBytes, alignment and flags


def compute(
    desc: Descriptor,
    inputs: Sequence[np.ndarray],
    *,
    feature_level: FeatureLevel | str | None = None,
    literal: bool = False,
    max_bytes: int | None = None,
) -> list[np.ndarray]:
    """Validate, then compute the outputs (the fast path, or the literal one with literal=True).

    With `max_bytes`, a descriptor whose tensors together take more is refused with TooLarge
    before anything is allocated (see oracle.size.default_max_bytes for a budget).
    """
    validate(desc, feature_level)
    if max_bytes is not None:
        check_size(desc, max_bytes)
    xs = _check_inputs(desc, inputs)
    module = _module(desc)
    return (module.compute_literal if literal else module.compute)(desc, xs)


def _check_inputs(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    tensors = desc.input_tensors  # one for every operator but JOIN and REVERSE_SUBSEQUENCES (its lengths)
    if len(inputs) != len(tensors):
        raise ValueError(f"{desc.operator} takes {len(tensors)} input tensor(s), got {len(inputs)}")
    if len(tensors) == 1:
        return [core.check_input(inputs[0], tensors[0], "input")]
    return [core.check_input(x, t, f"input {j}") for j, (x, t) in enumerate(zip(inputs, tensors))]


def explain(
    desc: Descriptor, inputs: Sequence[np.ndarray], feature_level: FeatureLevel | str | None = None
) -> list[str]:
    """One derivation line per output element, in the pages' notation."""
    validate(desc, feature_level)
    return _module(desc).explain(desc, _check_inputs(desc, inputs))


def unspecified(desc: Descriptor) -> list[str]:
    """Ids of register entries whose unspecified behaviour `desc` reaches: its results are observed."""
    return _module(desc).unspecified(desc) + layout.unspecified(desc)


# --- one function per operator ------------------------------------------------------------


def _input_desc(input: np.ndarray) -> tuple[np.ndarray, TensorDesc]:
    array = np.asarray(input)
    return array, TensorDesc(DataType.from_numpy(array.dtype), tuple(array.shape))


# The descriptors with their outputs derived from the fields, as the pages define them: the one place
# the output tensors are worked out (the functions below, the stress profile and scripts use these).


def slice_desc(input_tensor: TensorDesc, offsets, sizes, strides) -> SliceDesc:
    """DML_SLICE's descriptor: the output's sizes are `sizes` (SLICE.3)."""
    out = TensorDesc(input_tensor.data_type, as_ints(sizes, "sizes"))
    return SliceDesc(input_tensor, out, as_ints(offsets, "offsets"), out.sizes, as_ints(strides, "strides"))


def slice1_desc(
    input_tensor: TensorDesc, window_offsets, window_sizes, window_strides, output_sizes=None
) -> Slice1Desc:
    """DML_SLICE1's descriptor; output_sizes=None copies MaxCopiedElements in every dimension (SLICE1.4)."""
    windows, strides = as_ints(window_sizes, "window_sizes"), as_ints(window_strides, "window_strides")
    if output_sizes is None:
        # A zero stride gets a placeholder size of 1; validation then reports SLICE1.5 for it.
        output_sizes = [op_slice1.max_copied_elements(n, s) if s else 1 for n, s in zip(windows, strides)]
    out = TensorDesc(input_tensor.data_type, as_ints(output_sizes, "output_sizes"))
    return Slice1Desc(input_tensor, out, as_ints(window_offsets, "window_offsets"), windows, strides)


def padding_desc(input_tensor: TensorDesc, mode, start_padding, end_padding, padding_value=0.0) -> PaddingDesc:
    """DML_PADDING's descriptor: OutputSizes = InputSizes + StartPadding + EndPadding (PAD.2)."""
    start, end = as_ints(start_padding, "start_padding"), as_ints(end_padding, "end_padding")
    out = TensorDesc(input_tensor.data_type, tuple(n + s + e for n, s, e in zip(input_tensor.sizes, start, end)))
    return PaddingDesc(input_tensor, out, PaddingMode.parse(mode), padding_value, start, end)


def padding1_desc(
    input_tensor: TensorDesc, mode, start_padding, end_padding, padding_value=0, padding_value_data_type=None
) -> Padding1Desc:
    """DML_PADDING1's descriptor (PAD1.2); the value's type is the tensor's unless another is given (PAD1.4)."""
    base = padding_desc(input_tensor, mode, start_padding, end_padding)
    data_type = input_tensor.data_type if padding_value_data_type is None else DataType.parse(padding_value_data_type)
    return Padding1Desc(
        input_tensor,
        base.output_tensor,
        base.padding_mode,
        data_type,
        padding_value,
        base.start_padding,
        base.end_padding,
    )


def split_desc(input_tensor: TensorDesc, axis, output_sizes) -> SplitDesc:
    """DML_SPLIT's descriptor; `output_sizes` are the outputs' sizes along `axis` (SPLIT.2)."""
    axis = as_ints((axis,), "axis")[0]
    sizes = input_tensor.sizes
    in_range = 0 <= axis < input_tensor.dimension_count
    outputs = tuple(
        TensorDesc(input_tensor.data_type, (*sizes[:axis], n, *sizes[axis + 1 :]) if in_range else sizes)
        for n in as_ints(output_sizes, "output_sizes")
    )
    return SplitDesc(input_tensor, outputs, axis)


def join_desc(input_tensors: Sequence[TensorDesc], axis) -> JoinDesc:
    """DML_JOIN's descriptor; the output is the inputs' sizes with their sizes along `axis` summed (JOIN.3)."""
    axis = as_ints((axis,), "axis")[0]
    first = input_tensors[0]
    sizes = list(first.sizes)
    if 0 <= axis < len(sizes):
        sizes[axis] = sum(t.sizes[axis] for t in input_tensors if axis < t.dimension_count)
    return JoinDesc(tuple(input_tensors), TensorDesc(first.data_type, tuple(sizes)), axis)


def tile_desc(input_tensor: TensorDesc, repeats) -> TileDesc:
    """DML_TILE's descriptor: OutputTensor.Sizes[i] = InputTensor.Sizes[i] * Repeats[i] (TILE.2)."""
    reps = as_ints(repeats, "repeats")
    out = TensorDesc(input_tensor.data_type, tuple(n * r for n, r in zip(input_tensor.sizes, reps)))
    return TileDesc(input_tensor, out, reps)


def reverse_subsequences_desc(
    input_tensor: TensorDesc, axis, lengths_data_type: DataType | str = DataType.UINT32
) -> ReverseSubsequencesDesc:
    """DML_REVERSE_SUBSEQUENCES' descriptor: the lengths have the input's sizes with Axis 1 (REVSEQ.2), the
    output the input's (REVSEQ.5)."""
    axis = as_ints((axis,), "axis")[0]
    lengths = TensorDesc(DataType.parse(lengths_data_type), lengths_sizes(input_tensor.sizes, axis))
    return ReverseSubsequencesDesc(input_tensor, lengths, TensorDesc(input_tensor.data_type, input_tensor.sizes), axis)


def gather_nd_desc(
    input_tensor: TensorDesc,
    indices_tensor: TensorDesc,
    input_dimension_count: int,
    indices_dimension_count: int,
    batch_dimension_count: int | None = None,
) -> GatherNdDesc | GatherNd1Desc:
    """DML_GATHER_ND's descriptor (DML_GATHER_ND1's with `batch_dimension_count`): the output's sizes are the
    batches, the indices' leading segment and the input's trailing one, with leading ones (GND.3, E-GND-1)."""
    sizes = gather_nd.output_sizes(
        input_tensor.sizes,
        indices_tensor.sizes,
        input_dimension_count,
        indices_dimension_count,
        batch_dimension_count or 0,
    )
    out = TensorDesc(input_tensor.data_type, sizes)
    if batch_dimension_count is None:
        return GatherNdDesc(input_tensor, indices_tensor, out, input_dimension_count, indices_dimension_count)
    return GatherNd1Desc(
        input_tensor, indices_tensor, out, input_dimension_count, indices_dimension_count, batch_dimension_count
    )


def one_hot_desc(
    indices_tensor: TensorDesc, depth, axis, values_data_type: DataType | str = DataType.FLOAT32, values_sizes=None
) -> OneHotDesc:
    """DML_ONE_HOT's descriptor from its indices (size 1 along Axis: ONEHOT.4) and the axis' size in the output
    (`depth`); ValuesTensor is [off, on] along the last axis unless `values_sizes` says otherwise (ONEHOT.5)."""
    axis = as_ints((axis,), "axis")[0]
    depth = as_ints((depth,), "depth")[0]
    rank = indices_tensor.dimension_count
    out_sizes = tuple(depth if d == axis else n for d, n in enumerate(indices_tensor.sizes))
    dt = DataType.parse(values_data_type)
    sizes = tuple(values_sizes) if values_sizes is not None else (1,) * (rank - 1) + (2,)
    return OneHotDesc(indices_tensor, TensorDesc(dt, sizes), TensorDesc(dt, out_sizes), axis)


def gather_desc(
    input_tensor: TensorDesc, indices_sizes, axis, index_dimensions, indices_data_type: DataType | str = DataType.UINT32
) -> GatherDesc:
    """DML_GATHER's descriptor: the output's sizes are GATHER.5's (ValueError where they do not fit)."""
    axis, index_dimensions = as_ints((axis, index_dimensions), "axis, index_dimensions")
    indices = TensorDesc(DataType.parse(indices_data_type), as_ints(indices_sizes, "indices_sizes"))
    sizes = gather_output_sizes(input_tensor.sizes, indices.sizes, axis, index_dimensions)
    if sizes is None:
        raise ValueError(f"GATHER: the output's relevant dimensions do not fit in {input_tensor.dimension_count}")
    return GatherDesc(input_tensor, indices, TensorDesc(input_tensor.data_type, sizes), axis, index_dimensions)


def gather_elements_desc(
    input_tensor: TensorDesc, indices_sizes, axis, indices_data_type: DataType | str = DataType.UINT32
) -> GatherElementsDesc:
    """DML_GATHER_ELEMENTS' descriptor: the output has the indices' sizes (GELEM.4) and the input's type."""
    axis = as_ints((axis,), "axis")[0]
    indices = TensorDesc(DataType.parse(indices_data_type), as_ints(indices_sizes, "indices_sizes"))
    return GatherElementsDesc(input_tensor, indices, TensorDesc(input_tensor.data_type, indices.sizes), axis)


def scatter_desc(
    input_tensor: TensorDesc, indices_sizes, axis, indices_data_type: DataType | str = DataType.UINT32
) -> ScatterDesc:
    """DML_SCATTER's descriptor: IndicesTensor of `indices_sizes` (the input's but along Axis: SCATTER.2), the
    updates of the indices' sizes and the input's type (SCATTER.4), the output the input's (SCATTER.5)."""
    axis = as_ints((axis,), "axis")[0]
    sizes = as_ints(indices_sizes, "indices_sizes")
    return ScatterDesc(
        input_tensor,
        TensorDesc(DataType.parse(indices_data_type), sizes),
        TensorDesc(input_tensor.data_type, sizes),
        TensorDesc(input_tensor.data_type, input_tensor.sizes),
        axis,
    )


def scatter_nd_desc(
    input_tensor: TensorDesc,
    indices_sizes,
    input_dimension_count=None,
    indices_dimension_count=None,
    indices_data_type: DataType | str = DataType.UINT32,
) -> ScatterNdDesc:
    """DML_SCATTER_ND's descriptor: IndicesTensor of `indices_sizes` (its last size the tuple size), the counts
    (default: every dimension meaningful), the updates sized by SCATND.4 (the example's reading, E-SCATND-1) in the
    input's type, the output the input's (SCATND.5)."""
    sizes = as_ints(indices_sizes, "indices_sizes")
    n = input_tensor.dimension_count
    idc = n if input_dimension_count is None else as_ints((input_dimension_count,), "input_dimension_count")[0]
    ixdc = (
        len(sizes)
        if indices_dimension_count is None
        else as_ints((indices_dimension_count,), "indices_dimension_count")[0]
    )
    indices = TensorDesc(DataType.parse(indices_data_type), sizes)
    out = TensorDesc(input_tensor.data_type, input_tensor.sizes)
    draft = ScatterNdDesc(input_tensor, indices, TensorDesc(input_tensor.data_type, (1,) * n), out, idc, ixdc)
    return ScatterNdDesc(
        input_tensor, indices, TensorDesc(input_tensor.data_type, updates_sizes(draft)), out, idc, ixdc
    )


def slice(input, offsets, sizes, strides, *, feature_level=None) -> np.ndarray:
    """DML_SLICE: Output[c] = Input[offsets + strides * c]; the output's sizes are `sizes`."""
    x, in_desc = _input_desc(input)
    return compute(slice_desc(in_desc, offsets, sizes, strides), [x], feature_level=feature_level)[0]


def slice1(input, window_offsets, window_sizes, window_strides, output_sizes=None, *, feature_level=None) -> np.ndarray:
    """DML_SLICE1; output_sizes=None copies MaxCopiedElements in every dimension."""
    x, in_desc = _input_desc(input)
    desc = slice1_desc(in_desc, window_offsets, window_sizes, window_strides, output_sizes)
    return compute(desc, [x], feature_level=feature_level)[0]


def padding(input, mode, start_padding, end_padding, padding_value=0.0, *, feature_level=None) -> np.ndarray:
    """DML_PADDING; mode is a PaddingMode or "constant", "edge", "reflection", "symmetric"."""
    x, in_desc = _input_desc(input)
    desc = padding_desc(in_desc, mode, start_padding, end_padding, padding_value)
    return compute(desc, [x], feature_level=feature_level)[0]


def padding1(input, mode, start_padding, end_padding, padding_value=0, *, feature_level=None) -> np.ndarray:
    """DML_PADDING1: `padding_value` written as the input's data type, bit for bit."""
    x, in_desc = _input_desc(input)
    desc = padding1_desc(in_desc, mode, start_padding, end_padding, padding_value)
    return compute(desc, [x], feature_level=feature_level)[0]


def split(input, axis, output_sizes, *, feature_level=None) -> list[np.ndarray]:
    """DML_SPLIT along `axis`; output_sizes are the outputs' sizes along that axis."""
    x, in_desc = _input_desc(input)
    return compute(split_desc(in_desc, axis, output_sizes), [x], feature_level=feature_level)


def join(inputs, axis, *, feature_level=None) -> np.ndarray:
    """DML_JOIN along `axis`: the inputs one after another (numpy's concatenate, bit for bit)."""
    pairs = [_input_desc(x) for x in inputs]
    desc = join_desc([d for _, d in pairs], axis)
    return compute(desc, [x for x, _ in pairs], feature_level=feature_level)[0]


def tile(input, repeats, *, feature_level=None) -> np.ndarray:
    """DML_TILE: the input repeated Repeats[i] times along each dimension (numpy's tile, bit for bit)."""
    x, in_desc = _input_desc(input)
    return compute(tile_desc(in_desc, repeats), [x], feature_level=feature_level)[0]


# --- descriptors as JSON (the case format's "descriptor" object): each descriptor type's own -------------


def descriptor_to_json(desc: Descriptor) -> dict:
    """The descriptor's JSON object: its type's `to_json` (oracle.descriptor_json)."""
    return desc.to_json()


def descriptor_from_json(operator: str, obj: dict) -> Descriptor:
    """Build a descriptor of `operator` from its JSON object; unknown or missing fields raise KeyError naming them."""
    if operator not in DESCRIPTOR_TYPES:
        raise KeyError(f"operator {operator!r} is not one of {', '.join(DESCRIPTOR_TYPES)}")
    return cast(Descriptor, cast("type[JsonDescriptor]", DESCRIPTOR_TYPES[operator]).from_json(obj))

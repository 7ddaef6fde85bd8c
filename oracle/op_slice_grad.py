"""DML_SLICE_GRAD_OPERATOR_DESC (DirectML's page, beyond the seeds: docs/spec/beyond-seeds.md).

The inverse map of DML_SLICE1: OutputGradient[CopyStart + InputWindowStrides * c] = InputGradient[c]
(SGRAD.1, SGRAD.2), and every element of OutputGradient no c reaches is 0.  The window is read against
OutputGradientTensor, the tensor with the sizes of SLICE1's input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
from .descriptor_json import TENSOR, JsonDescriptor
from .op_slice1 import copy_start, max_copied_elements
from .tables import (
    ALL_DATA_TYPES,
    FL30_TYPES,
    INT_MAX,
    INT_MIN,
    RANKS_1_8,
    FeatureLevel,
    OperatorTables,
    SupportRow,
)

OPERATOR = "SLICE_GRAD"
PAGE_ORDER = 15  # its place in the registry: after the six, last of issue 31's nine
TABLES = OperatorTables(
    support=(  # SGRAD.8, as the page prints them (E-SGRAD-2: the feature-level history disagrees at 3.0)
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_1, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_3_0, (4, 5), FL30_TYPES),
    ),
    support_clause="SGRAD.8",
    dimension_count_clause="SGRAD.8",
    introduced=(FeatureLevel.FL_3_0, "SGRAD.8"),
    clause_prefix="SGRAD.",
)


@dataclass(frozen=True)
class SliceGradDesc(OneInOneOut, JsonDescriptor):
    """Mirrors DML_SLICE_GRAD_OPERATOR_DESC: `input_tensor` is InputGradientTensor, `output_tensor`
    OutputGradientTensor (named by role, as every one-input operator's), InputWindow* as window_*."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    window_offsets: tuple[int, ...]
    window_sizes: tuple[int, ...]
    # E-SGRAD-1: the page types InputWindowStrides UINT, DirectML.h INT.  Signed, as the header and the
    # page's own note ("negative strides flip the input window direction") have it.
    window_strides: tuple[int, ...]
    dimension_count: int | None = None

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "output_tensor": TENSOR}
    ARRAYS = ("window_offsets", "window_sizes", "window_strides")
    UINT_ARRAYS = ("window_offsets", "window_sizes")  # InputWindowStrides is INT (E-SGRAD-1)


DESCRIPTOR = SliceGradDesc


def validate(desc: SliceGradDesc, feature_level: FeatureLevel) -> None:
    n = check_one_in_one_out(desc, "SGRAD.6")
    check_uint(desc.window_offsets, "window_offsets", "SGRAD.3")
    check_uint(desc.window_sizes, "window_sizes", "SGRAD.3")
    for i, s in enumerate(desc.window_strides):
        if not INT_MIN <= s <= INT_MAX:
            fail(
                f"window_strides[{i}]={s}, but window_strides is INT ({INT_MIN}..{INT_MAX}) (E-SGRAD-1)",
                "SGRAD.5",
                "window_strides",
            )
    check_support(OPERATOR, TABLES, desc.tensors, n, feature_level)
    for i in range(n):
        offset, size, stride = desc.window_offsets[i], desc.window_sizes[i], desc.window_strides[i]
        if size < 1:
            fail(f"window_sizes[{i}]={size}, but the window may not be empty", "SGRAD.3", "window_sizes")
        if offset + size > desc.output_tensor.sizes[i]:
            fail(
                f"window_offsets[{i}] + window_sizes[{i}] = {offset} + {size} = {offset + size}, but "
                f"output_tensor.sizes[{i}]={desc.output_tensor.sizes[i]}: the window extends past "
                "OutputGradientTensor",
                "SGRAD.3",
                "window_sizes",
            )
        if stride == 0:
            fail(f"window_strides[{i}]=0, but SLICE_GRAD requires non-zero strides", "SGRAD.5", "window_strides")
        got = desc.input_tensor.sizes[i]
        limit = max_copied_elements(size, stride)
        if not 1 <= got <= limit:
            fail(
                f"input_tensor.sizes[{i}]={got}, but MaxCopiedElements[{i}] = 1 + ({size} - 1) / |{stride}| = "
                f"{limit} (InputGradientTensor has the sizes of SLICE1's output)",
                "SGRAD.4",
                "input_tensor.sizes",
            )


def unspecified(desc: SliceGradDesc) -> list[str]:
    return []


def copy_starts(desc: SliceGradDesc) -> tuple[int, ...]:
    return tuple(map(copy_start, desc.window_offsets, desc.window_sizes, desc.window_strides))


@dataclass(frozen=True, eq=True)
class Scattered(core.AxisMap):
    """Output index o reads input index k where o = start + step * k (0 <= k < written); -1 (a zero) elsewhere."""

    start: int
    step: int
    written: int  # InputGradient's size along the axis
    size: int

    def at(self, k: np.ndarray) -> np.ndarray:
        offset = np.asarray(k, dtype=np.int64) - self.start
        index = offset // self.step
        hit = (offset % self.step == 0) & (index >= 0) & (index < self.written)
        return np.where(hit, index, -1)


def index_maps(desc: SliceGradDesc) -> list[Scattered]:
    """SGRAD.1 per axis: the output index each input index lands on, read backwards (-1: not written, 0)."""
    return [
        Scattered(s0, st, k, n)
        for s0, st, k, n in zip(
            copy_starts(desc), desc.window_strides, desc.input_tensor.sizes, desc.output_tensor.sizes
        )
    ]


def zero(desc: SliceGradDesc) -> np.ndarray:
    """The value of every element no input element lands on (SGRAD.1: "set to 0"): all bits clear."""
    return np.zeros((), dtype=desc.output_tensor.data_type.numpy)


def target(desc: SliceGradDesc, c: Sequence[int]) -> tuple[int, ...]:
    """SGRAD.1 for one input coordinate: CopyStart + InputWindowStrides * c."""
    return tuple(s0 + st * k for s0, st, k in zip(copy_starts(desc), desc.window_strides, c))


def compute_literal(desc: SliceGradDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The page read literally: a zero output, then each input element written to its place."""
    (x,) = inputs
    data_type = desc.input_tensor.data_type
    bits = core.as_bits(x, data_type)
    out = np.zeros(desc.output_tensor.sizes, dtype=data_type.bits)
    for c in core.output_coordinates(desc.input_tensor.sizes):
        out[target(desc, c)] = bits[c]
    return [core.from_bits(out, data_type)]


def compute(desc: SliceGradDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """A zeroed output and one strided view of it that the input is copied into."""
    (x,) = inputs
    data_type = desc.input_tensor.data_type
    out = buffers.empty(desc.output_tensor.sizes, data_type.bits)
    out.fill(0)
    window = tuple(
        core.Affine(s0, st, k).as_slice()
        for s0, st, k in zip(copy_starts(desc), desc.window_strides, desc.input_tensor.sizes)
    )
    np.copyto(out[window], core.as_bits(x, data_type))
    return [core.from_bits(out, data_type)]


def explain(desc: SliceGradDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    """One line per input element: where it lands; the rest of OutputGradient is 0."""
    (x,) = inputs
    start = copy_starts(desc)
    lines = [
        f"InputGradient[{','.join(map(str, c))}] = {core.fmt_value(x[c])} -> OutputGradient["
        f"{core.fmt_coord(start)} + {core.fmt_coord(desc.window_strides)} * {core.fmt_coord(c)}] = "
        f"OutputGradient[{core.fmt_coord(target(desc, c))}]"
        for c in core.output_coordinates(desc.input_tensor.sizes)
    ]
    written = int(np.prod(desc.input_tensor.sizes))
    total = int(np.prod(desc.output_tensor.sizes))
    lines.append(f"the other {total - written} elements of OutputGradient are 0")
    return lines

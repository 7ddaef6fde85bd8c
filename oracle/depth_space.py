"""What DML_DEPTH_TO_SPACE(1) and DML_SPACE_TO_DEPTH(1) share: one index map, a reshape and a transpose.

DML_DEPTH_SPACE_ORDER's page gives both layouts, with the parenthesised dimensions flattened together:

- DEPTH_COLUMN_ROW: depth [Batch, (BlockHeight, BlockWidth, Channels), Height, Width]
- COLUMN_ROW_DEPTH: depth [Batch, (Channels, BlockHeight, BlockWidth), Height, Width]
- both: space [Batch, Channels, (Height, BlockHeight), (Width, BlockWidth)]

So either direction views its input as 6-D, transposes the axes and reads the result as the 4-D
output: a `Regroup`.  DEPTH_TO_SPACE reads depth and writes space; SPACE_TO_DEPTH the other way,
with the inverse permutation.  The plain operators are the DEPTH_COLUMN_ROW order (D2S1.4, S2D1.4).
The literal paths do not use the Regroup: they compute each output coordinate's source with
integer division and remainder (`depth_index`), as the layouts read, so the two are independent.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from . import core
from .checks import (
    TensorDesc,
    UnaryTensors,
    as_ints,
    check_support,
    check_unary_tensors,
    fail,
)
from .descriptor_json import enumeration
from .tables import UINT_MAX, DataType, FeatureLevel, OperatorTables


class DepthSpaceOrder(enum.Enum):
    """DML_DEPTH_SPACE_ORDER (DirectML.h: DEPTH_COLUMN_ROW = 0, COLUMN_ROW_DEPTH = 1)."""

    DEPTH_COLUMN_ROW = "DEPTH_COLUMN_ROW"
    COLUMN_ROW_DEPTH = "COLUMN_ROW_DEPTH"

    @classmethod
    def parse(cls, value: Any) -> DepthSpaceOrder:
        """A member, its name, or the name with the DML_DEPTH_SPACE_ORDER_ prefix; ValueError otherwise."""
        if isinstance(value, DepthSpaceOrder):
            return value
        if isinstance(value, str):
            key = value.upper().removeprefix("DML_DEPTH_SPACE_ORDER_")
            if key in cls.__members__:
                return cls[key]
        raise ValueError(f"unknown depth-space order {str(value)[:80]!r}; expected one of {', '.join(cls.__members__)}")

    @property
    def onnx_mode(self) -> str:
        """ONNX DepthToSpace's mode of the same layout: DCR or CRD."""
        return "DCR" if self is DepthSpaceOrder.DEPTH_COLUMN_ROW else "CRD"


DEPTH_SPACE_ORDER = enumeration(DepthSpaceOrder.parse)
DCR = DepthSpaceOrder.DEPTH_COLUMN_ROW


class BlockMover(UnaryTensors):
    """Mixed into the four descriptors: one input, one output, DimensionCount their rank (the structs have no
    DimensionCount field), and the struct fields besides the tensors: BlockSize, and Order where it exists
    (by its name without DML_DEPTH_SPACE_ORDER_, as the native runner and the reproducer read it)."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc
    block_size: int
    HAS_ORDER: ClassVar[bool] = False
    UINT_SCALARS: ClassVar[tuple[str, ...]] = ("block_size",)  # what a UINT member must hold (wire.inexpressible)

    def __post_init__(self) -> None:
        object.__setattr__(self, "block_size", as_ints((self.block_size,), "block_size")[0])

    @property
    def order(self) -> DepthSpaceOrder:
        """The plain operators' layout: DEPTH_COLUMN_ROW (D2S1's remarks: the plain one is DCR)."""
        return DCR

    @property
    def dimension_count(self) -> int:
        return self.input_tensor.dimension_count

    def struct_fields(self) -> dict:
        fields: dict = {"block_size": self.block_size}
        if self.HAS_ORDER:
            fields["order"] = self.order.value
        return fields


@dataclass(frozen=True)
class Regroup:
    """The index map of the four operators: the input viewed as `view` (6-D), its axes permuted by `axes`
    (output axis k is input axis axes[k]), read as `sizes`.  No element is touched until `apply`."""

    view: tuple[int, ...]
    axes: tuple[int, ...]
    sizes: tuple[int, ...]

    def apply(self, array: np.ndarray, data_type: DataType) -> np.ndarray:
        """The output: one transposed view of the input's bits, copied once (NaN payloads survive)."""
        bits = core.as_bits(array, data_type).reshape(self.view).transpose(self.axes)
        return core.from_bits(np.ascontiguousarray(bits).reshape(self.sizes), data_type)


def depth_layout(order: DepthSpaceOrder, channels: int, b: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The depth axis split as the order lays it out: its three sizes, and where Channels, BlockHeight and
    BlockWidth sit among them."""
    if order is DCR:
        return (b, b, channels), (2, 0, 1)
    return (channels, b, b), (0, 1, 2)


def to_space(order: DepthSpaceOrder, depth_sizes: Sequence[int], b: int) -> Regroup:
    """DEPTH_TO_SPACE: [N, (depth), H, W] -> [N, C, H, bh, W, bw] -> [N, C, H*b, W*b]."""
    n, c, h, w = depth_sizes
    split, (ic, ibh, ibw) = depth_layout(order, c // (b * b), b)
    # view axes: 0 N, 1-3 the depth split, 4 H, 5 W; output [N, C, H, bh, W, bw]
    axes = (0, 1 + ic, 4, 1 + ibh, 5, 1 + ibw)
    return Regroup((n, *split, h, w), axes, (n, c // (b * b), h * b, w * b))


def to_depth(order: DepthSpaceOrder, space_sizes: Sequence[int], b: int) -> Regroup:
    """SPACE_TO_DEPTH: [N, C, (H, bh), (W, bw)] -> [N, (depth), H, W], the inverse of `to_space`'s transpose."""
    n, c, h, w = space_sizes
    _, (ic, ibh, ibw) = depth_layout(order, c, b)
    # view axes: 0 N, 1 C, 2 H, 3 bh, 4 W, 5 bw; output [N, depth split, H, W]
    source = {ic: 1, ibh: 3, ibw: 5}
    axes = (0, source[0], source[1], source[2], 2, 4)
    return Regroup((n, c, h // b, b, w // b, b), axes, (n, c * b * b, h // b, w // b))


def depth_index(order: DepthSpaceOrder, channels: int, b: int, channel: int, i: int, j: int) -> int:
    """The depth channel holding (Channels = channel, BlockHeight = i, BlockWidth = j): the order's flattening."""
    if order is DCR:
        return (i * b + j) * channels + channel
    return (channel * b + i) * b + j


def space_source(desc: BlockMover, c: Sequence[int]) -> tuple[int, ...]:
    """DEPTH_TO_SPACE read literally: Output[n, k, y, x] = Input[n, depth(k, y % b, x % b), y / b, x / b]."""
    n, k, y, x = c
    b = desc.block_size
    channels = desc.output_tensor.sizes[1]
    return (n, depth_index(desc.order, channels, b, k, y % b, x % b), y // b, x // b)


def depth_source(desc: BlockMover, c: Sequence[int]) -> tuple[int, ...]:
    """SPACE_TO_DEPTH read literally: output channel k is depth(channel, i, j); it reads Input[n, channel,
    y * b + i, x * b + j]."""
    n, k, y, x = c
    b = desc.block_size
    channels = desc.input_tensor.sizes[1]
    if desc.order is DCR:
        block, channel = divmod(k, channels)
        i, j = divmod(block, b)
    else:
        channel, block = divmod(k, b * b)
        i, j = divmod(block, b)
    return (n, channel, y * b + i, x * b + j)


def check_block_size(desc: BlockMover, clause: str) -> None:
    """BlockSize is a UINT, and at least 1: the output-size formulas divide by it (U-D2S-1)."""
    b = desc.block_size
    if not 0 <= b <= UINT_MAX:
        fail(f"block_size={b}, but BlockSize is UINT (0..{UINT_MAX})", clause, "block_size")
    if b < 1:
        fail(
            "block_size=0, but the blocks must be at least 1 x 1 (the sizes divide by BlockSize)", clause, "block_size"
        )


def check_output_sizes(desc: BlockMover, expected: Sequence[int], formula: str, clause: str) -> None:
    """The output's sizes are the page's formula of the input's, exactly."""
    if tuple(desc.output_tensor.sizes) != tuple(expected):
        fail(
            f"output_tensor.sizes={list(desc.output_tensor.sizes)}, but {formula} = {list(expected)}",
            clause,
            "output_tensor.sizes",
        )


def check_divides(size: int, what: str, by: int, by_what: str, clause: str) -> None:
    """A dimension the operator splits into blocks must be a multiple of the blocks' size (U-D2S-1)."""
    if size % by:
        fail(f"{what}={size}, but it must be a multiple of {by_what} = {by}", clause, "input_tensor.sizes")


def explain_lines(desc: BlockMover, inputs: Sequence[np.ndarray], source: Any, formula: str) -> list[str]:
    """Output[c] = Input[source(c)] = v, with the formula that gave the source, one line per element."""
    (x,) = inputs
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        src = source(desc, c)
        lines.append(
            f"Output[{','.join(map(str, c))}] = {formula} = Input[{core.fmt_coord(src)}] = {core.fmt_value(x[src])}"
        )
    return lines


def validate_to_space(desc: BlockMover, sizes_clause: str, block_clause: str) -> None:
    """DEPTH_TO_SPACE(1)'s own rules, after the support table: BlockSize, then the output's sizes
    {N, C / (b * b), H * b, W * b}, with C a multiple of b * b (U-D2S-1)."""
    check_block_size(desc, block_clause)
    n, c, h, w = desc.input_tensor.sizes
    b = desc.block_size
    check_divides(c, "input_tensor.sizes[1] (InputChannelCount)", b * b, "BlockSize * BlockSize", sizes_clause)
    expected = (n, c // (b * b), h * b, w * b)
    check_output_sizes(desc, expected, f"{{N, C / ({b} * {b}), H * {b}, W * {b}}}", sizes_clause)


def validate_to_depth(desc: BlockMover, sizes_clause: str, block_clause: str) -> None:
    """SPACE_TO_DEPTH(1)'s own rules, after the support table: BlockSize, then the output's sizes
    {N, C * b * b, H / b, W / b} (E-S2D-1: the pages print the inverse's formula), with H and W
    multiples of b (U-S2D-1)."""
    check_block_size(desc, block_clause)
    n, c, h, w = desc.input_tensor.sizes
    b = desc.block_size
    check_divides(h, "input_tensor.sizes[2] (InputHeight)", b, "BlockSize", sizes_clause)
    check_divides(w, "input_tensor.sizes[3] (InputWidth)", b, "BlockSize", sizes_clause)
    expected = (n, c * b * b, h // b, w // b)
    check_output_sizes(desc, expected, f"{{N, C * {b} * {b}, H / {b}, W / {b}}} (E-S2D-1)", sizes_clause)


@dataclass(frozen=True)
class Direction:
    """Which way an operator moves the elements: its index map, its literal source of an output coordinate,
    and its own validation rules."""

    regroup: Callable[[DepthSpaceOrder, Sequence[int], int], Regroup]
    source: Callable[[BlockMover, Sequence[int]], tuple[int, ...]]
    check: Callable[[BlockMover, str, str], None]


TO_SPACE = Direction(to_space, space_source, validate_to_space)
TO_DEPTH = Direction(to_depth, depth_source, validate_to_depth)


@dataclass(frozen=True)
class BlockOperator:
    """The operator-module functions (registry.OperatorModule) of one of the four operators, which differ
    only in their table, their direction, the clauses of their sizes and BlockSize rules and the formula
    `explain` prints: each op_ module binds its own and keeps its descriptor and table."""

    operator: str
    tables: OperatorTables
    direction: Direction
    sizes_clause: str
    block_clause: str
    formula: str

    def validate(self, desc: BlockMover, feature_level: FeatureLevel) -> None:
        check_unary_tensors(desc)
        check_support(self.operator, self.tables, desc.tensors, desc.dimension_count, feature_level)
        self.direction.check(desc, self.sizes_clause, self.block_clause)

    def unspecified(self, desc: BlockMover) -> list[str]:
        return []

    def index_maps(self, desc: BlockMover) -> Regroup:
        return self.direction.regroup(desc.order, desc.input_tensor.sizes, desc.block_size)

    def compute(self, desc: BlockMover, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        (x,) = inputs
        return [self.index_maps(desc).apply(x, desc.input_tensor.data_type)]

    def compute_literal(self, desc: BlockMover, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        (x,) = inputs
        source = self.direction.source
        return [
            core.copy_elementwise(x, desc.input_tensor.data_type, desc.output_tensor.sizes, lambda c: source(desc, c))
        ]

    def explain(self, desc: BlockMover, inputs: Sequence[np.ndarray]) -> list[str]:
        return explain_lines(desc, inputs, self.direction.source, self.formula)

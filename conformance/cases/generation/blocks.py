"""What the depth-space family's cases share (DEPTH_TO_SPACE(1), SPACE_TO_DEPTH(1)): the blocks' geometry,
their corners and the families that break BlockSize and the sizes.

Valid by construction: BlockSize b, then the small tensor's sizes {N, C, H, W} inside the element
budget with b * b * N * C * H * W elements; the depth side has C * b * b channels, the space side
H * b and W * b.  Ranks other than 4 (the support tables' only one) come only from the
unsupported-rank family: they get a descriptor whose output is the input's shape.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import cast

import oracle
from oracle import DataType, TensorDesc
from oracle.depth_space import BlockMover, DepthSpaceOrder
from oracle.tables import UINT_MAX

from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    budget,
    common_families,
    one_output_common_1,
    one_output_common_2,
    replaced_tensor,
    set_at,
    with_descriptor,
)

# The family's descriptors (what the mutations below take and give back).
Blocks = oracle.DepthToSpaceDesc | oracle.DepthToSpace1Desc | oracle.SpaceToDepthDesc | oracle.SpaceToDepth1Desc


def _of(base: CaseSpec) -> Blocks:
    d = base.descriptor
    if not isinstance(d, typing.get_args(Blocks)):
        raise TypeError(f"expected a depth-space descriptor, got {type(d).__name__}")
    return cast(Blocks, d)


# Largest BlockSize a generated case draws (the reach set and the stress recipes go further).
MAX_BLOCK = 4


def geometry(ch: Chooser, cfg: Config) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """BlockSize, the depth side's sizes {N, C * b * b, H, W} and the space side's {N, C, H * b, W * b}."""
    left = budget(ch, cfg)
    b = ch.integer(1, max(1, min(MAX_BLOCK, int(left**0.5))))
    left //= b * b
    small = []
    for _ in range(cfg.rank):
        n = ch.integer(1, max(1, min(6, left)))
        left = max(1, left // n)
        small.append(n)
    if cfg.rank != 4:  # only the unsupported-rank family asks: the support table refuses it first
        return b, tuple(small), tuple(small)
    n, c, h, w = small
    return b, (n, c * b * b, h, w), (n, c, h * b, w * b)


def order_of(ch: Chooser, has_order: bool) -> DepthSpaceOrder:
    return ch.choice(list(DepthSpaceOrder)) if has_order else DepthSpaceOrder.DEPTH_COLUMN_ROW


def corners(desc: BlockMover) -> list[str]:
    found = []
    if desc.block_size == 1:
        found.append("BlockSize 1 (a copy)")
    if desc.block_size >= 3:
        found.append("BlockSize 3 or more")
    sizes = desc.input_tensor.sizes
    if len(sizes) == 4 and sizes[0] > 1:
        found.append("batch of several")
    return found


def _block_size(tag: str):
    def mutate(ch: Chooser, base: CaseSpec) -> CaseSpec:
        d = _of(base)
        b = ch.choice((0, UINT_MAX + 1))
        return with_descriptor(base, dataclasses.replace(d, block_size=b), tags=(tag,) if b == 0 else ())

    return mutate


def _output_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """One output size one more or one less than the formula's (never 0: that is COMMON.2)."""
    d = _of(base)
    i = ch.integer(0, 3)
    n = d.output_tensor.sizes[i]
    wrong = n + 1 if n == 1 or ch.choice(("more", "fewer")) == "more" else n - 1
    out = replaced_tensor(d.output_tensor, set_at(d.output_tensor.sizes, i, wrong), None)
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def _not_a_multiple(axis: int, tag: str):
    """The input's size along `axis` (what the operator cuts into blocks) one more: not a multiple of the
    blocks' size; the output is left as it was.  BlockSize 1 divides everything: it becomes 2."""

    def mutate(ch: Chooser, base: CaseSpec) -> CaseSpec:
        d = _of(base)
        changes: dict = {}
        if d.block_size == 1:
            changes["block_size"] = 2
            size = d.input_tensor.sizes[axis]
            extra = 1 if size % (4 if axis == 1 else 2) == 0 else 0
        else:
            extra = 1
        sizes = set_at(d.input_tensor.sizes, axis, d.input_tensor.sizes[axis] + extra)
        changes["input_tensor"] = replaced_tensor(d.input_tensor, sizes, None)
        return with_descriptor(base, dataclasses.replace(d, **changes), tags=(tag,))

    return mutate


def families(sizes_clause: str, block_clause: str, block_axes: tuple[int, ...], tag: str = "U-D2S-1") -> list[Family]:
    """BlockSize 0 or past UINT, output sizes off the formula, and each blocked axis not a multiple; `tag` is
    the erratum that makes BlockSize 0 and a partial block invalid (U-D2S-1, U-S2D-1)."""
    out = [
        Family("BlockSize 0 or past UINT", block_clause, _block_size(tag)),
        Family("output sizes not the formula's", sizes_clause, _output_sizes),
    ]
    for axis in block_axes:
        out.append(Family(f"input size {axis} not a multiple of the blocks", sizes_clause, _not_a_multiple(axis, tag)))
    return out


def tensors(
    data_type: DataType, input_sizes: tuple[int, ...], output_sizes: tuple[int, ...]
) -> tuple[TensorDesc, TensorDesc]:
    return TensorDesc(data_type, input_sizes), TensorDesc(data_type, output_sizes)


@dataclasses.dataclass(frozen=True)
class BlockCases:
    """A generation module's functions (build, corners, extra_clauses, families) for one of the four
    operators, which differ only in their descriptor, their direction and their clause ids: each module
    binds its own and keeps its OPERATOR, DESCRIPTOR and VALID_CLAUSES."""

    operator: str
    descriptor: type[Blocks]
    to_space: bool  # DEPTH_TO_SPACE(1): the input is the depth side; SPACE_TO_DEPTH(1): the space side
    sizes_clause: str
    block_clause: str

    def build(self, ch: Chooser, cfg: Config) -> Blocks:
        """Depth {N, C * b * b, H, W} to space {N, C, H * b, W * b} or back, in either order where the
        operator has one."""
        b, depth, space = geometry(ch, cfg)
        sizes = (depth, space) if self.to_space else (space, depth)
        given = tensors(cfg.data_type, *sizes)
        if self.descriptor.HAS_ORDER:
            return self.descriptor(*given, b, order_of(ch, True))  # type: ignore[call-arg]
        return self.descriptor(*given, b)

    def corners(self, desc: BlockMover) -> list[str]:
        found = corners(desc)
        if desc.order is DepthSpaceOrder.COLUMN_ROW_DEPTH:  # the plain operators' order is DEPTH_COLUMN_ROW
            found.append("order COLUMN_ROW_DEPTH")
        return found

    def extra_clauses(self, desc: BlockMover) -> list[str]:
        return []

    def families(self) -> list[Family]:
        """One family per validation rule, in a fixed order (the generator draws from it by index)."""
        common = common_families(self.operator, one_output_common_1, one_output_common_2)
        if self.to_space:
            return [*common, *families(self.sizes_clause, self.block_clause, (1,))]
        return [*common, *families(self.sizes_clause, self.block_clause, (2, 3), "U-S2D-1")]

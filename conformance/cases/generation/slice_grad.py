"""DML_SLICE_GRAD cases: a valid builder (a SLICE1 window read backwards), its corners, and the families that
break its rules."""

from __future__ import annotations

import dataclasses

from oracle import SliceGradDesc, TensorDesc
from oracle.op_slice1 import max_copied_elements

from .common import (
    MAX_AXIS,
    STRIDE_SLACK,
    UINT32_WRAP,
    CaseSpec,
    Chooser,
    Config,
    Family,
    budget,
    common_families,
    descriptor_of,
    one_output_common_1,
    replaced_tensor,
    set_at,
    with_descriptor,
)

OPERATOR = "SLICE_GRAD"
DESCRIPTOR = SliceGradDesc

VALID_CLAUSES = (
    "COMMON.1",
    "COMMON.2",
    "COMMON.3",
    "SGRAD.1",
    "SGRAD.3",
    "SGRAD.4",
    "SGRAD.5",
    "SGRAD.6",
    "SGRAD.7",
    "SGRAD.8",
)


def _rank(d: SliceGradDesc) -> int:
    assert d.dimension_count is not None  # OneInOneOut.__post_init__ fills it in
    return d.dimension_count


def build(ch: Chooser, cfg: Config) -> SliceGradDesc:
    """A valid descriptor for `cfg`: OutputGradient's sizes, a window inside them, a non-zero stride, and an
    InputGradient of 1..MaxCopiedElements per axis (its input is drawn for InputGradientTensor)."""
    left = budget(ch, cfg)
    out_sizes, offsets, windows, strides, in_sizes = [], [], [], [], []
    for _ in range(cfg.rank):
        n_out = ch.integer(1, min(MAX_AXIS, left))
        left //= n_out
        window = ch.integer(1, n_out)
        offset = ch.integer(0, n_out - window)
        stride = ch.integer(1, window + STRIDE_SLACK) * ch.choice((1, -1))
        out_sizes.append(n_out)
        offsets.append(offset)
        windows.append(window)
        strides.append(stride)
        in_sizes.append(ch.integer(1, max_copied_elements(window, stride)))
    dt = cfg.data_type
    return SliceGradDesc(
        TensorDesc(dt, tuple(in_sizes)),
        TensorDesc(dt, tuple(out_sizes)),
        tuple(offsets),
        tuple(windows),
        tuple(strides),
    )


def corners(desc: SliceGradDesc) -> list[str]:
    """This operator's corners that `desc` reaches."""
    found = []
    if any(abs(st) > 1 for st in desc.window_strides):
        found.append("zeros between the written elements (|stride| > 1)")
    if sum(st < 0 for st in desc.window_strides) >= 2:
        found.append("negative strides on several axes")
    if any(
        k < max_copied_elements(w, st)
        for k, w, st in zip(desc.input_tensor.sizes, desc.window_sizes, desc.window_strides)
    ):
        found.append("input gradient smaller than MaxCopiedElements")
    if desc.input_tensor.sizes == desc.output_tensor.sizes:
        found.append("every element written (a plain or reversed copy)")
    return found


def extra_clauses(desc: SliceGradDesc) -> list[str]:
    """SGRAD.2 (CopyStart at the window's end) where an axis has a negative stride."""
    return ["SGRAD.2"] if any(s < 0 for s in desc.window_strides) else []


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """COMMON.2: one of OutputGradient's sizes is 0."""
    d = descriptor_of(base, SliceGradDesc)
    i = ch.integer(0, _rank(d) - 1)
    out = replaced_tensor(d.output_tensor, set_at(d.output_tensor.sizes, i, 0), None)
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def _dimension_count(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, SliceGradDesc)
    return with_descriptor(base, dataclasses.replace(d, dimension_count=_rank(d) + 1))


def _offset_overflow(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, SliceGradDesc)
    i = ch.integer(0, _rank(d) - 1)
    return with_descriptor(base, dataclasses.replace(d, window_offsets=set_at(d.window_offsets, i, UINT32_WRAP)))


def _sgrad_3(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """The window past OutputGradientTensor, or empty."""
    d = descriptor_of(base, SliceGradDesc)
    i = ch.integer(0, _rank(d) - 1)
    if ch.choice(("past the output", "empty window")) == "empty window":
        return with_descriptor(base, dataclasses.replace(d, window_sizes=set_at(d.window_sizes, i, 0)))
    offset = d.output_tensor.sizes[i] - d.window_sizes[i] + 1
    return with_descriptor(base, dataclasses.replace(d, window_offsets=set_at(d.window_offsets, i, offset)))


def _sgrad_3_wrap(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """SGRAD.3 broken by a window whose end, Offsets + Sizes, is past the output only modulo 2^32."""
    d = descriptor_of(base, SliceGradDesc)
    i = ch.integer(0, _rank(d) - 1)
    offset, size = d.window_offsets[i], d.window_sizes[i]
    if offset >= 1 and ch.choice(("size", "offset")) == "size":
        changed = dataclasses.replace(d, window_sizes=set_at(d.window_sizes, i, UINT32_WRAP - offset))
    else:
        t = offset if offset < size else 0
        changed = dataclasses.replace(d, window_offsets=set_at(d.window_offsets, i, UINT32_WRAP - size + t))
    return with_descriptor(base, changed, tags=("uint32-wrap",))


def _sgrad_4(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """InputGradientTensor one larger than MaxCopiedElements along an axis (U-SGRAD-1: its sizes must be SLICE1's
    output's)."""
    d = descriptor_of(base, SliceGradDesc)
    i = ch.integer(0, _rank(d) - 1)
    limit = max_copied_elements(d.window_sizes[i], d.window_strides[i])
    bigger = replaced_tensor(d.input_tensor, set_at(d.input_tensor.sizes, i, limit + 1), None)
    return with_descriptor(base, dataclasses.replace(d, input_tensor=bigger), tags=("U-SGRAD-1",))


def _sgrad_5(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """A zero stride (SLICE1 allows none either; SLICE_GRAD's page says so outright), or one outside INT."""
    d = descriptor_of(base, SliceGradDesc)
    i = ch.integer(0, _rank(d) - 1)
    stride = ch.choice((0, 2**31, -(2**31) - 1))
    tags = ("E-SGRAD-1",) if stride else ()
    return with_descriptor(base, dataclasses.replace(d, window_strides=set_at(d.window_strides, i, stride)), tags=tags)


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, _common_2),
        Family("dimension_count field mismatch", "SGRAD.6", _dimension_count),
        Family("UINT field overflow", "SGRAD.3", _offset_overflow),
        Family("window past the output or empty", "SGRAD.3", _sgrad_3),
        Family("window past the output, inside it modulo 2^32", "SGRAD.3", _sgrad_3_wrap),
        Family("input gradient larger than MaxCopiedElements", "SGRAD.4", _sgrad_4),
        Family("stride 0 or outside INT", "SGRAD.5", _sgrad_5),
    ]

"""DML_SLICE1 cases: a valid builder, its corners, and the families that break its rules."""

from __future__ import annotations

import dataclasses

from oracle import Slice1Desc, TensorDesc
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
    dimension_count,
    field_families,
    one_output_common_1,
    one_output_common_2,
    replace_output,
    set_at,
    with_descriptor,
)

OPERATOR = "SLICE1"
DESCRIPTOR = Slice1Desc

# The clauses a valid case exercises (SLICE1.7, negative strides, per descriptor: extra_clauses).
VALID_CLAUSES = (
    "COMMON.1",
    "COMMON.2",
    "COMMON.3",
    "SLICE1.1",
    "SLICE1.2",
    "SLICE1.3",
    "SLICE1.4",
    "SLICE1.5",
    "SLICE1.6",
    "SLICE1.8",
)


def build(ch: Chooser, cfg: Config) -> Slice1Desc:
    """A valid descriptor for `cfg` (its input is drawn for its input tensor desc)."""
    left = budget(ch, cfg)
    in_sizes, offsets, windows, strides, out = [], [], [], [], []
    for _ in range(cfg.rank):
        n_in = ch.integer(1, min(MAX_AXIS, left))
        left //= n_in
        window = ch.integer(1, n_in)
        offset = ch.integer(0, n_in - window)
        stride = ch.integer(1, window + STRIDE_SLACK) * ch.choice((1, -1))
        in_sizes.append(n_in)
        offsets.append(offset)
        windows.append(window)
        strides.append(stride)
        out.append(ch.integer(1, max_copied_elements(window, stride)))
    dt = cfg.data_type
    desc = Slice1Desc(
        TensorDesc(dt, tuple(in_sizes)), TensorDesc(dt, tuple(out)), tuple(offsets), tuple(windows), tuple(strides)
    )
    return desc


def corners(desc: Slice1Desc) -> list[str]:
    """This operator's corners (issue 3's list) that `desc` reaches."""
    found = []
    if any(abs(st) > w for st, w in zip(desc.window_strides, desc.window_sizes)):
        found.append("stride larger than the window")
    if sum(st < 0 for st in desc.window_strides) >= 2:
        found.append("negative strides on several axes")
    if any(
        o < max_copied_elements(w, st)
        for o, w, st in zip(desc.output_tensor.sizes, desc.window_sizes, desc.window_strides)
    ):
        found.append("output smaller than MaxCopiedElements")
    return found


def extra_clauses(desc: Slice1Desc) -> list[str]:
    """Clauses a valid case exercises beyond VALID_CLAUSES, depending on its descriptor."""
    return ["SLICE1.7"] if any(s < 0 for s in desc.window_strides) else []


def _slice1_3(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, Slice1Desc)
    i = ch.integer(0, dimension_count(d) - 1)
    if ch.choice(("past the input", "empty window")) == "empty window":
        return with_descriptor(base, dataclasses.replace(d, window_sizes=set_at(d.window_sizes, i, 0)))
    offset = d.input_tensor.sizes[i] - d.window_sizes[i] + 1
    return with_descriptor(base, dataclasses.replace(d, window_offsets=set_at(d.window_offsets, i, offset)))


def _slice1_4(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, Slice1Desc)
    i = ch.integer(0, dimension_count(d) - 1)
    limit = max_copied_elements(d.window_sizes[i], d.window_strides[i])
    return with_descriptor(
        base,
        replace_output(d, set_at(d.output_tensor.sizes, i, limit + 1)),
        tags=("E-SLICE1-3",) if d.window_strides[i] < 0 else (),
    )


def _slice1_5(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, Slice1Desc)
    i = ch.integer(0, dimension_count(d) - 1)
    stride = ch.choice((0, 2**31, -(2**31) - 1))  # zero, or outside INT (E-SLICE1-1: the field is signed)
    tags = ("E-SLICE1-1",) if stride else ()
    return with_descriptor(base, dataclasses.replace(d, window_strides=set_at(d.window_strides, i, stride)), tags=tags)


def _slice1_3_wrap(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """SLICE1.3 broken by a window whose end, Offsets + Sizes, is 2^32 + t: inside the input only modulo 2^32."""
    d = descriptor_of(base, Slice1Desc)
    i = ch.integer(0, dimension_count(d) - 1)
    offset, size = d.window_offsets[i], d.window_sizes[i]
    if offset >= 1 and ch.choice(("size", "offset")) == "size":
        changed = dataclasses.replace(d, window_sizes=set_at(d.window_sizes, i, UINT32_WRAP - offset))
    else:
        t = offset if offset < size else 0
        changed = dataclasses.replace(d, window_offsets=set_at(d.window_offsets, i, UINT32_WRAP - size + t))
    return with_descriptor(base, changed, tags=("uint32-wrap",))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, one_output_common_2),
        *field_families("SLICE1.6", "window_offsets", "SLICE1.3"),
        Family("window past the input or empty", "SLICE1.3", _slice1_3),
        Family("window past the input, inside it modulo 2^32", "SLICE1.3", _slice1_3_wrap),
        Family("output larger than MaxCopiedElements", "SLICE1.4", _slice1_4),
        Family("stride 0 or outside INT", "SLICE1.5", _slice1_5),
    ]

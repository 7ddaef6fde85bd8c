"""DML_SLICE cases: a valid builder, its corners, and the families that break its rules."""

from __future__ import annotations

import dataclasses

from oracle import SliceDesc, TensorDesc

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
    replace_output,
    set_at,
    with_descriptor,
)

OPERATOR = "SLICE"
DESCRIPTOR = SliceDesc

# Share (1 in N per axis) of SLICE axes given stride 0 (U-SLICE-1, observed not judged).
ZERO_STRIDE_ONE_IN = 16

# The clauses a valid case exercises.
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "SLICE.1", "SLICE.2", "SLICE.3", "SLICE.4", "SLICE.5", "SLICE.7")


def build(ch: Chooser, cfg: Config) -> SliceDesc:
    """A valid descriptor for `cfg` (its input is drawn for its input tensor desc)."""
    left = budget(ch, cfg)
    in_sizes, offsets, sizes, strides = [], [], [], []
    for _ in range(cfg.rank):
        n_in = ch.integer(1, min(MAX_AXIS, left))
        left //= n_in
        n = ch.integer(1, n_in)
        if ch.rare(ZERO_STRIDE_ONE_IN):
            stride = 0  # U-SLICE-1: valid, the formula repeats one element
        elif n == 1:
            stride = ch.integer(1, n_in + STRIDE_SLACK)  # only the offset is read
        else:
            stride = ch.integer(1, (n_in - 1) // (n - 1))
        offset = ch.integer(0, n_in - 1 - stride * (n - 1))
        in_sizes.append(n_in)
        offsets.append(offset)
        sizes.append(n)
        strides.append(stride)
    dt = cfg.data_type
    desc = SliceDesc(
        TensorDesc(dt, tuple(in_sizes)), TensorDesc(dt, tuple(sizes)), tuple(offsets), tuple(sizes), tuple(strides)
    )
    return desc


def corners(desc: SliceDesc) -> list[str]:
    """This operator's corners (issue 3's list) that `desc` reaches."""
    found = []
    if any(st > n - o for st, n, o in zip(desc.strides, desc.input_tensor.sizes, desc.offsets)):
        found.append("stride larger than the window")
    if 0 in desc.strides:
        found.append("stride 0 (U-SLICE-1)")
    return found


def extra_clauses(desc: SliceDesc) -> list[str]:
    """Clauses a valid case exercises beyond VALID_CLAUSES, depending on its descriptor."""
    return []


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, SliceDesc)
    i = ch.integer(0, dimension_count(d) - 1)
    out = set_at(d.output_tensor.sizes, i, 0)
    return with_descriptor(base, dataclasses.replace(replace_output(d, out), sizes=out), tags=("U-SLICE-2",))


def _slice_3(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, SliceDesc)
    i = ch.integer(0, dimension_count(d) - 1)
    return with_descriptor(base, replace_output(d, set_at(d.output_tensor.sizes, i, d.sizes[i] + 1)))


def _slice_4(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, SliceDesc)
    i = ch.integer(0, dimension_count(d) - 1)
    # The last element read lands one past the input: Offsets + Strides * (Sizes - 1) = InputSizes.
    offset = d.input_tensor.sizes[i] - d.strides[i] * (d.sizes[i] - 1)
    if offset < 0:  # cannot happen for a valid base, whose last read is inside the input
        raise AssertionError(f"negative offset for {d}")
    return with_descriptor(base, dataclasses.replace(d, offsets=set_at(d.offsets, i, offset)))


def _slice_4_wrap(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """SLICE.4 broken by a last read that lands back inside the input modulo 2^32 (a 32-bit check accepts it)."""
    d = descriptor_of(base, SliceDesc)
    i = ch.integer(0, dimension_count(d) - 1)
    reach = d.strides[i] * (d.sizes[i] - 1)
    if reach >= 1 and ch.choice(("offset", "stride")) == "offset":
        # Offsets + Strides * (Sizes - 1) = 2^32 + the original offset
        offset = UINT32_WRAP - reach + d.offsets[i] if d.offsets[i] < reach else UINT32_WRAP - reach
        return with_descriptor(
            base, dataclasses.replace(d, offsets=set_at(d.offsets, i, offset)), tags=("uint32-wrap",)
        )
    # two elements read, the step 2^32 - 1 apart: 1 + (2^32 - 1) = 2^32, which is 0 modulo 2^32
    out = set_at(d.output_tensor.sizes, i, 2)
    changed = dataclasses.replace(
        replace_output(d, out),
        sizes=out,
        offsets=set_at(d.offsets, i, 1),
        strides=set_at(d.strides, i, UINT32_WRAP - 1),
    )
    return with_descriptor(base, changed, tags=("uint32-wrap",))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, _common_2),
        *field_families("SLICE.5", "offsets", "SLICE.2"),
        Family("sizes differ from output sizes", "SLICE.3", _slice_3),
        Family("out-of-bounds read", "SLICE.4", _slice_4),
        Family("out-of-bounds read, in bounds modulo 2^32", "SLICE.4", _slice_4_wrap),
    ]

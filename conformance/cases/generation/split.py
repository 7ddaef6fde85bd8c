"""DML_SPLIT cases: a valid builder, its corners, and the families that break its rules."""

from __future__ import annotations

import dataclasses

from oracle import SplitDesc, TensorDesc

from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    axis_pieces,
    common_families,
    descriptor_of,
    other_data_type,
    replaced_tensor,
    set_at,
    with_descriptor,
    wrapped_pieces,
)

OPERATOR = "SPLIT"
DESCRIPTOR = SplitDesc

# Most outputs of one SPLIT.  Why: every output is a separate buffer in a backend; 8
# covers "size-1 pieces" for axes up to 8 long.
MAX_SPLIT_OUTPUTS = 8

# The clauses a valid case exercises (SPLIT.4, one output, per descriptor: extra_clauses).
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "SPLIT.1", "SPLIT.2", "SPLIT.3", "SPLIT.5", "SPLIT.6", "SPLIT.7")


def build(ch: Chooser, cfg: Config) -> SplitDesc:
    """A valid descriptor for `cfg` (its input is drawn for its input tensor desc)."""
    in_sizes, axis, pieces = axis_pieces(ch, cfg, MAX_SPLIT_OUTPUTS)
    dt = cfg.data_type
    outs = tuple(TensorDesc(dt, (*in_sizes[:axis], p, *in_sizes[axis + 1 :])) for p in pieces)
    return SplitDesc(TensorDesc(dt, tuple(in_sizes)), outs, axis)


def corners(desc: SplitDesc) -> list[str]:
    """This operator's corners (issue 3's list) that `desc` reaches."""
    found = []
    if desc.output_count == 1:
        found.append("SPLIT into one output")
    if len(desc.output_tensors) > 1 and all(n == 1 for n in desc.output_sizes):
        found.append("SPLIT into size-1 pieces")
    return found


def extra_clauses(desc: SplitDesc) -> list[str]:
    """Clauses a valid case exercises beyond VALID_CLAUSES, depending on its descriptor."""
    return ["SPLIT.4"] if desc.output_count == 1 else []


def _with_outputs(
    base: CaseSpec, d: SplitDesc, first: TensorDesc | None = None, last: TensorDesc | None = None
) -> CaseSpec:
    """`base` with its first or last output tensor replaced."""
    outs = list(d.output_tensors)
    if first is not None:
        outs[0] = first
    if last is not None:
        outs[-1] = last
    return with_descriptor(base, dataclasses.replace(d, output_tensors=tuple(outs)))


def _common_1(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, SplitDesc)
    return _with_outputs(base, d, first=replaced_tensor(d.output_tensors[0], None, other_data_type(ch, base)))


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An output of size 0 along Axis (U-SPLIT-1): COMMON.2 fires first."""
    d = descriptor_of(base, SplitDesc)
    zero = dataclasses.replace(d.output_tensors[0], sizes=set_at(d.output_tensors[0].sizes, d.axis, 0))
    return dataclasses.replace(_with_outputs(base, d, first=zero), tags=("U-SPLIT-1",))


def _split_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, SplitDesc)
    t = d.output_tensors[-1]
    others = [i for i in range(d.dimension_count) if i != d.axis]
    if others and ch.choice(("size", "rank")) == "size":
        i = ch.choice(others)
        new = dataclasses.replace(t, sizes=set_at(t.sizes, i, t.sizes[i] + 1))
    else:
        new = dataclasses.replace(t, sizes=(*t.sizes, 1))
    return _with_outputs(base, d, last=new)


def _split_3(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, SplitDesc)
    t = d.output_tensors[-1]
    n = t.sizes[d.axis]
    new = dataclasses.replace(t, sizes=set_at(t.sizes, d.axis, n + ch.choice((1, -1)) if n > 1 else n + 1))
    return _with_outputs(base, d, last=new)


def _split_3_wrap(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """SPLIT.3 broken by outputs whose sizes along Axis sum to 2^32 more than the input's: one output replaced by
    two, 2^31 larger each (tensors of 2^31 elements and more: element counts past 2^32 when the rest is >= 2)."""
    d = descriptor_of(base, SplitDesc)
    outs = wrapped_pieces(ch, d.output_tensors, d.axis)
    return with_descriptor(
        base, dataclasses.replace(d, output_tensors=outs, output_count=len(outs)), tags=("uint32-wrap",)
    )


def _split_5(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, SplitDesc)
    how = ch.choice(("axis", "count 0", "count mismatch"))
    if how == "axis":
        return with_descriptor(base, dataclasses.replace(d, axis=d.dimension_count))
    count = 0 if how == "count 0" else len(d.output_tensors) + 1
    return with_descriptor(base, dataclasses.replace(d, output_count=count))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, _common_1, _common_2),
        Family("output sizes differ off Axis or rank", "SPLIT.2", _split_2),
        Family("output sizes do not sum to the input's", "SPLIT.3", _split_3),
        Family("output sizes sum to the input's only modulo 2^32", "SPLIT.3", _split_3_wrap),
        Family("Axis out of range or OutputCount wrong", "SPLIT.5", _split_5),
    ]

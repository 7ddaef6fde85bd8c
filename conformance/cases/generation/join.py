"""DML_JOIN cases (beyond the seed pages): a valid builder, its corners, and the families that break its rules."""

from __future__ import annotations

import dataclasses

from oracle import JoinDesc, TensorDesc

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

OPERATOR = "JOIN"
DESCRIPTOR = JoinDesc

# Most inputs of one generated JOIN (every input is a separate buffer in a backend); the reach set
# goes to 256 (conformance.cases.generation.reach).
MAX_JOIN_INPUTS = 8

# The clauses a valid case exercises (JOIN.6, one input, per descriptor: extra_clauses).
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "JOIN.1", "JOIN.2", "JOIN.3", "JOIN.4", "JOIN.5", "JOIN.7")


def build(ch: Chooser, cfg: Config) -> JoinDesc:
    """A valid descriptor for `cfg`: the output's sizes, an axis, and that axis cut into the inputs."""
    out_sizes, axis, pieces = axis_pieces(ch, cfg, MAX_JOIN_INPUTS)
    dt = cfg.data_type
    ins = tuple(TensorDesc(dt, (*out_sizes[:axis], p, *out_sizes[axis + 1 :])) for p in pieces)
    return JoinDesc(ins, TensorDesc(dt, tuple(out_sizes)), axis)


def corners(desc: JoinDesc) -> list[str]:
    found = []
    if desc.input_count == 1:
        found.append("JOIN of one input")
    if len(desc.input_tensors) > 1 and all(n == 1 for n in desc.input_sizes):
        found.append("JOIN of size-1 pieces")
    return found


def extra_clauses(desc: JoinDesc) -> list[str]:
    return ["JOIN.6"] if desc.input_count == 1 else []


def _with_inputs(
    base: CaseSpec, d: JoinDesc, first: TensorDesc | None = None, last: TensorDesc | None = None
) -> CaseSpec:
    """`base` with its first or last input tensor desc replaced (the input arrays stay: the case is invalid)."""
    ins = list(d.input_tensors)
    if first is not None:
        ins[0] = first
    if last is not None:
        ins[-1] = last
    return with_descriptor(base, dataclasses.replace(d, input_tensors=tuple(ins)))


def _common_1(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, JoinDesc)
    return _with_inputs(base, d, last=replaced_tensor(d.input_tensors[-1], None, other_data_type(ch, base)))


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """An input of size 0 along Axis: the page allows "any non-zero size" only; COMMON.2 fires first."""
    d = descriptor_of(base, JoinDesc)
    t = d.input_tensors[0]
    return _with_inputs(base, d, first=dataclasses.replace(t, sizes=set_at(t.sizes, d.axis, 0)))


def _join_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, JoinDesc)
    count = 0 if ch.choice(("count 0", "count mismatch")) == "count 0" else len(d.input_tensors) + 1
    return with_descriptor(base, dataclasses.replace(d, input_count=count))


def _join_3_off_axis(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, JoinDesc)
    others = [i for i in range(d.dimension_count) if i != d.axis]
    if not others:  # rank 1: only the axis exists, so break the sum instead
        return _join_3_sum(ch, base)
    t = d.input_tensors[-1]
    i = ch.choice(others)
    return _with_inputs(base, d, last=dataclasses.replace(t, sizes=set_at(t.sizes, i, t.sizes[i] + 1)))


def _join_3_sum(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, JoinDesc)
    t = d.input_tensors[-1]
    n = t.sizes[d.axis]
    return _with_inputs(
        base, d, last=dataclasses.replace(t, sizes=set_at(t.sizes, d.axis, n + ch.choice((1, -1)) if n > 1 else n + 1))
    )


def _join_3_wrap(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """JOIN.3 broken by inputs whose sizes along Axis sum to 2^32 more than the output's: one input replaced by
    two, 2^31 larger each (a UINT32 sum would wrap to the right size)."""
    d = descriptor_of(base, JoinDesc)
    ins = wrapped_pieces(ch, d.input_tensors, d.axis)
    return with_descriptor(base, dataclasses.replace(d, input_tensors=ins, input_count=len(ins)), tags=("uint32-wrap",))


def _join_4(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, JoinDesc)
    return with_descriptor(base, dataclasses.replace(d, axis=d.dimension_count + ch.integer(0, 2)))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, _common_1, _common_2),
        Family("InputCount 0 or wrong", "JOIN.2", _join_2),
        Family("input sizes differ off Axis", "JOIN.3", _join_3_off_axis),
        Family("input sizes do not sum to the output's", "JOIN.3", _join_3_sum),
        Family("input sizes sum to the output's only modulo 2^32", "JOIN.3", _join_3_wrap),
        Family("Axis out of range", "JOIN.4", _join_4),
    ]

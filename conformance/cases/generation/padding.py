"""DML_PADDING cases: a valid builder, its corners, and the families that break its rules."""

from __future__ import annotations

import dataclasses

import oracle
from oracle import FeatureLevel, Padding1Desc, PaddingDesc, PaddingMode, TensorDesc
from oracle.op_padding import MODE_INTRODUCED
from oracle.padding_value import float32_from_bits

from .. import values
from .common import (
    MAX_AXIS,
    UINT32_WRAP,
    CaseSpec,
    Chooser,
    Config,
    ConfigMaker,
    Family,
    Mutation,
    budget,
    choose_config,
    common_families,
    dimension_count,
    field_families,
    one_output_common_1,
    one_output_common_2,
    replaced_tensor,
    set_at,
    with_descriptor,
)

OPERATOR = "PADDING"
DESCRIPTOR = PaddingDesc

# Padding "many times larger than the size": up to this multiple of the axis size.
MAX_PADDING_FACTOR = 4

# The clauses a valid case exercises (PAD.4, CONSTANT only, per descriptor: extra_clauses).
VALID_CLAUSES = ("COMMON.1", "COMMON.2", "COMMON.3", "PAD.1", "PAD.2", "PAD.3", "PAD.5", "PAD.6")


def _padding_amount(ch: Chooser, size: int, room: int) -> int:
    """0, a little, exactly the size, or a multiple of it (periodic folding), within `room`."""
    kind = ch.choice(("zero", "small", "size", "multiple"))
    if kind == "zero" or room == 0:
        return 0
    if kind == "small":
        return ch.integer(1, min(room, max(1, size - 1)))
    if kind == "size" and size <= room:
        return size
    if kind == "multiple" and 2 * size <= room:
        return size * ch.integer(2, min(MAX_PADDING_FACTOR, room // size))
    return ch.integer(0, room)


def geometry(ch: Chooser, cfg: Config) -> tuple[list[int], list[int], list[int]]:
    """Input sizes, start and end paddings for `cfg`, within its element budget (PADDING and PADDING1 alike)."""
    if cfg.padding_mode is None:
        raise ValueError(f"a {cfg.operator} config needs a padding_mode (choose_config sets one)")
    left = budget(ch, cfg)
    in_sizes, start, end = [], [], []
    for _ in range(cfg.rank):
        extent = min(MAX_AXIS * (1 + 2 * MAX_PADDING_FACTOR), left)  # output extent on this axis
        n_in = ch.integer(1, min(MAX_AXIS, extent))
        s = _padding_amount(ch, n_in, extent - n_in)
        e = _padding_amount(ch, n_in, extent - n_in - s)
        left //= n_in + s + e
        in_sizes.append(n_in)
        start.append(s)
        end.append(e)
    return in_sizes, start, end


def build(ch: Chooser, cfg: Config) -> PaddingDesc:
    """A valid descriptor for `cfg` (whose padding_mode choose_config has set) and its input's shape."""
    in_sizes, start, end = geometry(ch, cfg)
    value = float32_from_bits(ch.choice(values.PADDING_VALUE_BITS))
    desc = oracle.padding_desc(TensorDesc(cfg.data_type, tuple(in_sizes)), cfg.padding_mode, start, end, value)
    return desc


def corners(desc: PaddingDesc | Padding1Desc) -> list[str]:
    """This operator's corners (issue 3's list) that `desc` reaches."""
    found = []
    pads = list(zip(desc.input_tensor.sizes, desc.start_padding, desc.end_padding))
    if any(s == 0 or e == 0 for _, s, e in pads):
        found.append("padding 0")
    if any(s == n or e == n for n, s, e in pads):
        found.append("padding equal to the size")
    if any(max(s, e) >= 2 * n for n, s, e in pads):
        found.append("padding many times the size")
    if desc.padding_mode is PaddingMode.REFLECTION and any(n == 1 and (s or e) for n, s, e in pads):
        found.append("REFLECTION on size 1 (U-PAD-4)")
    return found


def extra_clauses(desc: PaddingDesc) -> list[str]:
    """Clauses a valid case exercises beyond VALID_CLAUSES, depending on its descriptor."""
    return (["PAD.4"] if desc.padding_mode is PaddingMode.CONSTANT else []) + mode_clauses(desc)


def mode_clauses(desc: PaddingDesc | Padding1Desc) -> list[str]:
    """WRAP is beyond the seed pages (WRAP.1, and WRAP.2 where it pads)."""
    if desc.padding_mode is not PaddingMode.WRAP:
        return []
    return ["WRAP.1", "WRAP.2"] if any(desc.start_padding) or any(desc.end_padding) else ["WRAP.1"]


def padding_of(base: CaseSpec) -> PaddingDesc | Padding1Desc:
    """The base's descriptor, DML_PADDING's or DML_PADDING1's: their geometry families are one."""
    d = base.descriptor
    if not isinstance(d, (PaddingDesc, Padding1Desc)):
        raise TypeError(f"expected a padding descriptor, got {type(d).__name__}")
    return d


def _pad_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = padding_of(base)
    i = ch.integer(0, dimension_count(d) - 1)
    n = d.output_tensor.sizes[i]
    sizes = set_at(d.output_tensor.sizes, i, n + ch.choice((1, -1)) if n > 1 else n + 1)
    return with_descriptor(base, dataclasses.replace(d, output_tensor=replaced_tensor(d.output_tensor, sizes, None)))


def _pad_2_wrap(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """PAD.2 broken by paddings whose sum is 2^32 more than the output needs: right only modulo 2^32."""
    d = padding_of(base)
    i = ch.integer(0, dimension_count(d) - 1)
    s, e = d.start_padding[i], d.end_padding[i]
    # StartPadding + t and EndPadding + 2^32 - t, both still UINT: e + 1 <= t <= 2^32 - 1 - s
    t = ch.choice((e + 1, UINT32_WRAP // 2, UINT32_WRAP - 1 - s))
    changed = dataclasses.replace(
        d, start_padding=set_at(d.start_padding, i, s + t), end_padding=set_at(d.end_padding, i, e + UINT32_WRAP - t)
    )
    return with_descriptor(base, changed, tags=("uint32-wrap",))


def mode_too_early(mode: PaddingMode) -> tuple[Mutation, ConfigMaker]:
    """A mode at a level before MODE_INTRODUCED's: the family's mutation and its base config."""
    introduced = MODE_INTRODUCED[mode][0]

    def mutate(ch: Chooser, base: CaseSpec) -> CaseSpec:
        d = padding_of(base)
        return with_descriptor(base, dataclasses.replace(d, padding_mode=mode))

    def config(ch: Chooser, operator: str) -> Config:
        first = oracle.REGISTRY[operator].TABLES.introduced[0]
        level = ch.choice([fl for fl in FeatureLevel if first <= fl < introduced])
        return choose_config(ch, operator, feature_level=level, padding_mode=PaddingMode.CONSTANT)

    return mutate, config


def _pad_5(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = padding_of(base)
    name = ch.choice(("start_padding", "end_padding"))
    shorter = getattr(d, name)[:-1]
    return with_descriptor(base, dataclasses.replace(d, **{name: shorter}))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, one_output_common_2),
        *field_families("PAD.5", "start_padding", "PAD.2"),
        Family("output size not input + padding", "PAD.2", _pad_2),
        Family("output size input + padding only modulo 2^32", "PAD.2", _pad_2_wrap),
        Family("SYMMETRIC before FL 3.0", "PAD.3", *mode_too_early(PaddingMode.SYMMETRIC)),
        Family("padding array length mismatch", "PAD.5", _pad_5),
        Family("WRAP before FL 6.4", "WRAP.1", *mode_too_early(PaddingMode.WRAP)),
    ]

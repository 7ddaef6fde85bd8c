"""Value pools per data type: the bit patterns a copy can lose, shared by strategies and generator.

A data-movement operator must copy every element bit for bit (COMMON.3).  A copy that goes
through a floating-point register quietens signalling NaNs, drops NaN payloads or flushes
denormals; one that goes through the wrong integer width sign-extends or truncates.  These
pools hold exactly those patterns, as raw bits, so no value is ever produced by arithmetic.

Three fills for an input tensor (`fill_input`), in shrink order:
- "ordinal": 1, 2, 3, ... row-major, like the pages' examples: every element distinct, so a
  misplaced element is visible, and a shrunk failure reads like a worked example.
- "sprinkle": ordinal, with a few positions overwritten by special patterns.
- "dense": every element a special pattern or random bits (NaN payloads, sNaNs, ...).
"""

from __future__ import annotations

import numpy as np

from oracle import DataType

# Cap on the elements of any one tensor a strategy or the generator makes.  Why: the literal
# path walks elements one by one in Python (~3 us each); 4096 keeps a case under ~15 ms there
# and the committed corpus at a few MB, yet allows 8-D tensors with several axes > 1.
MAX_ELEMENTS = 4096

# Most positions "sprinkle" overwrites: enough to put several specials side by side.
MAX_SPRINKLED = 16


def _float_specials(exp_bits: int, man_bits: int) -> list[int]:
    """IEEE-754 patterns for a float with the given field widths."""
    width = 1 + exp_bits + man_bits
    sign = 1 << (width - 1)
    exp_all = ((1 << exp_bits) - 1) << man_bits
    quiet = 1 << (man_bits - 1)
    man_all = (1 << man_bits) - 1
    one = ((1 << (exp_bits - 1)) - 1) << man_bits
    positive = [
        0,  # +0.0
        exp_all,  # +inf
        exp_all | quiet,  # canonical quiet NaN
        exp_all | quiet | 1,  # quiet NaN with a payload
        exp_all | man_all,  # quiet NaN, all payload bits
        exp_all | 1,  # signalling NaN (smallest payload): quietened by any FP register
        exp_all | (quiet >> 1),  # signalling NaN, another payload
        1,  # smallest denormal: flushed to zero by FTZ/DAZ
        man_all,  # largest denormal
        1 << man_bits,  # smallest normal
        exp_all - 1,  # largest finite (the type's max)
        one,  # 1.0
    ]
    return positive + [p | sign for p in positive]  # -0.0, -inf, negative NaNs, lowest, ...


def _integer_specials(width: int) -> list[int]:
    """Patterns for a `width`-bit integer; the same bits mean min/max/-1 for signed types."""
    top = 1 << (width - 1)
    all_ones = (1 << width) - 1
    patterns = {
        0,
        1,
        all_ones,  # 0, 1, -1 / max unsigned
        top,  # the sign bit alone: min signed
        top - 1,  # max signed
        top + 1,  # min signed + 1
        int("55" * (width // 8), 16),
        int("aa" * (width // 8), 16),  # alternating bits
        0x80,
        0x7F,
        0xFF,  # low byte's sign bit: catches byte-wise sign extension
    }
    if width > 8:
        patterns |= {0xFF << (width - 8), 0x8000 & all_ones, 0x80 << (width - 8) | 0x7F}
    return sorted(p & all_ones for p in patterns)


_SPECIAL_BITS: dict[DataType, np.ndarray] = {}
for _dt in DataType:
    if _dt is DataType.FLOAT16:
        _bits = _float_specials(5, 10)
    elif _dt is DataType.FLOAT32:
        _bits = _float_specials(8, 23)
    elif _dt is DataType.FLOAT64:
        _bits = _float_specials(11, 52)
    else:
        _bits = _integer_specials(8 * _dt.numpy.itemsize)
    _SPECIAL_BITS[_dt] = np.array(_bits, dtype=_dt.bits)


def special_bits(data_type: DataType) -> np.ndarray:
    """The pool of raw bit patterns for `data_type` (unsigned integers of the same width)."""
    return _SPECIAL_BITS[data_type].copy()


def ordinal_bits(data_type: DataType, count: int) -> np.ndarray:
    """Bits of 1, 2, ..., count: distinct where the type allows (FLOAT16 turns negative past 2048)."""
    k = np.arange(1, count + 1, dtype=np.int64)
    if data_type.is_float:
        exact = 2 ** (np.finfo(data_type.numpy).nmant + 1)  # largest run of exact integers
        values = np.where(k <= exact, k, -(k - exact)).astype(data_type.numpy)
        return values.view(data_type.bits)
    mask = (1 << (8 * data_type.numpy.itemsize)) - 1
    return (k.astype(np.uint64) & np.uint64(mask)).astype(data_type.bits)


FILLS = ("ordinal", "sprinkle", "dense")


def fill_input(data_type: DataType, shape: tuple[int, ...], fill: str, seed: int) -> np.ndarray:
    """An input tensor of `shape`, built from bits only.  `seed` drives "sprinkle" and "dense".

    The same (data_type, shape, fill, seed) gives the same bytes on every platform.
    """
    count = int(np.prod(shape, dtype=np.int64))
    if count > MAX_ELEMENTS:
        raise ValueError(f"shape {list(shape)} holds {count} elements, more than MAX_ELEMENTS={MAX_ELEMENTS}")
    bits = ordinal_bits(data_type, count)
    pool = _SPECIAL_BITS[data_type]
    if fill != "ordinal":
        rng = np.random.Generator(np.random.PCG64(seed))
        if fill == "sprinkle":
            where = rng.choice(count, size=min(count, 1 + int(rng.integers(MAX_SPRINKLED))), replace=False)
            bits[where] = pool[rng.integers(len(pool), size=len(where))]
        elif fill == "dense":
            random = rng.integers(0, np.iinfo(data_type.bits).max, size=count, dtype=data_type.bits, endpoint=True)
            special = pool[rng.integers(len(pool), size=count)]
            bits = np.where(rng.random(count) < 0.5, special, random).astype(data_type.bits)
        else:
            raise ValueError(f"fill={fill!r}; expected one of {FILLS}")
    return bits.reshape(shape).view(data_type.numpy)


# PaddingValue (a 32-bit FLOAT, PAD.4) as float32 bits: in-range integers (judged everywhere),
# fractions (truncated for integers, U-PAD-1; observed for FLOAT64, U-PAD-2), values FLOAT16
# cannot hold exactly (U-PAD-3), out-of-range and negative values for integer types (U-PAD-1),
# and the IEEE specials (NaN payloads, sNaN, infinities, -0.0, a denormal).
PADDING_VALUE_BITS: tuple[int, ...] = (
    0x00000000,  # 0.0
    0x41100000,  # 9.0 (example 1)
    0xBF800000,  # -1.0
    0x41299999,  # 10.6 (PAD.4's own example)
    0xC1299999,  # -10.6
    0x3DCCCCCD,  # 0.1: inexact in FLOAT16, fractional for FLOAT64
    0x477FE000,  # 65504.0: FLOAT16 max
    0x43960000,  # 300.0: out of range for 8-bit types
    0x4F000000,  # 2**31: out of INT32's range
    0xCF000000,  # -2**31: INT32's min, exactly
    0x80000000,  # -0.0
    0x00000001,  # smallest float32 denormal
    0x7F800000,  # +inf
    0xFF800000,  # -inf
    0x7FC00000,  # NaN
    0x7FC00001,  # NaN with a payload
    0x7F800001,  # signalling NaN
)

"""Value pools: the bit patterns a copy can lose are there, and inputs are built from bits only."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.cases import values
from oracle import DataType
from oracle.padding_value import float32_from_bits

FLOAT32_MUST_HAVE = {
    0x00000000: "+0.0",
    0x80000000: "-0.0",
    0x7F800000: "+inf",
    0xFF800000: "-inf",
    0x7FC00000: "quiet NaN",
    0xFFC00000: "negative quiet NaN",
    0x7FC00001: "NaN payload",
    0x7F800001: "signalling NaN",
    0x00000001: "smallest denormal",
    0x007FFFFF: "largest denormal",
    0x7F7FFFFF: "max",
    0xFF7FFFFF: "lowest",
}
FLOAT16_MUST_HAVE = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7E01, 0x7C01, 0x0001, 0x03FF, 0x7BFF, 0xFBFF}
FLOAT64_MUST_HAVE = {0x8000000000000000, 0x7FF0000000000001, 0x7FF8000000000001, 0x0000000000000001, 0x7FEFFFFFFFFFFFFF}


@pytest.mark.parametrize(
    ("data_type", "must"),
    [
        (DataType.FLOAT32, set(FLOAT32_MUST_HAVE)),
        (DataType.FLOAT16, FLOAT16_MUST_HAVE),
        (DataType.FLOAT64, FLOAT64_MUST_HAVE),
    ],
)
def test_float_pools_hold_the_fragile_patterns(data_type, must):
    pool = {int(b) for b in values.special_bits(data_type)}
    assert must <= pool, {hex(b) for b in must - pool}


@pytest.mark.parametrize("data_type", [t for t in DataType if not t.is_float])
def test_integer_pools_hold_min_max_and_the_sign_bit(data_type):
    pool = values.special_bits(data_type).view(data_type.numpy)
    info = np.iinfo(data_type.numpy)
    assert {info.min, info.max, 0, 1} <= {int(v) for v in pool}
    if info.min < 0:
        assert -1 in {int(v) for v in pool}
    bits = {int(b) for b in values.special_bits(data_type)}
    assert 1 << (8 * data_type.numpy.itemsize - 1) in bits  # the sign bit alone
    assert 0x80 in bits  # the low byte's sign bit: byte-wise sign extension


def test_ordinal_fill_is_1_to_n_and_distinct():
    x = values.fill_input(DataType.FLOAT32, (2, 3), "ordinal", 0)
    assert x.tolist() == [[1, 2, 3], [4, 5, 6]]
    half = values.fill_input(DataType.FLOAT16, (values.MAX_ELEMENTS,), "ordinal", 0)
    assert len(np.unique(half.view(np.uint16))) == values.MAX_ELEMENTS
    i8 = values.fill_input(DataType.INT8, (256,), "ordinal", 0)
    assert len(np.unique(i8)) == 256 and i8.min() == -128


@pytest.mark.parametrize("fill", ["sprinkle", "dense"])
@pytest.mark.parametrize("data_type", list(DataType))
def test_fills_are_deterministic_and_use_the_pool(data_type, fill):
    a = values.fill_input(data_type, (8, 8), fill, 12345)
    b = values.fill_input(data_type, (8, 8), fill, 12345)
    assert a.dtype == data_type.numpy and a.tobytes() == b.tobytes()
    pool = set(values.special_bits(data_type).tolist())
    assert pool & set(a.view(data_type.bits).reshape(-1).tolist())
    assert values.fill_input(data_type, (8, 8), fill, 54321).tobytes() != a.tobytes()


def test_signalling_nans_survive_the_fill():
    """Built from bits, never through a float register: the sNaN stays signalling."""
    x = values.fill_input(DataType.FLOAT32, (64,), "dense", 7)
    bits = set(x.view(np.uint32).tolist())
    pool = set(values.special_bits(DataType.FLOAT32).tolist())
    assert 0x7F800001 in pool and (bits & pool)
    for seed in range(50):
        y = values.fill_input(DataType.FLOAT32, (64,), "dense", seed).view(np.uint32)
        if 0x7F800001 in set(y.tolist()):
            break
    else:
        pytest.fail("no dense fill in 50 seeds holds the signalling NaN 0x7f800001")


def test_the_element_cap_is_enforced():
    with pytest.raises(ValueError, match="MAX_ELEMENTS"):
        values.fill_input(DataType.UINT8, (values.MAX_ELEMENTS + 1,), "ordinal", 0)


def test_padding_values_reach_every_conversion_policy():
    import oracle

    reached = set()
    for bits in values.PADDING_VALUE_BITS:
        v = float32_from_bits(bits)
        assert int(np.array(v, dtype="<f4").view("<u4")) == bits  # bits survive the round trip
        for dt in DataType:
            conv = oracle.convert_padding_value(dt, v)
            if conv.observed:
                reached.add(conv.erratum)
    assert reached == {"U-PAD-1", "U-PAD-2", "U-PAD-3"}

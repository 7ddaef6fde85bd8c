"""What test_depth_space.py and test_space_to_depth.py share: random descriptors of the Order-taking
operators over every data type, with inputs whose bit patterns differ element to element, and the
three-way agreement they check (the fast path, the literal path, an ONNX reference written apart from
oracle.depth_space)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import strategies as st

import oracle
from oracle import DepthSpaceOrder, TensorDesc

NEWEST = max(oracle.FeatureLevel)


@st.composite
def block_cases(draw: st.DrawFn, descriptor: type, to_space: bool) -> tuple[object, np.ndarray]:
    """A `descriptor` (DEPTH_TO_SPACE1's if `to_space`, else SPACE_TO_DEPTH1's) moving between depth
    {N, C * b * b, H, W} and space {N, C, H * b, W * b}, and an input for it."""
    dt = draw(st.sampled_from(oracle.ALL_DATA_TYPES))
    b = draw(st.integers(1, 4))
    n, c, h, w = (draw(st.integers(1, 3)) for _ in range(4))
    order = draw(st.sampled_from(list(DepthSpaceOrder)))
    bits = draw(st.integers(0, 2 ** (8 * dt.numpy.itemsize) - 1))
    depth, space = (n, c * b * b, h, w), (n, c, h * b, w * b)
    source, target = (depth, space) if to_space else (space, depth)
    x = (np.arange(np.prod(source), dtype=np.uint64) * 2654435761 + bits).astype(dt.bits).reshape(source).view(dt.numpy)
    return descriptor(TensorDesc(dt, source), TensorDesc(dt, target), b, order), x


def assert_paths_match_reference(desc, x: np.ndarray, reference: Callable[[np.ndarray, int, str], np.ndarray]):
    """The fast and literal outputs equal each other and `reference` (on the bits: NaN payloads count);
    returns the fast output."""
    dt = desc.input_tensor.data_type
    fast = oracle.compute(desc, [x], feature_level=NEWEST)[0]
    literal = oracle.compute(desc, [x], literal=True, feature_level=NEWEST)[0]
    expected = reference(x.view(dt.bits), desc.block_size, desc.order.onnx_mode)
    assert np.array_equal(fast.view(dt.bits), literal.view(dt.bits))
    assert np.array_equal(fast.view(dt.bits), expected)
    return fast


def rejects(desc, clause: str, text: str, level: oracle.FeatureLevel = NEWEST) -> None:
    """validate refuses `desc` under `clause`, with `text` in its message."""
    with pytest.raises(oracle.InvalidDescriptor) as info:
        oracle.validate(desc, level)
    assert info.value.clause == clause
    assert text in str(info.value)

"""The output buffer pool: a block is handed out again only when nothing can still read it.

The pool's floor is lowered (MIN_BYTES is 8 MiB) so that small tensors go through it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracle
from oracle import PaddingDesc, PaddingMode, Slice1Desc, SliceDesc, SplitDesc, TensorDesc, buffers


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[buffers.BufferPool]:
    small = buffers.BufferPool(min_bytes=64, max_idle_bytes=2**20)
    monkeypatch.setattr(buffers, "POOL", small)
    yield small
    small.release()


def block_of(array: np.ndarray) -> np.ndarray:
    """The pooled block under an output (the lease's base)."""
    lease = array.base
    while not isinstance(lease, buffers._Lease):
        lease = lease.base
    return lease.base.base


def test_block_returns_only_when_every_view_is_gone(pool: buffers.BufferPool) -> None:
    # given: an output and views of it of every common kind
    out = buffers.empty((16, 8), np.dtype("<u4"))
    block = block_of(out)
    views = [out[::2], out.view("<f4"), np.asarray(out).reshape(128), out.T, memoryview(out)]
    # act, assert: dropping the output itself gives nothing back while a view lives
    del out
    gc.collect()
    assert pool._idle == []
    for _ in range(len(views)):
        views.pop()
        gc.collect()
        assert (pool._idle == []) == bool(views)
    assert pool._idle[0] is block
    # the next request of the same size gets the same block
    again = buffers.empty((128,), np.dtype("<u4"))
    assert block_of(again) is block and pool._idle == []


def test_request_that_fits_no_idle_block_frees_them_first(pool: buffers.BufferPool) -> None:
    a, b = buffers.empty((100,), np.dtype("<u8")), buffers.empty((200,), np.dtype("<u8"))
    del a, b
    assert pool.idle_bytes == 2400
    # 1000 bytes fits neither 800 (too small) nor 1600 (more than 25% too large)
    c = buffers.empty((125,), np.dtype("<u8"))
    assert pool._idle == [] and c.nbytes == 1000


def test_idle_memory_is_bounded_and_releasable(pool: buffers.BufferPool) -> None:
    held = [buffers.empty((2**17,), np.dtype("<u1")) for _ in range(10)]  # 10 x 128 KiB
    del held
    assert pool.idle_bytes <= pool.max_idle_bytes == 2**20
    oracle.release_buffers()
    assert pool.idle_bytes == 0
    pool.enabled = False
    plain = buffers.empty((2**17,), np.dtype("<u1"))
    assert plain.base is None


def test_small_outputs_bypass_the_pool() -> None:
    assert buffers.empty((10,), np.dtype("<f4")).base is None


def descriptors() -> list:
    t = TensorDesc.of("FLOAT16", [3, 5, 7])

    def pad(mode: PaddingMode) -> PaddingDesc:
        return PaddingDesc(t, TensorDesc.of("FLOAT16", [3, 14, 20]), mode, 2.5, (0, 6, 4), (0, 3, 9))

    return [
        SliceDesc(t, TensorDesc.of("FLOAT16", [2, 5, 3]), (1, 0, 2), (2, 5, 3), (1, 0, 2)),
        Slice1Desc(t, TensorDesc.of("FLOAT16", [3, 3, 4]), (0, 0, 0), (3, 5, 7), (-1, 2, -2)),
        SplitDesc(t, (TensorDesc.of("FLOAT16", [3, 2, 7]), TensorDesc.of("FLOAT16", [3, 3, 7])), 1),
        *(pad(mode) for mode in PaddingMode),
    ]


@given(data=st.data())
def test_reused_blocks_never_show_their_old_content(data) -> None:
    """Every element of a fast path's output is written: idle blocks are filled with garbage first."""
    small = buffers.BufferPool(min_bytes=1, max_idle_bytes=2**20)
    saved, buffers.POOL = buffers.POOL, small
    try:
        for desc in descriptors():
            x = np.arange(105, dtype=np.uint16).reshape(3, 5, 7).view(np.float16)
            expected = oracle.compute(desc, [x], literal=True, feature_level=max(oracle.FeatureLevel))
            for _ in range(2):  # the second time round, from the blocks the first run gave back
                for block in small._idle:
                    block[...] = data.draw(st.integers(0, 255), label="garbage byte")
                fast = oracle.compute(desc, [x], feature_level=max(oracle.FeatureLevel))  # WRAP: 6.4
                assert [y.view(np.uint16).tolist() for y in fast] == [y.view(np.uint16).tolist() for y in expected]
                del fast
    finally:
        buffers.POOL = saved

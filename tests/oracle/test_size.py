"""The size guard: a descriptor whose tensors do not fit is refused before anything is allocated.

Also: index maps stay lazy, so asking for the maps of a huge descriptor allocates nothing.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest

import oracle
from oracle import PaddingDesc, Slice1Desc, SliceDesc, SplitDesc, TensorDesc, TooLarge, op_slice, size

HUGE = [1024, 1024, 1024, 1024]  # 2**40 elements


def huge_slice1(data_type: str = "UINT8") -> Slice1Desc:
    t = TensorDesc.of(data_type, HUGE)
    return Slice1Desc(t, t, [0] * 4, HUGE, [1, 1, 1, -1])


def test_tensor_bytes_counts_every_tensor() -> None:
    x = TensorDesc.of("FLOAT16", [2, 3, 10])
    desc = SplitDesc(x, (TensorDesc.of("FLOAT16", [2, 3, 4]), TensorDesc.of("FLOAT16", [2, 3, 6])), 2)
    assert oracle.tensor_bytes(desc) == {"input_tensor": 120, "output_tensors[0]": 48, "output_tensors[1]": 72}
    assert oracle.check_size(desc, 240) == 240


def test_descriptor_of_2_40_elements_refused_instantly() -> None:
    # given: 2**40 UINT8 elements in and out (2 TiB), a budget from this machine's memory
    desc = huge_slice1()
    budget = oracle.default_max_bytes()
    # act: no input can exist for it, so a placeholder stands in; the guard refuses first
    tracemalloc.start()
    began = time.perf_counter()
    with pytest.raises(TooLarge) as info:
        oracle.compute(desc, [np.empty(0)], max_bytes=budget)
    elapsed = time.perf_counter() - began
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # assert: nothing was allocated, no time was spent, and the message gives the sizes
    assert peak < 2**20, f"the guard allocated {peak} bytes"
    assert elapsed < 1.0, f"the guard took {elapsed:.3f} s"
    assert info.value.needed == 2 * 2**40
    assert info.value.max_bytes == budget
    message = str(info.value)
    assert "SLICE1 needs 2,199,023,255,552 bytes (2 TiB)" in message
    assert "input_tensor UINT8 [1024,1024,1024,1024] = 1,099,511,627,776 bytes (1 TiB)" in message
    assert "output_tensor UINT8 [1024,1024,1024,1024]" in message
    assert f"max_bytes={budget:,} bytes" in message


def test_budget_is_inclusive_and_optional() -> None:
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    desc = PaddingDesc(TensorDesc.of("INT32", [3, 4]), TensorDesc.of("INT32", [3, 6]), "EDGE", 0.0, (0, 1), (0, 1))
    needed = 48 + 72
    assert oracle.compute(desc, [x], max_bytes=needed)[0].shape == (3, 6)
    assert oracle.compute(desc, [x])[0].shape == (3, 6)
    with pytest.raises(TooLarge, match=r"PADDING needs 120 bytes for its tensors, but max_bytes=119 bytes"):
        oracle.compute(desc, [x], max_bytes=needed - 1)


def test_invalid_descriptor_is_reported_before_its_size() -> None:
    """Validation first: a broken clause is the more useful message, even for a huge descriptor."""
    t = TensorDesc.of("UINT8", HUGE)
    desc = Slice1Desc(t, t, [0] * 4, HUGE, [1, 1, 0, 1])
    with pytest.raises(oracle.InvalidDescriptor, match=r"SLICE1\.5"):
        oracle.compute(desc, [np.empty(0)], max_bytes=1)


def test_default_budget_is_a_fraction_of_this_machines_memory() -> None:
    physical = size.physical_memory_bytes()
    assert physical is None or physical > 0
    budget = oracle.default_max_bytes(0.25)
    assert 0 < budget <= (physical or size.FALLBACK_MEMORY_BYTES)
    with pytest.raises(ValueError, match=r"fraction=0, but it must be in \(0, 1\]"):
        oracle.default_max_bytes(0)


def test_default_budget_fallback_and_cgroup_limit(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    # nothing readable: the fallback
    monkeypatch.setattr(size, "physical_memory_bytes", lambda: None)
    monkeypatch.setattr(size, "CGROUP_LIMIT_FILES", (tmp_path / "absent",))
    assert oracle.default_max_bytes(0.5) == size.FALLBACK_MEMORY_BYTES // 2
    # a container limit lower than the RAM wins; cgroup v2's "max" means no limit
    monkeypatch.setattr(size, "physical_memory_bytes", lambda: 64 * 2**30)
    limit = tmp_path / "memory.max"
    monkeypatch.setattr(size, "CGROUP_LIMIT_FILES", (limit,))
    limit.write_text("2147483648\n")
    assert oracle.default_max_bytes(1.0) == 2**31
    limit.write_text("max\n")
    assert oracle.default_max_bytes(1.0) == 64 * 2**30


def test_index_maps_of_a_huge_stride_0_slice_allocate_nothing() -> None:
    """U-SLICE-1 over 2**32 - 1 elements: the maps would be 32 GiB as int64; they are one slice."""
    n = 2**32 - 1
    desc = SliceDesc(TensorDesc.of("UINT8", [3]), TensorDesc.of("UINT8", [n]), (2,), (n,), (0,))
    tracemalloc.start()
    (axis,) = op_slice.index_maps(desc)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 2**16
    assert (len(axis), axis[0], axis[-1], axis.as_slice()) == (n, 2, 2, slice(2, 3))

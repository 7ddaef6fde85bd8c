"""conformance.support.pickles: the worker pipe's and the generation cache's pickles, arrays as raw bytes."""

from __future__ import annotations

import pickle

import ml_dtypes
import numpy as np
import pytest

from conformance.run.selection import generated_cases
from conformance.support.pickles import dumps, loads

RAW = b"conformance.support.pickles"  # the module a raw array's rebuilding function is named by


@pytest.mark.parametrize(
    "array",
    [
        np.arange(6, dtype=np.float16).reshape(2, 3),
        np.array([np.nan, -0.0], np.float32).view(np.uint32),
        np.zeros((0, 3), np.int64),
        np.array(5, np.uint8),
        np.arange(12).reshape(3, 4).T,  # not C-contiguous
        np.array([1, 2], dtype=">i4"),
        np.arange(4, dtype=np.dtype("<i2").newbyteorder("<")),  # not numpy's own dtype object: still raw
        np.array([1 + 2j]),
        np.array([True, False]),
    ],
)
def test_a_plain_array_goes_as_its_bytes_and_comes_back_equal_and_writable(array: np.ndarray):
    data = dumps(array)
    back = loads(data)
    assert RAW in data
    assert (back.dtype, back.shape, back.tobytes()) == (array.dtype, array.shape, array.tobytes())
    assert back.flags.writeable  # as numpy's own unpickled arrays


@pytest.mark.parametrize(
    "array",
    [np.zeros(3, dtype=ml_dtypes.bfloat16), np.zeros(2, dtype=[("a", "<i4")]), np.array(["2020-01-01"], "M8[D]")],
)
def test_any_other_array_is_pickled_as_numpy_pickles_it(array: np.ndarray):
    data = dumps(array)
    assert RAW not in data and data == pickle.dumps(array, protocol=pickle.HIGHEST_PROTOCOL)
    assert loads(data).tobytes() == array.tobytes()


def test_the_generated_cases_arrays_take_the_raw_path(tmp_path, monkeypatch):
    """The oracle's arrays carry dtypes made with an explicit byte order (not numpy's own dtype objects): they must
    still go raw, or the cache and the pipe pay numpy's reduce for every one."""
    monkeypatch.setenv("DML_CONFORMANCE_GENERATED", "none")
    cases = generated_cases(0, 50)
    data = dumps(cases)
    arrays = sum(len(c.inputs) + len(c.expected.outputs) for c in cases)
    assert data.count(RAW) >= 1 and b"_reconstruct" not in data and b"_frombuffer" not in data
    back = loads(data)
    assert [c.id for c in back] == [c.id for c in cases] and arrays > 0
    for a, b in zip(cases, back, strict=True):
        assert [x.tobytes() for x in a.inputs] == [x.tobytes() for x in b.inputs]
        assert [x.dtype for x in a.expected.outputs] == [x.dtype for x in b.expected.outputs]

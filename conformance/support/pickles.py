"""Pickles of the suite's cases and messages (the worker pipe, the generation cache), numpy arrays as their raw
bytes.

numpy's own pickling of an array pickles its dtype as an object and rebuilds it through a Python function: for
the quick profile's 30,000 small arrays, a third of the time of sending its cases to the workers, and more of
loading them.  Here a plain array of one of numpy's scalar kinds is `(dtype string, shape, bytes)`, rebuilt by
`numpy.frombuffer` over a bytearray (writable, as numpy's own unpickled arrays are); any other array (a subclass,
an extension dtype such as ml_dtypes', a structured, object or date one) is pickled as numpy pickles it.  `pickle.loads`
reads both.
"""

from __future__ import annotations

import copyreg
import io
import pickle
from typing import Any

import numpy as np


def _array(data: bytearray, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    return np.frombuffer(data, dtype).reshape(shape)


def _reduce_array(a: np.ndarray) -> str | tuple:
    # numpy's own scalar kinds (bool, integers, floats, complex), either byte order: their dtype string says all.
    if type(a) is np.ndarray and a.dtype.kind in "biufc" and a.dtype.names is None:
        return _array, (bytearray(a.tobytes()), a.dtype.str, a.shape)
    return a.__reduce_ex__(pickle.HIGHEST_PROTOCOL)


_TABLE = copyreg.dispatch_table.copy()
_TABLE[np.ndarray] = _reduce_array


def dumps(obj: Any) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _TABLE
    pickler.dump(obj)
    return buffer.getvalue()


loads = pickle.loads

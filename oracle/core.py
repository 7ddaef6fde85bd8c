"""What the four operators share: per-axis index maps, one gather, and the literal walk.

Every operator is "for each output coordinate, per axis, which input coordinate?".
An operator module supplies `index_maps(desc)`: one integer array per axis, mapping output
index to input index (or -1 for "outside", which PADDING's CONSTANT mode fills).  From
that this module builds the fast path (one gather on the raw bits) and the helpers the
literal paths and explain use.  Copies are done on the unsigned-integer view of the data,
so no value passes through a floating-point register (NaN payloads survive).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from .checks import TensorDesc
from .tables import DataType


def as_bits(array: np.ndarray, data_type: DataType) -> np.ndarray:
    """The array's values as unsigned integers of the same width (a view where possible)."""
    array = np.asarray(array, dtype=data_type.numpy, order="C")
    return array.view(data_type.bits)


def from_bits(bits: np.ndarray, data_type: DataType) -> np.ndarray:
    return np.asarray(bits, order="C").view(data_type.numpy)


def check_input(array: np.ndarray, tensor: TensorDesc, name: str = "input") -> np.ndarray:
    """The input array must match its tensor desc: shape and dtype (byte order aside)."""
    array = np.asarray(array)
    if tuple(array.shape) != tensor.sizes:
        raise ValueError(f"{name} has shape {tuple(array.shape)}, but its tensor desc has sizes {list(tensor.sizes)}")
    if DataType.from_numpy(array.dtype) is not tensor.data_type:
        raise ValueError(f"{name} has dtype {array.dtype}, but its tensor desc has data_type {tensor.data_type.value}")
    return array


def gather(array: np.ndarray, data_type: DataType, maps: Sequence[np.ndarray]) -> np.ndarray:
    """Output[c] = Input[maps[0][c0], maps[1][c1], ...], done as one take per axis on the bits."""
    bits = as_bits(array, data_type)
    for axis, index in enumerate(maps):
        if not (len(index) == bits.shape[axis] and np.array_equal(index, np.arange(bits.shape[axis]))):
            bits = np.take(bits, index, axis=axis)
    return from_bits(bits, data_type)


def output_coordinates(sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every output coordinate in row-major order: the literal paths walk these one by one."""
    return itertools.product(*(range(n) for n in sizes))


def copy_elementwise(
    array: np.ndarray,
    data_type: DataType,
    out_sizes: Sequence[int],
    source: Callable[[tuple[int, ...]], tuple[int, ...] | None],
    fill: np.ndarray | None = None,
) -> np.ndarray:
    """The literal path's loop: out[c] = in[source(c)] for every c, element by element, on the bits.

    `source(c)` returns an input coordinate, or None for "not read from the input": that
    element gets `fill` (a 0-d array of the data type).
    """
    bits = as_bits(array, data_type)
    fill_bits = None if fill is None else as_bits(fill, data_type)[()]
    out = np.zeros(tuple(out_sizes), dtype=data_type.bits)
    for c in output_coordinates(out_sizes):
        src = source(c)
        out[c] = fill_bits if src is None else bits[src]
    return from_bits(out, data_type)


def fmt_coord(coord: Sequence[int]) -> str:
    """{0,0,3,1}: the pages' way of printing a coordinate vector."""
    return "{" + ",".join(str(int(v)) for v in coord) + "}"


def fmt_value(value: np.generic) -> str:
    """A value as the pages print it: integral floats without a fraction (Input[...] = 14)."""
    if isinstance(value, np.floating) and np.isfinite(value) and float(value).is_integer():
        return str(int(value))
    return repr(value.item()) if isinstance(value, np.generic) else repr(value)

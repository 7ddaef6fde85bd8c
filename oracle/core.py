"""What the operators share: per-axis index maps, strided copies, and the literal walk.

Every operator is "for each output coordinate, per axis, which input coordinate?".
An operator module supplies `index_maps(desc)`: one lazy sequence per axis, mapping output
index to input index (or -1 for "outside", which PADDING's CONSTANT mode fills).  Nothing
is materialised per element until someone asks (`np.asarray(m)`): a stride-0 DML_SLICE over
2**32 elements has maps of a few bytes.  The maps define the semantics (`gather` reads them
literally, and a property test holds every fast path equal to it); the fast paths copy
blocks instead: an affine map is a slice with a step, so SLICE, SLICE1 and SPLIT are one
strided view copied once (`strided_copy`).  Copies are done on the unsigned-integer view of
the data, so no value passes through a floating-point register (NaN payloads survive).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from . import buffers
from .checks import TensorDesc
from .tables import DataType


def as_bits(array: np.ndarray, data_type: DataType) -> np.ndarray:
    """The array's values as unsigned integers of the same width: a view with the array's strides
    (a transposed or sliced input is not copied), a copy only when the byte order differs."""
    return np.asarray(array, dtype=data_type.numpy).view(data_type.bits)


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


class AxisMap(Sequence[int]):
    """One axis of an index map: output index k -> input index (-1: outside).  Lazy.

    Subclasses define `size` (the output length) and `at(k)` on an int64 array of indices;
    `np.asarray(m)` materialises the whole map, `m[k]` one entry.
    """

    size: int

    def at(self, k: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, k):
        if isinstance(k, slice):
            return self.at(np.arange(self.size, dtype=np.int64)[k])
        k = range(self.size)[k]  # bounds and negative indices as for a list
        return int(self.at(np.int64(k)))

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        values = self.at(np.arange(self.size, dtype=np.int64))
        return values if dtype is None else values.astype(dtype)


@dataclass(frozen=True, eq=True)
class Affine(AxisMap):
    """Output index k reads input index start + step * k (k < size): a slice with a step."""

    start: int
    step: int
    size: int

    def at(self, k: np.ndarray) -> np.ndarray:
        return self.start + self.step * k

    def as_slice(self) -> slice:
        """The basic index selecting these input indices; a step of 0 selects the one element (broadcast it)."""
        if self.step == 0:
            return slice(self.start, self.start + 1)
        stop = self.start + self.step * (self.size - 1) + (1 if self.step > 0 else -1)
        return slice(self.start, None if stop < 0 else stop, self.step)


def strided_copy(array: np.ndarray, data_type: DataType, maps: Sequence[Affine]) -> np.ndarray:
    """Output[c] = Input[start + step * c] as one strided view copied once into a new array.

    No index array and no gather: a negative step is a reversed view, a step of 0 (U-SLICE-1)
    a size-1 slice broadcast by the copy.  Peak memory is the output alone.
    """
    view = as_bits(array, data_type)[tuple(m.as_slice() for m in maps)]
    out = buffers.empty(tuple(m.size for m in maps), data_type.bits)
    np.copyto(out, view)
    return from_bits(out, data_type)


def gather(
    array: np.ndarray, data_type: DataType, maps: Sequence[Sequence[int]], fill: np.ndarray | None = None
) -> np.ndarray:
    """Output[c] = Input[maps[0][c0], maps[1][c1], ...] read literally from the maps, one take per axis.

    The reference the fast paths are tested against, not a fast path: it materialises every
    map.  An index of -1 means "outside": that element gets `fill` (a 0-d array of the data type).
    """
    bits = as_bits(array, data_type)
    fill_bits = None if fill is None else as_bits(fill, data_type)[()]
    for axis, m in enumerate(maps):
        index = np.asarray(m, dtype=np.int64)
        outside = index < 0
        bits = np.take(bits, np.where(outside, 0, index), axis=axis)
        if outside.any():
            if fill_bits is None:
                raise ValueError("a map marks an element outside (-1), but no fill value was given")
            bits[(slice(None),) * axis + (outside,)] = fill_bits
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


def fmt_value(value: np.generic | np.ndarray) -> str:
    """A value as the pages print it: integral floats without a fraction (Input[...] = 14)."""
    if isinstance(value, np.floating) and np.isfinite(value) and float(value).is_integer():
        return str(int(value))
    return repr(value.item()) if isinstance(value, np.generic) else repr(value)

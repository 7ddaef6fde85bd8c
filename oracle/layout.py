"""DML_BUFFER_TENSOR_DESC's layout: Strides, TotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment, Flags.

Beyond the seed pages (docs/spec/beyond-seeds.md, LAYOUT.*): the operators' semantics are on
logical tensors, and a layout only says where each element lives in its buffer.  So the oracle
computes on logical arrays as before; this module validates a tensor's layout and moves
elements between logical arrays and buffers (pack, unpack), so that the suite can hand a backend
the exact buffers DirectML binds and judge every byte it gets back.

Buffers are judged in three regions: the addressed elements (compared as elements), the padding
bytes inside TotalTensorSizeInBytes that no element addresses (DirectML may write them, LAYOUT.4:
observed, U-LAYOUT-1) and GUARD_BYTES after it, which are not the tensor's (a write there fails).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from .checks import InvalidDescriptor, TensorDesc
from .tables import UINT_MAX

FLAG_NONE, FLAG_OWNED_BY_DML = 0, 1  # DML_TENSOR_FLAGS (LAYOUT.7)
KNOWN_FLAGS = FLAG_NONE | FLAG_OWNED_BY_DML
# What an output buffer and its guard hold before the run (the native runner's kPoison): a byte
# that still holds it was not written.  Backends that return buffers fill them with it (docs/backends.md).
OUTPUT_FILL = 0xCD
GUARD_BYTES = 256
MAX_CHECKED = (
    1 << 22
)  # elements past which overlaps() reasons from the strides instead of listing addresses  # bytes after each output's TotalTensorSizeInBytes that must stay OUTPUT_FILL


class HasTensors(Protocol):
    @property
    def input_tensors(self) -> tuple[TensorDesc, ...]: ...
    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]: ...


def packed_strides(sizes: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides in elements: what a desc without Strides means (LAYOUT.1)."""
    out, step = [], 1
    for n in reversed(sizes):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def element_strides(tensor: TensorDesc) -> tuple[int, ...]:
    return tensor.strides if tensor.strides is not None else packed_strides(tensor.sizes)


def implied_size(tensor: TensorDesc) -> int:
    """DMLCalcBufferTensorSize: (dot(Sizes - 1, Strides) + 1) * ElementSize, rounded up to 4 (LAYOUT.3)."""
    last = sum((n - 1) * s for n, s in zip(tensor.sizes, element_strides(tensor)))
    return ((last + 1) * tensor.data_type.numpy.itemsize + 3) & ~3


def total_size(tensor: TensorDesc) -> int:
    """TotalTensorSizeInBytes: the case's, or DMLCalcBufferTensorSize's minimum when it gives none."""
    given = tensor.total_tensor_size_in_bytes
    return implied_size(tensor) if given is None else given


def has_layout(desc: HasTensors) -> bool:
    """Whether any tensor of `desc` states a layout field (a case beyond the seed pages, LAYOUT.*)."""
    return any(t.has_layout for t in (*desc.input_tensors, *desc.output_tensors))


def kind(tensor: TensorDesc) -> str:
    """A one-word name of the layout, for reports: packed, padded, permuted, broadcast, oversized, overlapping
    (malformed: strides of the wrong length)."""
    if tensor.strides is None:
        if tensor.total_tensor_size_in_bytes is None:  # the common case: nothing stated, nothing to compute
            return "packed"
        return "oversized" if total_size(tensor) > implied_size(tensor) else "packed"
    if len(tensor.strides) != tensor.dimension_count:
        return "malformed"  # an invalid desc (LAYOUT.1): no element has an address
    if any(s == 0 for n, s in zip(tensor.sizes, tensor.strides) if n > 1):
        return "broadcast"
    if overlaps(tensor):
        return "overlapping"
    if tensor.strides == packed_strides(tensor.sizes):
        return "oversized" if total_size(tensor) > implied_size(tensor) else "packed"
    dense = implied_size(TensorDesc(tensor.data_type, tensor.sizes)) == implied_size(tensor)
    return "permuted" if dense else "padded"


def desc_kind(desc: HasTensors) -> str:
    """The layout of a descriptor for a heat-map axis: its first non-packed tensor's kind, or packed."""
    for t in (*desc.input_tensors, *desc.output_tensors):
        if t.strides is None and t.total_tensor_size_in_bytes is None:
            continue  # packed, as kind() says: most tensors of most cases (every record asks)
        k = kind(t)
        if k != "packed":
            return k
    return "packed"


def _fail(message: str, clause: str, field: str) -> None:
    raise InvalidDescriptor(message, clause, field)


def check_tensor(tensor: TensorDesc, name: str, is_output: bool) -> None:
    """LAYOUT.1-7 for one tensor (the clause named in the message)."""
    item = tensor.data_type.numpy.itemsize
    if tensor.strides is not None:
        if len(tensor.strides) != tensor.dimension_count:
            _fail(
                f"{name}.strides has {len(tensor.strides)} entries, but the tensor has DimensionCount="
                f"{tensor.dimension_count}",
                "LAYOUT.1",
                f"{name}.strides",
            )
        for i, s in enumerate(tensor.strides):
            if not 0 <= s <= UINT_MAX:
                _fail(f"{name}.strides[{i}]={s}, but Strides are UINT (0..{UINT_MAX})", "LAYOUT.1", f"{name}.strides")
    implied = implied_size(tensor)
    given = tensor.total_tensor_size_in_bytes
    if given is not None:
        if given < implied:
            _fail(
                f"{name}.total_tensor_size_in_bytes={given}, but DMLCalcBufferTensorSize gives {implied} for its "
                "sizes, strides and data type",
                "LAYOUT.3",
                f"{name}.total_tensor_size_in_bytes",
            )
    if total_size(tensor) // item > UINT_MAX:
        _fail(
            f"{name} takes {total_size(tensor)} bytes, more than 2^32 - 1 elements of {item} byte(s)",
            "LAYOUT.5",
            f"{name}.total_tensor_size_in_bytes",
        )
    align = tensor.guaranteed_base_offset_alignment
    if align and (align & (align - 1) or align < item):
        _fail(
            f"{name}.guaranteed_base_offset_alignment={align}, but it must be 0 or a power of two at least the "
            f"element size ({item})",
            "LAYOUT.6",
            f"{name}.guaranteed_base_offset_alignment",
        )
    if tensor.flags & ~KNOWN_FLAGS:
        _fail(f"{name}.flags={tensor.flags}, but DML_TENSOR_FLAGS defines only 0 and 1", "LAYOUT.7", f"{name}.flags")
    if is_output and tensor.flags & FLAG_OWNED_BY_DML:
        _fail(
            f"{name}.flags=DML_TENSOR_FLAG_OWNED_BY_DML, but the flag can only be used on input tensors",
            "LAYOUT.7",
            f"{name}.flags",
        )


def validate(desc: HasTensors) -> None:
    """Every tensor's layout; called after the operator's own validation (oracle.api.validate)."""
    inputs, outputs = desc.input_tensors, desc.output_tensors
    for j, t in enumerate(inputs):
        if t.has_layout:
            check_tensor(t, "input_tensor" if len(inputs) == 1 else f"input_tensors[{j}]", False)
    for j, t in enumerate(outputs):
        if t.has_layout:
            check_tensor(t, "output_tensor" if len(outputs) == 1 else f"output_tensors[{j}]", True)


def offsets(tensor: TensorDesc) -> np.ndarray:
    """Each logical element's offset in elements from the buffer's start (int64, the tensor's shape)."""
    out = np.zeros(tensor.sizes, dtype=np.int64)
    for d, (n, s) in enumerate(zip(tensor.sizes, element_strides(tensor))):
        shape = [1] * tensor.dimension_count
        shape[d] = n
        out += (np.arange(n, dtype=np.int64) * s).reshape(shape)
    return out


def overlaps(tensor: TensorDesc) -> bool:
    """Whether two logical elements share an address (a 0 stride on an axis > 1, or interleaving strides)."""
    if tensor.strides is None or len(tensor.strides) != tensor.dimension_count:
        return False
    if any(s == 0 for n, s in zip(tensor.sizes, tensor.strides) if n > 1):
        return True
    # Nested strides (each axis, by stride, steps past all the axes of smaller strides reach) never overlap: no
    # element list needed.  Others are listed, unless there are too many: then the nesting decides.
    order = sorted((s, n) for n, s in zip(tensor.sizes, tensor.strides) if n > 1)
    span = 1
    for s, n in order:
        if s < span:
            break
        span = s * n
    else:
        return False
    if np.prod(tensor.sizes, dtype=np.float64) > MAX_CHECKED:
        return True
    where = offsets(tensor).ravel()
    return len(np.unique(where)) != where.size


def aliased(tensor: TensorDesc) -> np.ndarray:
    """Bool mask (the tensor's shape): elements whose address another element shares."""
    where = offsets(tensor)
    _, inverse, counts = np.unique(where.ravel(), return_inverse=True, return_counts=True)
    return (counts[inverse] > 1).reshape(tensor.sizes)


def input_fill(size: int) -> np.ndarray:
    """What an input buffer holds where no element lives: a byte pattern that varies with the offset, so
    a shader reading a gap reads a value no case puts there by chance (deterministic, documented)."""
    return ((np.arange(size, dtype=np.int64) * 0x3B + 0x5A) & 0xFF).astype(np.uint8)


def _elements(buffer: np.ndarray, tensor: TensorDesc) -> np.ndarray:
    item = tensor.data_type.numpy.itemsize
    whole = (len(buffer) // item) * item
    return buffer[:whole].view(tensor.data_type.bits)


def pack(array: np.ndarray, tensor: TensorDesc, fill: np.ndarray | None = None) -> np.ndarray:
    """The buffer (uint8) that holds `array` through the tensor's strides: TotalTensorSizeInBytes long, or as
    long as `fill`, which it holds where no element lives (input_fill by default).  Elements sharing an address
    (broadcast) are written in row-major order, the last one landing.
    """
    size = total_size(tensor)
    buffer = (input_fill(size) if fill is None else fill).copy()
    if tensor.strides is None:
        data = np.ascontiguousarray(array, dtype=tensor.data_type.numpy).view(np.uint8).ravel()
        buffer[: data.size] = data
        return buffer
    bits = np.ascontiguousarray(array, dtype=tensor.data_type.numpy).view(tensor.data_type.bits)
    _elements(buffer, tensor)[offsets(tensor).ravel()] = bits.ravel()
    return buffer


def unpack(buffer: np.ndarray, tensor: TensorDesc) -> np.ndarray:
    """The logical tensor a buffer holds through the tensor's strides (a copy, the tensor's dtype)."""
    if tensor.strides is None:
        count = int(np.prod(tensor.sizes, dtype=np.int64)) * tensor.data_type.numpy.itemsize
        return buffer[:count].copy().view(tensor.data_type.numpy).reshape(tensor.sizes)
    bits = _elements(buffer, tensor)[offsets(tensor)]
    return bits.view(tensor.data_type.numpy)


def addressed(tensor: TensorDesc) -> np.ndarray:
    """Bool per byte of TotalTensorSizeInBytes: True for the bytes some element occupies."""
    size, item = total_size(tensor), tensor.data_type.numpy.itemsize
    mask = np.zeros(size, dtype=bool)
    if tensor.strides is None:
        mask[: int(np.prod(tensor.sizes, dtype=np.int64)) * item] = True
        return mask
    starts = np.unique(offsets(tensor).ravel()) * item
    for b in range(item):
        mask[starts + b] = True
    return mask


def consistent(array: np.ndarray, tensor: TensorDesc) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """For an input whose elements share addresses (a broadcast): the first element whose value differs from
    the first element at its address, and that element's coordinate; None when all agree (LAYOUT.2)."""
    if tensor.strides is None or not overlaps(tensor):
        return None
    bits = np.ascontiguousarray(array, dtype=tensor.data_type.numpy).view(tensor.data_type.bits).ravel()
    where = offsets(tensor).ravel()
    _, first, inverse = np.unique(where, return_index=True, return_inverse=True)
    owner = first[inverse]  # per element: the flat index of the first element at its address
    differ = np.flatnonzero(bits != bits[owner])
    if not differ.size:
        return None
    k = int(differ[0])
    coordinate = tuple(int(v) for v in np.unravel_index(k, tensor.sizes))
    return coordinate, tuple(int(v) for v in np.unravel_index(int(owner[k]), tensor.sizes))


def unspecified(desc: HasTensors) -> list[str]:
    """U-LAYOUT-2 when an output's elements share addresses (which one lands is open); U-LAYOUT-3 when a
    TotalTensorSizeInBytes is not a multiple of 4 (whether that is valid is open)."""
    tensors = (*desc.input_tensors, *desc.output_tensors)
    found = ["U-LAYOUT-2"] if any(overlaps(t) for t in desc.output_tensors) else []
    if any(t.total_tensor_size_in_bytes is not None and t.total_tensor_size_in_bytes % 4 for t in tensors):
        found.append("U-LAYOUT-3")
    return found


def open_elements(desc: HasTensors) -> list[np.ndarray]:
    """Per output: the elements U-LAYOUT-2 leaves open (those sharing an address with another)."""
    return [aliased(t) if overlaps(t) else np.zeros(t.sizes, dtype=bool) for t in desc.output_tensors]


def output_buffer(tensor: TensorDesc) -> np.ndarray:
    """A fresh output buffer for a backend: TotalTensorSizeInBytes plus GUARD_BYTES, all OUTPUT_FILL."""
    return np.full(total_size(tensor) + GUARD_BYTES, OUTPUT_FILL, dtype=np.uint8)

"""Tensor layouts for generated cases (LAYOUT.*, docs/spec/beyond-seeds.md), for every operator and data type.

Packed stays the common case: one valid case in LAYOUT_ONE_IN states a layout on its inputs, its
outputs or both, drawn through the same Chooser as the rest of the case (so the frozen corpus and
Hypothesis share it).  The kinds are the ones the DML_BUFFER_TENSOR_DESC page names and runtimes
hand DirectML: padded rows or planes (a stride larger than what it skips), permuted axes
(column-major and other orders), broadcast inputs (a 0 stride) and buffers larger than needed;
now and then a GuaranteedBaseOffsetAlignment, and DML_TENSOR_FLAG_OWNED_BY_DML on an input.
Overlapping outputs stay curated (U-LAYOUT-2: DirectML refuses them).  The invalid families
break LAYOUT.3, LAYOUT.6 and LAYOUT.7 on any operator's valid base.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

import oracle
from oracle import TensorDesc, layout

from .common import CaseSpec, Chooser, Family

LAYOUT_ONE_IN = 5  # one valid generated case in five states a layout
INPUT_KINDS = ("padded", "permuted", "broadcast", "oversized")
OUTPUT_KINDS = ("padded", "permuted", "oversized")
ALIGNMENTS = (16, 32, 64, 256)  # powers of two, at least every element size (LAYOUT.6)


def _padded(ch: Chooser, sizes: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides with 1-3 extra elements after one or two axes (a padded row, a padded plane)."""
    padded = {ch.integer(0, len(sizes) - 1) for _ in range(ch.integer(1, 2))}
    strides, step = [], 1
    for d in reversed(range(len(sizes))):
        strides.append(step)
        step *= sizes[d] + (ch.integer(1, 3) if d in padded else 0)
    return tuple(reversed(strides))


def _permuted(ch: Chooser, sizes: Sequence[int]) -> tuple[int, ...]:
    """Dense strides for another axis order (reversed: column-major; or a rotation)."""
    rank = len(sizes)
    order = list(reversed(range(rank))) if ch.choice(("reversed", "rotated")) == "reversed" else None
    if order is None:
        k = ch.integer(1, max(1, rank - 1))
        order = [*range(k, rank), *range(k)]
    strides = [0] * rank
    step = 1
    for d in reversed(order):  # the last axis of `order` varies fastest
        strides[d] = step
        step *= sizes[d]
    return tuple(strides)


def _broadcast(ch: Chooser, sizes: Sequence[int]) -> tuple[int, ...] | None:
    """Packed strides with 0 on one axis of size > 1 (None if there is none)."""
    wide = [d for d, n in enumerate(sizes) if n > 1]
    if not wide:
        return None
    zero = ch.choice(wide)
    strides, step = [], 1
    for d in reversed(range(len(sizes))):
        strides.append(0 if d == zero else step)
        step *= 1 if d == zero else sizes[d]
    return tuple(reversed(strides))


def laid_out(ch: Chooser, tensor: TensorDesc, is_output: bool) -> TensorDesc:
    """`tensor` with a drawn layout (its sizes and data type unchanged)."""
    kind = ch.choice(OUTPUT_KINDS if is_output else INPUT_KINDS)
    strides: tuple[int, ...] | None = None
    if kind == "broadcast":
        strides = _broadcast(ch, tensor.sizes)
    elif kind == "permuted" and tensor.dimension_count > 1:
        strides = _permuted(ch, tensor.sizes)
    if kind == "padded" or (kind != "oversized" and strides is None):
        strides = _padded(ch, tensor.sizes)
    out = TensorDesc(tensor.data_type, tensor.sizes, strides)
    extra = 4 * ch.integer(1, 16) if kind == "oversized" else 0
    total = layout.implied_size(out) + extra if extra else None
    align = ch.choice(ALIGNMENTS) if ch.rare(4) else 0
    flags = layout.FLAG_OWNED_BY_DML if not is_output and ch.rare(8) else 0
    return dataclasses.replace(
        out, total_tensor_size_in_bytes=total, guaranteed_base_offset_alignment=align, flags=flags
    )


def with_tensors(desc: oracle.Descriptor, inputs: Sequence[TensorDesc], outputs: Sequence[TensorDesc]):
    """`desc` with its tensor descs replaced (one field or an array, as the operator's struct has them)."""
    names = {f.name for f in dataclasses.fields(desc)}
    changes: dict = {}
    input_fields: tuple[str, ...] = getattr(desc, "INPUT_FIELDS", ())  # several single inputs (REVERSE_SUBSEQUENCES)
    if input_fields:
        changes.update(zip(input_fields, inputs, strict=True))
    elif "input_tensors" in names:
        changes["input_tensors"] = tuple(inputs)
    elif "input_tensor" in names and inputs:  # DIAGONAL_MATRIX1's optional input: only when present
        changes["input_tensor"] = inputs[0]
    # else no input tensor (FILL_VALUE_*): only the output's desc changes
    changes["output_tensors" if "output_tensors" in names else "output_tensor"] = (
        tuple(outputs) if "output_tensors" in names else outputs[0]
    )
    return dataclasses.replace(desc, **changes)


def maybe_lay_out(ch: Chooser, desc: oracle.Descriptor) -> oracle.Descriptor:
    """One case in LAYOUT_ONE_IN: layouts on the inputs, the outputs or both; else `desc` as it is."""
    if not ch.rare(LAYOUT_ONE_IN):
        return desc
    where = ch.choice(("inputs", "outputs", "both"))
    ins = [laid_out(ch, t, False) if where != "outputs" else t for t in desc.input_tensors]
    outs = [laid_out(ch, t, True) if where != "inputs" else t for t in desc.output_tensors]
    ch.event(f"layout: {layout.desc_kind(with_tensors(desc, ins, outs))}")
    return with_tensors(desc, ins, outs)


def conform(x: np.ndarray, tensor: TensorDesc) -> np.ndarray:
    """An input whose elements sharing an address (a broadcast) hold one value: what the buffer holds."""
    return layout.unpack(layout.pack(x, tensor), tensor) if layout.overlaps(tensor) else x


def clauses(desc: oracle.Descriptor) -> list[str]:
    """The LAYOUT clauses a valid descriptor's layout exercises."""
    tensors = (*desc.input_tensors, *desc.output_tensors)
    if not any(t.has_layout for t in tensors):
        return []
    found = {"LAYOUT.8"}
    for t in tensors:
        if t.strides is not None:
            found |= {"LAYOUT.1", "LAYOUT.2"}
        if t.total_tensor_size_in_bytes is not None:
            found |= {"LAYOUT.3", "LAYOUT.4"}
        if t.guaranteed_base_offset_alignment:
            found.add("LAYOUT.6")
        if t.flags:
            found.add("LAYOUT.7")
    return sorted(found)


# --- invalid layouts: one family per rule, on any operator's valid base --------------------------------


def _first_output(base: CaseSpec, change) -> CaseSpec:
    outs = list(base.descriptor.output_tensors)
    outs[0] = change(outs[0])
    return dataclasses.replace(base, descriptor=with_tensors(base.descriptor, base.descriptor.input_tensors, outs))


def _total_too_small(ch: Chooser, base: CaseSpec) -> CaseSpec:
    def change(t: TensorDesc) -> TensorDesc:
        return dataclasses.replace(t, total_tensor_size_in_bytes=max(0, layout.implied_size(t) - 4 * ch.integer(1, 2)))

    return _first_output(base, change)


def _alignment_not_power_of_two(ch: Chooser, base: CaseSpec) -> CaseSpec:
    def change(t: TensorDesc) -> TensorDesc:
        return dataclasses.replace(t, guaranteed_base_offset_alignment=ch.choice((3, 12, 24, 48, 100)))

    return _first_output(base, change)


def _owned_output(ch: Chooser, base: CaseSpec) -> CaseSpec:
    return _first_output(base, lambda t: dataclasses.replace(t, flags=layout.FLAG_OWNED_BY_DML))


def families() -> list[Family]:
    """Invalid layouts every operator gets, after its own families (the generator draws them by index)."""
    return [
        Family("TotalTensorSizeInBytes below DMLCalcBufferTensorSize", "LAYOUT.3", _total_too_small),
        Family("GuaranteedBaseOffsetAlignment not a power of two", "LAYOUT.6", _alignment_not_power_of_two),
        Family("DML_TENSOR_FLAG_OWNED_BY_DML on an output", "LAYOUT.7", _owned_output),
    ]

"""Known deviations, each an exact model of what an implementation computes instead of the pages.

A waiver excuses a failure only in the form observed: `"when": {"mismatch": NAME}`.  On every
mismatch the runner asks each model for its prediction and records the names whose prediction
the actual outputs equal bit for bit (`mismatch.explained_by`).  A failure that no model predicts
exactly is never excused by one, so a new or different wrong answer still fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from oracle import Descriptor, Slice1Desc, TensorDesc
from oracle.op_slice1 import compute as slice1_compute

from .compare import compare_outputs


@dataclass(frozen=True)
class Deviation:
    name: str
    operator: str
    summary: str
    # The outputs the deviating implementation produces, or None where the model does not apply.
    predict: Callable[[Descriptor, Sequence[np.ndarray]], list[np.ndarray] | None]


def dml_slice1_merged_axes(desc: Descriptor, inputs: Sequence[np.ndarray]) -> list[np.ndarray] | None:
    """DML_SLICE1 as DirectML 1.15.4 computes it.

    Working outwards, axes i and i+1 are merged into one when axis i+1's window is the whole axis
    (offset 0, size = the input's) with stride 1 and axis i's stride is 1; the merged axis copies
    OutputSizes[i] * OutputSizes[i+1] consecutive elements.  That is right only when the output
    copies the whole window on axis i+1; SLICE1.4 allows fewer, and then DirectML reads the wrong
    elements.  Checked against DirectML on 1,500 random descriptors: it predicted every output.
    None for any other operator's descriptor.
    """
    if not isinstance(desc, Slice1Desc):
        return None
    sizes, offsets = list(desc.input_tensor.sizes), list(desc.window_offsets)
    windows, strides, outputs = list(desc.window_sizes), list(desc.window_strides), list(desc.output_tensor.sizes)
    merged_any = False
    for i in range(len(sizes) - 2, -1, -1):
        j = i + 1
        if offsets[j] == 0 and windows[j] == sizes[j] and strides[j] == 1 and strides[i] == 1:
            merged = (sizes[i] * sizes[j], offsets[i] * sizes[j], windows[i] * sizes[j], outputs[i] * outputs[j])
            for values, value in zip((sizes, offsets, windows, outputs), merged):
                values[i : j + 1] = [value]
            strides[i : j + 1] = [1]
            merged_any = True
    if not merged_any:
        return None
    data_type = desc.input_tensor.data_type
    merged_desc = Slice1Desc(
        TensorDesc(data_type, tuple(sizes)),
        TensorDesc(data_type, tuple(outputs)),
        tuple(offsets),
        tuple(windows),
        tuple(strides),
    )
    (y,) = slice1_compute(merged_desc, [np.asarray(inputs[0]).reshape(sizes)])
    return [y.reshape(desc.output_tensor.sizes)]


DEVIATIONS: dict[str, Deviation] = {
    d.name: d
    for d in (
        Deviation(
            "dml-slice1-merged-axes",
            "SLICE1",
            "DML_SLICE1 merges an axis whose window is the whole axis with stride 1 into its outer neighbour "
            "without checking that the output copies the whole window there (SLICE1.4)",
            dml_slice1_merged_axes,
        ),
    )
}


def explain(desc: Descriptor, inputs: Sequence[np.ndarray], actual: Sequence[np.ndarray]) -> list[str]:
    """Names of the deviations whose prediction `actual` equals bit for bit."""
    found = []
    for deviation in DEVIATIONS.values():
        if deviation.operator != desc.operator:
            continue
        predicted = deviation.predict(desc, inputs)
        if predicted is not None and compare_outputs(predicted, list(actual)).equal:
            found.append(deviation.name)
    return found

"""DML_GATHER (GATHER.*) and DML_GATHER_ELEMENTS (GELEM.*): the index body both share (negative from the end, out of
range open), GATHER.5's right-aligned sizes, the fast paths against the literal ones on drawn cases, which elements
are open, and the drawn-from-input judgement (conformance/judging/drawn.py) on outputs made by hand."""

from __future__ import annotations

import numpy as np
import pytest

import oracle
from conformance.cases.generation import operators
from conformance.cases.generation.common import RngChooser, choose_config
from conformance.judging.drawn import bounded, values_outside_input
from oracle import DataType, TensorDesc, indices
from oracle.op_gather import output_sizes

T = TensorDesc.of


@pytest.mark.parametrize(
    ("data_type", "values", "n", "positions", "bad"),
    [
        ("INT32", [-1, -3, 0, 2, 3, -4], 3, [2, 0, 0, 2, 2, 0], [False, False, False, False, True, True]),
        ("UINT32", [0, 2, 3, 2**32 - 1], 3, [0, 2, 2, 2], [False, False, True, True]),
        ("UINT64", [2**32 + 1, 2**63, 1], 4, [3, 3, 1], [True, True, False]),
        ("INT64", [-(2**63), 2**63 - 1, -4], 4, [0, 3, 0], [True, True, False]),
    ],
)
def test_an_index_counts_from_the_end_when_negative_and_is_open_out_of_range(data_type, values, n, positions, bad):
    """GATHER.3/GELEM.3 by hand; out of range shown clamped (U-GATHER-1): `resolve` and `position` agree."""
    dt = DataType[data_type]
    x = np.asarray(values, dtype=object).astype(dt.numpy)
    pos, out = indices.resolve(x, dt, n)
    assert pos.tolist() == positions and out.tolist() == bad
    assert [indices.position(int(v), dt, n) for v in x] == list(zip(positions, bad))


def test_gather_sizes_are_right_aligned() -> None:
    """GATHER.5 (E-GATHER-2's reading): leading ones cropped, or added for IndexDimensions 0; otherwise no fit."""
    assert output_sizes((1, 3, 3), (1, 1, 2), 2, 2) == (3, 1, 2)  # example 4
    assert output_sizes((3, 4), (1, 1), 0, 0) == (1, 4)
    assert output_sizes((3, 2), (1, 2), 1, 2) is None  # example 3 as printed (E-GATHER-1)


@pytest.mark.parametrize("operator", ["GATHER", "GATHER_ELEMENTS"])
def test_fast_equals_literal_on_drawn_cases(operator: str) -> None:
    """Drawn descriptors and indices (negative and out of range among them): both paths bit for bit, and the open
    elements exactly those whose index is out of range."""
    ch = RngChooser(np.random.Generator(np.random.PCG64(32)))
    opened = 0
    for _ in range(60):
        spec = operators.build_valid(ch, choose_config(ch, operator))
        fast = oracle.compute(spec.descriptor, spec.inputs, feature_level=spec.feature_level)
        literal = oracle.compute(spec.descriptor, spec.inputs, feature_level=spec.feature_level, literal=True)
        assert fast[0].tobytes() == literal[0].tobytes()
        mask = oracle.unspecified_mask(spec.descriptor, spec.inputs)[0]
        assert mask.shape == spec.descriptor.output_tensor.sizes
        opened += int(mask.any())
    assert opened  # some draws are out of range


def _gather_out_of_range():
    desc = oracle.gather_desc(T("FLOAT32", (2, 4)), (1, 3), 1, 1)
    x = np.arange(1, 9, dtype=np.float32).reshape(2, 4)
    idx = np.asarray([[1, 9, 2]], dtype=np.uint32)
    return desc, x, idx


def test_an_out_of_range_element_must_be_one_of_the_input_buffers_values() -> None:
    """U-GATHER-1 asks for the judgement, U-GELEM-1 does not; any input value passes, a value from elsewhere
    (0.0, not in the input) fails, naming the element."""
    assert bounded(["U-GATHER-1"]) and not bounded(["U-GELEM-1"])
    desc, x, idx = _gather_out_of_range()
    mask = oracle.unspecified_mask(desc, [x, idx])
    assert mask[0][:, 1].all() and mask[0].sum() == 2
    y = oracle.compute(desc, [x, idx])[0].copy()
    y[:, 1] = [8.0, 5.0]  # another row's element: inside the input's memory
    assert values_outside_input(x, desc.input_tensor, [y], mask) == []
    y[1, 1] = 0.0
    (problem,) = values_outside_input(x, desc.input_tensor, [y], mask)
    assert "1 element(s)" in problem and "[1,1] = 0x00000000" in problem


def test_a_strided_inputs_gaps_count_as_its_buffers_values() -> None:
    """Read clamped within the input's memory may land between its elements: the fill there is the buffer's."""
    desc, x, idx = _gather_out_of_range()
    strided = TensorDesc(DataType.FLOAT32, (2, 4), strides=(8, 1))
    gap = oracle.layout.pack(x, strided)[16:20].view(np.float32)[0]  # element 4: a gap of row 0
    y = oracle.compute(desc, [x, idx])[0].copy()
    y[0, 1] = gap
    mask = oracle.unspecified_mask(desc, [x, idx])
    assert values_outside_input(x, strided, [y], mask) == []
    assert values_outside_input(x, desc.input_tensor, [y], mask) != []

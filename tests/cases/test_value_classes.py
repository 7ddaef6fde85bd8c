"""Every value class of every operator's parameters reaches the quick profile in every data type (issue 29, 4).

The grid is computed by classifying what each selected case holds (conformance.cases.value_classes),
not from the tables that built the reach set (conformance.cases.generation.value_reach): a row that
stops holding its class, or a classifier that stops seeing it, leaves a cell empty and fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

import oracle
from conformance.cases.generation.reach import reach_cases
from conformance.cases.value_classes import CLASSES, NOT_APPLICABLE, classify, grid
from conformance.run.config import RunConfig
from conformance.run.selection import select
from oracle import DataType, PaddingMode, TensorDesc
from oracle.padding_value import float32_from_bits


@pytest.fixture(scope="module")
def quick() -> list:
    return select(RunConfig(profile="quick", hypothesis_examples=0)).cases


def test_the_quick_profiles_value_class_grid_is_full(quick):
    result = grid(quick)
    assert set(result.cells) == set(oracle.OPERATORS)
    assert result.empty() == [], result.render()


@pytest.mark.parametrize("operator", oracle.OPERATORS)
def test_the_reach_set_alone_fills_each_operators_grid(operator):
    """By construction, not by chance: without any generated or stored case the cells are all held."""
    assert grid(reach_cases(), [operator]).empty() == []


def test_an_empty_selection_leaves_every_applicable_cell_empty():
    result = grid([], ["PADDING1"])
    assert len(result.empty()) == result.applicable() > 0
    assert result.cells["PADDING1"]["value -0.0"][DataType.INT8] == NOT_APPLICABLE
    assert result.cells["PADDING1"]["value -0.0"][DataType.FLOAT16] == 0


def _padding(dt: DataType, value, mode=PaddingMode.CONSTANT, start=(1,), end=(0,), sizes=(2,)):
    return oracle.padding_desc(TensorDesc(dt, sizes), mode, start, end, value)


@pytest.mark.parametrize(
    ("data_type", "value", "expected"),
    [
        (DataType.FLOAT16, -0.0, {"value -0.0"}),
        (DataType.INT8, -2.5, {"value negative", "value fractional"}),
        (DataType.INT8, 127.9, {"value fractional"}),  # truncated: 127, inside the range, not its max
        (DataType.INT8, 128.0, {"value above the type's max"}),
        (DataType.INT8, -128.0, {"value negative", "value the type's min"}),
        (DataType.UINT8, -1.0, {"value negative", "value below the type's min"}),
        (DataType.UINT8, 0.0, {"value 0", "value the type's min"}),
        (DataType.INT32, 2147483520.0, {"value the type's max"}),  # the largest float32 inside INT32
        (DataType.INT32, 2147483648.0, {"value above the type's max"}),
        (DataType.FLOAT64, float(np.finfo(np.float32).max), {"value the type's max"}),
        (DataType.FLOAT32, float("-inf"), {"value -inf"}),
        (DataType.FLOAT16, float32_from_bits(0x7F800001), {"value signalling NaN"}),
        (DataType.FLOAT16, float32_from_bits(0x7FC00001), {"value quiet NaN payload"}),
        (DataType.FLOAT16, float32_from_bits(0x7FC00000), set()),  # the canonical quiet NaN: no payload
    ],
)
def test_a_padding_value_is_classified_by_what_it_is_in_the_data_type(data_type, value, expected):
    found = classify(_padding(data_type, value))
    assert {c for c in found if c.startswith("value")} == expected


def test_padding1_values_are_compared_exactly_even_past_2_to_the_53():
    desc = oracle.padding1_desc(TensorDesc(DataType.UINT64, (2,)), "CONSTANT", (1,), (0,), np.uint64(2**64 - 1))
    assert "value the type's max" in classify(desc)
    below = oracle.padding1_desc(TensorDesc(DataType.UINT64, (2,)), "CONSTANT", (1,), (0,), np.uint64(2**64 - 2))
    assert "value the type's max" not in classify(below)
    half = oracle.padding1_desc(
        TensorDesc(DataType.FLOAT16, (2,)), "CONSTANT", (1,), (0,), np.array(0x7C01, np.uint16).view(np.float16)[()]
    )
    assert "value signalling NaN" in classify(half)


def test_a_value_that_no_element_takes_is_not_held():
    """EDGE never writes PaddingValue; CONSTANT without padding writes nothing: neither holds the value's class."""
    assert not {c for c in classify(_padding(DataType.FLOAT16, -0.0, PaddingMode.EDGE)) if c.startswith("value")}
    unpadded = classify(_padding(DataType.FLOAT16, -0.0, start=(0,), end=(0,)))
    assert not {c for c in unpadded if c.startswith("value")}


def test_geometry_classes_are_read_per_axis():
    desc = oracle.padding_desc(TensorDesc(DataType.INT8, (2, 2)), "REFLECTION", (0, 5), (2, 1))
    assert classify(desc) == {
        "mode REFLECTION",
        "REFLECTION padding past the axis",
        "start padding 0",
        "start padding past the axis",
        "end padding = size",
        "end padding inside",
    }
    s1 = oracle.slice1_desc(TensorDesc(DataType.UINT16, (5, 4, 3)), (4, 0, 1), (1, 4, 2), (-1, -3, 2), (1, 1, 1))
    assert classify(s1) == {
        "offset last element",
        "offset 0",
        "offset interior",
        "window 1",
        "window full axis",
        "window partial",
        "stride -1",
        "stride < -1",
        "stride > 1",
        "|stride| >= window",
        "output < MaxCopiedElements",  # 1 of the 2 that window 4, stride -3 gives
        "output = MaxCopiedElements",  # 1 of the 1 that window 2, stride 2 gives
    }
    join = oracle.join_desc([TensorDesc(DataType.UINT32, (2, n, 3)) for n in (1, 3, 1)], 1)
    assert classify(join) == {"axis middle", "inputs many (3+)", "piece of size 1", "pieces uneven"}


def test_every_class_name_a_classifier_reports_is_in_the_table():
    names = {op: {c.name for c in classes} for op, classes in CLASSES.items()}
    for case in reach_cases():
        assert classify(case.descriptor) <= names[case.operator], case.id


def test_the_reach_cases_of_open_classes_are_observed_with_their_erratum():
    by_id = {c.id: c for c in reach_cases()}
    assert "U-PAD-1" in by_id["PADDING-reach-value-above-max-INT8"].unspecified
    assert "U-SLICE-1" in by_id["SLICE-reach-stride-0-UINT16"].unspecified
    assert by_id["PADDING1-reach-value-signalling-nan-FLOAT16"].unspecified == ()

"""The strategies: valid cases validate at their level and compute; invalid ones break exactly their clause.

Run with ``pytest tests/cases/test_strategies.py --hypothesis-show-statistics`` to see the
rejection rate (zero with the defaults) and how often each corner is reached (events).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

import oracle
from conformance.cases import values
from conformance.cases.generation import operators
from conformance.cases.generation.common import RngChooser, choose_config, first_tensor
from conformance.cases.generation.operators import INVALID_FAMILIES, corners
from conformance.cases.strategies import invalid_cases, valid_cases
from oracle import InvalidDescriptor, PaddingMode
from oracle.registry import SUPPORT, min_feature_level, support_row


def _check_valid(case) -> None:
    __tracebackhide__ = True
    oracle.validate(case.descriptor, case.feature_level)  # raises InvalidDescriptor if not valid
    d = case.descriptor
    first = first_tensor(d)  # the output for an operator with no input (FILL_*, DIAGONAL_MATRIX*)
    row = support_row(case.operator, case.feature_level)
    assert first.data_type in row.data_types and first.dimension_count in row.ranks
    assert case.feature_level >= min_feature_level(case.operator, first.data_type, first.dimension_count)
    assert len(case.inputs) == len(d.input_tensors)  # one per input tensor desc: JOIN's several
    for x, t in zip(case.inputs, d.input_tensors):
        assert x.shape == t.sizes and x.size <= values.MAX_ELEMENTS
    for out in d.output_tensors:
        assert math.prod(out.sizes) <= values.MAX_ELEMENTS


@pytest.mark.parametrize("operator", oracle.OPERATORS)
@given(data=st.data())
def test_valid_cases_are_valid_at_their_feature_level(operator, data):
    case = data.draw(valid_cases(operator), label="case")
    _check_valid(case)


@pytest.mark.parametrize("operator", oracle.OPERATORS)
@given(data=st.data())
def test_invalid_cases_break_exactly_their_clause(operator, data):
    case = data.draw(invalid_cases(operator), label="case")
    with pytest.raises(InvalidDescriptor) as info:
        oracle.validate(case.descriptor, case.feature_level)
    assert info.value.clause == case.clause, f"{case.family}: {info.value}"


@given(case=valid_cases("PADDING", padding_mode="REFLECTION", rank=st.integers(1, 3), feature_level="3.1"))
def test_parameters_take_values_and_strategies(case):
    d = case.descriptor
    assert d.padding_mode is PaddingMode.REFLECTION
    assert 1 <= d.dimension_count <= 3
    assert str(case.feature_level) == "3.1"
    _check_valid(case)


@given(case=valid_cases("SLICE1", data_type="FLOAT64"))
def test_a_data_type_alone_picks_a_level_that_supports_it(case):
    assert case.feature_level >= min_feature_level(
        "SLICE1", case.descriptor.input_tensor.data_type, case.descriptor.dimension_count
    )


def test_bad_arguments_fail_early():
    with pytest.raises(InvalidArgument, match="rank"):
        valid_cases("SLICE", rank=9)
    with pytest.raises(InvalidArgument, match="operator"):
        valid_cases("CONV")
    with pytest.raises(InvalidArgument, match="clause"):
        invalid_cases("SLICE", clause="PAD.3")


@settings(max_examples=200)
@given(data=st.data())
def test_the_corpus_chooser_builds_the_same_kinds_of_case(data):
    """The generator's RngChooser drives the same builders; every family and config is valid there too."""
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    ch = RngChooser(np.random.Generator(np.random.PCG64(seed)))
    for op in oracle.OPERATORS:
        case = operators.build_valid(ch, choose_config(ch, op))
        _check_valid(case)
        family = ch.choice(INVALID_FAMILIES[op])
        bad = operators.build_invalid(ch, op, family)
        with pytest.raises(InvalidDescriptor) as info:
            oracle.validate(bad.descriptor, bad.feature_level)
        assert info.value.clause == family.clause


NO_COMMON_1 = ("CAST", "FILL_VALUE_CONSTANT", "FILL_VALUE_SEQUENCE", "DIAGONAL_MATRIX")


def test_every_family_is_reachable_and_each_support_clause_has_one():
    for op, families in INVALID_FAMILIES.items():
        clauses = {f.clause for f in families}
        # COMMON.1 (one data type) does not apply to DML_CAST, whose types differ by design (CAST.2, CAST.3), nor to
        # an operator with no input tensor to differ from its output (the fills, DML_DIAGONAL_MATRIX).
        assert ({"COMMON.2"} if op in NO_COMMON_1 else {"COMMON.1", "COMMON.2"}) <= clauses
        assert len(SUPPORT[op]) == 1 or any(f.name == "data type unsupported at level" for f in families)


# --- corners: each one of issue 3's list is reached by the generator's chooser ----------------

CORNERS = {
    "SLICE": ["size-1 dimension", "stride larger than the window", "8-D"],
    "SLICE1": [
        "size-1 dimension",
        "stride larger than the window",
        "negative strides on several axes",
        "output smaller than MaxCopiedElements",
        "8-D",
    ],
    "PADDING": [
        "padding 0",
        "padding equal to the size",
        "padding many times the size",
        "REFLECTION on size 1 (U-PAD-4)",
        "8-D",
    ],
    "SPLIT": ["SPLIT into one output", "SPLIT into size-1 pieces", "8-D"],
}
CORNERS["PADDING1"] = CORNERS["PADDING"]  # the same geometry (conformance/cases/generation/padding1.py)
CORNERS["JOIN"] = ["JOIN of one input", "JOIN of size-1 pieces", "8-D"]
CORNERS["ELEMENT_WISE_IDENTITY"] = ["ScaleBias", "8-D", "size-1 dimension"]
CORNERS["TILE"] = ["TILE of repeats 1 (a copy)", "TILE of a size-1 axis (a broadcast)", "8-D"]
# issue 31, the depth-space family (conformance/cases/generation/blocks.py); rank 4 only: no 8-D
CORNERS["DEPTH_TO_SPACE"] = ["size-1 dimension", "BlockSize 1 (a copy)", "BlockSize 3 or more", "batch of several"]
CORNERS["DEPTH_TO_SPACE1"] = [*CORNERS["DEPTH_TO_SPACE"], "order COLUMN_ROW_DEPTH"]
CORNERS["SPACE_TO_DEPTH"], CORNERS["SPACE_TO_DEPTH1"] = CORNERS["DEPTH_TO_SPACE"], CORNERS["DEPTH_TO_SPACE1"]
CORNERS["SLICE_GRAD"] = [
    "size-1 dimension",
    "zeros between the written elements (|stride| > 1)",
    "negative strides on several axes",
    "input gradient smaller than MaxCopiedElements",
    "every element written (a plain or reversed copy)",
    "8-D",
]
CORNERS["REVERSE_SUBSEQUENCES"] = [
    "size-1 dimension",
    "axis 0 (the outermost)",
    "last axis",
    "axis of size 1",
    "UINT64 lengths",
    "8-D",
]
CORNERS["CAST"] = ["CAST to the same type", "CAST float to integer", "8-D"]
CORNERS["ONE_HOT"] = [
    "size-1 dimension",
    "axis 0 (the outermost)",
    "last axis",
    "axis of size 1",
    "UINT64 indices",
    "INT32 indices",
    "values past two elements",
    "8-D",
]
# issue 32
CORNERS["GATHER"] = [
    "last axis",
    "IndexDimensions 0 (a scalar index)",
    "IndexDimensions past 1 (leading ones cropped)",
    "INT64 indices",
    "8-D",
]
CORNERS["GATHER_ELEMENTS"] = ["last axis", "indices' size along Axis not the input's", "UINT64 indices", "8-D"]
# issue 32, the scatter pair (conformance/cases/generation/scatter.py, scatter_nd.py)
CORNERS["SCATTER"] = [
    "axis 0 (the outermost)",
    "last axis",
    "more updates per line than targets",
    "INT64 indices",
    "UINT64 indices",
    "8-D",
]
CORNERS["SCATTER_ND"] = [
    "tuples address single elements",
    "ignored leading input dimensions",
    "INT32 indices",
    "UINT64 indices",
    "8-D",
]

# issue 32, the gather-nd pair (conformance/cases/generation/gather_nd.py); only DML_GATHER_ND1 has batches
CORNERS["GATHER_ND"] = [
    "size-1 dimension",
    "tuples index single elements",
    "leading ones ignored",
    "64-bit indices",
    "8-D",
]
CORNERS["GATHER_ND1"] = [*CORNERS["GATHER_ND"], "batches"]
# issue 32, the fills (no input tensor: the corners are the output's and the values')
CORNERS["FILL_VALUE_CONSTANT"] = ["size-1 dimension", "FILL of zero", "FILL of a NaN", "8-D"]
CORNERS["FILL_VALUE_SEQUENCE"] = ["size-1 dimension", "FILL sequence wraps", "FILL sequence of step 0", "8-D"]
# issue 32, the diagonal pair: ranks 2 to 4 only, no 8-D
CORNERS["DIAGONAL_MATRIX"] = [
    "size-1 dimension",
    "DIAGONAL of a non-square matrix",
    "DIAGONAL off the matrix (all zeros)",
]
CORNERS["DIAGONAL_MATRIX1"] = [
    "size-1 dimension",
    "DIAGONAL_MATRIX1 with an input",
    "DIAGONAL_MATRIX1 without input",
    "DIAGONAL_MATRIX1 band inverted",
]


@pytest.mark.parametrize("operator", oracle.OPERATORS)
def test_every_corner_is_reached_in_a_few_hundred_draws(operator):
    ch = RngChooser(np.random.Generator(np.random.PCG64(0)))
    seen: dict[str, int] = {}
    for _ in range(400):
        for c in corners(operators.build_valid(ch, choose_config(ch, operator)).descriptor):
            seen[c] = seen.get(c, 0) + 1
    missing = [c for c in CORNERS[operator] if c not in seen]
    assert not missing, f"{operator}: corners never reached in 400 draws: {missing}; reached {seen}"


def test_corners_recognise_hand_built_descriptors():
    t = oracle.TensorDesc.of
    d = oracle.PaddingDesc(t("FLOAT32", [1, 3]), t("FLOAT32", [3, 9]), "REFLECTION", 0.0, [1, 3], [1, 3])
    assert {"REFLECTION on size 1 (U-PAD-4)", "padding equal to the size", "size-1 dimension"} <= set(corners(d))
    s = oracle.SplitDesc(t("INT8", [3]), [t("INT8", [1])] * 3, 0)
    assert "SPLIT into size-1 pieces" in corners(s)
    assert "SPLIT into one output" not in corners(s)


# --- shrinking: failures come out small and readable ------------------------------------------


def _minimal(strategy, condition):
    return find(strategy, condition, settings=settings(database=None, max_examples=300))


def test_shrinks_to_the_smallest_readable_case():
    case = _minimal(valid_cases("PADDING"), lambda c: True)
    d = case.descriptor
    assert (d.input_tensor.sizes, d.padding_mode, d.start_padding, d.end_padding) == (
        (1,),
        PaddingMode.CONSTANT,
        (0,),
        (0,),
    )
    assert d.input_tensor.data_type.value == "FLOAT32" and case.inputs[0].tolist() == [1.0]
    assert str(case.feature_level) == "3.1"  # the oldest level with rank 1 for PADDING (U-ALL-1: not 3.0)


def test_shrinks_a_corner_to_its_essentials():
    case = _minimal(valid_cases("SLICE1"), lambda c: sum(s < 0 for s in c.descriptor.window_strides) >= 2)
    assert case.descriptor.window_strides == (-1, -1) and case.descriptor.input_tensor.sizes == (1, 1)
    split = _minimal(valid_cases("SPLIT"), lambda c: c.descriptor.output_count >= 3)
    assert split.descriptor.output_sizes == (1, 1, 1) and split.inputs[0].tolist() == [1.0, 2.0, 3.0]


@given(case=valid_cases(max_elements=8))
def test_max_elements_caps_every_tensor(case):
    d = case.descriptor
    assert all(math.prod(t.sizes) <= 8 for t in (*d.input_tensors, *d.output_tensors))

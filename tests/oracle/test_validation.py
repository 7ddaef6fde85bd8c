"""Every invalid-descriptor rule of oracle/op_*.py and oracle/checks.py, triggered on purpose.

Each test asserts the exact clause id and that the message names the field and its value
(STYLE: "Never a message without values").  Descriptors start from the pages' worked
examples, so each test changes exactly one thing in a known-valid descriptor.
"""

from __future__ import annotations

import dataclasses

import pytest

import oracle
from oracle import (
    FeatureLevel,
    InvalidDescriptor,
    PaddingDesc,
    Slice1Desc,
    SliceDesc,
    SplitDesc,
    TensorDesc,
)
from oracle.registry import SUPPORT
from oracle.tables import UINT_MAX, SupportRow


def T(sizes: list[int] | tuple[int, ...], data_type: str = "FLOAT32") -> TensorDesc:
    return TensorDesc.of(data_type, sizes)


# The worked examples' descriptors (seeds 000-004), valid at the newest level.
SLICE_EX2 = SliceDesc(T([1, 1, 4, 4]), T([1, 1, 2, 2]), (0, 0, 1, 0), (1, 1, 2, 2), (1, 1, 2, 3))
SLICE1_EX2 = Slice1Desc(T([1, 1, 4, 4]), T([1, 1, 2, 2]), (0, 0, 0, 1), (1, 1, 4, 3), (1, 1, -2, 2))
PAD_EX = PaddingDesc(T([1, 1, 4, 4]), T([1, 1, 8, 10]), "REFLECTION", 0.0, (0, 0, 1, 2), (0, 0, 3, 4))
SPLIT_EX1 = SplitDesc(T([1, 1, 6, 2]), (T([1, 1, 2, 2]), T([1, 1, 1, 2]), T([1, 1, 3, 2])), 2)


def rejects(desc, clause: str, *fragments: str, level: str | None = None) -> InvalidDescriptor:
    """Assert `desc` is invalid for `clause`, with every fragment (field=value) in the message."""
    __tracebackhide__ = True
    with pytest.raises(InvalidDescriptor) as info:
        oracle.validate(desc, level)
    error = info.value
    assert error.clause == clause, f"expected [{clause}], got: {error}"
    assert str(error).endswith(f"[{clause}]")
    for fragment in fragments:
        assert fragment in str(error), f"{fragment!r} not in message: {error}"
    return error


def replace(desc, **changes):
    return dataclasses.replace(desc, **changes)


def test_examples_are_valid() -> None:
    for desc in (SLICE_EX2, SLICE1_EX2, PAD_EX, SPLIT_EX1):
        oracle.validate(desc)


# --- SLICE ---------------------------------------------------------------------------------


def test_slice_sizes_must_equal_output() -> None:
    rejects(replace(SLICE_EX2, sizes=(1, 1, 1, 2)), "SLICE.3", "sizes[2]=1", "output_tensor.sizes[2]=2")


def test_slice_out_of_bounds() -> None:
    rejects(
        replace(SLICE_EX2, offsets=(0, 0, 1, 1)), "SLICE.4", "offsets[3]", "1 + 3 * 1 = 4", "input_tensor.sizes[3]=4"
    )


def test_slice_exact_bound_is_valid() -> None:
    """Offsets + Strides * (Sizes - 1) == InputSize - 1 is allowed (example 2 reads column 3 of 4)."""
    assert SLICE_EX2.offsets[3] + SLICE_EX2.strides[3] * (SLICE_EX2.sizes[3] - 1) == 4 - 1
    oracle.validate(SLICE_EX2, "1.0")
    # Offsets + Strides * Sizes = 6 > 4: the bound is not on that (SLICE.4).
    assert SLICE_EX2.offsets[3] + SLICE_EX2.strides[3] * SLICE_EX2.sizes[3] > 4


def test_slice_uint_fields() -> None:
    rejects(replace(SLICE_EX2, offsets=(0, 0, 1, -1)), "SLICE.2", "offsets[3]=-1")
    rejects(replace(SLICE_EX2, strides=(1, 1, 2, UINT_MAX + 1)), "SLICE.2", f"strides[3]={UINT_MAX + 1}")
    rejects(replace(SLICE_EX2, sizes=(1, 1, 2, -2)), "SLICE.2", "sizes[3]=-2")


def test_slice_array_lengths() -> None:
    rejects(replace(SLICE_EX2, strides=(1, 1, 2)), "SLICE.5", "strides has 3 entries", "DimensionCount=4")
    rejects(replace(SLICE_EX2, dimension_count=5), "SLICE.5", "DimensionCount=5", "input_tensor has 4")


def test_slice_zero_size_is_common2() -> None:
    """U-SLICE-2: Sizes 0 (and the output's 0) break COMMON.2."""
    rejects(
        replace(SLICE_EX2, sizes=(1, 1, 0, 2), output_tensor=T([1, 1, 0, 2])), "COMMON.2", "output_tensor.sizes[2]=0"
    )
    rejects(
        replace(SLICE_EX2, input_tensor=T([1, 1, 4, UINT_MAX + 1])), "COMMON.2", f"input_tensor.sizes[3]={UINT_MAX + 1}"
    )


def test_slice_stride_zero_is_valid_and_unspecified() -> None:
    """U-SLICE-1: accepted, and reported as unspecified so it is observed, not judged."""
    desc = replace(SLICE_EX2, strides=(1, 1, 0, 3))
    oracle.validate(desc)
    assert oracle.unspecified(desc) == ["U-SLICE-1"]
    assert oracle.unspecified(SLICE_EX2) == []


# --- SLICE1 --------------------------------------------------------------------------------


def test_slice1_example_2_negative_stride_is_valid() -> None:
    """E-SLICE1-3: 1 + (4 - 1) / -2 with signed division would forbid output size 2; |stride| allows it."""
    oracle.validate(SLICE1_EX2, "2.1")
    assert oracle.op_slice1.max_copied_elements(4, -2) == 2


def test_slice1_output_over_max_copied_elements() -> None:
    desc = replace(SLICE1_EX2, output_tensor=T([1, 1, 3, 2]))
    rejects(desc, "SLICE1.4", "output_tensor.sizes[2]=3", "1 + (4 - 1) / |-2| = 2")


def test_slice1_output_at_max_is_valid_and_below_too() -> None:
    oracle.validate(replace(SLICE1_EX2, output_tensor=T([1, 1, 1, 1])))
    oracle.validate(replace(SLICE1_EX2, window_strides=(1, 1, -1, 1), output_tensor=T([1, 1, 4, 3])))
    rejects(replace(SLICE1_EX2, window_strides=(1, 1, -1, 1), output_tensor=T([1, 1, 5, 3])), "SLICE1.4")


def test_slice1_window_past_input() -> None:
    rejects(
        replace(SLICE1_EX2, window_offsets=(0, 0, 1, 1)),
        "SLICE1.3",
        "window_offsets[2] + window_sizes[2] = 1 + 4 = 5",
        "input_tensor.sizes[2]=4",
    )


def test_slice1_empty_window() -> None:
    rejects(replace(SLICE1_EX2, window_sizes=(1, 1, 0, 3)), "SLICE1.3", "window_sizes[2]=0")


def test_slice1_zero_stride() -> None:
    rejects(replace(SLICE1_EX2, window_strides=(1, 1, 0, 2)), "SLICE1.5", "window_strides[2]=0")


def test_slice1_uint_and_int_ranges() -> None:
    rejects(replace(SLICE1_EX2, window_offsets=(0, 0, -1, 1)), "SLICE1.3", "window_offsets[2]=-1")
    rejects(replace(SLICE1_EX2, window_sizes=(1, 1, UINT_MAX + 1, 3)), "SLICE1.3", f"window_sizes[2]={UINT_MAX + 1}")
    rejects(
        replace(SLICE1_EX2, window_strides=(1, 1, -(2**31) - 1, 2)), "SLICE1.5", f"window_strides[2]={-(2**31) - 1}"
    )
    rejects(replace(SLICE1_EX2, window_strides=(1, 1, 2**31, 2)), "SLICE1.5", f"window_strides[2]={2**31}")


def test_slice1_array_lengths() -> None:
    rejects(replace(SLICE1_EX2, window_sizes=(1, 4, 3)), "SLICE1.6", "window_sizes has 3 entries")
    rejects(replace(SLICE1_EX2, dimension_count=3), "SLICE1.6", "DimensionCount=3")


def test_slice1_before_feature_level_2_1() -> None:
    rejects(SLICE1_EX2, "SLICE1.8", "DML_FEATURE_LEVEL_2_1", "feature_level=2.0", level="2.0")
    rejects(SLICE1_EX2, "SLICE1.8", level="1.0")


# --- PADDING -------------------------------------------------------------------------------


def test_padding_output_size() -> None:
    rejects(replace(PAD_EX, output_tensor=T([1, 1, 8, 9])), "PAD.2", "output_tensor.sizes[3]=9", "4 + 2 + 4 = 10")


def test_padding_uint_fields() -> None:
    rejects(replace(PAD_EX, start_padding=(0, 0, -1, 2)), "PAD.2", "start_padding[2]=-1")
    rejects(replace(PAD_EX, end_padding=(0, 0, 3, UINT_MAX + 1)), "PAD.2", f"end_padding[3]={UINT_MAX + 1}")


def test_padding_array_lengths() -> None:
    rejects(replace(PAD_EX, start_padding=(0, 1, 2)), "PAD.5", "start_padding has 3 entries")
    rejects(replace(PAD_EX, end_padding=(0, 0, 0, 3, 4)), "PAD.5", "end_padding has 5 entries")
    rejects(replace(PAD_EX, dimension_count=5), "PAD.5", "DimensionCount=5")


def test_symmetric_before_feature_level_3_0() -> None:
    desc = replace(PAD_EX, padding_mode="SYMMETRIC")
    rejects(desc, "PAD.3", "padding_mode=SYMMETRIC", "DML_FEATURE_LEVEL_3_0", level="2.1")
    oracle.validate(desc, "3.0")
    oracle.validate(PAD_EX, "1.0")


def test_padding_rank_3_inherits_the_row_below() -> None:
    """U-ALL-1: FL 3.0 is between PADDING's 2.1 and 3.1 rows, so it still allows only 4-5 dims."""
    desc = PaddingDesc(T([4, 4, 4]), T([4, 5, 6]), "EDGE", 0.0, (0, 1, 1), (0, 0, 1))
    rejects(desc, "PAD.6", "DimensionCount=3", "4 or 5", level="3.0")
    oracle.validate(desc, "3.1")


def test_padding_reflection_larger_than_input_is_valid() -> None:
    """PAD.3: REFLECTION padding >= size is valid (periodic folding), no upper bound."""
    oracle.validate(PaddingDesc(T([1, 1, 1, 3]), T([1, 1, 1, 3 + 40]), "REFLECTION", 0.0, (0, 0, 0, 20), (0, 0, 0, 20)))


# --- SPLIT ---------------------------------------------------------------------------------


def test_split_sum() -> None:
    desc = replace(SPLIT_EX1, output_tensors=(T([1, 1, 2, 2]), T([1, 1, 1, 2]), T([1, 1, 2, 2])))
    rejects(desc, "SPLIT.3", "2 + 1 + 2 = 5", "input_tensor.sizes[2]=6")
    desc = replace(SPLIT_EX1, output_tensors=(T([1, 1, 4, 2]), T([1, 1, 3, 2])), output_count=2)
    rejects(desc, "SPLIT.3", "4 + 3 = 7")


def test_split_other_dims_must_match() -> None:
    desc = replace(SPLIT_EX1, output_tensors=(T([1, 1, 2, 2]), T([1, 1, 1, 1]), T([1, 1, 3, 2])))
    rejects(desc, "SPLIT.2", "output_tensors[1].sizes[3]=1", "input_tensor.sizes[3]=2")


def test_split_output_rank() -> None:
    desc = replace(SPLIT_EX1, output_tensors=(T([1, 1, 2, 2]), T([1, 1, 1, 2, 1]), T([1, 1, 3, 2])))
    rejects(desc, "SPLIT.2", "output_tensors[1] has DimensionCount=5")


@pytest.mark.parametrize("axis", [-1, 4, 5, UINT_MAX + 1])
def test_split_axis_range(axis: int) -> None:
    rejects(replace(SPLIT_EX1, axis=axis), "SPLIT.5", f"axis={axis}", "[0, 3]")


def test_split_output_count() -> None:
    rejects(replace(SPLIT_EX1, output_tensors=(), output_count=0), "SPLIT.5", "output_count=0")
    rejects(replace(SPLIT_EX1, output_count=2), "SPLIT.5", "output_count=2", "output_tensors has 3 entries")
    rejects(replace(SPLIT_EX1, output_count=0), "SPLIT.5", "output_count=0")


def test_split_zero_size_output_is_common2() -> None:
    """U-SPLIT-1: an output of size 0 along Axis is invalid (COMMON.2)."""
    desc = replace(SPLIT_EX1, output_tensors=(T([1, 1, 6, 2]), T([1, 1, 0, 2])), output_count=2)
    rejects(desc, "COMMON.2", "output_tensors[1].sizes[2]=0")


def test_split_dtype_mismatch() -> None:
    desc = replace(SPLIT_EX1, output_tensors=(T([1, 1, 2, 2]), T([1, 1, 1, 2], "FLOAT16"), T([1, 1, 3, 2])))
    rejects(desc, "COMMON.1", "output_tensors[1].data_type=FLOAT16", "input_tensor.data_type=FLOAT32")


# --- COMMON --------------------------------------------------------------------------------


@pytest.mark.parametrize("desc", [SLICE_EX2, SLICE1_EX2, PAD_EX], ids=["SLICE", "SLICE1", "PADDING"])
def test_common1_dtype_mismatch(desc) -> None:
    out = replace(desc.output_tensor, data_type=oracle.DataType.INT32)
    rejects(replace(desc, output_tensor=out), "COMMON.1", "output_tensor.data_type=INT32", "FLOAT32")


@pytest.mark.parametrize("desc", [SLICE_EX2, SLICE1_EX2, PAD_EX], ids=["SLICE", "SLICE1", "PADDING"])
def test_common1_rank_mismatch(desc) -> None:
    out = T((*desc.output_tensor.sizes, 1))
    rejects(replace(desc, output_tensor=out), "COMMON.1", "output_tensor has DimensionCount=5", "input_tensor has 4")


@pytest.mark.parametrize(
    "desc", [SLICE_EX2, SLICE1_EX2, PAD_EX, SPLIT_EX1], ids=["SLICE", "SLICE1", "PADDING", "SPLIT"]
)
def test_common2_zero_input_size(desc) -> None:
    sizes = list(desc.input_tensor.sizes)
    sizes[0] = 0
    rejects(replace(desc, input_tensor=T(sizes)), "COMMON.2", "input_tensor.sizes[0]=0")


# --- support tables, every row, every level ------------------------------------------------


# The operators whose descriptor is made from one tensor desc (and its type): every tensor the same shape.
ONE_TENSOR_SHAPE = {
    "ELEMENT_WISE_IDENTITY": lambda t, dt: oracle.IdentityDesc(t, t),
    "CAST": lambda t, dt: oracle.CastDesc(t, t),
    # issue 32: the output only, Value 0 (and step 1) of its type
    "FILL_VALUE_CONSTANT": lambda t, dt: oracle.FillValueConstantDesc(t, dt, 0),
    "FILL_VALUE_SEQUENCE": lambda t, dt: oracle.FillValueSequenceDesc(t, dt, 0, 1),
    "DIAGONAL_MATRIX": lambda t, dt: oracle.DiagonalMatrixDesc(t, 0, 1.0),
    "DIAGONAL_MATRIX1": lambda t, dt: oracle.DiagonalMatrix1Desc(t, t, dt, 0, 0, 1),
}


def _gather_nd(operator: str, shape: tuple[int, ...], data_type: str):
    """UINT32 indices (in every row: GND.9), one tuple of every dimension."""
    rank, batches = len(shape), 0 if operator == "GATHER_ND1" else None
    return oracle.gather_nd_desc(T(shape, data_type), T((1,) * (rank - 1) + (rank,), "UINT32"), rank, 1, batches)


# One builder each (data type, rank) -> descriptor, for the operators added since (build's branches are many).
BUILDERS = {
    "CAST": lambda data_type, rank: oracle.CastDesc(T((2,) * rank, data_type), T((2,) * rank, data_type)),
    # UINT32 indices: in every row (ONEHOT.10)
    "ONE_HOT": lambda data_type, rank: oracle.one_hot_desc(
        T((2,) * (rank - 1) + (1,), "UINT32"), 2, rank - 1, data_type
    ),
    "GATHER_ND": lambda data_type, rank: _gather_nd("GATHER_ND", (2,) * rank, data_type),
    "GATHER_ND1": lambda data_type, rank: _gather_nd("GATHER_ND1", (2,) * rank, data_type),
}


# The descriptors built from the input's desc and rank alone (issue 31 and 32's).
SAME_SHAPE = {
    # UINT32 lengths: in every row (REVSEQ.8)
    "REVERSE_SUBSEQUENCES": lambda t, rank: oracle.reverse_subsequences_desc(t, rank - 1),
    "CAST": lambda t, rank: oracle.CastDesc(t, t),
    "TILE": lambda t, rank: oracle.tile_desc(t, (2,) * rank),
    # UINT32 indices: in every row (GATHER.9)
    "GATHER": lambda t, rank: oracle.gather_desc(t, (1,) * (rank - 1) + (3,), rank - 1, 1),
    "GATHER_ELEMENTS": lambda t, rank: oracle.gather_elements_desc(t, (*t.sizes[:-1], 3), rank - 1),
    "SCATTER": lambda t, rank: oracle.scatter_desc(t, t.sizes, rank - 1),  # UINT32 indices: every row (SCATTER.9)
    "SCATTER_ND": lambda t, rank: oracle.scatter_nd_desc(t, (1,) * rank, rank, 1),  # one 1-coordinate tuple
}


def build(operator: str, data_type: str, rank: int):
    """A small valid-shaped descriptor of this operator, data type and rank."""
    if operator in BUILDERS:
        return BUILDERS[operator](data_type, rank)
    shape = (2,) * rank
    if operator == "SLICE":
        return SliceDesc(T(shape, data_type), T((1,) * rank, data_type), (1,) * rank, (1,) * rank, (1,) * rank)
    if operator == "SLICE1":
        return Slice1Desc(T(shape, data_type), T((1,) * rank, data_type), (0,) * rank, (2,) * rank, (-2,) * rank)
    if operator == "PADDING":
        return PaddingDesc(T(shape, data_type), T((3,) * rank, data_type), "CONSTANT", 0.0, (1,) * rank, (0,) * rank)
    if operator == "PADDING1":
        return oracle.padding1_desc(T(shape, data_type), "CONSTANT", (1,) * rank, (0,) * rank)
    if operator in DEPTH_SPACE:  # issue 31: BlockSize 2 at rank 4; any other rank is refused by the table first
        depth, space = ((1, 4, 2, 2), (1, 1, 4, 4)) if rank == 4 else (shape, shape)
        sides = (space, depth) if operator.startswith("SPACE_TO_DEPTH") else (depth, space)
        return oracle.DESCRIPTOR_TYPES[operator](*(T(s, data_type) for s in sides), 2)
    if operator == "SLICE_GRAD":  # SLICE1's above, read backwards
        return oracle.SliceGradDesc(
            T((1,) * rank, data_type), T(shape, data_type), (0,) * rank, (2,) * rank, (-2,) * rank
        )
    part = T((1,) * rank, data_type) if rank == 1 else T((1, *shape[1:]), data_type)
    if operator == "JOIN":
        return oracle.join_desc((part, part), 0)
    if operator in ONE_TENSOR_SHAPE:
        return ONE_TENSOR_SHAPE[operator](T(shape, data_type), data_type)
    if operator in SAME_SHAPE:
        return SAME_SHAPE[operator](T(shape, data_type), rank)
    assert operator == "SPLIT", operator
    return SplitDesc(T(shape, data_type), (part, part), 0)


DIMENSION_CLAUSE = {
    "SLICE": "SLICE.5",
    "SLICE1": "SLICE1.6",
    "PADDING": "PAD.6",
    "SPLIT": "SPLIT.7",
    "PADDING1": "PAD1.6",
    "JOIN": "JOIN.7",
    "ELEMENT_WISE_IDENTITY": "IDENT.5",
    "TILE": "TILE.6",
    # issue 31, the depth-space family
    "SPACE_TO_DEPTH": "S2D.6",
    "SPACE_TO_DEPTH1": "S2D1.7",
    "DEPTH_TO_SPACE": "D2S.6",
    "DEPTH_TO_SPACE1": "D2S1.7",
    "SLICE_GRAD": "SGRAD.8",
    "REVERSE_SUBSEQUENCES": "REVSEQ.7",
    "SCATTER": "SCATTER.8",
    "SCATTER_ND": "SCATND.9",
    "CAST": "CAST.4",
    "FILL_VALUE_CONSTANT": "FILLC.4",
    "FILL_VALUE_SEQUENCE": "FILLS.5",
    "DIAGONAL_MATRIX": "DIAG.5",
    "DIAGONAL_MATRIX1": "DIAG1.6",
    # issue 32
    "GATHER_ND": "GND.8",
    "GATHER_ND1": "GND1.8",
    "ONE_HOT": "ONEHOT.9",
    # issue 32
    "GATHER": "GATHER.8",
    "GATHER_ELEMENTS": "GELEM.7",
}
DEPTH_SPACE = ("DEPTH_TO_SPACE", "DEPTH_TO_SPACE1", "SPACE_TO_DEPTH", "SPACE_TO_DEPTH1")
TABLE_CLAUSE = {**DIMENSION_CLAUSE, "SLICE": "SLICE.7", "SLICE1": "SLICE1.8"}


def _levels_of_row(operator: str, index: int) -> list[FeatureLevel]:
    """The row's own level and every level up to (not including) the next newer row (U-ALL-1)."""
    rows = SUPPORT[operator]
    row = rows[index]
    newer = rows[index - 1].level if index > 0 else None
    return [lv for lv in FeatureLevel if row.level <= lv and (newer is None or lv < newer)]


ROWS = [(op, i, row) for op, rows in SUPPORT.items() for i, row in enumerate(rows)]


@pytest.mark.parametrize(("operator", "index", "row"), ROWS, ids=[f"{op}-FL{row.level}" for op, _, row in ROWS])
def test_support_row(operator: str, index: int, row: SupportRow) -> None:
    for level in _levels_of_row(operator, index):
        for data_type in oracle.ALL_DATA_TYPES:
            for rank in range(1, 9):
                desc = build(operator, data_type.value, rank)
                if rank not in row.ranks:
                    rejects(desc, DIMENSION_CLAUSE[operator], f"DimensionCount={rank}", level=str(level))
                elif data_type not in row.data_types:
                    rejects(desc, TABLE_CLAUSE[operator], f"data_type={data_type.value}", level=str(level))
                else:
                    oracle.validate(desc, level)


def test_introduction_levels() -> None:
    """SLICE, PADDING and SPLIT exist from FL 1.0 (the oldest level); SLICE1 from FL 2.1 (SLICE1.8)."""
    assert min(FeatureLevel) is FeatureLevel.FL_1_0
    for operator in ("SLICE", "PADDING", "SPLIT"):
        assert SUPPORT[operator][-1].level is FeatureLevel.FL_1_0
        oracle.validate(build(operator, "FLOAT32", 4), "1.0")
    for level in (FeatureLevel.FL_1_0, FeatureLevel.FL_2_0):
        rejects(build("SLICE1", "FLOAT32", 4), "SLICE1.8", f"feature_level={level}", level=str(level))
    oracle.validate(build("SLICE_GRAD", "FLOAT32", 5), "3.0")  # E-SGRAD-2: the page's 4 to 5 at FL 3.0
    rejects(build("SLICE_GRAD", "FLOAT32", 4), "SGRAD.8", "feature_level=2.1", level="2.1")


# --- feature-level parsing -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["3.1", "3_1", "DML_FEATURE_LEVEL_3_1", "dml_feature_level_3_1", "FL 3.1", "FL_3_1", " 3.1 "]
)
def test_feature_level_parse(text: str) -> None:
    assert FeatureLevel.parse(text) is FeatureLevel.FL_3_1
    assert str(FeatureLevel.parse(text)) == "3.1"
    assert FeatureLevel.FL_3_1.dml_name == "DML_FEATURE_LEVEL_3_1"


@pytest.mark.parametrize("text", ["3.2", "3", "3.1.0", "DML_FEATURE_LEVEL_3", "", "three", "7.0", "3,1"])
def test_feature_level_parse_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="unknown feature level"):
        FeatureLevel.parse(text)


def test_feature_level_order_and_default() -> None:
    assert FeatureLevel.FL_3_0 < FeatureLevel.FL_3_1 < FeatureLevel.FL_4_1 < FeatureLevel.FL_5_0
    assert FeatureLevel.parse(None) is oracle.DEFAULT_FEATURE_LEVEL
    assert oracle.DEFAULT_FEATURE_LEVEL is FeatureLevel.FL_5_1  # DIAGONAL_MATRIX's 5.1 row (issue 32)


@pytest.mark.parametrize("axis", [1.5, True, "2"])
def test_split_axis_must_be_an_integer(axis) -> None:
    """Converted once at the edge: a non-integer Axis is refused, never truncated (1.5 -> 1 was a bug)."""
    with pytest.raises(TypeError, match="axis"):
        SplitDesc(T([1, 1, 6, 2]), (T([1, 1, 6, 2]),), axis)

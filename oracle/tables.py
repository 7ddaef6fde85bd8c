"""The spec's tables as data: data types, feature levels, support-table rows, clause ids.

The types and the clause list live here; each operator's own rows (its support table, the
clauses that guard them) are its module's TABLES (an OperatorTables), and oracle.registry
derives the per-operator dicts from them.  The values are copied from
../shared/spec/operators.md and checked against the seed pages (tests/oracle/test_tables.py).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

import numpy as np


class DataType(enum.Enum):
    """DML_TENSOR_DATA_TYPE members used by the operators (COMMON.3)."""

    FLOAT64 = "FLOAT64"
    FLOAT32 = "FLOAT32"
    FLOAT16 = "FLOAT16"
    INT64 = "INT64"
    INT32 = "INT32"
    INT16 = "INT16"
    INT8 = "INT8"
    UINT64 = "UINT64"
    UINT32 = "UINT32"
    UINT16 = "UINT16"
    UINT8 = "UINT8"

    @property
    def numpy(self) -> np.dtype:
        """The little-endian numpy dtype holding this type's values."""
        return _DTYPES[self]

    @property
    def bits(self) -> np.dtype:
        """The unsigned integer dtype of the same width: copies are done on bits."""
        return _BITS[self]

    @property
    def is_float(self) -> bool:
        return self in (DataType.FLOAT64, DataType.FLOAT32, DataType.FLOAT16)

    @classmethod
    def parse(cls, value: DataType | str | np.dtype) -> DataType:
        """Accept a member, its name (any case, with or without the DML prefix) or a numpy dtype."""
        if isinstance(value, DataType):
            return value
        if value is None:  # np.dtype(None) is float64: a missing type must never read as FLOAT64
            raise ValueError(f"data type None; expected one of {', '.join(cls.__members__)}")
        if isinstance(value, str):
            key = value.upper().removeprefix("DML_TENSOR_DATA_TYPE_")
            if key in cls.__members__:
                return cls[key]
            try:
                return cls.from_numpy(np.dtype(value))
            except (TypeError, SyntaxError):  # numpy reads "9999..." as an integer literal: past its digit limit
                pass
            raise ValueError(f"unknown data type {value[:80]!r}; expected one of {', '.join(cls.__members__)}")
        return cls.from_numpy(np.dtype(value))

    @classmethod
    def from_numpy(cls, dtype: np.dtype) -> DataType:
        dtype = np.dtype(dtype)
        found = _MEMBERS.get(dtype)  # the common case, a lookup (the loop below: any equal dtype, any byte order)
        if found is not None:
            return found
        for member, name in _NUMPY.items():
            if np.dtype(name) == dtype.newbyteorder("="):
                return member
        raise ValueError(f"numpy dtype {dtype} is not one of the eleven DirectML data types")


_NUMPY = {
    DataType.FLOAT64: "float64",
    DataType.FLOAT32: "float32",
    DataType.FLOAT16: "float16",
    DataType.INT64: "int64",
    DataType.INT32: "int32",
    DataType.INT16: "int16",
    DataType.INT8: "int8",
    DataType.UINT64: "uint64",
    DataType.UINT32: "uint32",
    DataType.UINT16: "uint16",
    DataType.UINT8: "uint8",
}

# Made once: these are asked for per tensor, per case.
_DTYPES = {member: np.dtype(name).newbyteorder("<") for member, name in _NUMPY.items()}
_BITS = {member: np.dtype(f"<u{dtype.itemsize}") for member, dtype in _DTYPES.items()}
_MEMBERS = {dtype: member for member, dtype in _DTYPES.items()}

ALL_DATA_TYPES: tuple[DataType, ...] = tuple(DataType)


@enum.unique
class FeatureLevel(enum.Enum):
    """DML_FEATURE_LEVEL values, ordered.  Levels between table rows inherit the row below (U-ALL-1)."""

    FL_1_0 = (1, 0)
    FL_2_0 = (2, 0)
    FL_2_1 = (2, 1)
    FL_3_0 = (3, 0)
    FL_3_1 = (3, 1)
    FL_4_0 = (4, 0)
    FL_4_1 = (4, 1)
    FL_5_0 = (5, 0)
    FL_5_1 = (5, 1)
    FL_5_2 = (5, 2)
    FL_6_0 = (6, 0)
    FL_6_1 = (6, 1)
    FL_6_2 = (6, 2)
    FL_6_3 = (6, 3)
    FL_6_4 = (6, 4)

    def __lt__(self, other: FeatureLevel) -> bool:
        return self.value < other.value

    def __le__(self, other: FeatureLevel) -> bool:
        return self.value <= other.value

    def __gt__(self, other: FeatureLevel) -> bool:
        return self.value > other.value

    def __ge__(self, other: FeatureLevel) -> bool:
        return self.value >= other.value

    def __str__(self) -> str:
        return f"{self.value[0]}.{self.value[1]}"

    @property
    def dml_name(self) -> str:
        return f"DML_FEATURE_LEVEL_{self.value[0]}_{self.value[1]}"

    @classmethod
    def parse(cls, value: FeatureLevel | str | None) -> FeatureLevel:
        """Accept a member, "3.1", "3_1", "FL 3.1", "FL_3_1" or "DML_FEATURE_LEVEL_3_1"; None is the default."""
        if value is None:
            return DEFAULT_FEATURE_LEVEL
        if isinstance(value, FeatureLevel):
            return value
        match = re.fullmatch(r"(?:DML_FEATURE_LEVEL_|FL[ _]?)?(\d+)[._](\d+)", str(value).strip(), re.IGNORECASE)
        if match:
            key = (int(match.group(1)), int(match.group(2)))
            for member in cls:
                if member.value == key:
                    return member
        known = ", ".join(str(m) for m in cls)
        raise ValueError(f"unknown feature level {value!r}; expected one of {known} (or DML_FEATURE_LEVEL_x_y)")


@dataclass(frozen=True)
class SupportRow:
    """One row of a page's "Tensor support" table: from `level` on, these ranks and types."""

    level: FeatureLevel
    ranks: tuple[int, ...]
    data_types: tuple[DataType, ...]


def types(names: str) -> tuple[DataType, ...]:
    """Data types from a table's comma-separated names ("FLOAT32, FLOAT16")."""
    return tuple(DataType[n.strip()] for n in names.split(","))


# Rows the pages share, for the operator modules' tables.
FL30_TYPES = types("FLOAT32, FLOAT16, INT32, INT16, INT8, UINT32, UINT16, UINT8")
RANKS_1_8 = tuple(range(1, 9))


@dataclass(frozen=True)
class OperatorTables:
    """One operator's rows of the spec's tables; each operator module holds its own as TABLES.

    Why here and not in a dict by name: an operator is one module (oracle.registry), and the
    clause ids its validation reports must come from the same place as the rows they guard.
    """

    support: tuple[SupportRow, ...]  # the "Tensor support" table, newest row first, as the pages print it
    support_clause: str  # the clause of the support table (data types)
    dimension_count_clause: str  # the clause of the allowed ranks
    introduced: tuple[FeatureLevel, str]  # the level the operator appears at, and that clause
    clause_prefix: str  # "SLICE.": the operator's clause ids in CLAUSES

    def row(self, level: FeatureLevel) -> SupportRow | None:
        """The row in force at `level` (the newest row not newer than it), or None before the operator exists."""
        for row in self.support:
            if row.level <= level:
                return row
        return None

    def min_level(self, data_type: DataType, rank: int) -> FeatureLevel | None:
        """The oldest table level that supports this data type and rank (None if no level does)."""
        for row in reversed(self.support):
            if data_type in row.data_types and rank in row.ranks:
                return row.level
        return None


# The newest level any table names: the default for validation (a test checks it against the
# operators' tables, which import this module and so cannot be read here).
DEFAULT_FEATURE_LEVEL: FeatureLevel = FeatureLevel.FL_5_1

# Largest value a UINT field (DirectML's 32-bit UINT) can hold.
UINT_MAX = 2**32 - 1
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
MAX_RANK = 8


# Clause ids with a one-line summary each (../shared/spec/operators.md).  The report and the
# coverage check use this list as the set of clauses that must have cases.
CLAUSES: dict[str, str] = {
    "COMMON.1": "Input and output tensors have the same DataType and DimensionCount",
    "COMMON.2": "Tensor sizes are whole numbers >= 1 in every dimension",
    "COMMON.3": "Eleven data types, every value copied bit for bit",
    "SLICE.1": "Output[c] = Input[Offsets + Strides * c]",
    "SLICE.2": "Offsets: first element; Sizes: element count; Strides: step between elements",
    "SLICE.3": "Sizes equal the output tensor's sizes exactly",
    "SLICE.4": "No out-of-bounds reads: Offsets + Strides * (Sizes - 1) <= InputSizes - 1",
    "SLICE.5": "DimensionCount matches the tensors; 1..8 from FL 3.0, 4 or 5 before",
    "SLICE.6": "Introduced in FL 1.0; superseded by SLICE1 (FL 2.1)",
    "SLICE.7": "SLICE tensor support table",
    "SLICE1.1": "Window of dimension i spans Offsets[i] .. Offsets[i] + Sizes[i] - 1",
    "SLICE1.2": "CopyStart (window end for negative strides); Output[c] = Input[CopyStart + Strides * c]",
    "SLICE1.3": "Window not empty and inside the input: Offsets + Sizes <= InputSizes",
    "SLICE1.4": "1 <= OutputSizes <= MaxCopiedElements = 1 + (Sizes - 1) / |Strides|",
    "SLICE1.5": "Strides may not be 0; the sign picks the start",
    "SLICE1.6": "DimensionCount matches the tensors; 1..8 from FL 3.0, 4 or 5 before",
    "SLICE1.7": "Differs from SLICE: negative strides, window sizes need not equal output sizes",
    "SLICE1.8": "Introduced in FL 2.1; SLICE1 tensor support table",
    "PAD.1": "Inflates the input with constant or mirrored values on the edges",
    "PAD.2": "OutputSizes = InputSizes + StartPadding + EndPadding",
    "PAD.3": "Modes CONSTANT, EDGE, REFLECTION, SYMMETRIC (FL 3.0), periodic folding",
    "PAD.4": "PaddingValue used only by CONSTANT; may be truncated for non-float types",
    "PAD.5": "DimensionCount is the size of StartPadding/EndPadding and the tensors' rank",
    "PAD.6": "Introduced in FL 1.0; PADDING tensor support table (1-8 dims from FL 3.1)",
    "SPLIT.1": "Splits the input along Axis into OutputCount outputs, in order",
    "SPLIT.2": "Outputs have the input's rank and sizes except along Axis",
    "SPLIT.3": "Output sizes along Axis sum to the input's size along Axis",
    "SPLIT.4": "One output is a plain copy of the input",
    "SPLIT.5": "OutputCount > 0; Axis in [0, DimensionCount - 1]",
    "SPLIT.6": "Inverse of JOIN: joining the outputs along Axis gives back the input",
    "SPLIT.7": "Introduced in FL 1.0; SPLIT tensor support table",
    # Beyond the seed pages: DirectML's own pages and header, restated in docs/spec/beyond-seeds.md.
    "WRAP.1": "DML_PADDING_MODE_WRAP exists from FL 6.4, for DML_PADDING and DML_PADDING1",
    "WRAP.2": "What WRAP writes is not documented (U-WRAP-1: wrap-around)",
    "PAD1.1": "Inflates the input with constant or mirrored values on the edges",
    "PAD1.2": "OutputSizes = InputSizes + StartPadding + EndPadding",
    "PAD1.3": "Modes CONSTANT, EDGE, REFLECTION, SYMMETRIC (FL 3.0), WRAP (FL 6.4); periodic folding",
    "PAD1.4": "PaddingValueDataType matches the output's; PaddingValue written as that type, bit for bit",
    "PAD1.5": "DimensionCount is the size of StartPadding/EndPadding and the tensors' rank",
    "PAD1.6": "Introduced in FL 5.0; 1-8 dims, all eleven data types",
    "PAD1.7": "Input and output have the same DataType and DimensionCount",
    "JOIN.1": "Concatenates InputTensors along Axis, in order",
    "JOIN.2": "InputCount is the size of InputTensors and is greater than 0",
    "JOIN.3": "Inputs' sizes equal the output's except along Axis, where they sum to the output's",
    "JOIN.4": "Axis in [0, OutputTensor.DimensionCount - 1]",
    "JOIN.5": "InputTensors and OutputTensor have the same DataType and DimensionCount",
    "JOIN.6": "One input is a plain copy; JOIN is the inverse of DML_SPLIT",
    "JOIN.7": "Introduced in FL 1.0; 4 dims (1.0, 2.1), 4-5 (3.0), 1-8 and all eleven data types (4.1)",
    "LAYOUT.1": "Strides (optional, UINT, DimensionCount entries): element offset = dot(index, Strides); none: packed",
    "LAYOUT.2": "A 0 stride broadcasts; a stride larger than a row pads it",
    "LAYOUT.3": "TotalTensorSizeInBytes >= DMLCalcBufferTensorSize's minimum (a multiple of 4: U-LAYOUT-3)",
    "LAYOUT.4": "DirectML may write any byte of an output inside its TotalTensorSizeInBytes, nothing past it",
    "LAYOUT.5": "A buffer tensor holds at most 2^32 - 1 elements",
    "LAYOUT.6": "GuaranteedBaseOffsetAlignment: 0, or a power of two at least the element size",
    "LAYOUT.7": "Flags: NONE or OWNED_BY_DML, the latter on input tensors only (bound at initialisation)",
    "LAYOUT.8": "A layout places elements; the operator's result on the logical tensors is the same",
    "GRAPH.1": "IDMLDevice1::CompileGraph compiles operator nodes and their edges into one compiled operator",
    "GRAPH.2": "A graph's outputs are its nodes' results composed along its edges",
    "GRAPH.3": "A node output no edge reads, and a graph input no edge uses, leave the rest unchanged",
    # Issue 31, the depth-space family (docs/spec/beyond-seeds.md).
    "S2D.1": "Space [N, C, (H, BlockHeight), (W, BlockWidth)] moved into depth [N, (BlockHeight, BlockWidth, C), H, W]",
    "S2D.2": "OutputSizes = {N, C * BlockSize * BlockSize, H / BlockSize, W / BlockSize}, H and W multiples",
    "S2D.3": "BlockSize: a UINT, at least 1",
    "S2D.4": "Inverse of DML_DEPTH_TO_SPACE",
    "S2D.5": "Input and output have the same DataType",
    "S2D.6": "Introduced in FL 1.0; 4 dims; FLOAT32/16 (1.0), 8 types (2.1), all eleven (5.0)",
    "S2D1.1": "Space [N, C, (H, BlockHeight), (W, BlockWidth)] moved into depth, laid out as Order says",
    "S2D1.2": "OutputSizes = {N, C * BlockSize * BlockSize, H / BlockSize, W / BlockSize}, H and W multiples",
    "S2D1.3": "BlockSize: a UINT, at least 1",
    "S2D1.4": "Order DEPTH_COLUMN_ROW (= DML_SPACE_TO_DEPTH) or COLUMN_ROW_DEPTH",
    "S2D1.5": "Inverse of DML_DEPTH_TO_SPACE1 with the same BlockSize and Order",
    "S2D1.6": "Input and output have the same DataType",
    "S2D1.7": "Introduced in FL 2.1; 4 dims; 8 types (2.1), all eleven (5.0)",
    "D2S.1": "Depth [N, (BlockHeight, BlockWidth, C), H, W] moved into space [N, C, (H, BlockHeight), (W, BlockWidth)]",
    "D2S.2": "OutputSizes = {N, C / (BlockSize * BlockSize), H * BlockSize, W * BlockSize}, C a multiple",
    "D2S.3": "BlockSize: a UINT, at least 1",
    "D2S.4": "Inverse of DML_SPACE_TO_DEPTH",
    "D2S.5": "Input and output have the same DataType",
    "D2S.6": "Introduced in FL 1.0; 4 dims; FLOAT32/16 (1.0), 8 types (2.1), all eleven (5.0)",
    "D2S1.1": "Depth, laid out as Order says, moved into space [N, C, (H, BlockHeight), (W, BlockWidth)]",
    "D2S1.2": "OutputSizes = {N, C / (BlockSize * BlockSize), H * BlockSize, W * BlockSize}, C a multiple",
    "D2S1.3": "BlockSize: a UINT, at least 1",
    "D2S1.4": "Order DEPTH_COLUMN_ROW (= DML_DEPTH_TO_SPACE) or COLUMN_ROW_DEPTH",
    "D2S1.5": "Inverse of DML_SPACE_TO_DEPTH1 with the same BlockSize and Order",
    "D2S1.6": "Input and output have the same DataType",
    "D2S1.7": "Introduced in FL 2.1; 4 dims; 8 types (2.1), all eleven (5.0)",
    "SGRAD.1": "OutputGradient[CopyStart + InputWindowStrides * c] = InputGradient[c]; every other element is 0",
    "SGRAD.2": "CopyStart as SLICE1's: the window's end on an axis with a negative stride",
    "SGRAD.3": "The window (UINT offsets and sizes, sizes >= 1) lies inside OutputGradientTensor",
    "SGRAD.4": "InputGradientTensor has the sizes of SLICE1's output: 1 to MaxCopiedElements per axis",
    "SGRAD.5": "InputWindowStrides are INT and non-zero; a negative stride flips the window",
    "SGRAD.6": "DimensionCount is the size of the three arrays and both tensors' rank",
    "SGRAD.7": "InputGradientTensor and OutputGradientTensor have the same DataType and DimensionCount",
    "SGRAD.8": "Introduced in FL 3.0; 4-5 dims (3.0), 1-8 (3.1), all eleven data types (4.1)",
    # DML_ELEMENT_WISE_IDENTITY (docs/spec/beyond-seeds.md)
    "IDENT.1": "f(x) = x: each output element is its input element, bit for bit",
    "IDENT.2": "InputTensor and OutputTensor have the same DataType, DimensionCount and Sizes",
    "IDENT.3": "An optional ScaleBias applies g(x) = x * Scale + Bias to each input element first",
    "IDENT.4": "Strides transform the layout: a strided identity copies between layouts",
    "IDENT.5": "Introduced in FL 1.0; 4-5 dims (1.0, 2.1), 1-8 (3.0), all eleven data types (4.1)",
    # DML_TILE (docs/spec/beyond-seeds.md)
    "TILE.1": "Output[c] = Input[c mod InputSizes]: Repeats[i] whole copies of the input along each dimension",
    "TILE.2": "OutputTensor.Sizes[i] = InputTensor.Sizes[i] * Repeats[i]",
    "TILE.3": "RepeatsCount is the size of Repeats and equals InputTensor.DimensionCount",
    "TILE.4": "Repeats (UINT): copies per dimension, each larger than 0",
    "TILE.5": "InputTensor and OutputTensor have the same DataType and DimensionCount",
    "TILE.6": "Introduced in FL 1.0; 4 dims FLOAT32/16 (1.0), 8 types (2.1), 1-8 dims (3.1), 64-bit integers (4.1)",
    # DML_REVERSE_SUBSEQUENCES (docs/spec/beyond-seeds.md)
    "REVSEQ.1": "Along Axis, each subsequence's first L elements reversed (L its SequenceLengths value); the rest copied",
    "REVSEQ.2": "SequenceLengthsTensor has the input's DimensionCount and Sizes, but 1 along Axis",
    "REVSEQ.3": "A length past the axis' size behaves as if clamped to it",
    "REVSEQ.4": "Lengths of 0 and 1 leave their subsequence unchanged",
    "REVSEQ.5": "OutputTensor has InputTensor's Sizes and DataType",
    "REVSEQ.6": "Axis (UINT) is less than InputTensor's DimensionCount",
    "REVSEQ.7": "Introduced in FL 2.1; 4 dims (2.1), 4-5 (3.0), 1-8 (4.0), all eleven data types (5.0)",
    "REVSEQ.8": "SequenceLengthsTensor is UINT32 (2.1), UINT64 or UINT32 (5.0)",
    # DML_CAST (docs/spec/beyond-seeds.md)
    "CAST.1": "Each element converted to the output's DataType: exact values judged, the rest open (U-CAST-1)",
    "CAST.2": "InputTensor and OutputTensor have the same DimensionCount and Sizes",
    "CAST.3": "Any supported input type to any supported output type (the same type included)",
    "CAST.4": "Introduced in FL 1.0; 4 dims (1.0, 3.0), 1-8 (3.1), all eleven data types (4.1)",
    # DML_FILL_VALUE_CONSTANT (docs/spec/beyond-seeds.md)
    "FILLC.1": "Every element of OutputTensor is Value (no input tensor)",
    "FILLC.2": "ValueDataType must match OutputTensor.DataType; Value (a DML_SCALAR_UNION) is read as that type",
    "FILLC.3": "OutputTensor may have any sizes",
    "FILLC.4": "Introduced in FL 2.1; 4 dims (2.1), 1-8 (4.0), all eleven data types (4.1)",
    # DML_FILL_VALUE_SEQUENCE (docs/spec/beyond-seeds.md)
    "FILLS.1": "OutputTensor[coordinate] = Value, then Value += ValueDelta, from Value = ValueStart, coordinate by coordinate",
    "FILLS.2": "OutputTensor may have any sizes (no input tensor)",
    "FILLS.3": "ValueDataType must match OutputTensor.DataType; ValueStart and ValueDelta are read as that type",
    "FILLS.4": "ValueDelta is the step added for each element written",
    "FILLS.5": "Introduced in FL 2.1; 4 dims (2.1), 1-8 (4.0), 64-bit integers (5.0); never FLOAT64",
    # DML_DIAGONAL_MATRIX (docs/spec/beyond-seeds.md)
    "DIAG.1": "OutputTensor[..., y, x] = Value where y + Offset == x, else 0; leading dimensions are a batch",
    "DIAG.2": "Value is a FLOAT, converted to the output's type (other than FLOAT16/32 'might be truncated')",
    "DIAG.3": "Offset (INT) shifts the diagonal: right/up when positive, left/down when negative; any value",
    "DIAG.4": "OutputTensor's height and width need not be equal",
    "DIAG.5": "Introduced in FL 2.0; 4 dims FLOAT32/16 (2.0), 8 types (2.1), 2-4 dims (4.0), all eleven (5.1)",
    # DML_DIAGONAL_MATRIX1 (docs/spec/beyond-seeds.md)
    "DIAG1.1": "Value where DiagonalFillBegin <= x - y < DiagonalFillEnd; elsewhere InputTensor's element, or 0",
    "DIAG1.2": "ValueDataType must match OutputTensor.DataType; Value (a DML_SCALAR_UNION) is read as that type",
    "DIAG1.3": "DiagonalFillBegin (inclusive) and DiagonalFillEnd (exclusive) are INT; begin > end reverses the fill",
    "DIAG1.4": "InputTensor is optional (_Maybenull_)",
    "DIAG1.5": "InputTensor and OutputTensor have the same DataType and DimensionCount (and Sizes: E-DIAG1-2)",
    "DIAG1.6": "Introduced in FL 5.1; 2 to 4 dims, all eleven data types",
    # DML_GATHER_ND and DML_GATHER_ND1 (docs/spec/beyond-seeds.md): the pages share their text but GND1.10-11
    "GND.1": "Each index tuple picks a sub-block of the input: Output[p, t] = Input[indices[p, :], t]",
    "GND.2": "IndicesTensor's last size is the tuple size q, at most InputDimensionCount (E-GND-2)",
    "GND.3": "OutputTensor.Sizes: the indices' leading segment, then the input's trailing one, right-aligned (E-GND-1)",
    "GND.4": "InputDimensionCount in [1, DimensionCount]; the leading dimensions it ignores are 1",
    "GND.5": "IndicesDimensionCount in [1, DimensionCount]; the leading dimensions it ignores are 1",
    "GND.6": "From FL 3.0, a negative index in a signed type counts from the end of its dimension",
    "GND.7": "The three tensors have one DimensionCount; InputTensor and OutputTensor one DataType (E-GND-3)",
    "GND.8": "Introduced in FL 2.1; 4 dims (2.1), 1-8 (3.0), all eleven data types (4.1)",
    "GND.9": "IndicesTensor is UINT32 (2.1); INT64, INT32, UINT64 or UINT32 (3.0)",
    "GND1.1": "Per batch, each index tuple picks a sub-block: Output[b, p, t] = Input[b, indices[b, p, :], t]",
    "GND1.2": "IndicesTensor's last size is the tuple size q, at most InputDimensionCount - batches (E-GND-2)",
    "GND1.3": "OutputTensor.Sizes: batches, the indices' segment, the input's trailing one, right-aligned (E-GND-1)",
    "GND1.4": "InputDimensionCount in [1, DimensionCount]; the leading dimensions it ignores are 1",
    "GND1.5": "IndicesDimensionCount in [1, DimensionCount]; the leading dimensions it ignores are 1",
    "GND1.6": "A negative index in a signed type counts from the end of its dimension",
    "GND1.7": "The three tensors have one DimensionCount; InputTensor and OutputTensor one DataType (E-GND-3)",
    "GND1.8": "Introduced in FL 3.0; 1-8 dims (3.0), all eleven data types (4.1)",
    "GND1.9": "IndicesTensor is INT64, INT32, UINT64 or UINT32",
    "GND1.10": "BatchDimensionCount: the first meaningful dimensions, equal in input and indices (E-GND1-1)",
    "GND1.11": "With BatchDimensionCount 0, GATHER_ND1 is GATHER_ND",
    # DML_ONE_HOT (docs/spec/beyond-seeds.md)
    "ONEHOT.1": "Each sequence along Axis is OffValue but at its index (from the sequence's start): OnValue",
    "ONEHOT.2": "An index that exceeds the axis' size is ignored: its whole sequence is OffValue",
    "ONEHOT.3": "From FL 3.0, a negative index of a signed type counts from the sequence's end (-1: the last)",
    "ONEHOT.4": "IndicesTensor has the output's DimensionCount and Sizes, but 1 along Axis",
    "ONEHOT.5": "ValuesTensor: at least two elements; element 0 OffValue, the 1st along the fastest dimension > 1 OnValue",
    "ONEHOT.6": "OutputTensor's Axis dimension may have any size greater than 0",
    "ONEHOT.7": "Axis (UINT) is less than IndicesTensor's DimensionCount",
    "ONEHOT.8": "The three tensors have one DimensionCount; ValuesTensor has OutputTensor's DataType (COMMON.1)",
    "ONEHOT.9": "Introduced in FL 2.0; 4 dims FLOAT32/16 (2.0), 8 types (2.1), 1-8 dims (3.0), 64-bit types (4.1)",
    "ONEHOT.10": "IndicesTensor is UINT32 (2.0, 2.1); INT64, INT32, UINT64 or UINT32 (3.0)",
    # DML_GATHER (docs/spec/beyond-seeds.md)
    "GATHER.1": "Output[...] = Input[..., Indices[...], ...]: each index picks the position along Axis",
    "GATHER.2": "IndicesTensor, InputTensor and OutputTensor have the same DimensionCount",
    "GATHER.3": "From FL 3.0 a negative index of a signed type counts from the end of the axis (-1 is the last)",
    "GATHER.4": "Invalid indices: no failure, every read clamped within the input tensor's memory",
    "GATHER.5": "OutputTensor.Sizes: Input's before Axis, Indices' last IndexDimensions, Input's after Axis, "
    "right-aligned (leading ones cropped); OutputTensor has InputTensor's DataType",
    "GATHER.6": "Axis (UINT) is less than InputTensor's DimensionCount",
    "GATHER.7": "IndexDimensions: IndicesTensor's meaningful (trailing) dimensions, the ones before them ones",
    "GATHER.8": "Introduced in FL 1.0; 4 dims FLOAT32/16 (1.0), 8 types (2.1), 1-8 dims (3.0), 64-bit types (4.1)",
    "GATHER.9": "IndicesTensor is UINT32 (1.0), INT64, INT32, UINT64 or UINT32 (3.0)",
    # DML_GATHER_ELEMENTS (docs/spec/beyond-seeds.md)
    "GELEM.1": "Output[c] = Input[c with Axis at Indices[c]]: each index picks the position along Axis",
    "GELEM.2": "IndicesTensor's Sizes match InputTensor's in every dimension but Axis",
    "GELEM.3": "From FL 3.0 a negative index of a signed type counts from the end of the axis (-1 is the last)",
    "GELEM.4": "OutputTensor has IndicesTensor's Sizes and InputTensor's DataType",
    "GELEM.5": "Axis (UINT) is less than InputTensor's DimensionCount",
    "GELEM.6": "IndicesTensor, InputTensor and OutputTensor have the same DimensionCount",
    "GELEM.7": "Introduced in FL 2.1; 4 dims, 8 types (2.1), 1-8 dims (3.0), 64-bit types (4.1)",
    "GELEM.8": "IndicesTensor is UINT32 (2.1), INT64, INT32, UINT64 or UINT32 (3.0)",
    # DML_SCATTER, also DML_SCATTER_ELEMENTS (docs/spec/beyond-seeds.md)
    "SCATTER.1": "Output is Input, then Output[c with c[Axis] = Indices[c]] = Updates[c] for every c of IndicesTensor",
    "SCATTER.2": "IndicesTensor's Sizes are InputTensor's on every dimension but Axis",
    "SCATTER.3": "From FL 3.0 a negative index of a signed type counts from the end of the Axis dimension",
    "SCATTER.4": "UpdatesTensor has IndicesTensor's Sizes and InputTensor's DataType",
    "SCATTER.5": "OutputTensor has InputTensor's Sizes and DataType",
    "SCATTER.6": "Axis (UINT) is in [0, OutputTensor.DimensionCount)",
    "SCATTER.7": "All four tensors have the same DimensionCount; Input, Updates and Output the same DataType",
    "SCATTER.8": "Introduced in FL 2.0 (E-SCATTER-3); 4 dims (2.0, 2.1), 1-8 (3.0), all eleven data types (4.1)",
    "SCATTER.9": "IndicesTensor is UINT32 (2.0, 2.1), INT64, INT32, UINT64 or UINT32 (3.0)",
    "SCATTER.10": "Two updates to one output element are invalid, and which write wins is not guaranteed",
    # DML_SCATTER_ND (docs/spec/beyond-seeds.md)
    "SCATND.1": "Output is Input, then each index tuple's slice of the input takes that tuple's updates",
    "SCATND.2": "IndicesTensor's last size is the tuple size k, at most the input's meaningful dimensions",
    "SCATND.3": "From FL 3.0 a negative index of a signed type counts from the end of its dimension",
    "SCATND.4": "UpdatesTensor's sizes: the tuples' batch, then the input's sizes past the tuple, right-aligned",
    "SCATND.5": "OutputTensor has InputTensor's Sizes and DataType",
    "SCATND.6": "InputDimensionCount (UINT) in [1, DimensionCount] (E-SCATND-3); the leading sizes it ignores are 1",
    "SCATND.7": "IndicesDimensionCount (UINT) in [1, DimensionCount] (E-SCATND-3); the leading sizes it ignores are 1",
    "SCATND.8": "All four tensors have the same DimensionCount; Input, Updates and Output the same DataType",
    "SCATND.9": "Introduced in FL 2.1; 4 dims (2.1), 1-8 (3.0), all eleven data types (4.1)",
    "SCATND.10": "IndicesTensor is UINT32 (2.1), INT64, INT32, UINT64 or UINT32 (3.0)",
    "SCATND.11": "Two tuples writing one output element are invalid, and which write wins is not guaranteed",
}
# The clause prefixes of what is beyond the four seed pages: reported apart from the pages' verdict.
BEYOND_SEEDS_PREFIXES = (
    "WRAP.",
    "PAD1.",
    "JOIN.",
    "LAYOUT.",
    "GRAPH.",
    "IDENT.",
    "TILE.",
    "D2S.",
    "D2S1.",
    "SGRAD.",
    "S2D.",
    "S2D1.",
    "REVSEQ.",
    "CAST.",
    "FILLC.",
    "FILLS.",
    "DIAG.",
    "DIAG1.",
    "GND.",
    "GND1.",
    "ONEHOT.",
    "GATHER.",
    "GELEM.",
    "SCATTER.",
    "SCATND.",
)


def beyond_seeds(clause: str) -> bool:
    """Whether a clause comes from DirectML's own pages, not the four seed pages (docs/spec/beyond-seeds.md)."""
    return clause.startswith(BEYOND_SEEDS_PREFIXES)

"""InvalidDescriptor and the tiny checkers every operator's validate() is built from.

Messages carry `name=value`, what was expected, and the clause, e.g.
``window_strides[2]=0, but strides may not be 0 [SLICE1.5]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .tables import UINT_MAX, DataType, FeatureLevel, OperatorTables


class InvalidDescriptor(ValueError):
    """A descriptor the spec does not allow.  `.clause` is the clause id it breaks."""

    def __init__(self, message: str, clause: str, field: str | None = None):
        super().__init__(f"{message} [{clause}]")
        self.clause = clause
        self.field = field
        self.reason = message


@dataclass(frozen=True)
class TensorDesc:
    """DML_BUFFER_TENSOR_DESC: DataType and Sizes, which the operators read, and the layout fields
    (beyond the seed pages, oracle.layout): Strides (None: packed), TotalTensorSizeInBytes (None:
    DMLCalcBufferTensorSize's minimum), GuaranteedBaseOffsetAlignment and Flags (0: none given)."""

    data_type: DataType
    sizes: tuple[int, ...]
    strides: tuple[int, ...] | None = None
    total_tensor_size_in_bytes: int | None = None
    guaranteed_base_offset_alignment: int = 0
    flags: int = 0

    @property
    def dimension_count(self) -> int:
        return len(self.sizes)

    @property
    def has_layout(self) -> bool:
        """Whether the desc states any layout field (a case beyond the seed pages)."""
        return (
            self.strides is not None
            or self.total_tensor_size_in_bytes is not None
            or bool(self.guaranteed_base_offset_alignment)
            or bool(self.flags)
        )

    @property
    def logical(self) -> TensorDesc:
        """The same tensor without layout fields: what the operators' semantics read."""
        return TensorDesc(self.data_type, self.sizes)

    @classmethod
    def of(cls, data_type: DataType | str, sizes: Sequence[int]) -> TensorDesc:
        return cls(DataType.parse(data_type), as_ints(sizes, "sizes"))

    def to_json(self) -> dict:
        out: dict = {"data_type": self.data_type.value, "sizes": list(self.sizes)}
        if not self.has_layout:
            return out  # most tensors (every record's descriptor is written)
        if self.strides is not None:
            out["strides"] = list(self.strides)
        for name in LAYOUT_SCALARS:
            value = getattr(self, name)
            if value is not None and (value or name == "total_tensor_size_in_bytes"):  # a total of 0 is stated
                out[name] = value
        return out

    @classmethod
    def from_json(cls, obj: dict) -> TensorDesc:
        base = cls.of(obj["data_type"], obj["sizes"])
        strides = obj.get("strides")
        scalars = {name: as_ints([obj[name]], name)[0] for name in LAYOUT_SCALARS if name in obj}
        if strides is None and not scalars:
            return base
        return TensorDesc(
            base.data_type, base.sizes, None if strides is None else as_ints(strides, "strides"), **scalars
        )


# The scalar layout fields of a tensor desc as case files spell them (absent: not given; alignment and flags
# of 0 are not written, so a packed desc's JSON, and the case ids hashed from it, stay as they were).
LAYOUT_SCALARS = ("total_tensor_size_in_bytes", "guaranteed_base_offset_alignment", "flags")


def as_ints(values: Sequence[int], name: str) -> tuple[int, ...]:
    """Convert once at the edge: a tuple of Python ints (bools and non-integral floats refused)."""
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise TypeError(f"{name}[{i}]={v!r} is not an integer")
        out.append(int(v))
    return tuple(out)


def fail(message: str, clause: str, field: str | None = None) -> None:
    raise InvalidDescriptor(message, clause, field)


def check_uint(values: Sequence[int], name: str, clause: str) -> None:
    """A UINT array: every value in [0, 2**32 - 1]."""
    for i, v in enumerate(values):
        if not 0 <= v <= UINT_MAX:
            fail(f"{name}[{i}]={v}, but {name} is UINT (0..{UINT_MAX})", clause, name)


def check_length(values: Sequence[int], name: str, dimension_count: int, clause: str) -> None:
    if len(values) != dimension_count:
        fail(f"{name} has {len(values)} entries, but DimensionCount={dimension_count}", clause, name)


def check_sizes(tensor: TensorDesc, name: str) -> None:
    """COMMON.2: every size is a whole number >= 1 (no empty dimension; U-SLICE-2, U-SPLIT-1)."""
    for i, v in enumerate(tensor.sizes):
        if v < 1:
            fail(f"{name}.sizes[{i}]={v}, but tensor sizes must be >= 1", "COMMON.2", f"{name}.sizes")
        if v > UINT_MAX:
            fail(f"{name}.sizes[{i}]={v}, but sizes are UINT (<= {UINT_MAX})", "COMMON.2", f"{name}.sizes")


def check_same_type_and_rank(first: TensorDesc, first_name: str, other: TensorDesc, other_name: str) -> None:
    """COMMON.1: same DataType and DimensionCount."""
    if first.data_type != other.data_type:
        fail(
            f"{other_name}.data_type={other.data_type.value}, but {first_name}.data_type="
            f"{first.data_type.value}; they must be equal",
            "COMMON.1",
            f"{other_name}.data_type",
        )
    if first.dimension_count != other.dimension_count:
        fail(
            f"{other_name} has DimensionCount={other.dimension_count}, but {first_name} has "
            f"{first.dimension_count}; they must be equal",
            "COMMON.1",
            f"{other_name}.sizes",
        )


def check_support(
    operator: str, tables: OperatorTables, tensors: dict[str, TensorDesc], dimension_count: int, level: FeatureLevel
) -> None:
    """The operator exists at `level`, and the support table row in force allows the ranks and types."""
    introduced, clause = tables.introduced
    if level < introduced:
        fail(f"DML_{operator}_OPERATOR_DESC needs {introduced.dml_name}, but feature_level={level}", clause)
    row = tables.row(level)
    assert row is not None  # introduced <= level guarantees a row
    if dimension_count not in row.ranks:
        allowed = f"{row.ranks[0]}..{row.ranks[-1]}" if len(row.ranks) > 2 else " or ".join(map(str, row.ranks))
        fail(
            f"DimensionCount={dimension_count}, but {operator} at feature level {level} allows {allowed}",
            tables.dimension_count_clause,
            "dimension_count",
        )
    for name, tensor in tensors.items():
        if tensor.data_type not in row.data_types:
            fail(
                f"{name}.data_type={tensor.data_type.value}, but {operator} at feature level {level} supports "
                f"{', '.join(t.value for t in row.data_types)}",
                tables.support_clause,
                f"{name}.data_type",
            )


def check_dimension_count(dimension_count: int, tensors: dict[str, TensorDesc], clause: str) -> None:
    """DimensionCount equals each tensor's DimensionCount."""
    for name, tensor in tensors.items():
        if tensor.dimension_count != dimension_count:
            fail(
                f"DimensionCount={dimension_count}, but {name} has {tensor.dimension_count} dimensions",
                clause,
                "dimension_count",
            )


class UnaryTensors:
    """The tensors of a descriptor with one input and one output, by their struct names: mixed into every
    such operator's frozen dataclass (SLICE's family and PADDING's through OneInOneOut, CAST,
    ELEMENT_WISE_IDENTITY, TILE, the four depth-space ones)."""

    input_tensor: TensorDesc
    output_tensor: TensorDesc

    @property
    def tensors(self) -> dict[str, TensorDesc]:
        return {"input_tensor": self.input_tensor, "output_tensor": self.output_tensor}

    @property
    def input_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.input_tensor,)

    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.output_tensor,)


class OutputOnly:
    """The tensors of a descriptor with no input tensor, only an OutputTensor (FILL_VALUE_CONSTANT,
    FILL_VALUE_SEQUENCE): a case of it carries no inputs, its request binds none."""

    output_tensor: TensorDesc

    @property
    def tensors(self) -> dict[str, TensorDesc]:
        return {"output_tensor": self.output_tensor}

    @property
    def input_tensors(self) -> tuple[TensorDesc, ...]:
        return ()

    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.output_tensor,)

    @property
    def dimension_count(self) -> int:
        return self.output_tensor.dimension_count


class OneInOneOut(UnaryTensors):
    """What SLICE, SLICE1 and PADDING descriptors share: one input, one output, per-dimension arrays.

    `ARRAYS` names the per-dimension UINT/INT fields; a missing `dimension_count` is the length
    of the first.  Mixed into the frozen dataclasses of op_slice, op_slice1 and op_padding.
    """

    ARRAYS: ClassVar[tuple[str, ...]] = ()
    UINT_ARRAYS: ClassVar[tuple[str, ...]] = ()  # those of ARRAYS the struct declares UINT (the rest are INT)
    dimension_count: int | None

    def __post_init__(self) -> None:
        for name in self.ARRAYS:
            object.__setattr__(self, name, as_ints(getattr(self, name), name))
        if self.dimension_count is None:
            object.__setattr__(self, "dimension_count", len(getattr(self, self.ARRAYS[0])))

    @property
    def tensors(self) -> dict[str, TensorDesc]:
        return {"input_tensor": self.input_tensor, "output_tensor": self.output_tensor}

    def struct_fields(self) -> dict:
        """The C struct's fields besides its tensor descs, as the case states them (what the native runner
        and a reproducer fill in): DimensionCount and the per-dimension arrays; operators add their own."""
        return {"dimension_count": self.dimension_count, **{name: list(getattr(self, name)) for name in self.ARRAYS}}

    @property
    def input_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.input_tensor,)

    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.output_tensor,)


def check_unary_tensors(desc: UnaryTensors) -> None:
    """COMMON.2 for both tensors, then COMMON.1 (the same DataType, the same rank)."""
    check_sizes(desc.input_tensor, "input_tensor")
    check_sizes(desc.output_tensor, "output_tensor")
    check_same_type_and_rank(desc.input_tensor, "input_tensor", desc.output_tensor, "output_tensor")


def check_same_sizes(desc: UnaryTensors, clause: str) -> None:
    """The output's sizes are the input's, exactly (CAST.2, IDENT.2)."""
    if desc.input_tensor.sizes != desc.output_tensor.sizes:
        fail(
            f"output_tensor.sizes={list(desc.output_tensor.sizes)}, but input_tensor.sizes="
            f"{list(desc.input_tensor.sizes)}; they must be equal",
            clause,
            "output_tensor.sizes",
        )


def check_one_in_one_out(desc: OneInOneOut, count_clause: str) -> int:
    """The checks every one-input operator starts with; returns DimensionCount.

    COMMON.2 and COMMON.1 come first: a rank mismatch between the two tensors is COMMON.1,
    not a DimensionCount error.  Then DimensionCount against the tensors and every array.
    """
    n = desc.dimension_count
    if n is None:  # __post_init__ fills it in from the first array
        raise TypeError(f"{type(desc).__name__}.dimension_count was not filled in")
    check_unary_tensors(desc)
    check_dimension_count(n, desc.tensors, count_clause)
    for name in desc.ARRAYS:
        check_length(getattr(desc, name), name, n, count_clause)
    return n


def check_count_and_axis(
    count: int | None, tensors: Sequence[TensorDesc], count_field: str, axis: int, rank: int, clauses: tuple[str, str]
) -> None:
    """SPLIT's OutputCount and JOIN's InputCount: greater than 0 and the length of their tensor array
    (clauses[0]); Axis in [0, DimensionCount - 1] (clauses[1])."""
    if count is None:  # the descriptor's __post_init__ fills it in
        raise TypeError(f"{count_field} was not filled in")
    struct_name = "".join(part.title() for part in count_field.split("_"))  # input_count -> InputCount
    if count < 1:
        fail(f"{count_field}={count}, but {struct_name} must be greater than 0", clauses[0], count_field)
    array = count_field.replace("count", "tensors")
    if count != len(tensors):
        fail(f"{count_field}={count}, but {array} has {len(tensors)} entries", clauses[0], count_field)
    if not 0 <= axis <= min(rank - 1, UINT_MAX):
        fail(f"axis={axis}, but Axis must be in [0, {rank - 1}] (DimensionCount={rank})", clauses[1], "axis")


def check_pieces(
    whole: TensorDesc,
    whole_name: str,
    pieces: Sequence[TensorDesc],
    piece_name: str,
    axis: int,
    clauses: tuple[str, str],
    sum_field: str,
) -> None:
    """SPLIT's outputs and JOIN's inputs: pieces of `whole` along `axis`.  Every piece has whole's size off the
    axis (clauses[0]), and their sizes along it sum to whole's (clauses[1], naming `sum_field` to fix)."""
    for j, tensor in enumerate(pieces):
        for d in range(whole.dimension_count):
            if d != axis and tensor.sizes[d] != whole.sizes[d]:
                fail(
                    f"{piece_name}[{j}].sizes[{d}]={tensor.sizes[d]}, but {whole_name}.sizes[{d}]="
                    f"{whole.sizes[d]}; only Axis={axis} may differ",
                    clauses[0],
                    f"{piece_name}[{j}].sizes",
                )
    along = [t.sizes[axis] for t in pieces]
    if sum(along) != whole.sizes[axis]:
        fail(
            f"{piece_name.split('_')[0]} sizes along axis {axis} sum to {' + '.join(map(str, along))} = {sum(along)}, "
            f"but {whole_name}.sizes[{axis}]={whole.sizes[axis]}",
            clauses[1],
            sum_field,
        )

"""DML_SPLIT_OPERATOR_DESC (seed 004): cut the input along Axis into OutputCount pieces, in order.

OutputTensors[j][c] = Input[c + base_j along Axis], base_j = the sizes of outputs before j.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import core
from .checks import (
    TensorDesc,
    as_ints,
    check_count_and_axis,
    check_pieces,
    check_same_type_and_rank,
    check_sizes,
    check_support,
    fail,
)
from .descriptor_json import TENSOR, TENSORS, JsonDescriptor
from .tables import (
    ALL_DATA_TYPES,
    FL30_TYPES,
    RANKS_1_8,
    FeatureLevel,
    OperatorTables,
    SupportRow,
    types,
)

OPERATOR = "SPLIT"
PAGE_ORDER = 4  # its place in the registry (oracle.registry): the pages' order, then the ones past them
# Its rows of the spec's tables: support table, clause ids (oracle.registry derives the rest).
TABLES = OperatorTables(
    support=(  # SPLIT.7, seed 004
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, RANKS_1_8, FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
        SupportRow(FeatureLevel.FL_1_0, (4,), types("FLOAT32, FLOAT16, INT32, INT16, UINT32, UINT16")),
    ),
    support_clause="SPLIT.7",
    dimension_count_clause="SPLIT.7",
    introduced=(FeatureLevel.FL_1_0, "SPLIT.7"),
    clause_prefix="SPLIT.",
)


@dataclass(frozen=True)
class SplitDesc(JsonDescriptor):
    """Mirrors DML_SPLIT_OPERATOR_DESC; `output_count` None means len(output_tensors)."""

    input_tensor: TensorDesc
    output_tensors: tuple[TensorDesc, ...]
    axis: int
    output_count: int | None = None

    operator = OPERATOR
    JSON_FIELDS = {"input_tensor": TENSOR, "output_tensors": TENSORS}

    def __post_init__(self) -> None:
        object.__setattr__(self, "output_tensors", tuple(self.output_tensors))
        # as_ints, not int(): an axis of 1.5 or True is refused, never truncated to 1.
        object.__setattr__(self, "axis", as_ints((self.axis,), "axis")[0])
        if self.output_count is None:
            object.__setattr__(self, "output_count", len(self.output_tensors))

    @property
    def dimension_count(self) -> int:
        return self.input_tensor.dimension_count

    def struct_fields(self) -> dict:
        """The C struct's fields besides its tensor descs: DimensionCount (the tensors'), Axis, OutputCount."""
        return {"dimension_count": self.dimension_count, "axis": self.axis, "output_count": self.output_count}

    @property
    def input_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.input_tensor,)

    @property
    def tensors(self) -> dict[str, TensorDesc]:
        named = {"input_tensor": self.input_tensor}
        named.update({f"output_tensors[{j}]": t for j, t in enumerate(self.output_tensors)})
        return named

    @property
    def output_sizes(self) -> tuple[int, ...]:
        """Each output's size along Axis (the `output_sizes` of oracle.split)."""
        return tuple(t.sizes[self.axis] for t in self.output_tensors)


DESCRIPTOR = SplitDesc


def validate(desc: SplitDesc, feature_level: FeatureLevel) -> None:
    n = desc.dimension_count
    check_count_and_axis(desc.output_count, desc.output_tensors, "output_count", desc.axis, n, ("SPLIT.5", "SPLIT.5"))
    check_sizes(desc.input_tensor, "input_tensor")
    for j, tensor in enumerate(desc.output_tensors):
        name = f"output_tensors[{j}]"
        if tensor.dimension_count != n:
            fail(
                f"{name} has DimensionCount={tensor.dimension_count}, but input_tensor has {n}",
                "SPLIT.2",
                f"{name}.sizes",
            )
        check_sizes(tensor, name)
        check_same_type_and_rank(desc.input_tensor, "input_tensor", tensor, name)
    check_support(OPERATOR, TABLES, desc.tensors, n, feature_level)
    check_pieces(
        desc.input_tensor,
        "input_tensor",
        desc.output_tensors,
        "output_tensors",
        desc.axis,
        ("SPLIT.2", "SPLIT.3"),
        "output_tensors",
    )


def unspecified(desc: SplitDesc) -> list[str]:
    return []


def bases(desc: SplitDesc) -> list[int]:
    """Where each output starts along Axis: the running sum of the sizes before it."""
    return [int(b) for b in np.cumsum((0, *desc.output_sizes[:-1]))]


def source(desc: SplitDesc, j: int, c: Sequence[int]) -> tuple[int, ...]:
    base = bases(desc)[j]
    return tuple(k + base if d == desc.axis else k for d, k in enumerate(c))


def index_maps(desc: SplitDesc) -> list[list[core.Affine]]:
    """One list of per-axis maps for each output: base + k along Axis, k elsewhere."""
    return [
        [core.Affine(base if d == desc.axis else 0, 1, n) for d, n in enumerate(t.sizes)]
        for base, t in zip(bases(desc), desc.output_tensors)
    ]


def compute_literal(desc: SplitDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    dt = desc.input_tensor.data_type
    return [
        core.copy_elementwise(x, dt, t.sizes, functools.partial(source, desc, j))
        for j, t in enumerate(desc.output_tensors)
    ]


def compute(desc: SplitDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    (x,) = inputs
    return [core.strided_copy(x, desc.input_tensor.data_type, maps) for maps in index_maps(desc)]


def explain(desc: SplitDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    (x,) = inputs
    lines = []
    for j, (base, t) in enumerate(zip(bases(desc), desc.output_tensors)):
        offset = tuple(base if d == desc.axis else 0 for d in range(desc.dimension_count))
        for c in core.output_coordinates(t.sizes):
            src = source(desc, j, c)
            lines.append(
                f"OutputTensors[{j}][{','.join(map(str, c))}] = {core.fmt_coord(offset)} + {core.fmt_coord(c)} = "
                f"Input[{core.fmt_coord(src)}] = {core.fmt_value(x[src])}"
            )
    return lines

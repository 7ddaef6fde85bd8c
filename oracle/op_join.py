"""DML_JOIN_OPERATOR_DESC (beyond the seed pages: docs/spec/beyond-seeds.md, JOIN.*): concatenate the
inputs along Axis, in order.  The inverse of DML_SPLIT (SPLIT.6, JOIN.6).

Output[c] = InputTensors[j][c - base_j along Axis], where base_j = the sizes of inputs before j
and j is the input whose stretch along Axis holds c.
"""

from __future__ import annotations

import bisect
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

OPERATOR = "JOIN"
PAGE_ORDER = 6  # its place in the registry (oracle.registry): the pages' order, then the ones past them
TABLES = OperatorTables(
    support=(  # JOIN.7, the page's table
        SupportRow(FeatureLevel.FL_4_1, RANKS_1_8, ALL_DATA_TYPES),
        SupportRow(FeatureLevel.FL_3_0, (4, 5), FL30_TYPES),
        SupportRow(FeatureLevel.FL_2_1, (4,), FL30_TYPES),
        SupportRow(FeatureLevel.FL_1_0, (4,), types("FLOAT32, FLOAT16, INT32, INT16, UINT32, UINT16")),
    ),
    support_clause="JOIN.7",
    dimension_count_clause="JOIN.7",
    introduced=(FeatureLevel.FL_1_0, "JOIN.7"),
    clause_prefix="JOIN.",
)


@dataclass(frozen=True)
class JoinDesc(JsonDescriptor):
    """Mirrors DML_JOIN_OPERATOR_DESC; `input_count` None means len(input_tensors)."""

    input_tensors: tuple[TensorDesc, ...]
    output_tensor: TensorDesc
    axis: int
    input_count: int | None = None

    operator = OPERATOR
    JSON_FIELDS = {"input_tensors": TENSORS, "output_tensor": TENSOR}

    def __post_init__(self) -> None:
        object.__setattr__(self, "input_tensors", tuple(self.input_tensors))
        object.__setattr__(self, "axis", as_ints((self.axis,), "axis")[0])
        if self.input_count is None:
            object.__setattr__(self, "input_count", len(self.input_tensors))

    @property
    def input_tensor(self) -> TensorDesc:
        """The first input: what a case's data type and rank are read from (JOIN.5 makes them every input's)."""
        return self.input_tensors[0] if self.input_tensors else self.output_tensor

    @property
    def dimension_count(self) -> int:
        return self.output_tensor.dimension_count

    @property
    def tensors(self) -> dict[str, TensorDesc]:
        named = {f"input_tensors[{j}]": t for j, t in enumerate(self.input_tensors)}
        named["output_tensor"] = self.output_tensor
        return named

    def struct_fields(self) -> dict:
        """The C struct's fields besides its tensor descs: DimensionCount (the tensors'), Axis, InputCount."""
        return {"dimension_count": self.dimension_count, "axis": self.axis, "input_count": self.input_count}

    @property
    def output_tensors(self) -> tuple[TensorDesc, ...]:
        return (self.output_tensor,)

    @property
    def input_sizes(self) -> tuple[int, ...]:
        """Each input's size along Axis."""
        return tuple(t.sizes[self.axis] for t in self.input_tensors)


DESCRIPTOR = JoinDesc


def validate(desc: JoinDesc, feature_level: FeatureLevel) -> None:
    n = desc.dimension_count
    check_count_and_axis(desc.input_count, desc.input_tensors, "input_count", desc.axis, n, ("JOIN.2", "JOIN.4"))
    check_sizes(desc.output_tensor, "output_tensor")
    for j, tensor in enumerate(desc.input_tensors):
        check_sizes(tensor, f"input_tensors[{j}]")
        check_same_type_and_rank(desc.output_tensor, "output_tensor", tensor, f"input_tensors[{j}]")
    check_support(OPERATOR, TABLES, desc.tensors, n, feature_level)
    check_pieces(
        desc.output_tensor,
        "output_tensor",
        desc.input_tensors,
        "input_tensors",
        desc.axis,
        ("JOIN.3", "JOIN.3"),
        "output_tensor.sizes",
    )


def unspecified(desc: JoinDesc) -> list[str]:
    return []


def bases(desc: JoinDesc) -> list[int]:
    """Where each input starts along Axis in the output: the running sum of the sizes before it."""
    return [int(b) for b in np.cumsum((0, *desc.input_sizes[:-1]))]


def source(desc: JoinDesc, c: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """(j, coordinate in InputTensors[j]) of output coordinate `c`, as the page's pseudocode lays them out."""
    starts = bases(desc)
    j = bisect.bisect_right(starts, c[desc.axis]) - 1
    return j, tuple(k - starts[j] if d == desc.axis else k for d, k in enumerate(c))


def index_maps(desc: JoinDesc) -> list[list[core.Affine]]:
    """Per input, per axis, where its elements go: input index k -> output index base_j + k along Axis, k
    elsewhere (SPLIT's maps read the other way: JOIN writes through them where SPLIT reads)."""
    return [
        [core.Affine(base if d == desc.axis else 0, 1, n) for d, n in enumerate(t.sizes)]
        for base, t in zip(bases(desc), desc.input_tensors)
    ]


def compute_literal(desc: JoinDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Element by element: each output coordinate looks up its input (the reference for `compute`)."""
    dt = desc.output_tensor.data_type
    raw = np.empty(desc.output_tensor.sizes, dtype=dt.bits)
    sources = [core.as_bits(x, dt) for x in inputs]
    for c in core.output_coordinates(desc.output_tensor.sizes):
        j, src = source(desc, c)
        raw[c] = sources[j][src]
    return [core.from_bits(raw, dt)]


def compute(desc: JoinDesc, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each input copied whole into its stretch along Axis (raw bits: NaN payloads and -0.0 survive)."""
    dt = desc.output_tensor.data_type
    raw = np.empty(desc.output_tensor.sizes, dtype=dt.bits)
    for maps, x in zip(index_maps(desc), inputs):
        where = tuple(m.as_slice() for m in maps)
        raw[where] = core.as_bits(x, dt)
    return [core.from_bits(raw, dt)]


def explain(desc: JoinDesc, inputs: Sequence[np.ndarray]) -> list[str]:
    lines = []
    for c in core.output_coordinates(desc.output_tensor.sizes):
        j, src = source(desc, c)
        lines.append(
            f"OutputTensor[{','.join(map(str, c))}] = InputTensors[{j}][{core.fmt_coord(src)}] = "
            f"{core.fmt_value(inputs[j][src])}"
        )
    return lines

"""DML_SCATTER_ND cases (beyond the seed pages, SCATND.*): a valid builder, the index tuples' values, its corners,
and the families that break its rules.

The meaningful dimensions (InputDimensionCount, IndicesDimensionCount; the leading ones past them 1), the tuple
size k and the tuples' batch are drawn so that the updates fit the DimensionCount (SCATND.4).  The tuples are drawn
here (`inputs`): mostly distinct (every element judged), some repeated (U-SCATND-1), some negative where the type
is signed (SCATND.3), and a minority outside the input (U-SCATND-2: the output open, the guard bytes judged).
"""

from __future__ import annotations

import dataclasses

import numpy as np

import oracle
from oracle import DataType, FeatureLevel, ScatterNdDesc, TensorDesc
from oracle.op_scatter_nd import INDICES_TABLES, indices_types, page_formula_updates_sizes
from oracle.tables import UINT_MAX

from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    choose_config,
    common_families,
    descriptor_of,
    input_tensor,
    one_output_common_1,
    set_at,
    sizes_in_budget,
    with_descriptor,
)

OPERATOR = "SCATTER_ND"
DESCRIPTOR = ScatterNdDesc

VALID_CLAUSES = (
    "COMMON.1",
    "COMMON.2",
    "COMMON.3",
    "SCATND.1",
    "SCATND.2",
    "SCATND.4",
    "SCATND.5",
    "SCATND.6",
    "SCATND.7",
    "SCATND.8",
    "SCATND.9",
    "SCATND.10",
)
INDEX_DRAWS = ("distinct", "repeats", "negative", "outside")
INDEX_DRAW_WEIGHTS = (0.6, 0.15, 0.15, 0.1)


def build(ch: Chooser, cfg: Config) -> ScatterNdDesc:
    """A valid descriptor for `cfg`: the input inside the budget with its ignored leading sizes 1, a tuple size k
    up to its meaningful dimensions, a batch of tuples that leaves the updates room in the DimensionCount."""
    n = cfg.rank
    sizes = sizes_in_budget(ch, cfg)
    idc = ch.integer(1, n)
    sizes = [1] * (n - idc) + sizes[n - idc :]
    k = ch.integer(1, idc)
    ixdc = ch.integer(1, min(n, n - (idc - k) + 1))  # (IndicesDimensionCount - 1) + (idc - k) <= n: SCATND.4
    batch = [ch.integer(1, 3) for _ in range(ixdc - 1)]
    space = int(np.prod(sizes[n - idc :][:k]))  # the targets a tuple can name: more tuples than that must repeat
    for i in range(len(batch)):  # mostly no more tuples than targets (now and then more: then two must meet)
        if int(np.prod(batch)) > space and not ch.rare(8):
            batch[i] = 1
    indices_sizes = (1,) * (n - ixdc) + (*batch, k)
    indices_type = ch.choice(indices_types(cfg.feature_level))
    return oracle.scatter_nd_desc(TensorDesc(cfg.data_type, tuple(sizes)), indices_sizes, idc, ixdc, indices_type)


def _tuple_dims(desc: ScatterNdDesc) -> tuple[int, ...]:
    n = desc.input_tensor.dimension_count
    return desc.input_tensor.sizes[n - desc.input_dimension_count :][: desc.tuple_size]


def indices_values(ch: Chooser, desc: ScatterNdDesc) -> np.ndarray:
    """IndicesTensor's tuples, drawn as INDEX_DRAWS says (one seed)."""
    t = desc.indices_tensor
    dims = np.asarray(_tuple_dims(desc), dtype=np.int64)
    count = int(np.prod(t.sizes)) // desc.tuple_size
    space = int(np.prod(dims))
    signed = np.issubdtype(t.data_type.numpy, np.signedinteger)
    how = ch.choice(INDEX_DRAWS, INDEX_DRAW_WEIGHTS)
    if how == "distinct" and count > space:
        how = "repeats"
    if how == "negative" and not signed:
        how = "distinct" if count <= space else "repeats"
    ch.event(f"indices {how}")
    rng = np.random.Generator(np.random.PCG64(ch.integer(0, 2**32 - 1)))
    if how == "distinct":
        flat = rng.permutation(space)[:count]
    else:
        flat = rng.integers(0, space, count)
    values: np.ndarray = np.stack(np.unravel_index(flat, tuple(int(d) for d in dims)), axis=1).astype(np.int64)
    if how == "negative":
        values = np.where(rng.random(values.shape) < 0.5, values - dims, values)
    elif how == "outside":
        top = int(np.iinfo(t.data_type.numpy).max)
        far = np.asarray([*(int(d) for d in dims)], dtype=object)
        picks = np.where(rng.random(values.shape) < 0.5, far[None, :] * np.ones_like(values, dtype=object), top)
        values = np.where(rng.random(values.shape) < 0.25, picks, values.astype(object))
    return np.asarray(np.asarray(values).tolist(), dtype=object).astype(t.data_type.numpy).reshape(t.sizes)


def inputs(ch: Chooser, desc: ScatterNdDesc) -> tuple[np.ndarray, ...]:
    """The data and the updates filled as every operator's, the tuples drawn (`indices_values`)."""
    x = input_tensor(ch, desc.input_tensor.data_type, desc.input_tensor.sizes)
    indices = indices_values(ch, desc)
    updates = input_tensor(ch, desc.updates_tensor.data_type, desc.updates_tensor.sizes)
    return (x, indices, updates)


def for_level(desc: ScatterNdDesc, level: FeatureLevel) -> ScatterNdDesc:
    """An invalid case's base at its own level: UINT32 indices where the level's table does not take theirs."""
    t = desc.indices_tensor
    if t.data_type in indices_types(level) or INDICES_TABLES.row(level) is None:
        return desc
    return dataclasses.replace(desc, indices_tensor=dataclasses.replace(t, data_type=DataType.UINT32))


def corners(desc: ScatterNdDesc) -> list[str]:
    found = []
    if desc.tuple_size == desc.input_dimension_count:
        found.append("tuples address single elements")
    if desc.input_dimension_count < desc.input_tensor.dimension_count:
        found.append("ignored leading input dimensions")
    if desc.indices_tensor.data_type is not DataType.UINT32:
        found.append(f"{desc.indices_tensor.data_type.value} indices")
    return found


def extra_clauses(desc: ScatterNdDesc) -> list[str]:
    return ["SCATND.3"] if np.issubdtype(desc.indices_tensor.data_type.numpy, np.signedinteger) else []


def _rebuilt(d: ScatterNdDesc, input_sizes, indices_sizes) -> ScatterNdDesc:
    return oracle.scatter_nd_desc(
        TensorDesc(d.input_tensor.data_type, tuple(input_sizes)),
        indices_sizes,
        d.input_dimension_count,
        d.indices_dimension_count,
        d.indices_tensor.data_type,
    )


def _common_2(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """A meaningful input size of 0 (the others' with it: only COMMON.2 breaks)."""
    d = descriptor_of(base, ScatterNdDesc)
    n = d.input_tensor.dimension_count
    i = ch.integer(n - d.input_dimension_count, n - 1)
    return with_descriptor(base, _rebuilt(d, set_at(d.input_tensor.sizes, i, 0), d.indices_tensor.sizes))


def _tuple_too_long(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """A tuple size past InputDimensionCount (the updates as they were)."""
    d = descriptor_of(base, ScatterNdDesc)
    sizes = set_at(d.indices_tensor.sizes, d.indices_tensor.dimension_count - 1, d.input_dimension_count + 1)
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=TensorDesc(d.indices_tensor.data_type, sizes)))


def _updates_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """UpdatesTensor sized by the page's printed formula where it differs (E-SCATND-1), else one larger."""
    d = descriptor_of(base, ScatterNdDesc)
    printed = page_formula_updates_sizes(d)
    if len(printed) == d.updates_tensor.dimension_count and printed != d.updates_tensor.sizes:
        sizes = printed
    else:
        sizes = set_at(d.updates_tensor.sizes, 0, d.updates_tensor.sizes[0] + 1)
    return with_descriptor(base, dataclasses.replace(d, updates_tensor=TensorDesc(d.updates_tensor.data_type, sizes)))


def _output_sizes(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, ScatterNdDesc)
    i = ch.integer(0, d.output_tensor.dimension_count - 1)
    out = TensorDesc(d.output_tensor.data_type, set_at(d.output_tensor.sizes, i, d.output_tensor.sizes[i] + 1))
    return with_descriptor(base, dataclasses.replace(d, output_tensor=out))


def _input_count(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """InputDimensionCount 0, past the DimensionCount, or past UINT."""
    d = descriptor_of(base, ScatterNdDesc)
    n = d.input_tensor.dimension_count
    return with_descriptor(base, dataclasses.replace(d, input_dimension_count=ch.choice((0, n + 1, UINT_MAX + 1))))


def _indices_count(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """IndicesDimensionCount 0, past the DimensionCount, or past UINT."""
    d = descriptor_of(base, ScatterNdDesc)
    n = d.input_tensor.dimension_count
    return with_descriptor(base, dataclasses.replace(d, indices_dimension_count=ch.choice((0, n + 1, UINT_MAX + 1))))


def _updates_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, ScatterNdDesc)
    dt = ch.choice([t for t in oracle.ALL_DATA_TYPES if t is not d.input_tensor.data_type])
    return with_descriptor(base, dataclasses.replace(d, updates_tensor=TensorDesc(dt, d.updates_tensor.sizes)))


def _rank(ch: Chooser, base: CaseSpec) -> CaseSpec:
    """IndicesTensor one dimension more than the data (a leading 1)."""
    d = descriptor_of(base, ScatterNdDesc)
    t = TensorDesc(d.indices_tensor.data_type, (1, *d.indices_tensor.sizes))
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=t))


def _indices_type(ch: Chooser, base: CaseSpec) -> CaseSpec:
    d = descriptor_of(base, ScatterNdDesc)
    allowed = indices_types(base.feature_level)
    dt = ch.choice([t for t in oracle.ALL_DATA_TYPES if t not in allowed])
    return with_descriptor(base, dataclasses.replace(d, indices_tensor=TensorDesc(dt, d.indices_tensor.sizes)))


def _indices_type_config(ch: Chooser, operator: str) -> Config:
    levels = [fl for fl in FeatureLevel if INDICES_TABLES.row(fl) is not None]
    return choose_config(ch, operator, feature_level=ch.choice(levels))


def families() -> list[Family]:
    """One family per validation rule, in a fixed order (the generator draws from it by index)."""
    return [
        *common_families(OPERATOR, one_output_common_1, _common_2),
        Family("tuple size past InputDimensionCount", "SCATND.2", _tuple_too_long),
        Family("updates' sizes not SCATND.4's", "SCATND.4", _updates_sizes),
        Family("output sizes not the input's", "SCATND.5", _output_sizes),
        Family("InputDimensionCount out of range", "SCATND.6", _input_count),
        Family("IndicesDimensionCount out of range", "SCATND.7", _indices_count),
        Family("indices of another DimensionCount", "SCATND.8", _rank),
        Family("updates' data type not the input's", "SCATND.8", _updates_type),
        Family("indices' data type unsupported at level", "SCATND.10", _indices_type, _indices_type_config),
    ]

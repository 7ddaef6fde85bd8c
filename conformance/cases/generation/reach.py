"""The reach set: every operator at the extremes of every count and rank it takes, at small sizes.

Random generation rarely reaches the ends of a dimension: a SPLIT drawn from axes of at most 12
never has more than 8 outputs, and rank 1 or rank 8 in one particular data type comes up a few
times in thousands.  A bug that lives only there (outputs past the eighth lost, rank 8 refused,
a FLOAT64 path through float32 at rank 1) then slips through every default run.  These cases
are made on purpose, the same in every run (no seed), and are part of the quick and full
profiles:

- every operator in every data type at rank 1 and at rank 8 (PADDING and PADDING1: in every mode),
  at the oldest feature level that supports it;
- SPLIT into REACH_SPLIT_COUNTS outputs (9 up to 256: past 8, 16, 32, 64 and 128), size-1 and
  uneven pieces, each count in another data type; JOIN of as many inputs, the same way;
- every value class of every parameter (a PaddingValue's -0.0, NaN payloads, range ends; strides,
  offsets, sizes, axes and counts) in every data type: conformance.cases.generation.value_reach.

Ids are names (`SPLIT-reach-outputs-65-INT8`, `PADDING-reach-rank8-EDGE-UINT16`): they never
change meaning.  Each case is built by the operators' own builders (conformance.cases.generation),
driven by a generator seeded from its name, so it is valid by construction.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib

import numpy as np

import oracle
from oracle import DataType, TensorDesc
from oracle.registry import min_feature_level
from oracle.tables import ALL_DATA_TYPES, MAX_RANK

from ..corpus import Case
from .common import CaseSpec, Config, RngChooser, input_tensor, modes, set_at
from .corpus import case_from_spec
from .operators import build_valid
from .value_reach import value_class_specs

SOURCE = "the reach set (conformance/cases/generation/reach.py)"
REACH_RANKS = (1, MAX_RANK)
# SPLIT output counts past every power of two a backend might size a table by.
REACH_SPLIT_COUNTS = (9, 16, 17, 32, 33, 64, 65, 100, 128, 256)
# Elements per case at most: small, so the set costs a fraction of a second in a run.
REACH_ELEMENTS = 256


def _chooser(name: str) -> RngChooser:
    seed = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")
    return RngChooser(np.random.Generator(np.random.PCG64(seed)))


def _named(spec: CaseSpec, name: str) -> Case:
    case = case_from_spec(spec, SOURCE, name)
    return dataclasses.replace(case, tags=(*case.tags, "reach"))


def _rank_cases() -> list[Case]:
    out = []
    for operator in oracle.OPERATORS:
        has_mode = "padding_mode" in {f.name for f in dataclasses.fields(oracle.DESCRIPTOR_TYPES[operator])}
        for rank in REACH_RANKS:
            for data_type in ALL_DATA_TYPES:
                for mode in modes(max(oracle.FeatureLevel)) if has_mode else [None]:
                    level = min_feature_level(operator, data_type, rank, mode)
                    if level is None:
                        continue  # the tables never allow it: the invalid families cover that
                    label = f"rank{rank}" + (f"-{mode.value}" if mode else "") + f"-{data_type.value}"
                    name = f"{operator}-reach-{label}"
                    cfg = Config(operator, data_type, rank, level, mode, max_elements=REACH_ELEMENTS)
                    out.append(_named(build_valid(_chooser(name), cfg), name))
    return out


def _split_case(count: int, data_type: DataType, uneven: bool) -> Case:
    name = f"SPLIT-reach-outputs-{count}-{data_type.value}" + ("-uneven" if uneven else "")
    ch = _chooser(name)
    rank = 1 + count % 3  # 1-D, 2-D or 3-D
    axis = rank - 1 - count % rank
    pieces = [1 + (j % 3 if uneven else 0) for j in range(count)]
    sizes = [1 + (d % 2) for d in range(rank)]
    sizes[axis] = sum(pieces)
    desc = oracle.split_desc(TensorDesc(data_type, tuple(sizes)), axis, pieces)
    level = min_feature_level("SPLIT", data_type, rank)
    assert level is not None, f"SPLIT {data_type.value} rank {rank} has no feature level"
    x = input_tensor(ch, data_type, tuple(sizes))
    return _named(CaseSpec("SPLIT", level, desc, (x,)), name)


def _join_case(count: int, data_type: DataType, uneven: bool) -> Case:
    name = f"JOIN-reach-inputs-{count}-{data_type.value}" + ("-uneven" if uneven else "")
    ch = _chooser(name)
    rank = 1 + count % 3
    axis = count % rank  # another axis than SPLIT's for the same count
    sizes = [1 + (d % 2) for d in range(rank)]
    ins = [TensorDesc(data_type, tuple(set_at(sizes, axis, 1 + (j % 3 if uneven else 0)))) for j in range(count)]
    desc = oracle.join_desc(ins, axis)
    level = min_feature_level("JOIN", data_type, rank)
    assert level is not None, f"JOIN {data_type.value} rank {rank} has no feature level"
    xs = tuple(input_tensor(ch, data_type, t.sizes) for t in ins)
    return _named(CaseSpec("JOIN", level, desc, xs), name)


def _count_cases() -> list[Case]:
    """SPLIT into, and JOIN of, every count of REACH_SPLIT_COUNTS."""
    types = ALL_DATA_TYPES
    return [
        make(count, types[(i * 5 + uneven) % len(types)], bool(uneven))
        for make in (_split_case, _join_case)
        for i, count in enumerate(REACH_SPLIT_COUNTS)
        for uneven in (0, 1)
    ]


@functools.cache
def reach_cases() -> tuple[Case, ...]:
    """The whole reach set, in a fixed order (made once per process: a few hundred small cases)."""
    cases = _rank_cases() + _count_cases() + [_named(spec, name) for name, spec in value_class_specs()]
    ids = [c.id for c in cases]
    assert len(set(ids)) == len(ids), "reach case names must be unique"
    return tuple(cases)

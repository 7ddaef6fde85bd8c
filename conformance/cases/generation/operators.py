"""The operators' generation modules as one table (GENERATORS), and the entry points over it.

Each module (slice, slice1, padding, split, padding1, join) provides what `OperatorGeneration` names;
tests/test_structure.py checks that every operator of oracle.registry has one.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

import numpy as np

import oracle
from oracle import FeatureLevel

from . import layouts
from .common import (
    CaseSpec,
    Chooser,
    Config,
    Family,
    Quiet,
    choose_config,
    common_corners,
    input_tensor,
    unsupported_rank_config,
    unsupported_type_config,
)


class OperatorGeneration(Protocol):
    """What one operator's generation module provides (`desc` is its own DESCRIPTOR class)."""

    @property
    def OPERATOR(self) -> str: ...
    @property
    def DESCRIPTOR(self) -> type: ...
    @property
    def VALID_CLAUSES(self) -> tuple[str, ...]: ...

    def build(self, ch: Chooser, cfg: Config) -> Any: ...

    def corners(self, desc: Any) -> list[str]: ...

    def extra_clauses(self, desc: Any) -> list[str]: ...

    def families(self) -> list[Family]: ...

    # Optional: `inputs(ch, desc) -> tuple[np.ndarray, ...]`, the input arrays when an input's values are
    # parameters, not data (REVERSE_SUBSEQUENCES' SequenceLengthsTensor); see input_values.  And
    # `for_level(desc, level) -> desc`: an invalid case's base (built at the newest level) fitted to the case's
    # level where a field's types follow the level (REVERSE_SUBSEQUENCES' lengths type); see build_invalid.


REQUIRED = ("OPERATOR", "DESCRIPTOR", "VALID_CLAUSES", "build", "corners", "extra_clauses", "families")

# Each operator's module of this package, named after it (slice1.py for SLICE1): found, not listed.
GENERATORS: dict[str, OperatorGeneration] = oracle.registry.layer_modules(__package__, "generation")

# Operator -> its invalid families, in the order the generator draws them by index.
INVALID_FAMILIES: dict[str, list[Family]] = {
    op: [*GENERATORS[op].families(), *layouts.families()] for op in oracle.OPERATORS if op in GENERATORS
}


def build_valid(ch: Chooser, cfg: Config) -> CaseSpec:
    """A valid case for `cfg`: descriptor and inputs (one per input tensor desc) drawn through `ch`."""
    module = GENERATORS[cfg.operator]
    desc = layouts.maybe_lay_out(ch, module.build(ch, cfg))
    xs = tuple(layouts.conform(x, t) for x, t in zip(input_values(ch, desc), desc.input_tensors, strict=True))
    for label in corners(desc):
        ch.event(label)
    return CaseSpec(cfg.operator, cfg.feature_level, desc, xs)


def input_values(ch: Chooser, desc: oracle.Descriptor) -> tuple[np.ndarray, ...]:
    """One array per input tensor desc: the module's own `inputs(ch, desc)` where its values mean something
    (REVERSE_SUBSEQUENCES' lengths), else each filled as data in its own data type."""
    own = getattr(GENERATORS[desc.operator], "inputs", None)
    if own is not None:
        return tuple(own(ch, desc))
    return tuple(input_tensor(ch, t.data_type, t.sizes) for t in desc.input_tensors)


def corners(desc: oracle.Descriptor) -> list[str]:
    """The interesting corners a descriptor reaches (issue 3's list), as short labels."""
    kind = oracle.layout.desc_kind(desc)
    found = [*common_corners(desc), *GENERATORS[desc.operator].corners(desc)]
    return found + ([f"{kind} layout"] if kind != "packed" else [])


def case_clauses(spec: CaseSpec) -> list[str]:
    """The clauses a case exercises: the one it breaks, or those its valid descriptor exercises."""
    if spec.clause is not None:
        return [spec.clause]
    module = GENERATORS[spec.operator]
    return sorted([*module.VALID_CLAUSES, *module.extra_clauses(spec.descriptor), *layouts.clauses(spec.descriptor)])


def build_invalid(ch: Chooser, operator: str, family: Family) -> CaseSpec:
    """A valid base case, broken by `family` so that validation reports exactly `family.clause`."""
    cfg = (family.config or choose_config)(ch, operator)
    # The base is built at the newest level so that it is valid; the config's level, which may be
    # older (support-table families), is where the case is judged.
    base_cfg = dataclasses.replace(cfg, feature_level=max(FeatureLevel))
    base = build_valid(Quiet(ch), base_cfg)  # the base's corners are not this case's
    if not family.clause.startswith("LAYOUT."):  # a seed page's rule is broken on packed tensors
        desc = base.descriptor
        packed = layouts.with_tensors(
            desc, [t.logical for t in desc.input_tensors], [t.logical for t in desc.output_tensors]
        )
        base = dataclasses.replace(base, descriptor=packed)
    refit = getattr(GENERATORS[operator], "for_level", None)  # a field whose allowed values follow the level
    if refit is not None:
        base = dataclasses.replace(base, descriptor=refit(base.descriptor, cfg.feature_level))
    broken = family.mutate(ch, dataclasses.replace(base, feature_level=cfg.feature_level))
    tags = list(broken.tags)
    row_levels = {row.level for row in oracle.SUPPORT[operator]}
    if family.config in (unsupported_type_config, unsupported_rank_config) and cfg.feature_level not in row_levels:
        tags.append("U-ALL-1")  # a level between table rows: it inherits the row below
    ch.event(f"invalid: {family.clause} {family.name}")
    return dataclasses.replace(broken, clause=family.clause, family=family.name, tags=tuple(tags))

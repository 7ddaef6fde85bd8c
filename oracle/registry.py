"""The operators, one module each: what every part of the suite derives from.

An operator is one `op_*.py` module of this package (op_slice, op_slice1, op_padding, op_split,
op_padding1, op_join) that implements `OperatorModule`; REGISTRY finds them, in their PAGE_ORDER.
The operator list, the support tables, clause prefixes and case-id patterns are derived here, and
the other layers find their module of each operator by its name (`layer_modules`), so adding an
operator is adding its modules (docs/adding-an-operator.md), not editing lists.
tests/test_structure.py checks every registered operator has all its parts.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol, cast

import numpy as np

from . import op_padding
from .tables import DataType, FeatureLevel, OperatorTables, SupportRow, beyond_seeds


class OperatorModule(Protocol):
    """What an operator module provides.  `desc` is its own DESCRIPTOR class (Any here: each
    module's functions take their concrete class, which a Protocol over all of them cannot name)."""

    @property
    def OPERATOR(self) -> str: ...
    @property
    def DESCRIPTOR(self) -> type: ...
    @property
    def TABLES(self) -> OperatorTables: ...

    def validate(self, desc: Any, feature_level: FeatureLevel) -> None: ...

    def compute(self, desc: Any, inputs: Sequence[np.ndarray]) -> list[np.ndarray]: ...

    def compute_literal(self, desc: Any, inputs: Sequence[np.ndarray]) -> list[np.ndarray]: ...

    def explain(self, desc: Any, inputs: Sequence[np.ndarray]) -> list[str]: ...

    def unspecified(self, desc: Any) -> list[str]: ...

    def index_maps(self, desc: Any) -> list[Any]: ...


# The names every protocol member has: tests/test_structure.py checks each module has them all.
REQUIRED = (
    "OPERATOR",
    "DESCRIPTOR",
    "TABLES",
    "validate",
    "compute",
    "compute_literal",
    "explain",
    "unspecified",
    "index_maps",
)


def _register(*modules: OperatorModule) -> dict[str, OperatorModule]:
    return {m.OPERATOR: m for m in modules}


def _discover() -> list[OperatorModule]:
    """Every `op_*.py` of this package, ordered by its PAGE_ORDER: adding an operator is adding its module."""
    found = []
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name.startswith("op_"):
            found.append(importlib.import_module(f"{__package__}.{info.name}"))
    return cast(list[OperatorModule], sorted(found, key=lambda m: m.PAGE_ORDER))


# Operator name as the suite spells it (case files, ids, reports) -> its module, in the pages' order.
REGISTRY: dict[str, OperatorModule] = _register(*_discover())


def layer_modules(package: str, what: str) -> dict[str, Any]:
    """Operator -> the module of `package` named after it in lower case (conformance/lowering/slice1.py for
    SLICE1): how the other layers find an operator's module without a list to edit.  A missing one is an
    ImportError naming the file to write."""
    out = {}
    for operator in REGISTRY:
        try:
            out[operator] = importlib.import_module(f"{package}.{operator.lower()}")
        except ModuleNotFoundError as e:
            raise ImportError(
                f"DML_{operator} has no {what} module: write {package.replace('.', '/')}/{operator.lower()}.py "
                "(docs/adding-an-operator.md)"
            ) from e
    return out


OPERATORS: tuple[str, ...] = tuple(REGISTRY)
DESCRIPTOR_TYPES: dict[str, type] = {name: m.DESCRIPTOR for name, m in REGISTRY.items()}
SUPPORT: dict[str, tuple[SupportRow, ...]] = {name: m.TABLES.support for name, m in REGISTRY.items()}
# Other names of an operator, from its module's optional ALIASES (DirectML.h's DML_SCATTER_ELEMENTS_OPERATOR_DESC is
# DML_SCATTER_OPERATOR_DESC): the one table `--operators`, the pytest plugin's option and the docs read.
ALIASES: dict[str, str] = {alias: name for name, m in REGISTRY.items() for alias in getattr(m, "ALIASES", ())}


def canonical(name: str) -> str:
    """The suite's name of an operator given by it or one of its ALIASES (SCATTER_ELEMENTS -> SCATTER)."""
    return ALIASES.get(name, name)


# Case ids: OPERATOR-<8 hex digits> (content hash) or OPERATOR-<name> (curated); longest name first
# so that SLICE1-... is never read as SLICE followed by "1-...".
_ALTERNATIVES = "|".join(sorted(OPERATORS, key=len, reverse=True))
HASH_ID_PATTERN = rf"^({_ALTERNATIVES})-([0-9a-f]{{8}})$"
NAMED_ID_PATTERN = rf"^({_ALTERNATIVES})-[A-Za-z0-9][A-Za-z0-9._-]*$"


def operator_module(operator: str) -> OperatorModule:
    """The module of `operator`; KeyError naming the known ones otherwise."""
    try:
        return REGISTRY[operator]
    except KeyError:
        raise KeyError(f"operator {operator!r} is not one of {', '.join(OPERATORS)}") from None


def beyond_seed_pages(operator: str, clauses: Iterable[str] = ()) -> bool:
    """Whether a case of `operator` citing `clauses` tests what lies past the four seed pages (DML_PADDING1,
    WRAP, DML_JOIN: docs/spec/beyond-seeds.md), so that reports give it a verdict of its own.  Unknown operators: False."""
    key = (operator, *clauses)
    found = _BEYOND.get(key)
    if found is None:
        module = REGISTRY.get(operator)
        found = _BEYOND[key] = (module is not None and beyond_seeds(module.TABLES.clause_prefix)) or any(
            map(beyond_seeds, clauses)
        )
    return found


# beyond_seed_pages by operator and clauses: a report asks it of every record several times; the cases cite a few
# hundred different clause lists.
_BEYOND: dict[tuple[str, ...], bool] = {}


def support_row(operator: str, level: FeatureLevel) -> SupportRow | None:
    """The row in force at `level` (the newest row not newer than it), or None before the operator exists."""
    return operator_module(operator).TABLES.row(level)


def min_feature_level(
    operator: str, data_type: DataType, rank: int, padding_mode: op_padding.PaddingMode | None = None
) -> FeatureLevel | None:
    """The oldest table level that supports this data type and rank, and the padding mode if one is given
    (SYMMETRIC came later, PAD.3; WRAP later still, WRAP.1); None if no level does."""
    level = operator_module(operator).TABLES.min_level(data_type, rank)
    if level is not None and padding_mode in op_padding.MODE_INTRODUCED:
        level = max(level, op_padding.MODE_INTRODUCED[padding_mode][0])
    return level

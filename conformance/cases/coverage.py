"""Clause and errata coverage: which cases carry each clause id and each register entry.

The report's clause-coverage matrix counts run records with `carried_by` (the same rule, applied
to what a results file holds); tests/cases/test_coverage.py
fails if any clause of oracle.tables.CLAUSES or entry of oracle.errata.ERRATA has no case.
A case carries a clause if it lists it in "clauses" or breaks it ("expected.clause"); it
carries a register entry if it lists it in "tags" or "unspecified".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from oracle import CLAUSES, ERRATA

if TYPE_CHECKING:  # cases are only read here: coverage is computed for the report from records too
    from .corpus import Case


@dataclass(frozen=True)
class Coverage:
    clauses: dict[str, list[str]]  # clause id -> case ids, every id of CLAUSES present
    errata: dict[str, list[str]]  # register id -> case ids, every id of ERRATA present

    @property
    def uncovered_clauses(self) -> list[str]:
        return [c for c, ids in self.clauses.items() if not ids]

    @property
    def uncovered_errata(self) -> list[str]:
        return [e for e, ids in self.errata.items() if not ids]


def carried_by(
    items: Iterable[tuple[str, Iterable[str], str | None]], clause_ids: Iterable[str]
) -> dict[str, list[str]]:
    """Each clause id (in the given order, then any other carried) mapped to the ids carrying it.

    `items` are (id, clauses listed, clause broken or None): a case or a run's record.
    """
    out: dict[str, list[str]] = {c: [] for c in clause_ids}
    for id_, clauses, broken in items:
        carried = set(clauses)
        if broken:
            carried.add(broken)
        for clause in sorted(carried):
            out.setdefault(clause, []).append(id_)
    return out


def clause_coverage(cases: Iterable[Case]) -> dict[str, list[str]]:
    """Every clause id of oracle.CLAUSES (in its order) mapped to the ids of the cases carrying it."""
    return carried_by(((c.id, c.clauses, c.expected.clause) for c in cases), CLAUSES)


def errata_coverage(cases: Iterable[Case]) -> dict[str, list[str]]:
    """Every register id of oracle.ERRATA mapped to the ids of the cases that show its decision."""
    out: dict[str, list[str]] = {e: [] for e in ERRATA}
    for case in cases:
        for entry in sorted((set(case.tags) | set(case.unspecified)) & set(ERRATA)):
            out[entry].append(case.id)
    return out


def coverage(cases: Iterable[Case]) -> Coverage:
    cases = list(cases)
    return Coverage(clause_coverage(cases), errata_coverage(cases))

"""Clause and errata coverage: which cases carry each clause id and each register entry.

The report's clause-coverage matrix reads `clause_coverage`; tests/cases/test_coverage.py
fails if any clause of oracle.tables.CLAUSES or entry of oracle.errata.ERRATA has no case.
A case carries a clause if it lists it in "clauses" or breaks it ("expected.clause"); it
carries a register entry if it lists it in "tags" or "unspecified".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from oracle import CLAUSES, ERRATA

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


def clause_coverage(cases: Iterable[Case]) -> dict[str, list[str]]:
    """Every clause id of oracle.CLAUSES (in its order) mapped to the ids of the cases carrying it."""
    out: dict[str, list[str]] = {c: [] for c in CLAUSES}
    for case in cases:
        carried = set(case.clauses)
        if case.expected.clause:
            carried.add(case.expected.clause)
        for clause in sorted(carried):
            out.setdefault(clause, []).append(case.id)
    return out


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

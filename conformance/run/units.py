"""The units of work a run is made of: a case, or a batch of live Hypothesis examples of one operator.

Each unit has an id (a case id, or `hypothesis-OPERATOR`) and a position in the run's full
selection (`index`), which every record keeps so that workers, shards and resumed runs all
report in one stable order.  `blank_record` is what a record says about its unit before
anything ran: category `interrupted` until the executor sets the real one.

A worker sends back only what it found out about a case (`outcome_of`); the parent, which holds the case,
completes the record with what the case says of itself (`completed`).  So the case's facts (data type,
layout, descriptor JSON, ...) are made once, in the parent, and never pickled back.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, fields

import oracle

from ..cases.compositions import Composition
from ..cases.corpus import Case
from ..cases.stress import StressCase
from .record import Category, Record

LIVE_SOURCE = "hypothesis (live)"


@dataclass(frozen=True)
class LiveUnit:
    """`examples` live Hypothesis examples of `operator`, drawn from `seed`; one record for all of them."""

    operator: str
    examples: int
    seed: int

    @property
    def id(self) -> str:
        return f"hypothesis-{self.operator}"


Unit = Case | LiveUnit | StressCase | Composition


@dataclass(frozen=True)
class Work:
    """A unit and its position in the run's full selection."""

    index: int
    unit: Unit

    @property
    def id(self) -> str:
        return self.unit.id


def blank_record(work: Work, feature_level: str = "", *, facts: bool = True) -> Record:
    """The record of a unit before anything ran; without `facts`, the case's id, operator and index only (a
    worker's record, which its parent completes: `completed`)."""
    unit = work.unit
    if not facts and not isinstance(unit, LiveUnit):
        return Record(unit.id, unit.operator, Category.INTERRUPTED, index=work.index)
    if isinstance(unit, LiveUnit):
        return Record(
            unit.id,
            unit.operator,
            Category.INTERRUPTED,
            data_type="*",
            feature_level=feature_level,
            outcome="valid",
            tags=["hypothesis"],
            source=LIVE_SOURCE,
            index=work.index,
            hypothesis=True,
        )
    first = oracle.case_tensor(unit.descriptor)  # what the unit's data_type and rank read, read once
    return Record(
        unit.id,
        unit.operator,
        Category.INTERRUPTED,
        data_type=first.data_type.value,
        rank=first.dimension_count,
        layout=oracle.layout.desc_kind(unit.descriptor),
        feature_level=str(unit.feature_level),
        outcome=unit.expected.outcome,
        clauses=list(unit.clauses),
        tags=list(unit.tags),
        unspecified=list(unit.unspecified),
        source=unit.path or unit.source,
        index=work.index,
        descriptor=oracle.descriptor_to_json(unit.descriptor),
    )


# What blank_record fills in from the unit itself (and a worker's record leaves at its default); a worker
# sends every other field (`outcome_of`), in this order.
FACTS = frozenset(
    {"id", "operator", "data_type", "rank", "layout", "feature_level", "outcome", "clauses", "tags", "unspecified"}
    | {"source", "index", "descriptor"}
)
FOUND = tuple(f.name for f in fields(Record) if f.name not in FACTS)
_found = operator.attrgetter(*FOUND)


def outcome_of(record: Record) -> tuple:
    """What a case's record (made by `blank_record(work, facts=False)`) says beyond the case's own facts: what a
    worker sends its parent, which makes the record again with `completed`.  A tuple of FOUND's values: cheaper
    to make, pickle and read than the record or a dict."""
    return _found(record)


def completed(work: Work, outcome: Record | tuple) -> Record:
    """The record a worker's answer for `work` stands for: a whole Record as it is (a live unit's, whose
    facts are its failing example's), or an `outcome_of` on the case's blank record."""
    if isinstance(outcome, Record):
        return outcome
    record = blank_record(work)
    vars(record).update(zip(FOUND, outcome))
    return record

"""The units of work a run is made of: a case, or a batch of live Hypothesis examples of one operator.

Each unit has an id (a case id, or `hypothesis-OPERATOR`) and a position in the run's full
selection (`index`), which every record keeps so that workers, shards and resumed runs all
report in one stable order.  `blank_record` is what a record says about its unit before
anything ran: category `interrupted` until the executor sets the real one.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def blank_record(work: Work, feature_level: str = "") -> Record:
    unit = work.unit
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
    return Record(
        unit.id,
        unit.operator,
        Category.INTERRUPTED,
        data_type=unit.data_type.value,
        rank=unit.rank,
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

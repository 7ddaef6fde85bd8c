"""One pass over a run's records: what the report's sections count, counted once and shared.

Each section used to walk every record itself (the verdict four times, the heat maps three, the
clauses, the errata, the filters, the cases table once each): a quick run's 7,852 records were
walked about fifteen times, and that, not the markup, was most of the report's time.  Here each
record is read once: what varies per record (its id, clauses, reason) is gathered as it comes;
what the counts depend on goes into one key per record, and a run of thousands of records has a
few hundred distinct keys, which the sections then sum as they need.  Reads results records only.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from ..run.record import Category, Record, Verdict, fails_run
from ..run.results import Results
from .failures import shown_in_failures


class Kind(NamedTuple):
    """What the counts depend on of a record: records alike in all of it are counted together."""

    operator: str
    data_type: str
    rank: int
    layout: str  # "" in files written before layouts existed (all packed)
    category: Category
    beyond: bool  # Record.beyond_seed_pages
    hypothesis: bool  # with data type "*": a live-Hypothesis summary record, standing for many runs
    reached: str | None
    outcome: str
    waived_but_passed: bool

    @property
    def summary(self) -> bool:
        """A live-Hypothesis summary record: it stands for many runs and names no one case's operator."""
        return self.hypothesis and self.data_type == "*"


@dataclass
class Tally:
    """A run's records, read once: the kinds counted, and the records each section lists."""

    records: list[Record]
    kinds: Counter[Kind] = field(default_factory=Counter)
    # (the clauses a record cites, its category): cases, keys in the order of their first record
    cited: Counter[tuple[tuple[str, ...], Category]] = field(default_factory=Counter)
    # (the clauses a record cites, the clause it breaks): the records' ids
    carried: dict[tuple[tuple[str, ...], str | None], list[str]] = field(default_factory=dict)
    # a record's unspecified entries and tags, in one tuple: the records' positions
    entries: dict[tuple[str, ...], list[int]] = field(default_factory=dict)
    # the unsupported cases by (operator, reason, data type), and the observed ones matching the suite's policy by
    # (operator, their unspecified entries, data type)
    unsupported: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    observed: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    listed: list[Record] = field(default_factory=list)  # the cases table's own rows: each case needing a look
    flaky: list[Record] = field(default_factory=list)  # flaky, or waived and flaky before
    shown: list[Record] = field(default_factory=list)  # the failures section's (failures.shown_in_failures)

    def categories(self) -> Counter[Category]:
        out: Counter[Category] = Counter()
        for k, n in self.kinds.items():
            out[k.category] += n
        return out

    def clauses(self) -> dict[str, Counter[str]]:
        """Each clause the records cite, in the order first cited: its cases by category (a clause cited twice by
        a record counts twice, as the records say)."""
        out: dict[str, Counter[str]] = {}
        for (cited, category), n in self.cited.items():  # first cited first: keys keep their first record's order
            for c in cited:
                counter = out.get(c)
                if counter is None:
                    counter = out[c] = Counter()
                counter[category.value] += n
        return out

    def carriers(self) -> dict[str, set[str]]:
        """Each clause mapped to the ids of the records citing or breaking it (coverage.carried_by's rule)."""
        out: dict[str, set[str]] = defaultdict(set)
        for (cited, broken), ids in self.carried.items():
            for c in {*cited, broken} if broken else set(cited):
                out[c].update(ids)
        return out

    def hits(self, entries: Iterable[str]) -> dict[str, list[Record]]:
        """Each of `entries` (errata register ids) mapped to the records listing it as unspecified or as a tag,
        in the records' order."""
        wanted = dict.fromkeys(entries)
        positions: dict[str, list[int]] = {e: [] for e in wanted}
        for key, found in self.entries.items():
            for entry in dict.fromkeys(key):
                if entry in wanted:
                    positions[entry] += found
        return {e: [self.records[k] for k in sorted(p)] for e, p in positions.items()}

    def verdict(self, run: Results, beyond_seed_pages: bool | None = None) -> Verdict:
        """Results.verdict from the counts: FAIL over INCOMPLETE over UNTESTED over PASS, of the whole run or of
        one part (the cases past the four seed pages, or the pages' own)."""
        seen = {k.category for k in self.kinds if beyond_seed_pages is None or k.beyond is beyond_seed_pages}
        if run.header.input_errors or any(fails_run(c, run.header.flaky_fails) for c in seen):
            return Verdict.FAIL
        interrupted = any(k.category is Category.INTERRUPTED for k in self.kinds)
        if run.footer is None or run.footer.interrupted or run.footer.stopped or run.missing_shards or interrupted:
            return Verdict.INCOMPLETE
        if not any(c.executed for c in seen):
            return Verdict.UNTESTED
        return Verdict.PASS


def tally(run: Results) -> Tally:
    """Read `run`'s records once (see the module's docstring)."""
    t = Tally(run.records)
    kinds: list[tuple] = []  # Kind's fields: a plain tuple per record, a Kind per distinct one
    cited: list[tuple[tuple[str, ...], Category]] = []
    carried, entries = t.carried, t.entries
    beyond: dict[tuple[str, tuple[str, ...]], bool] = {}  # Record.beyond_seed_pages by operator and clauses
    PASS, UNSUPPORTED, OBSERVED, FLAKY = Category.PASS, Category.UNSUPPORTED, Category.OBSERVED, Category.FLAKY
    for k, r in enumerate(run.records):
        cat, operator, clauses = r.category, r.operator, tuple(r.clauses)
        apart = beyond.get((operator, clauses))
        if apart is None:
            apart = beyond[(operator, clauses)] = r.beyond_seed_pages
        kinds.append(
            (
                operator,
                r.data_type,
                r.rank,
                r.layout,
                cat,
                apart,
                r.hypothesis,
                r.reached_operator,
                r.outcome,
                r.waived_but_passed,
            )
        )
        cited.append((clauses, cat))
        key = (clauses, r.expected_clause)
        if key in carried:
            carried[key].append(r.id)
        else:
            carried[key] = [r.id]
        if r.unspecified or r.tags:
            listing = (*r.unspecified, *r.tags)
            if listing in entries:
                entries[listing].append(k)
            else:
                entries[listing] = [k]
        # The cases table: passes are summed by kind, unsupported cases by reason, observed ones matching the
        # suite's policy by errata entry; every other case is a row of its own.
        if cat is UNSUPPORTED:
            t.unsupported[(operator, r.reason, r.data_type)] += 1
        elif cat is OBSERVED and r.observed is not None and r.observed.matches_policy:
            t.observed[(operator, ", ".join(r.unspecified), r.data_type)] += 1
        elif cat is not PASS or r.waived_but_passed:
            t.listed.append(r)
        if cat is FLAKY or r.waived_category is FLAKY:
            t.flaky.append(r)
        if cat is not PASS and cat is not UNSUPPORTED and shown_in_failures(r):  # neither is ever shown
            t.shown.append(r)
    t.kinds = Counter({Kind(*k): n for k, n in Counter(kinds).items()})
    t.cited = Counter(cited)
    return t

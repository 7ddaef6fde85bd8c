"""The report's regression view: two runs of the same identity compared, what changed first.

A regression is a later run of the same thing getting worse: the same backend on the same
DirectML.dll, adapter, driver and OS (conformance.run.identity, its fingerprint).  For each run
whose identity an earlier run (given before it) shares, the cases are compared with the latest
such earlier run: new failures (a case that now fails the run and did not), fixes (a case that
failed and now does not), and other changed categories (fail -> crash, pass -> unsupported...).
Nightly runs of one driver given in date order read as a history.  Runs of different identities
(DirectML 1.13.1 and 1.15.4, two GPUs, one machine's GPU and NPU) are not one thing getting better or worse: the
comparison grid compares them, and the view says which runs of one backend it left apart, and why.
Python computes the changes here; templates/report/regression.html.j2 draws them.  Reads
results records only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..run.identity import identity as identity_of
from ..run.record import Category, Record, fails_run
from ..run.results import Results

MAX_ROWS = 500
AT_A_GLANCE = 8  # rows shown open; the rest are in a <details>
KINDS = (("new", "New failures"), ("fixed", "Fixed"), ("changed", "Changed categories"))


@dataclass(frozen=True)
class Change:
    case_id: str
    before: str  # the category, or "absent"
    after: str
    reason: str


@dataclass(frozen=True)
class ChangeTable:
    kind: str  # new, fixed or changed
    title: str
    total: int
    glance: tuple[Change, ...]  # the first AT_A_GLANCE, shown open
    folded: tuple[Change, ...]  # the rest up to MAX_ROWS, one click away

    @property
    def unlisted(self) -> int:
        return self.total - len(self.glance) - len(self.folded)


@dataclass(frozen=True)
class Pair:
    before: int  # run indices
    after: int
    backend: str
    tables: tuple[ChangeTable, ...]

    def count(self, kind: str) -> int:
        return next(t.total for t in self.tables if t.kind == kind)


@dataclass(frozen=True)
class Apart:
    """Runs of one backend not regressed against each other: their identities differ in `fields`."""

    before: int
    after: int
    backend: str
    fields: tuple[str, ...]


def _failing(record: Record | None, run: Results) -> bool:
    return record is not None and fails_run(record.category, run.header.flaky_fails)


def _category(record: Record | None) -> str:
    return record.category.value if record is not None else "absent"


def _reason(record: Record | None) -> str:
    return record.reason[:240] if record is not None else ""


def changes(before: Results, after: Results) -> dict[str, list[tuple[str, Record | None, Record | None]]]:
    """The cases of `after` (and `before`) whose category changed: new failures, fixes, other changes."""
    old = {r.id: r for r in before.records}
    new = {r.id: r for r in after.records}
    out: dict[str, list[tuple[str, Record | None, Record | None]]] = {"new": [], "fixed": [], "changed": []}
    for case_id in [*new, *(i for i in old if i not in new)]:
        a, b = old.get(case_id), new.get(case_id)
        if _category(a) == _category(b):
            continue
        if _failing(b, after) and not _failing(a, before):
            out["new"].append((case_id, a, b))
        elif (
            _failing(a, before) and b is not None and not _failing(b, after) and b.category is not Category.INTERRUPTED
        ):
            out["fixed"].append((case_id, a, b))
        else:
            out["changed"].append((case_id, a, b))
    return out


def identity_of_run(run: Results) -> dict[str, str]:
    """The run's identity: the header's, or (a results file written before identities) made from its versions."""
    return run.header.identity or identity_of(run.backend, run.header.backend_versions, run.header.platform)


def pairs(runs: list[Results]) -> list[tuple[int, int]]:
    """(earlier, later) run indices: each run with the latest earlier run of the same identity."""
    prints = [identity_of_run(run).get("fingerprint") for run in runs]
    out = []
    for j in range(len(runs)):
        earlier = [i for i in range(j) if prints[i] == prints[j]]
        if earlier:
            out.append((earlier[-1], j))
    return out


def apart(runs: list[Results]) -> list[Apart]:
    """Each run of a backend an earlier run also ran, on another identity, with the fields that differ."""
    ids = [identity_of_run(run) for run in runs]
    out = []
    for j, run in enumerate(runs):
        same_backend = [i for i in range(j) if runs[i].backend == run.backend]
        if same_backend and not any(ids[i].get("fingerprint") == ids[j].get("fingerprint") for i in same_backend):
            i = same_backend[-1]
            names = dict.fromkeys([*ids[i], *ids[j]])
            fields = tuple(n for n in names if n != "fingerprint" and ids[i].get(n) != ids[j].get(n))
            out.append(Apart(i, j, run.backend, fields))
    return out


def _table(kind: str, title: str, rows: list[tuple[str, Record | None, Record | None]]) -> ChangeTable:
    shown = tuple(Change(c, _category(a), _category(b), _reason(b or a)) for c, a, b in rows[:MAX_ROWS])
    return ChangeTable(kind, title, len(rows), shown[:AT_A_GLANCE], shown[AT_A_GLANCE:])


def regression_pairs(runs: list[Results]) -> list[Pair]:
    """Every (earlier, later) pair of one identity with its new failures, fixes and other changes."""
    out = []
    for i, j in pairs(runs):
        found = changes(runs[i], runs[j])
        out.append(Pair(i, j, runs[j].backend, tuple(_table(k, title, found[k]) for k, title in KINDS)))
    return out

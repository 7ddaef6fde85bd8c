"""`dml-conformance history`: a case's category across many runs of one backend, transitions only.

A vendor runs the suite on every driver build (or DirectML version); what they need from fifty runs
is not fifty reports but the few cases whose category changed, when, and which of them flip back and
forth.  History reads results files only (conformance.run.results.read_outcomes: the fields it
needs, fast enough for fifty full-profile runs) and lists:

- each case whose category changed between two runs where it ran, with its category in every run,
  the first run where it changed, the runs where it regressed (from not failing to failing) and where
  it was fixed (back); a waived case counts as failing there (a known failure: fail -> waived is a change,
  neither a fix nor a regression);
- as a candidate flake, a case that came back to a category it had left and then left it again
  (pass, fail, pass, fail), or that a run recorded as `flaky`; a regression later fixed (pass, fail,
  pass) is not one;
- per operator and per data type, how many cases changed, regressed, were fixed, may be flaky.

A case missing from a run (another profile, a filter, a newer corpus) or interrupted there is
*absent* in that run: shown, never a change.  Runs of different identities (another driver,
another DirectML version) are the point: each run shows its identity's short form, and what
changed in it since the run before.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from ..run.identity import identity as identity_of
from ..run.identity import short as identity_short
from ..run.record import Category, Header
from ..run.results import Outcome, Outcomes
from .render import render_page, write_page

# --order: how the runs are put in sequence, and how the history says it.
ORDERS = {"time": "by start time", "label": "by label", "given": "as given"}
# One character per category in a case's sequence (the terminal, and a page of many runs): upper case
# for the categories that fail a run, `.` for pass, `-` for a run the case is absent from.
LETTERS = {
    Category.PASS: ".",
    Category.FAIL: "F",
    Category.REJECTED: "R",
    Category.ERROR: "E",
    Category.CRASH: "C",
    Category.TIMEOUT: "T",
    Category.UNSUPPORTED: "u",
    Category.OBSERVED: "o",
    Category.WAIVED: "w",
    Category.FLAKY: "k",
    Category.INTERRUPTED: "i",
}
ABSENT = "-"
# Runs up to this many: a page shows each cell's category in full; more, its letter (the title says it all).
WORDS_UP_TO = 10


def _broken(category: Category) -> bool:
    """Failing, or waived: a waived case is a known failure, so fail -> waived is neither a fix nor a regression."""
    return category.failing or category is Category.WAIVED


# The runs where a case regressed (or was fixed) named at most; the rest counted.
MAX_NAMED_RUNS = 4
# A page lists at most this many changed cases (fifty runs of this many rows is already 15 MB of HTML);
# the terminal lists all with --limit 0.
MAX_PAGE_CHANGES = 5000


class HistoryError(ValueError):
    """Runs that make no history: fewer than two, of several backends, one given twice, no start time."""


@dataclass
class RunColumn:
    """One run, as a column of the history."""

    number: int  # 1-based, in the history's order
    label: str
    started: str
    identity: str  # its short form (conformance.run.identity.short)
    identity_changes: list[tuple[str, str, str]]  # (field, in the run before, in this one)
    profile: str
    cases: int
    path: str
    notes: list[str]


@dataclass
class Change:
    """A case whose category changed: its category in each run (None: absent there) and its transitions."""

    id: str
    operator: str
    data_type: str
    categories: list[Category | None]
    reasons: list[str]
    first_changed: int  # the index of the first run whose category differs from the one before it
    regressed: list[int]  # indexes of the runs where it went from not failing to failing
    fixed: list[int]  # ... and from failing to not failing
    flake: bool

    @property
    def letters(self) -> str:
        return "".join(ABSENT if c is None else LETTERS[c] for c in self.categories)


@dataclass
class Tally:
    cases: int = 0
    changed: int = 0
    regressed: int = 0
    fixed: int = 0
    flakes: int = 0

    def add(self, change: Change | None) -> None:
        self.cases += 1
        if change is not None:
            self.changed += 1
            self.regressed += bool(change.regressed)
            self.fixed += bool(change.fixed)
            self.flakes += change.flake


@dataclass
class History:
    backend: str
    order: str
    runs: list[RunColumn]
    changes: list[Change]  # by first changed run, then id
    absent: int  # cases absent from (or interrupted in) at least one run
    total: Tally = field(default_factory=Tally)
    by_operator: dict[str, Tally] = field(default_factory=dict)
    by_data_type: dict[str, Tally] = field(default_factory=dict)


# --- the runs -------------------------------------------------------------------------------------


def _started(run: Outcomes) -> datetime.datetime:
    text = run.header.started
    try:
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S%z")
    except ValueError:
        raise HistoryError(
            f"{run.path}: the header's start time started={text!r} is not a time; order the runs by "
            "--order label or --order given"
        ) from None


def _natural(label: str) -> list[str | int]:
    """'build-9' before 'build-10', driver 31.0.101.4502 before 31.0.101.5186."""
    return [int(part) if i % 2 else part.lower() for i, part in enumerate(re.split(r"(\d+)", label))]


def order_runs(runs: Sequence[Outcomes], order: str) -> list[Outcomes]:
    """The runs by start time (the default), by label (numbers in it compared as numbers), or as given;
    ties keep the order given."""
    if order == "given":
        return list(runs)
    if order == "time":
        times = {id(r): _started(r) for r in runs}
        return sorted(runs, key=lambda r: times[id(r)])
    if order == "label":
        return sorted(runs, key=lambda r: _natural(r.label))
    raise HistoryError(f"--order {order!r}: expected one of {', '.join(ORDERS)}")


def check_runs(runs: Sequence[Outcomes]) -> None:
    """HistoryError unless these are two or more distinct runs of one backend."""
    backends: dict[str, list[str]] = {}
    for run in runs:
        backends.setdefault(run.header.backend, []).append(run.path)
    if len(backends) > 1:
        listed = "; ".join(f"{name} ({', '.join(paths)})" for name, paths in backends.items())
        raise HistoryError(f"history follows one backend across runs; these are runs of {len(backends)}: {listed}")
    if len(runs) < 2:
        given = f" ({runs[0].path}; shards of one run are one run)" if runs else ""
        raise HistoryError(f"history needs at least 2 runs; {len(runs)} given{given}")
    seen: dict[str, str] = {}
    for run in runs:
        key = run.header.run_id or str(Path(run.path).resolve())
        if key in seen:
            raise HistoryError(
                f"{run.path} is the same run as {seen[key]} (run_id {run.header.run_id!r}): give it once"
            )
        seen[key] = run.path


def run_identity(header: Header) -> dict[str, str]:
    """The run's identity (files written before identities: made from the versions and platform it recorded)."""
    return header.identity or identity_of(header.backend, header.backend_versions, header.platform)


def _identity_changes(before: dict[str, str], after: dict[str, str]) -> list[tuple[str, str, str]]:
    names = [n for n in dict.fromkeys([*before, *after]) if n != "fingerprint"]
    return [(n, before.get(n, ""), after.get(n, "")) for n in names if before.get(n) != after.get(n)]


def _columns(runs: Sequence[Outcomes]) -> list[RunColumn]:
    columns = []
    previous: dict[str, str] | None = None
    for number, run in enumerate(runs, start=1):
        ident = run_identity(run.header)
        columns.append(
            RunColumn(
                number,
                run.label,
                run.header.started,
                identity_short(ident),
                _identity_changes(previous, ident) if previous is not None else [],
                run.header.profile,
                len(run.records),
                run.path,
                list(run.notes),
            )
        )
        previous = ident
    return columns


# --- the changes ----------------------------------------------------------------------------------


def _change(case_id: str, seq: list[Outcome | None]) -> Change | None:
    """The case's change across the runs, or None if it kept one category wherever it ran."""
    ran = [(i, o.category) for i, o in enumerate(seq) if o is not None and o.category is not Category.INTERRUPTED]
    if len({c for _, c in ran}) < 2:
        return None
    steps = [(i, before, after) for (_, before), (i, after) in pairwise(ran) if before is not after]
    collapsed = [ran[0][1]] + [after for _, _, after in steps]
    # Back to a category it had left, then away from it again: not one change, a coin being tossed.
    flake = len(set(collapsed[:-1])) < len(collapsed) - 1 or any(c is Category.FLAKY for _, c in ran)
    known = next(o for o in reversed(seq) if o is not None)
    return Change(
        case_id,
        known.operator,
        known.data_type,
        [None if o is None else o.category for o in seq],
        ["" if o is None else o.reason for o in seq],
        steps[0][0],
        [i for i, before, after in steps if _broken(after) and not _broken(before)],
        [i for i, before, after in steps if _broken(before) and not _broken(after)],
        flake,
    )


def build_history(runs: Sequence[Outcomes], order: str = "time") -> History:
    """The history of `runs` (each one run: shards merged), in `order`; HistoryError if they make none."""
    check_runs(runs)
    ordered = order_runs(runs, order)
    by_id = [{o.id: o for o in run.records} for run in ordered]
    ids: dict[str, None] = {}
    for run in ordered:
        ids.update(dict.fromkeys(o.id for o in run.records))
    history = History(ordered[0].header.backend, order, _columns(ordered), [], 0)
    for case_id in ids:
        seq = [cases.get(case_id) for cases in by_id]
        change = _change(case_id, seq)
        known = change or next(o for o in seq if o is not None)
        history.total.add(change)
        history.by_operator.setdefault(known.operator, Tally()).add(change)
        history.by_data_type.setdefault(known.data_type or "?", Tally()).add(change)
        if any(o is None or o.category is Category.INTERRUPTED for o in seq):
            history.absent += 1
        if change is not None:
            history.changes.append(change)
    history.changes.sort(key=lambda c: (c.first_changed, c.id))
    history.by_operator = dict(sorted(history.by_operator.items()))
    history.by_data_type = dict(sorted(history.by_data_type.items()))
    return history


# --- the terminal ---------------------------------------------------------------------------------


def runs_named(indexes: list[int]) -> str:
    """'run 3', 'runs 2, 4', or the first few and how many more (a flake over fifty runs): the sequence has all."""
    named = ", ".join(str(i + 1) for i in indexes[:MAX_NAMED_RUNS])
    more = f" and {len(indexes) - MAX_NAMED_RUNS} more" if len(indexes) > MAX_NAMED_RUNS else ""
    return ("run " if len(indexes) == 1 else "runs ") + named + more


def _tally_tables(history: History) -> list[str]:
    """Per operator, then per data type, the rows with a change; one column width for both."""
    tables = [("operator", history.by_operator), ("data type", history.by_data_type)]
    rows = [(title, [(name, t) for name, t in tallies.items() if t.changed]) for title, tallies in tables]
    if not any(changed for _, changed in rows):
        return []
    width = max(len(name) for title, changed in rows for name in [title, *(n for n, _ in changed)])
    heads = ("cases", "changed", "regressed", "fixed", "flakes")
    lines = []
    for title, changed in rows:
        lines.append(f"  {title:<{width}}  " + "  ".join(f"{h:>9}" for h in heads))
        for name, t in changed:
            values = (t.cases, t.changed, t.regressed, t.fixed, t.flakes)
            lines.append(f"  {name:<{width}}  " + "  ".join(f"{v:>9}" for v in values))
    return lines


def history_text(history: History, limit: int = 40) -> str:
    """The history for a terminal: the runs, the counts, the tables, and the first `limit` changed cases
    (all with 0), one line each with its sequence of categories as letters."""
    out = [f"history: {len(history.runs)} runs of {history.backend}, {ORDERS[history.order]}"]
    for run in history.runs:
        line = f"  run {run.number}: {run.label}, {run.started or 'no start time'}; {run.identity}"
        if run.identity_changes:
            line += "; changed: " + ", ".join(
                f"{n} {a or '(none)'} -> {b or '(none)'}" for n, a, b in run.identity_changes
            )
        out.append(line)
    t = history.total
    out.append(
        f"{t.changed} of {t.cases} cases changed category ({t.regressed} regressed, {t.fixed} fixed, "
        f"{t.flakes} candidate flake{'s' if t.flakes != 1 else ''}); {history.absent} absent from some run "
        "(absent is not a change)"
    )
    out += _tally_tables(history)
    shown = history.changes if limit == 0 else history.changes[:limit]
    if shown:
        used = dict.fromkeys(ch for c in shown for ch in c.letters)
        legend = {v: k.value for k, v in LETTERS.items()} | {ABSENT: "absent"}
        out.append("changed cases (" + ", ".join(f"{ch} {legend[ch]}" for ch in legend if ch in used) + "):")
        width = max(len(c.id) for c in shown)
        for c in shown:
            first = history.runs[c.first_changed]
            line = f"  {c.letters}  {c.id:<{width}}  first changed in run {first.number} ({first.label})"
            if c.regressed:
                line += f"; regressed in {runs_named(c.regressed)}"
            if c.fixed:
                line += f"; fixed in {runs_named(c.fixed)}"
            if c.flake:
                line += "; candidate flake"
            out.append(line)
    if len(shown) < len(history.changes):
        out.append(f"... {len(history.changes) - len(shown)} more changed cases (all: --limit 0, or the page: -o FILE)")
    return "\n".join(out)


# --- the page -------------------------------------------------------------------------------------


def history_page(history: History) -> str:
    return render_page(
        "history.html.j2",
        history=history,
        order=ORDERS[history.order],
        changes=history.changes[:MAX_PAGE_CHANGES],
        more=max(0, len(history.changes) - MAX_PAGE_CHANGES),
        words=len(history.runs) <= WORDS_UP_TO,
        letters={c.value: ch for c, ch in LETTERS.items()},
        runs_named=runs_named,
        absent=ABSENT,
    )


def write_history(history: History, path: str | Path) -> Path:
    """Write the page atomically (conformance.report.render.write_page); ReportError if it cannot."""
    return write_page(history_page(history), path, "the history")

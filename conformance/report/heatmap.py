"""The report's heat maps: operator × data type, × rank, × tensor layout, every run side by side.

One compact grid per key: a row per operator, a column per value (data type, rank or layout) and,
under each value, a narrow column per run, so 26 operators in 11 data types fit one screen (a row
per operator and value ran for screens) and a difference between runs is a change of colour
within a group, seen rather than searched for.  Each cell is coloured by the pass rate,
(pass + observed + flaky) / cases that ran, shows the failing cases (✗n) and nothing else; its
hover text has every count; unsupported cases are counted in the total, never as passes, and the
cell is hatched.  An operator whose cells differ between runs is marked, with the values that do.
Python computes the cells here; templates/report/heatmaps.html.j2 draws them.  Reads results
records only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..run.record import Category, fails_run
from ..run.results import Results
from .tally import Tally, tally

# The layout kinds (oracle.layout.kind) in the order a reader meets them.
LAYOUT_ORDER = ("packed", "padded", "permuted", "broadcast", "oversized", "overlapping", "malformed")
PASSING = frozenset({Category.PASS, Category.OBSERVED, Category.FLAKY})  # unless the category fails the run
KEYS = (("data_type", "data type"), ("rank", "rank"), ("layout", "tensor layout"))
_CATEGORY = {c.value: c for c in Category}


@dataclass(frozen=True)
class HeatCell:
    """One run's cases of one operator and value: what the cell shows, its colour and its hover text."""

    run: int
    ok: int
    total: int
    bad: int  # failing cases, as the run judged them (fails_run)
    klass: str  # cell-ok, cell-bad or cell-part
    colour: str  # the background: the pass rate of the cases that ran (grey when none could)
    rate: str  # data-rate: the pass rate to 4 places, "" when none could run
    hatched: bool  # some cases are unsupported
    title: str  # every category's count


@dataclass(frozen=True)
class HeatRow:
    operator: str
    cells: tuple[tuple[HeatCell | None, ...], ...]  # per value (the grid's columns), per run; None: no such case
    differs: tuple[str, ...]  # the values on which the runs' counts differ


@dataclass(frozen=True)
class HeatGrid:
    key: str  # the record field: data_type, rank or layout
    title: str
    values: tuple[str, ...]  # the columns, in the reader's order
    rows: tuple[HeatRow, ...]


def heat_colour(rate: float) -> str:
    """Red (0) through amber to green (1), light enough for dark text."""
    return f"hsl({round(120 * max(0.0, min(1.0, rate)))},70%,78%)"


def heat_cell(counts: Counter | None, flaky_fails: bool = False, run: int = 0) -> HeatCell | None:
    """One cell from its category counts (by category name); failing as the run judged it (fails_run)."""
    if not counts:
        return None
    total = sum(counts.values())
    unsupported = counts[Category.UNSUPPORTED.value]
    ran = total - unsupported
    bad = sum(n for k, n in counts.items() if fails_run(_CATEGORY[k], flaky_fails))
    ok = sum(n for k, n in counts.items() if _CATEGORY[k] in PASSING and not fails_run(_CATEGORY[k], flaky_fails))
    title = ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))
    if ran:
        colour, rate = heat_colour(ok / ran), f"{ok / ran:.4f}"
        title += f"; pass rate {100 * ok / ran:.1f}% of {ran} run"
    else:
        colour, rate = "#eee", ""
        title += "; none could run here"
    klass = "cell-bad" if bad else "cell-ok" if ok == total else "cell-part"
    return HeatCell(run, ok, total, bad, klass, colour, rate, bool(unsupported), title)


def legend() -> list[tuple[str, str]]:
    """(colour, label) for the pass rates the legend shows."""
    return [(heat_colour(rate), f"{round(rate * 100)}%") for rate in (0, 0.5, 0.9, 1)]


def _cells(t: Tally) -> Counter[tuple[str, str, str, str, str]]:
    """(operator, data type, rank, layout, category): cases, each value as its column names it ("" for rank 0,
    "packed" for no layout); live-Hypothesis summaries left out: one stands for many runs."""
    out: Counter[tuple[str, str, str, str, str]] = Counter()
    for k, n in t.kinds.items():
        if not k.summary:
            out[
                (k.operator, k.data_type or "", str(k.rank) if k.rank else "", k.layout or "packed", k.category.value)
            ] += n
    return out


def _values(runs: list[Results], seen: set[str], key: str) -> list[str]:
    """The values of `key` the grid has rows for, in the reader's order (the header's table, else sorted)."""
    if key == "data_type":
        listed = [str(v) for run in runs for v in run.header.tables.get("data_types") or []]
        return [v for v in dict.fromkeys(listed) if v in seen] + sorted(seen - set(listed))
    if key == "rank":
        return [str(v) for v in sorted(int(v) for v in seen if v)]
    return [k for k in LAYOUT_ORDER if k in seen] + sorted(seen - set(LAYOUT_ORDER))


def _operators(runs: list[Results], seen: set[str]) -> list[str]:
    listed = [str(op) for run in runs for op in run.header.tables.get("operators") or []]
    return [op for op in dict.fromkeys(listed) if op in seen] + sorted(seen - set(listed))


def heat_grid(runs: list[Results], cells: list[Counter], key: str, title: str) -> HeatGrid:
    """The grid of `key` (data_type, rank or layout): a row per operator, a column per value any run has cases of.
    `cells`: each run's _cells."""
    column = 1 + [k for k, _ in KEYS].index(key)
    counts: list[dict[tuple[str, str], Counter]] = []
    for by_kind in cells:
        by_cell: dict[tuple[str, str], Counter] = {}
        for kind, n in by_kind.items():
            cell = (kind[0], kind[column])
            counter = by_cell.get(cell)
            if counter is None:
                counter = by_cell[cell] = Counter()
            counter[kind[4]] = counter.get(kind[4], 0) + n
        counts.append(by_cell)
    rows: list[HeatRow] = []
    values = tuple(_values(runs, {v for by_cell in counts for _, v in by_cell}, key))
    for op in _operators(runs, {kind[0] for by_kind in cells for kind in by_kind}):
        row, differs = [], []
        for v in values:
            found = [c.get((op, v)) for c in counts]
            row.append(tuple(heat_cell(f, run.header.flaky_fails, i) for i, (f, run) in enumerate(zip(found, runs))))
            if len({tuple(sorted(f.items())) if f else () for f in found}) > 1:
                differs.append(v)
        if any(c for by_run in row for c in by_run):
            rows.append(HeatRow(op, tuple(row), tuple(differs)))
    return HeatGrid(key, title, values, tuple(rows))


def heat_grids(runs: list[Results], tallies: list[Tally] | None = None) -> list[HeatGrid]:
    """Operator × data type and × rank always; × tensor layout when a run had a layout other than packed."""
    tallies = tallies or [tally(run) for run in runs]
    cells = [_cells(t) for t in tallies]
    grids = [heat_grid(runs, cells, key, title) for key, title in KEYS[:2]]
    if any((k.layout or "packed") != "packed" for t in tallies for k in t.kinds):  # layouts: beyond the seeds
        grids.append(heat_grid(runs, cells, *KEYS[2]))
    return grids

"""The report's heat maps: operator × data type, × rank and × tensor layout, coloured by pass rate, hatched for
unsupported.

A cell's colour is its pass rate among the cases that ran (pass, observed and flaky count as
passing, flaky not when the run had --flaky-fails; unsupported ones did not run): red at 0 %, through amber, to green at 100 %.  Cells
with unsupported cases are hatched; a cell whose cases were all unsupported is only hatched.
The text is still (passing)/(total) and ✗n for failing cases, so the numbers stay readable
without colour.  Reads results records only.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from ..run.record import Category, fails_run
from ..run.results import Results
from .escape import esc

# The layout kinds (oracle.layout.kind) in the order a reader meets them.
LAYOUT_ORDER = ("packed", "padded", "permuted", "broadcast", "oversized", "overlapping", "malformed")
PASSING = frozenset({Category.PASS, Category.OBSERVED, Category.FLAKY})  # unless the category fails the run


def heat_colour(rate: float) -> str:
    """Red (0) through amber to green (1), light enough for dark text."""
    return f"hsl({round(120 * max(0.0, min(1.0, rate)))},70%,78%)"


def _cell(counts: Counter | None, flaky_fails: bool = False) -> str:
    """One cell from its category counts (by category name); failing as the run judged it (fails_run)."""
    if not counts:
        return '<td class="cell-none">–</td>'
    total = sum(counts.values())
    unsupported = counts[Category.UNSUPPORTED.value]
    ran = total - unsupported
    bad = sum(n for k, n in counts.items() if fails_run(Category(k), flaky_fails))
    ok = sum(n for k, n in counts.items() if Category(k) in PASSING and not fails_run(Category(k), flaky_fails))
    klass = "cell-bad" if bad else "cell-ok" if ok == total else "cell-part"
    title = ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))
    classes = f"{klass} heat num" + (" hatched" if unsupported else "")
    if ran:
        rate = ok / ran
        style = f' style="background-color:{heat_colour(rate)}"'
        data = f' data-rate="{rate:.4f}"'
        title += f"; pass rate {100 * rate:.1f}% of {ran} run"
    else:
        style, data = ' style="background-color:#eee"', ' data-rate=""'
        title += "; none could run here"
    extra = f" <b>✗{bad}</b>" if bad else ""
    return f'<td class="{classes}"{style}{data} title="{esc(title)}">{ok}/{total}{extra}</td>'


def heat_table(run: Results, i: int, name: str, key: str, values: list) -> str:
    """One run's operator × `key` (data_type or rank) heat map."""
    operators = list(run.header.tables.get("operators") or []) or sorted({r.operator for r in run.records})
    cells: dict[tuple, Counter] = defaultdict(Counter)
    for r in run.records:
        if r.hypothesis and r.data_type == "*":
            continue
        cells[(r.operator, getattr(r, key) or ("packed" if key == "layout" else ""))][r.category.value] += 1
    head = "".join(f"<th>{esc(v)}</th>" for v in values)
    flaky_fails = run.header.flaky_fails
    rows = [
        f"<tr><th>{esc(op)}</th>{''.join(_cell(cells.get((op, v)), flaky_fails) for v in values)}</tr>"
        for op in operators
    ]
    return (
        f'<table class="matrix heat" data-run="{i}" data-key="{esc(key)}"><tr><th>{esc(name)}</th>{head}'
        f"</tr>{''.join(rows)}</table>"
    )


def heat_maps(runs: list[Results], names: list[str]) -> str:
    legend = "".join(
        f'<span style="background-color:{heat_colour(rate)}">{round(rate * 100)}%</span>' for rate in (0, 0.5, 0.9, 1)
    )
    out = [
        "<h2 id='matrix'>Operator × data type, × rank, × tensor layout</h2><p>Each cell: (pass + observed + flaky) / "
        "total (flaky failing instead under --flaky-fails), coloured by the pass rate of the cases that ran; <b>✗n</b>: failing cases; hatched: some cases "
        "are unsupported (counted in the total, never as passes; grey and hatched: none could run). Hover for "
        f"every category.</p><p class='legend'>pass rate: {legend}"
        "<span class='hatched' style='background-color:#eee'>unsupported</span></p>"
    ]
    for i, run in enumerate(runs):
        types = list(run.header.tables.get("data_types") or []) or sorted({r.data_type for r in run.records})
        ranks = sorted({r.rank for r in run.records if r.rank})
        out.append(heat_table(run, i, names[i], "data_type", types))
        out.append(heat_table(run, i, names[i], "rank", ranks))
        seen = {r.layout or "packed" for r in run.records}
        if seen != {"packed"}:  # layouts are beyond the seed pages (LAYOUT.*): shown when the run had any
            out.append(heat_table(run, i, names[i], "layout", [k for k in LAYOUT_ORDER if k in seen]))
    return "".join(out)

"""The report's regression view: two runs of the same backend compared, what changed first.

For each run whose backend an earlier run (given before it) also ran, the cases are
compared with the latest such earlier run: new failures (a case that now fails the run and
did not), fixes (a case that failed and now does not), and other changed categories
(fail -> crash, pass -> unsupported...).  Nightly runs of one driver given in date order
read as a history.  Reads results records only.
"""

from __future__ import annotations

from ..run.record import Category, Record, fails_run
from ..run.results import Results
from .escape import esc

MAX_ROWS = 500
AT_A_GLANCE = 8  # rows shown open; the rest are in a <details>


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


def pairs(runs: list[Results]) -> list[tuple[int, int]]:
    """(earlier, later) run indices: each run with the latest earlier run of the same backend."""
    out = []
    for j, run in enumerate(runs):
        earlier = [i for i in range(j) if runs[i].backend == run.backend]
        if earlier:
            out.append((earlier[-1], j))
    return out


def _table(kind: str, title: str, rows: list[tuple[str, Record | None, Record | None]], names: tuple[str, str]) -> str:
    if not rows:
        return f"<h3>{esc(title)}: none</h3>"
    shown = [
        f"<tr data-id='{esc(case_id)}'><td>{esc(case_id)}</td><td class='c-{esc(_category(a))}'>"
        f"{esc(_category(a))}</td><td class='c-{esc(_category(b))}'>{esc(_category(b))}</td>"
        f"<td>{esc(_reason(b or a))}</td></tr>"
        for case_id, a, b in rows[:MAX_ROWS]
    ]
    head = f"<tr><th>case</th><th>{esc(names[0])}</th><th>{esc(names[1])}</th><th>reason</th></tr>"
    table = f"<table class='regression-{kind}'>{head}{''.join(shown[:AT_A_GLANCE])}</table>"
    if len(shown) > AT_A_GLANCE:  # the first few at a glance, the rest one click away
        table += (
            f"<details><summary>{len(shown) - AT_A_GLANCE} more</summary><table class='regression-{kind}'>{head}"
            f"{''.join(shown[AT_A_GLANCE:])}</table></details>"
        )
    more = f"<p>… {len(rows) - MAX_ROWS} more (the comparison grid and the results files have all)</p>"
    return f"<h3>{esc(title)}: {len(rows)}</h3>{table}{more if len(rows) > MAX_ROWS else ''}"


def regression_view(runs: list[Results], names: list[str]) -> str:
    """The section, or "" when no two runs share a backend."""
    blocks = []
    for i, j in pairs(runs):
        found = changes(runs[i], runs[j])
        both = (names[i], names[j])
        blocks.append(
            f"<div class='regression' data-before='{i}' data-after='{j}'><p><b>{esc(names[j])}</b> against "
            f"<b>{esc(names[i])}</b> ({esc(runs[j].backend)}): {len(found['new'])} new failure(s), "
            f"{len(found['fixed'])} fix(es), {len(found['changed'])} other change(s)</p>"
            + _table("new", "New failures", found["new"], both)
            + _table("fixed", "Fixed", found["fixed"], both)
            + _table("changed", "Changed categories", found["changed"], both)
            + "</div>"
        )
    if not blocks:
        return ""
    return (
        "<h2 id='regression'>Regressions</h2><p>Runs of the same backend compared with the run of it given before "
        "them: new failures first, then fixes, then other changed categories.</p>" + "".join(blocks)
    )

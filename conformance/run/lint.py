"""`dml-conformance expectations lint FILE`: an expectations file that cannot rot unnoticed.

Every waiver must name something the suite has (its id, or its prefix, matches a case of the full
profile; its `when.operator` and `when.data_type` match one of those cases), carry a tracker link
(unless --allow-untracked: a backend's shipped known issues are the suite's own documented deviations,
each citing its smallest case, and need none), and an `expires` date, when given, must be a date.
Run-time problems (a waiver that matched nothing in one run) stay the run's warnings; these are the
file's mistakes, found without running anything.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from ..judging.expectations import Expectations, Waiver, is_known_issue


@dataclass(frozen=True)
class CaseKey:
    id: str
    operator: str
    data_type: str


def full_profile_cases() -> list[CaseKey]:
    """Every case of the full profile (stored, reach, generated, graph compositions): what a waiver may name."""
    from .config import RunConfig
    from .selection import all_units

    units, _ = all_units(RunConfig(profile="full", hypothesis_examples=0))
    keys = [CaseKey(u.id, u.operator, u.data_type.value) for u in units if hasattr(u, "data_type")]
    return keys


def _names(value) -> set[str]:
    return set() if value is None else {value} if isinstance(value, str) else set(value)


def needs_tracker(w: Waiver) -> bool:
    """The tracker rule: a waiver names its bug, except a backend's shipped known issues (the suite's own
    documented deviations); read by `expectations lint` and by `verify` of a conformance package."""
    return not w.tracker and not is_known_issue(w.source)


def waiver_problems(i: int, w: Waiver, cases: Iterable[CaseKey], *, allow_untracked: bool) -> list[str]:
    where = f"$.waivers[{i}] ({w.pattern})"
    problems = []
    matched = [c for c in cases if w.matches(c.id)]
    if not matched:
        problems.append(
            f"{where}: {'id' if w.id is not None else 'prefix'} {w.pattern!r} matches no case of the suite's full profile"
        )
    else:
        ops, types = _names(w.when.get("operator")), _names(w.when.get("data_type"))
        if not any((not ops or c.operator in ops) and (not types or c.data_type in types) for c in matched):
            problems.append(
                f"{where}: when {dict((k, w.when[k]) for k in ('operator', 'data_type') if k in w.when)} matches none "
                f"of the {len(matched)} case(s) its {'id' if w.id is not None else 'prefix'} names"
            )
    if needs_tracker(w) and not allow_untracked:
        problems.append(f"{where}: no tracker link (give each waiver its bug, or lint with --allow-untracked)")
    if w.expires is not None:
        try:
            datetime.date.fromisoformat(w.expires)
        except ValueError:
            problems.append(f"{where}: expires={w.expires!r} is not a date (YYYY-MM-DD)")
    return problems


def lint(expectations: Expectations, cases: list[CaseKey], *, allow_untracked: bool = False) -> list[str]:
    """Every problem of the file, each naming its entry; [] when it is clean."""
    return [
        p
        for i, w in enumerate(expectations.waivers)
        for p in waiver_problems(i, w, cases, allow_untracked=allow_untracked)
    ]

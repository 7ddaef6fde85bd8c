"""`dml-conformance expectations lint FILE`: an expectations file that cannot rot unnoticed.

Every waiver must name something the suite has (its id, or its prefix, matches a case of the full
profile; its `when.operator` and `when.data_type` match one of those cases), carry a tracker link
(unless --allow-untracked: a backend's shipped known issues are the suite's own documented deviations,
each citing its smallest case, and need none), and an `expires` date, when given, must be a date.
A known flake (`when.category` flaky) carries `flaky_rate`, how often it failed (`baseline` fills it).
Run-time problems (a waiver that matched nothing in one run) stay the run's warnings; these are the
file's mistakes, found without running anything.  A run loading a vendor's file refuses it (exit 2) for the
same naming mistakes (`load_problems`): a typo would otherwise waive nothing, silently.
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
    from .selection import case_keys_of

    return [CaseKey(*key) for key in case_keys_of(RunConfig(profile="full", hypothesis_examples=0))]


def case_keys(units: Iterable) -> list[CaseKey]:
    """What a waiver is matched against, of each unit that is a case (a live Hypothesis batch is not)."""
    return [CaseKey(u.id, u.operator, u.data_type.value) for u in units if hasattr(u, "data_type")]


def _names(value) -> set[str]:
    return set() if value is None else {value} if isinstance(value, str) else set(value)


def matched_cases(w: Waiver, cases: Iterable[CaseKey]) -> tuple[list[CaseKey], list[CaseKey]]:
    """The cases the waiver's id or prefix names, and those of them its `when.operator`/`data_type` allow."""
    named = [c for c in cases if w.matches(c.id)]
    ops, types = _names(w.when.get("operator")), _names(w.when.get("data_type"))
    return named, [c for c in named if (not ops or c.operator in ops) and (not types or c.data_type in types)]


def match_problems(i: int, w: Waiver, cases: Iterable[CaseKey]) -> list[str]:
    """The waiver names no case of `cases`, or its `when` rules out all it names: a typo, or a case since removed."""
    where = f"$.waivers[{i}] ({w.pattern})"
    named, allowed = matched_cases(w, cases)
    if not named:
        return [
            f"{where}: {'id' if w.id is not None else 'prefix'} {w.pattern!r} matches no case of the suite's full profile"
        ]
    if not allowed:
        return [
            f"{where}: when {dict((k, w.when[k]) for k in ('operator', 'data_type') if k in w.when)} matches none "
            f"of the {len(named)} case(s) its {'id' if w.id is not None else 'prefix'} names"
        ]
    return []


def is_flaky_waiver(w: Waiver) -> bool:
    return "flaky" in _names(w.when.get("category"))


def needs_tracker(w: Waiver) -> bool:
    """The tracker rule: a waiver names its bug, except a backend's shipped known issues (the suite's own
    documented deviations); read by `expectations lint` and by `verify` of a conformance package."""
    return not w.tracker and not is_known_issue(w.source)


def waiver_problems(i: int, w: Waiver, cases: Iterable[CaseKey], *, allow_untracked: bool) -> list[str]:
    where = f"$.waivers[{i}] ({w.pattern})"
    problems = match_problems(i, w, cases)
    if needs_tracker(w) and not allow_untracked:
        problems.append(f"{where}: no tracker link (give each waiver its bug, or lint with --allow-untracked)")
    if is_flaky_waiver(w) and not w.flaky_rate:
        problems.append(
            f"{where}: a known flake without flaky_rate (how often it failed: `baseline` fills it from a --retries run)"
        )
    return problems + expires_problems(i, w)


def expires_problems(i: int, w: Waiver) -> list[str]:
    if w.expires is None:
        return []
    try:
        datetime.date.fromisoformat(w.expires)
    except ValueError:
        return [f"$.waivers[{i}] ({w.pattern}): expires={w.expires!r} is not a date (YYYY-MM-DD)"]
    return []


def lint(expectations: Expectations, cases: list[CaseKey], *, allow_untracked: bool = False) -> list[str]:
    """Every problem of the file, each naming its entry; [] when it is clean."""
    return [
        p
        for i, w in enumerate(expectations.waivers)
        for p in waiver_problems(i, w, cases, allow_untracked=allow_untracked)
    ]


def load_problems(expectations: Expectations, source: str, run_cases: list[CaseKey]) -> list[str]:
    """At load: the problems that make a vendor's file (`source`) wrong whatever the run (a waiver naming no case
    of the suite, an expires that is no date).  The run's own cases are tried first: the full profile (seconds to
    generate) is made only when a waiver names none of them (a case outside this run's selection, or a typo)."""
    # Each by its index in the user's own file: the suite's known issues come first in `expectations`.
    own = [(w.index, w) for w in expectations.waivers if w.source == source]
    problems = [p for i, w in own for p in match_problems(i, w, run_cases)]
    if problems:
        cases = run_cases + full_profile_cases()
        problems = [p for i, w in own for p in match_problems(i, w, cases)]
    return problems + [p for i, w in own for p in expires_problems(i, w)]

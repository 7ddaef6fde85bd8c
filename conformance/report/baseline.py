"""`dml-conformance baseline`: an expectations file from a run's failures, so the next run starts green.

One waiver per failing case, exact id, excusing only the category it had (`when.category`):
a waived `fail` that becomes a `crash` is a regression, not waived.  Each waiver names the
backend (it applies only to runs of that backend) and the run's label, and has a reason
placeholder for a person to replace with the bug and its tracker link.  Cases already waived
by a vendor's file are kept (with the category they had), flaky ones become known flakes
(category `flaky`) carrying the rate seen (`flaky_rate`: failing attempts among all attempts of that case
in the runs read, from --retries); a backend's shipped known issues are not copied, they apply anyway.
A case that passes later leaves its exact-id waiver stale (`waived_but_passed`), which the
report shows.  A live Hypothesis failure is waived by its unit's id (`hypothesis-PADDING`):
its examples are drawn from the seed, so the same run configuration draws the same failure.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..judging.expectations import Expectations, is_known_issue
from ..run.identity import short as identity_short
from ..run.record import WAIVABLE, Category, Record
from ..run.results import Results
from ..support.errors import UsageError
from ..support.outputs import EXPECTATIONS, EXPECTATIONS_COMMENT, check_output, write_atomic

REASON_PLACEHOLDER = "TODO: why it fails, and a tracker link (baseline of {run}, {date})"


class BaselineError(ValueError):
    """The baseline cannot be written; the message names the file or option."""


def _baselined_category(record: Record) -> Category | None:
    """The category a waiver for this record excuses, or None if it needs none."""
    if record.category in WAIVABLE:
        return record.category
    if record.category is Category.WAIVED and record.waived_category is not None:
        if not is_known_issue(str((record.waiver or {}).get("source", ""))):
            return record.waived_category
    return None


def flaky_rates(runs: list[Results]) -> dict[tuple[str, str], dict[str, int]]:
    """Per (backend, case id): its failing attempts among all attempts in `runs` (a retried case's earlier tries
    and its last), for the cases that were flaky in one of them: the rate a known flake's waiver carries."""
    rates: dict[tuple[str, str], dict[str, int]] = {}
    flaky = {(run.backend, r.id) for run in runs for r in run.records if _flaky(r)}
    for run in runs:
        for r in run.records:
            if (run.backend, r.id) not in flaky:
                continue
            rate = rates.setdefault((run.backend, r.id), {"failed": 0, "attempts": 0})
            last = r.waived_category or r.category
            rate["failed"] += sum(1 for a in r.attempts if a.category.failing) + int(last.failing)
            rate["attempts"] += len(r.attempts) + 1
    return rates


def _flaky(record: Record) -> bool:
    return Category.FLAKY in (record.category, record.waived_category)


def baseline_waivers(runs: list[Results]) -> list[dict[str, Any]]:
    """The waivers for every failing (or vendor-waived, or flaky) case of `runs`, in their order."""
    date = time.strftime("%Y-%m-%d")
    rates = flaky_rates(runs)
    waivers: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for run in runs:
        reason = REASON_PLACEHOLDER.format(run=run.label, date=date)
        for record in run.records:
            category = _baselined_category(record)
            if category is None or (run.backend, record.id) in seen:
                continue
            seen.add((run.backend, record.id))
            waiver: dict[str, Any] = {
                "id": record.id,
                "when": {"category": category.value},
                "backend": run.backend,
                "reason": reason,
            }
            if run.header.label:
                waiver["label"] = run.header.label
            if category is Category.FLAKY:
                waiver["flaky_rate"] = rates[(run.backend, record.id)]
            waivers.append(waiver)
    return waivers


def write_baseline(runs: list[Results], output: Path, *, force: bool = False) -> int:
    """Write the expectations file (whole); returns how many waivers it holds.  The target was checked by the
    the rule of conformance.support.outputs (an existing file only if `baseline` wrote it, and only with --force)."""
    try:
        check_output("-o", output, EXPECTATIONS, force=force)
    except UsageError as e:
        raise BaselineError(str(e)) from None
    waivers = baseline_waivers(runs)
    identities: dict[str, dict[str, str]] = {}
    for run in runs:
        made_on = run.header.identity
        if not made_on:
            continue
        seen = identities.setdefault(run.backend, made_on)
        if seen.get("fingerprint") != made_on.get("fingerprint"):
            raise BaselineError(
                f"two runs of {run.backend} have different identities ({identity_short(seen)}; "
                f"{identity_short(made_on)}, {run.path}): make one baseline per identity"
            )
    document: dict[str, Any] = {
        "schema_version": 1,
        "comment": f"{EXPECTATIONS_COMMENT} baseline from " + ", ".join(r.path for r in runs),  # its marker
    }
    if identities:  # a run of one of these backends with another identity refuses this file (conformance.run.identity)
        document["identities"] = identities
    document["waivers"] = waivers
    try:
        write_atomic(output, (json.dumps(document, indent=1) + "\n").encode("utf-8"))
    except OSError as e:
        raise BaselineError(f"-o: cannot write {output}: {e.strerror or e}") from None
    return len(waivers)


# --- --update-expectations: the same file with its stale waivers removed ------------------------------


@dataclass
class Update:
    """What --update-expectations did: the waivers removed (each with why), the diff printed, the failures left."""

    removed: list[str]
    diff: str
    unwaived: int  # failing cases no waiver covers: never added silently (`baseline` writes them)


def stale_waivers(run: Results, expectations: Expectations, source: str) -> dict[int, str]:
    """The waivers of `source` (by index in its file) that this run shows are no longer needed: each case of the
    full profile it names (as its `when` narrows them) ran in this run and passed, and it waived nothing.
    A waiver some of whose cases did not run (a quick run, a shard, a filter) is kept: no run proves it stale."""
    from ..run.lint import full_profile_cases, matched_cases

    by_id = {r.id: r for r in run.records if not r.hypothesis}
    used = {
        (r.waiver.get("source"), r.waiver.get("id"), r.waiver.get("prefix"))
        for r in run.records
        if r.waiver and r.category is Category.WAIVED
    }
    cases = full_profile_cases()
    stale: dict[int, str] = {}
    for i, waiver in enumerate(expectations.waivers):
        if waiver.source != source or (waiver.source, waiver.id, waiver.prefix) in used:
            continue
        _, allowed = matched_cases(waiver, cases)
        records = [by_id.get(c.id) for c in allowed]
        if allowed and all(r is not None and r.category is Category.PASS for r in records):
            stale[i] = f"its {len(allowed)} case(s) all passed in {run.path}"
    return stale


def update_expectations(run: Results, source: Path, output: Path) -> Update:
    """Write `output`: the expectations file `source` without its stale waivers, every other byte of meaning kept
    (identities, comment, each waiver's fields and order).  Nothing is added: failing cases without a waiver are
    counted, not waived."""
    import difflib

    from ..judging.expectations import ExpectationsError, load_expectations
    from ..support.jsonfile import JsonFileError, read_json

    try:
        expectations = load_expectations(source)
        document = read_json(source)
    except (ExpectationsError, JsonFileError) as e:
        raise BaselineError(f"--update-expectations: {e}") from None
    stale = stale_waivers(run, expectations, str(source))
    kept = [w for i, w in enumerate(document["waivers"]) if i not in stale]
    before = json.dumps(document, indent=1) + "\n"
    after = json.dumps({**document, "waivers": kept}, indent=1) + "\n"
    diff = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), str(source), str(output)))
    try:
        write_atomic(output, after.encode("utf-8"))
    except OSError as e:
        raise BaselineError(f"--update-expectations: cannot write {output}: {e.strerror or e}") from None
    removed = [f"$.waivers[{i}] ({expectations.waivers[i].pattern}): {why}" for i, why in sorted(stale.items())]
    unwaived = sum(1 for r in run.records if r.category.failing)
    return Update(removed, diff, unwaived)


def update_lines(run: Results, source: Path, output: Path) -> list[str]:
    """--update-expectations as the CLI and the plugin print it: what was removed, the diff, the count."""
    update = update_expectations(run, source, output)
    lines = [f"removed {line}" for line in update.removed]
    lines += update.diff.rstrip("\n").splitlines() if update.diff else []
    note = f"; {update.unwaived} failing case(s) have no waiver and were not added (`dml-conformance baseline`)"
    lines.append(
        f"expectations: {output}: {len(update.removed)} stale waiver(s) removed" + (note if update.unwaived else "")
    )
    return lines

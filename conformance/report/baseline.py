"""`dml-conformance baseline`: an expectations file from a run's failures, so the next run starts green.

One waiver per failing case, exact id, excusing only the category it had (`when.category`):
a waived `fail` that becomes a `crash` is a regression, not waived.  Each waiver names the
backend (it applies only to runs of that backend) and the run's label, and has a reason
placeholder for a person to replace with the bug and its tracker link.  Cases already waived
by a vendor's file are kept (with the category they had), flaky ones become known flakes
(category `flaky`); a backend's shipped known issues are not copied, they apply anyway.
A case that passes later leaves its exact-id waiver stale (`waived_but_passed`), which the
report shows.  A live Hypothesis failure is waived by its unit's id (`hypothesis-PADDING`):
its examples are drawn from the seed, so the same run configuration draws the same failure.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from ..judging.expectations import is_known_issue
from ..run.identity import short as identity_short
from ..run.record import WAIVABLE, Category, Record
from ..run.results import Results

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


def baseline_waivers(runs: list[Results]) -> list[dict[str, Any]]:
    """The waivers for every failing (or vendor-waived, or flaky) case of `runs`, in their order."""
    date = time.strftime("%Y-%m-%d")
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
            waivers.append(waiver)
    return waivers


def write_baseline(runs: list[Results], output: Path, *, force: bool = False) -> int:
    """Write the expectations file; returns how many waivers it holds."""
    if output.exists() and not force:
        raise BaselineError(f"-o: {output} exists; give --force to overwrite it")
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
        "comment": "written by dml-conformance baseline from " + ", ".join(r.path for r in runs),
    }
    if identities:  # a run of one of these backends with another identity refuses this file (conformance.run.identity)
        document["identities"] = identities
    document["waivers"] = waivers
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    except OSError as e:
        raise BaselineError(f"-o: cannot write {output}: {e.strerror or e}") from None
    return len(waivers)

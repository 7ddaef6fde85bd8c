"""A results file's header: what makes a run reproducible and its report readable without the suite's code
(the suite and host, the run's configuration, backend, identity, selection and waivers, the spec tables)."""

from __future__ import annotations

import dataclasses
import platform
import sys
import time
from typing import Protocol

import oracle
from oracle.version import VERSION

from ..backends.registry import BackendFactory
from ..judging.expectations import Expectations
from ..support.host import wine_version
from .config import RunConfig
from .pool import WorkerInfo
from .record import FORMAT, FORMAT_VERSION, Header
from .selection import Selection


def suite_version() -> str:
    return VERSION


def platform_info() -> dict[str, str]:
    """The host the run's Python ran on; a Windows Python under Wine says so, with Wine's version."""
    info = {
        "python": sys.version.split()[0],
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "node": platform.node(),
    }
    wine = wine_version()
    if wine:
        info["wine"] = wine
    return info


def spec_tables() -> dict:
    """The spec tables this run judged against, embedded so a report never needs the suite's code."""
    return {
        "clauses": dict(oracle.CLAUSES),
        "errata": [dataclasses.asdict(e) for e in oracle.ERRATA.values()],
        "operators": list(oracle.OPERATORS),
        "data_types": [d.value for d in oracle.ALL_DATA_TYPES],
    }


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class HeaderSource(Protocol):
    """What a header is made from: the run's session (conformance.run.session.Session)."""

    config: RunConfig
    factory: BackendFactory
    info: WorkerInfo | None
    run_id: str
    identity: dict[str, str]
    identity_mismatch: str | None
    selection: Selection
    expectations: Expectations
    jobs: int


def run_header(session: HeaderSource) -> Header:
    """The header of the run `session` makes (conformance.run.session.Session)."""
    c, info = session.config, session.info
    return Header(
        FORMAT,
        FORMAT_VERSION,
        suite_version(),
        now(),
        session.run_id,
        platform_info(),
        backend=info.name if info else session.factory.name,
        backend_spec=c.backend,
        backend_options=c.backend_kwargs,
        backend_versions=info.versions if info else {},
        identity=session.identity,
        label=c.label,
        feature_level=str(c.feature_level) if c.feature_level else (info.feature_level if info else ""),
        profile=c.profile,
        seed=c.seed,
        hypothesis_examples=c.hypothesis_count,
        generated=c.generated_count,
        filters={
            "operators": list(c.operators or ()),
            "data_types": [d.value for d in c.data_types or ()],
            "cases": list(c.case or ()),
        },
        case_paths=[str(p) for p in c.cases or ()],
        case_count=len(session.selection.works),
        selection={
            "case": list(c.case or ()),
            "exclude": list(c.exclude or ()),
            "keyword": c.keyword,
            "selected": session.selection.total,
        },
        retries=c.retries,
        flaky_fails=c.flaky_fails,
        shard=c.shard,
        config=c.identity(),
        expectations={
            "path": session.expectations.path,
            "waivers": [w.to_json() for w in session.expectations.waivers],
        },
        repro=c.repro(),
        notes=run_notes(session),
        input_errors=[str(e) for e in session.selection.errors],
        jobs=session.jobs,
        timeout_s=c.timeout_s or 0.0,
        max_bytes=c.max_bytes_budget,
        tables=spec_tables(),
    )


def run_notes(session: HeaderSource) -> list[str]:
    """What a reader of the header must know: an identity mismatch applied anyway, expired waivers."""
    notes = [f"identity mismatch, applied anyway (--allow-identity-mismatch): {session.identity_mismatch}"]
    notes = notes if session.identity_mismatch else []
    notes += [
        f"waiver {w.pattern} ({w.source}) expired on {w.expires}: it no longer waives"
        for w in session.expectations.waivers
        if w.expired()
    ]
    return notes

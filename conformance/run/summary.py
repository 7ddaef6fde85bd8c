"""What a run prints before and after its cases, built once for both front ends.

`dml-conformance run` writes these lines to its streams (warnings and errors on stderr); the pytest plugin writes
them as its report header and terminal summary (warnings in yellow, errors in red).  Written here, the two cannot
drift apart: the same waiver is quoted the same way, the same verdict is glossed the same way.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..judging.expectations import is_known_issue
from .identity import short as identity_short
from .record import Category, Verdict, repro_command, standalone_command
from .unsupported import group_unsupported

if TYPE_CHECKING:
    from .results import Results
    from .session import Session

PREFIX = "dml-conformance: "
MAX_LISTED_FAILURES = 20


class Level(enum.Enum):
    INFO = "info"
    WARNING = "warning"  # the CLI: on stderr; the plugin: yellow
    ERROR = "error"  # the CLI: on stderr; the plugin: red


@dataclass(frozen=True)
class Line:
    text: str
    level: Level = Level.INFO


def device_line(versions: dict) -> str:
    """What produced the results, in one line: adapter, driver, DirectML.dll, and the translation stack."""
    if not versions.get("adapter"):
        return ""
    # The kind and how it was found (an NPU through DXCore; a GPU through DXGI where dxcore.dll is missing).
    kind = (
        f"{versions['adapter_kind']} through {versions.get('adapter_enumeration', '?')}, D3D12 device at "
        f"{versions.get('d3d12_device_level')}; "
        if versions.get("adapter_kind")
        else ""
    )
    parts = [
        f"{versions['adapter']} ({kind}{versions.get('adapter_ids', '')}), driver {versions.get('driver_version')}, "
        f"D3D12 {versions.get('d3d12_feature_level')}, shader model {versions.get('shader_model')}",
        f"DirectML {versions.get('directml')} ({versions.get('directml_dll_path', '')})",
    ]
    if versions.get("wine"):
        parts.append(f"Wine {versions['wine']}, vkd3d {versions.get('vkd3d')}, Mesa {versions.get('mesa')}")
    return "; ".join(parts)


def host_line(platform: dict) -> str:
    """The host the suite ran on: 'Windows AMD64 (under Wine 8.0), Python 3.12.9'."""
    text = f"{platform.get('system')} {platform.get('machine')}"
    if platform.get("wine"):
        text += f" (under Wine {platform['wine']})"
    return text + (f", Python {platform['python']}" if platform.get("python") else "")


# --- before the cases ----------------------------------------------------------------------------


def banner_lines(session: Session, *, per_xdist_worker: bool = False) -> list[Line]:
    """What the run is: backend and versions, device, identity, selection, where it writes.  Reproducible from
    these lines alone (the seed, the profile, the shard)."""
    s, c, info = session, session.config, session.info
    versions = ", ".join(f"{k} {v}" for k, v in info.versions.items()) if info else "started in the xdist workers"
    device = device_line(info.versions) if info else ""
    lines = [
        Line(f"{PREFIX}backend {c.backend} ({versions or 'no versions reported'})"),
        *([Line(f"{PREFIX}device {device}")] if device else []),
        *([Line(f"{PREFIX}identity: {identity_short(s.identity)}")] if s.identity else []),
        *([Line(f"{PREFIX}warning: {s.identity_mismatch}", Level.WARNING)] if s.identity_mismatch else []),
        Line(
            f"{PREFIX}feature level {c.feature_level or (info.feature_level if info else 'the backend')}, "
            f"profile {c.profile}, seed {c.seed}, {len(s.selection.works)} cases"
            + (f" (shard {c.shard})" if c.shard else "")
            + f", {c.hypothesis_count} Hypothesis examples per operator, {s.jobs} case worker(s)"
            + (" per xdist worker" if per_xdist_worker else "")
        ),
    ]
    if s.write:
        lines.append(
            Line(
                f"{PREFIX}results {s.results_path or 'in ' + c.out}"
                + (f", report {s.report_path}" if s.report_path else "")
            )
        )
    return lines


# --- after them ----------------------------------------------------------------------------------


def failure_lines(session: Session, results: Results) -> list[Line]:
    """Each failing case (at most MAX_LISTED_FAILURES) with the commands that run it again, and each flaky one.
    The CLI prints them; the plugin has an item per case, whose failure text says the same."""
    failing = [r for r in results.records if r.category.failing]
    written = str(session.results_path) if session.results_path else None
    lines: list[Line] = []
    for r in failing[:MAX_LISTED_FAILURES]:
        lines.append(Line(f"{r.category.value.upper()} {r.id}: {r.reason}"))
        command = repro_command(session.config.repro(), r)
        if command:
            lines.append(Line(f"  reproduce: {command}"))
        standalone = standalone_command(results.header.backend, r, written)
        if standalone:
            lines.append(Line(f"  standalone: {standalone}"))
    if len(failing) > MAX_LISTED_FAILURES:
        lines.append(Line(f"... {len(failing) - MAX_LISTED_FAILURES} more failing cases (see the report)"))
    lines += [Line(f"FLAKY {r.id}: {r.reason}") for r in results.records if r.category is Category.FLAKY]
    return lines


def counts_line(results: Results) -> str:
    counts = results.counts()
    return "  ".join(f"{c.value}: {n}" for c, n in sorted(counts.items(), key=lambda kv: kv[0].value)) or "no cases run"


def unsupported_lines(results: Results) -> list[str]:
    """The unsupported cases by reason, each with what runs them: a run that passes with thousands unsupported
    says why, instead of reading as half untested."""
    groups = group_unsupported(results.records, results.header.backend)
    if not groups:
        return []
    total = sum(g.count for g in groups)
    return [f"unsupported: {total:,} case(s), by reason:"] + [
        f"  {g.count:>6,}  {g.label}" + (f"; {g.runs_them}" if g.runs_them else "") for g in groups
    ]


def waiver_name(waiver: dict) -> str:
    """A waiver as every message quotes it: 'ID' or 'PREFIX*'."""
    return repr(waiver.get("id") or f"{waiver.get('prefix')}*")


def unmatched_user_waivers(results: Results) -> list[dict]:
    """The waivers of the user's expectations file that matched no case of the run.  The suite's own known issues
    are left out: a filtered run (`-k JOIN`) matches few of them, and they are not the user's to fix."""
    footer = results.footer
    return [w for w in (footer.unmatched_waivers if footer else ()) if not is_known_issue(str(w.get("source", "")))]


def verdict_line(results: Results) -> str:
    verdict = results.verdict()
    parts = results.part_verdicts()
    return (
        f"verdict: {verdict.value}"
        + (": no case executed" if verdict is Verdict.UNTESTED else "")
        + (f" ({parts})" if parts else "")
    )


def summary_lines(
    session: Session,
    results: Results,
    report: Path | None,
    *,
    errors: Iterable[str] = (),
    update_lines: Iterable[str] = (),
) -> list[Line]:
    """The end of a run: counts, why cases were unsupported, warnings, errors, the expectations update, where the
    results and report are, the device and host, and the verdict (last)."""
    lines = [Line(counts_line(results)), *map(Line, unsupported_lines(results))]
    lines += [
        Line(f"warning: waiver {waiver_name(w)} ({w.get('reason')}) matches no case of this run", Level.WARNING)
        for w in unmatched_user_waivers(results)
    ]
    lines += [Line(f"warning: {w}", Level.WARNING) for w in (results.footer.warnings if results.footer else ())]
    if session.write_failure is not None:  # one count of what the file holds (Session.write_failure)
        lines.append(Line(f"error: {session.write_failure}", Level.ERROR))
    lines += [Line(f"error: {e}", Level.ERROR) for e in errors]
    lines += map(Line, update_lines)
    lines.append(Line(f"results: {session.results_path}"))
    if report is not None:
        lines.append(Line(f"report:  {report}"))
    device = device_line(results.header.backend_versions)
    if device:
        lines.append(Line(f"device:  {device}"))
    lines.append(Line(f"host:    {host_line(results.header.platform)}"))
    lines.append(Line(verdict_line(results)))
    return lines

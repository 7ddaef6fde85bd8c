"""The HTML conformance report: one self-contained static file made from results files only.

No network, no suite code run: every table comes from the results records and the tables the
run header embeds.  Python computes plain data here (and in heatmap.py, grid.py, regression.py,
failures.py); the templates (templates/report.html.j2 and templates/report/) make every piece of
markup, with autoescaping on, so text from a results file (a vendor backend's error message, its
version string) is text wherever it lands.  Several results files (backends, driver builds,
DirectML versions) are shown side by side: one line per run by its identity, the heat maps in
one grid, the differing cases grouped by pattern; shards of one run arrive here already merged.

Writing is atomic (a unique temporary file in the same folder, then a rename) and refuses to
replace anything that is not a report: a results file given as `-o` is never overwritten.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import oracle

from ..run.identity import short as identity_short
from ..run.outputs import ReportError  # noqa: F401 (re-exported: callers catch it from here)
from ..run.record import CATEGORIES, Category, Record, Verdict
from ..run.results import Results
from ..run.summary import device_line, host_line, unmatched_user_waivers, waiver_name
from ..run.unsupported import UnsupportedGroup, classify
from ..support import collector
from .failures import MAX_REASON, attempts, failures
from .grid import comparison
from .heatmap import heat_grids, legend
from .regression import apart, identity_of_run, regression_pairs
from .render import render_page, write_page
from .tally import Tally, tally

# GENERATOR and REPORT_MARKERS: how a report starts (run.outputs checks a --report target by them).

MAX_LISTED_PER_ERRATUM = 25
# What device_line says; the run table's provenance lists every other version once, after it.
DEVICE_FIELDS = frozenset(
    {
        "adapter",
        "adapter_kind",
        "adapter_enumeration",
        "d3d12_device_level",
        "adapter_ids",
        "driver_version",
        "d3d12_feature_level",
        "shader_model",
        "directml",
        "directml_dll_path",
        "wine",
        "vkd3d",
        "mesa",
    }
)


def run_name(i: int, run: Results) -> str:
    return f"{i + 1}: {run.label}"


def dml_name(operator: str) -> str:
    """A bare DirectML operator name as the header spells it ("PADDING1" -> "DML_PADDING1"); others as given."""
    return (
        f"DML_{operator}"
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", operator) and not operator.startswith("DML_")
        else operator
    )


def overall_verdict(runs: list[Results]) -> Verdict:
    return _overall([run.verdict() for run in runs])


def _overall(verdicts: list[Verdict]) -> Verdict:
    for v in (Verdict.FAIL, Verdict.INCOMPLETE, Verdict.UNTESTED):
        if v in verdicts:
            return v
    return Verdict.PASS


# --- the run table ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunLine:
    """One run on one line (its identity's short form), its provenance folded behind it, printed once."""

    index: int
    name: str  # "2: bit-flip build": how every section names the run
    short: str  # conformance.run.identity.short: backend, DirectML, ONNX Runtime, adapter, driver, OS, fingerprint
    verdict: str
    parts: tuple[str, str] | None  # the four seed pages' verdict and beyond them, where they differ
    cases: int
    counts: dict[str, int]
    settings: str  # profile and feature level (and what narrowed the run), on the line
    alarms: tuple[str, ...]  # an expectations file of another identity applied anyway: red
    notes: tuple[str, ...]
    provenance: tuple[tuple[str, str], ...]  # (what, value): the whole header, once
    unsupported: tuple[UnsupportedGroup, ...] = ()  # why cases were unsupported, largest group first

    @property
    def unsupported_total(self) -> int:
        return sum(g.count for g in self.unsupported)


def _selection(selection: dict) -> str:
    """The run's narrowing (-k, --exclude, --case), so a report of 2 selected cases says so."""
    parts = [f"-k {selection['keyword']}"] if selection.get("keyword") else []
    parts += [f"--exclude {p}" for p in selection.get("exclude") or ()]
    parts += [f"--case {p}" for p in selection.get("case") or ()]
    return f"{selection.get('selected', '?')} cases selected: {' '.join(parts)}" if parts else ""


def _settings(run: Results) -> tuple[str, str]:
    """(on the line, in the provenance): the profile and level, then the seed, shard, selection and retries."""
    h = run.header
    line = " · ".join(p for p in (h.profile, f"FL {h.feature_level}" if h.feature_level else "") if p)
    full = [f"profile {h.profile}", f"feature level {h.feature_level}", f"seed {h.seed}"]
    if h.shard:
        full.append(f"shard {h.shard}")
        line += f" · shard {h.shard}"
    if selection := _selection(h.selection):
        full.append(selection)
        line += f" · {h.selection.get('selected', '?')} selected"
    if h.retries:
        full.append(f"retries {h.retries}" + (" (flaky fails)" if h.flaky_fails else ""))
    return line, ", ".join(full)


def _notes(run: Results, t: Tally) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(alarms, notes): what the reader should see without opening the provenance."""
    h, footer = run.header, run.footer
    alarms = tuple(n for n in h.notes if n.startswith("identity mismatch"))
    notes = [n for n in h.notes if not n.startswith("identity mismatch")] + [*run.notes, *h.input_errors]
    if footer is not None:
        notes += [
            f"waiver {waiver_name(w)} ({w.get('reason')}) matches no case of this run"
            for w in unmatched_user_waivers(run)
        ]
        if footer.stopped:
            notes.append(f"stopped: {footer.stopped}; {footer.not_run} case(s) not run")
        notes += footer.warnings
    waived_passed = sum(n for k, n in t.kinds.items() if k.waived_but_passed)
    if waived_passed:
        notes.append(f"{waived_passed} waived case(s) passed (waived-but-passed: stale waivers)")
    return alarms, tuple(notes)


def _provenance(run: Results, settings: str) -> tuple[tuple[str, str], ...]:
    h = run.header
    ident = identity_of_run(run)
    rows = [("backend", h.backend_spec or run.backend)]
    rows += [(f"option {k}", str(v)) for k, v in h.backend_options.items()]
    if device := device_line(h.backend_versions):
        rows.append(("device", device))
    rows += [(k, str(v)) for k, v in h.backend_versions.items() if k not in DEVICE_FIELDS]
    fields = ", ".join(k for k in ident if k != "fingerprint")
    rows.append(("identity", f"fingerprint {ident.get('fingerprint', '?')} of {fields}"))
    rows.append(("settings", settings))
    if h.expectations.get("path"):
        rows.append(("expectations", str(h.expectations["path"])))
    rows.append(("results file", run.path))
    rows.append(("started", f"{h.started} on {host_line(h.platform)}, suite {h.suite_version}"))
    if run.footer is not None and run.footer.finished:
        rows.append(("finished", f"{run.footer.finished} ({run.footer.duration_s:.1f} s)"))
    return tuple(rows)


def _unsupported(t: Tally, backend: str) -> tuple[UnsupportedGroup, ...]:
    """run.unsupported.group_unsupported's groups, each distinct reason classified once (a quick run on
    onnxruntime-cpu: 4,569 unsupported cases, 371 reasons)."""
    reasons: Counter[str] = Counter()
    for (_, reason, _), n in t.unsupported.items():
        reasons[reason] += n
    counts: Counter[tuple] = Counter()
    for reason, n in reasons.items():
        counts[classify(reason)] += n
    groups = [
        UnsupportedGroup(
            row.key.format(detail=detail), row.label.format(backend=backend, detail=detail), row.runs_them, n
        )
        for (row, detail), n in counts.items()
    ]
    return tuple(sorted(groups, key=lambda g: (-g.count, g.key)))


def run_line(i: int, run: Results, t: Tally) -> RunLine:
    seeds_and_beyond = None
    parts = {k.beyond for k in t.kinds}
    if True in parts:  # each part's verdict, where they differ
        seeds = t.verdict(run, False).value if False in parts else "no case"
        if seeds != t.verdict(run, True).value:
            seeds_and_beyond = (seeds, t.verdict(run, True).value)
    line, full = _settings(run)
    alarms, notes = _notes(run, t)
    short = identity_short(identity_of_run(run))
    counts = {c.value: n for c, n in t.categories().items()}
    return RunLine(
        i,
        run_name(i, run),
        short,
        t.verdict(run).value,
        seeds_and_beyond,
        len(run.records),
        counts,
        line,
        alarms,
        notes,
        _provenance(run, full),
        _unsupported(t, run.header.backend),
    )


# --- reached operators, clauses, errata --------------------------------------------------------------------


def _reached(tallies: list[Tally], names: list[str]) -> list[tuple[str, str, str, int]]:
    """(run, case operator, reached operator, cases run) rows."""
    rows = []
    for i, t in enumerate(tallies):
        # Live-Hypothesis summary records (data_type "*") stand for many runs and name no operator.
        counts: Counter[tuple[str, str | None]] = Counter()
        for k, n in t.kinds.items():
            if k.outcome != "invalid" and k.category.executed and k.data_type != "*":
                counts[(k.operator, k.reached)] += n
        for (op, reached), n in sorted(counts.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            shown = dml_name(reached) if reached else f"DML_{op} (as described; the backend names no other)"
            rows.append((names[i], f"DML_{op}", shown, n))
    return rows


@dataclass(frozen=True)
class ClauseRow:
    clause: str
    text: str
    beyond: bool
    cases: int  # distinct cases exercising it
    per_run: tuple[tuple[tuple[str, int], ...], ...]  # (category, count) per run


def _clauses(runs: list[Results], tallies: list[Tally]) -> list[ClauseRow]:
    """Each clause of the runs' tables, then each other clause a record cites (as first cited): the distinct
    cases carrying it (citing or breaking it: cases.coverage.carried_by's rule) and its categories per run."""
    clauses: dict[str, str] = {}
    for run in runs:
        clauses.update(run.header.tables.get("clauses") or {})
    cited = [t.clauses() for t in tallies]
    carriers = [t.carriers() for t in tallies]
    order = dict.fromkeys([*clauses, *(c for by_clause in cited for c in by_clause)])
    empty: Counter[str] = Counter()
    return [
        ClauseRow(
            c,
            clauses.get(c, ""),
            oracle.beyond_seeds(c),
            len(set().union(*(ids.get(c, ()) for ids in carriers))),
            tuple(tuple(sorted(by_clause.get(c, empty).items())) for by_clause in cited),
        )
        for c in order
    ]


@dataclass(frozen=True)
class ErratumRun:
    run: int
    name: str
    summary: str  # counts by category, or "no case of this run"
    cases: tuple[tuple[str, str, str], ...]  # (case id, category, what it did), the first MAX_LISTED_PER_ERRATUM
    more: int


@dataclass(frozen=True)
class Erratum:
    """An entry of the errata register (oracle/errata.py, as the run header carries it) and each run's cases."""

    id: str
    kind: str
    clauses: str
    summary: str
    policy: str
    decided_by: str
    observed: bool
    beyond: bool
    runs: tuple[ErratumRun, ...]


def _erratum_run(hits: list[Record], i: int, name: str) -> ErratumRun:
    counts = Counter(r.category.value for r in hits)
    cases = []
    for r in hits[:MAX_LISTED_PER_ERRATUM]:
        what = ""
        if r.category is Category.OBSERVED:
            what = (
                "matches the policy"
                if r.observed and r.observed.matches_policy
                else f"differs: {r.reason[:MAX_REASON]}"
            )
        cases.append((r.id, r.category.value, what))
    summary = ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "no case of this run"
    return ErratumRun(i, name, summary, tuple(cases), max(0, len(hits) - MAX_LISTED_PER_ERRATUM))


def _erratum(e: dict, hits: list[dict[str, list[Record]]], names: list[str]) -> Erratum:
    def text(key: str) -> str:
        return str(e.get(key) or "")

    clauses = [str(c) for c in e.get("clauses") or ()]
    return Erratum(
        text("id"),
        text("kind"),
        ", ".join(clauses),
        text("summary"),
        text("policy"),
        text("decided_by"),
        bool(e.get("observed")),
        any(map(oracle.beyond_seeds, clauses)),
        tuple(_erratum_run(by_entry.get(text("id"), []), i, names[i]) for i, by_entry in enumerate(hits)),
    )


def _errata(runs: list[Results], tallies: list[Tally], names: list[str]) -> list[Erratum]:
    errata: dict[str, dict] = {}
    for run in runs:
        for e in run.header.tables.get("errata") or []:
            errata[e["id"]] = e
    # per run: entry id -> the cases that reach it (unspecified or tagged)
    hits = [t.hits(str(e.get("id") or "") for e in errata.values()) for t in tallies]
    return [_erratum(e, hits, names) for e in errata.values()]


# --- all cases, flaky cases, filters -------------------------------------------------------------------------


class CaseRow(NamedTuple):
    """A case of the cases table, or (summed > 0) a row summing `summed` cases alike.  A tuple: the template
    unpacks each of the thousands of rows rather than looking each field up."""

    run: int
    id: str
    operator: str
    data_type: str
    rank: object
    category: str
    reached: str
    reason: str
    summed: int = 0


def case_row(i: int, r: Record) -> CaseRow:
    reason = r.reason if len(r.reason) <= MAX_REASON else r.reason[:MAX_REASON] + "…"
    return CaseRow(i, r.id, r.operator, r.data_type, r.rank, r.category.value, r.reached_operator or "", reason)


def _run_case_rows(i: int, t: Tally) -> list[CaseRow]:
    rows = [case_row(i, r) for r in t.listed]
    passes: Counter[tuple[str, str, int, str]] = Counter()
    for k, n in t.kinds.items():
        if k.category is Category.PASS and not k.waived_but_passed:
            passes[(k.operator, k.data_type, k.rank, k.reached or "")] += n
    unsupported: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for (op, reason, dt), n in t.unsupported.items():
        unsupported[(op, reason[:MAX_REASON])][dt] += n
    observed: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for (op, entries, dt), n in t.observed.items():
        observed[(op, entries)][dt] += n
    for (op, dt, rank, reached), n in sorted(passes.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        rows.append(CaseRow(i, "", op, dt, rank, "pass", reached, "bit-exact", n))
    for (op, reason), types in sorted(unsupported.items()):
        dt = next(iter(types)) if len(types) == 1 else ", ".join(sorted(types))
        rows.append(CaseRow(i, "", op, dt, "", "unsupported", "", reason, sum(types.values())))
    for (op, entries), types in sorted(observed.items()):
        reason = f"matches the suite's policy for {entries} (errata register)"
        rows.append(CaseRow(i, "", op, ", ".join(sorted(types)), "", "observed", "", reason, sum(types.values())))
    return rows


def case_rows(runs: list[Results], tallies: list[Tally] | None = None) -> list[CaseRow]:
    """Each case needing a look, one row each; passes summarised per operator, data type and rank, unsupported
    cases per operator and reason, observed ones that match the suite's policy per operator and register entry.

    A full run has tens of thousands of passes and thousands of unsupported cases: listing each
    made the report megabytes for nothing a reader looks at (the results file has them all)."""
    tallies = tallies or [tally(run) for run in runs]
    return [row for i, t in enumerate(tallies) for row in _run_case_rows(i, t)]


def _flaky(tallies: list[Tally], names: list[str]) -> list[tuple[int, str, Record, tuple]]:
    return [(i, names[i], r, attempts(r)) for i, t in enumerate(tallies) for r in t.flaky]


def _filters(tallies: list[Tally]) -> dict[str, list[str]]:
    seen = {k.category for t in tallies for k in t.kinds}
    return {
        "categories": [c.value for c in CATEGORIES if c in seen],
        "operators": sorted({k.operator for t in tallies for k in t.kinds}),
        "data_types": sorted({k.data_type for t in tallies for k in t.kinds}),
    }


# --- the page ------------------------------------------------------------------------------------------------


def _nav(sections: dict[str, object]) -> list[tuple[str, str]]:
    """The links of the sections the page has."""
    titles = {
        "summary": "runs",
        "regression": "regressions",
        "matrix": "heat maps",
        "grid": "comparison",
        "reached": "reached operators",
        "clauses": "clauses",
        "errata": "errata",
        "failures": "failures",
        "flaky": "flaky",
        "cases": "all cases",
    }
    return [(anchor, title) for anchor, title in titles.items() if sections.get(anchor, True)]


def render(runs: list[Results]) -> str:
    """The whole report as one HTML string (inline CSS and JS, no external resources)."""
    if not runs:
        raise ValueError("no results to report")
    with collector.paused():  # the page's many short-lived objects, the records of every run alive
        return _render(runs)


def _render(runs: list[Results]) -> str:
    names = [run_name(i, run) for i, run in enumerate(runs)]
    tallies = [tally(run) for run in runs]  # every record read once; each section sums what it shows
    lines = [run_line(i, run, t) for i, (run, t) in enumerate(zip(runs, tallies))]
    several = len(runs) > 1
    flaky = _flaky(tallies, names)
    context = {
        "runs": lines,
        "names": names,
        "overall": _overall([Verdict(line.verdict) for line in lines]).value,
        "total": sum(len(r.records) for r in runs),
        "categories": [c.value for c in CATEGORIES if any(line.counts.get(c.value) for line in lines)],
        "pairs": regression_pairs(runs),
        "apart": apart(runs),
        "heat": heat_grids(runs, tallies),
        "legend": legend(),
        "comparison": comparison(runs) if several else None,
        "reached": _reached(tallies, names),
        "clauses": _clauses(runs, tallies),
        "errata": _errata(runs, tallies, names),
        "filters": _filters(tallies),
        "failures": failures(runs, names, [t.shown for t in tallies]),
        "flaky": flaky,
        "cases": case_rows(runs, tallies),
    }
    context["nav"] = _nav({"regression": several, "grid": several, "flaky": bool(flaky)})
    return render_page("report.html.j2", **context)


def write_report(runs: list[Results], path: str | Path) -> Path:
    """Write atomically: a unique temporary file next to `path`, then a rename; ReportError if it cannot."""
    return write_page(render(runs), path)

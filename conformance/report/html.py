"""The HTML conformance report: one self-contained static file made from results files only.

No network, no suite code run: every table comes from the results records and the tables the
run header embeds.  Everything taken from a results file is HTML-escaped (and was cleaned of
lone surrogates and control characters when read).  Several results files (backends, driver
builds) are shown side by side; shards of one run arrive here already merged.

Writing is atomic (a unique temporary file in the same folder, then a rename) and refuses to
replace anything that is not a report: a results file given as `-o` is never overwritten.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from markupsafe import Markup

import oracle

from ..cases.coverage import carried_by
from ..run.identity import short as identity_short
from ..run.outputs import ReportError  # noqa: F401 (re-exported: callers catch it from here)
from ..run.record import CATEGORIES, Category, Digests, Record, TensorData, Verdict, repro_command
from ..run.results import Results
from .escape import esc
from .heatmap import heat_maps
from .regression import regression_view
from .render import render_page, write_page

# What DirectML's own pages add past the four seed pages (docs/spec/beyond-seeds.md): marked wherever it shows.
BEYOND = "<span class='beyond' title='docs/spec/beyond-seeds.md'>beyond the seed pages</span>"

# GENERATOR and REPORT_MARKERS: how a report starts (run.outputs checks a --report target by them).

NAV = (
    ("summary", "summary"),
    ("regression", "regressions"),
    ("matrix", "heat maps"),
    ("grid", "comparison"),
    ("reached", "reached operators"),
    ("clauses", "clauses"),
    ("errata", "errata"),
    ("failures", "failures"),
    ("flaky", "flaky"),
    ("cases", "all cases"),
)
MAX_LISTED_PER_ERRATUM = 25
MAX_GRID_ROWS = 1000
MAX_REASON = 240
MAX_BRIEF_MISMATCHES = 3  # listed for a waived or observed difference (a failure lists all it stored)

JS = """
function applyFilters(){
  var cat=document.getElementById('f-cat').value, op=document.getElementById('f-op').value,
      dt=document.getElementById('f-dt').value, run=document.getElementById('f-run').value,
      text=document.getElementById('f-text').value.toLowerCase(), shown=0;
  document.querySelectorAll('.f').forEach(function(el){
    var ok=(!cat||el.dataset.cat===cat)&&(!op||el.dataset.op===op)&&(!dt||el.dataset.dt===dt)
      &&(!run||el.dataset.run===run)&&(!text||el.dataset.id.toLowerCase().indexOf(text)>=0);
    el.style.display=ok?'':'none'; if(ok&&el.tagName==='TR')shown++;
  });
  document.getElementById('f-count').textContent=shown+' case rows shown';
}
document.addEventListener('DOMContentLoaded',function(){
  ['f-cat','f-op','f-dt','f-run','f-text'].forEach(function(id){
    var el=document.getElementById(id); el.addEventListener('input',applyFilters); el.addEventListener('change',applyFilters);});
  applyFilters();
});
"""


def _options(values) -> str:
    return "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)


def _run_name(i: int, run: Results) -> str:
    return f"{i + 1}: {run.label}"


def _cat(category: Category | str) -> str:
    value = category.value if isinstance(category, Category) else category
    return f'<span class="c-{esc(value)}">{esc(value)}</span>'


def device_line(versions: dict) -> str:
    """What produced the results, in one line: adapter, driver, DirectML.dll, and the translation stack."""
    if not versions.get("adapter"):
        return ""
    parts = [
        f"{versions['adapter']} ({versions.get('adapter_ids', '')}), driver {versions.get('driver_version')}, "
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


def _selection(selection: dict) -> str:
    """The run's narrowing (-k, --exclude, --case), so a report of 2 selected cases says so."""
    parts = [f"-k {selection['keyword']}"] if selection.get("keyword") else []
    parts += [f"--exclude {p}" for p in selection.get("exclude") or ()]
    parts += [f"--case {p}" for p in selection.get("case") or ()]
    if not parts:
        return ""
    return f"<br><span class='selection'>{selection.get('selected', '?')} cases selected: {esc(' '.join(parts))}</span>"


def _summary(runs: list[Results]) -> str:
    rows = []
    for i, run in enumerate(runs):
        counts = run.counts()
        h = run.header
        versions = ", ".join(f"{k} {v}" for k, v in h.backend_versions.items())
        device = device_line(h.backend_versions)
        device = f'<div class="device">device: {esc(device)}</div>' if device else ""
        if h.identity:  # what the results are the results of (conformance.run.identity)
            device += f'<div class="identity">identity: {esc(identity_short(h.identity))}</div>'
        device += "".join(
            f'<div class="identity-mismatch">{esc(n)}</div>'
            if n.startswith("identity mismatch")
            else f'<div class="note">{esc(n)}</div>'
            for n in h.notes
        )
        cells = "".join(f'<td class="num c-{c.value}">{counts[c]}</td>' for c in CATEGORIES)
        waived_passed = sum(1 for r in run.records if r.waived_but_passed)
        notes = "".join(f'<div class="note">{esc(n)}</div>' for n in [*run.notes, *h.input_errors])
        footer = run.footer
        if footer is not None:
            notes += "".join(
                f'<div class="note">waiver {esc(w.get("id") or (str(w.get("prefix", "")) + "*"))} '
                f"matches no case ({esc(w.get('reason'))})</div>"
                for w in footer.unmatched_waivers
            )
            if footer.stopped:
                notes += f'<div class="note">stopped: {esc(footer.stopped)}; {footer.not_run} case(s) not run</div>'
            notes += "".join(f'<div class="note">{esc(w)}</div>' for w in footer.warnings)
        if waived_passed:
            notes += f'<div class="note">{waived_passed} waived case(s) passed (waived-but-passed: stale waivers)</div>'
        settings = f"FL {esc(h.feature_level)}<br>profile {esc(h.profile)}<br>seed {esc(h.seed)}"
        if h.shard:
            settings += f"<br>shard {esc(h.shard)}"
        settings += _selection(h.selection)
        if h.retries:
            settings += f"<br>retries {h.retries}" + (" (flaky fails)" if h.flaky_fails else "")
        verdict = run.verdict().value
        parts = ""
        if any(r.beyond_seed_pages for r in run.records):
            seeds, beyond = run.verdict(False).value, run.verdict(True).value
            parts = (
                f"<br><small>the four seed pages: <span class='part-{seeds}'>{seeds}</span><br>{BEYOND}: "
                f"<span class='part-{beyond}'>{beyond}</span></small>"
            )
        rows.append(
            f'<tr><td>{esc(_run_name(i, run))}</td><td><span class="verdict v-{verdict}">{verdict}</span>{parts}'
            f"</td><td>{esc(h.backend_spec or run.backend)}{device}<br><small>{esc(versions)}</small></td><td>{settings}</td>"
            f'<td class="num">{len(run.records)}</td>{cells}<td><small>{esc(run.path)}<br>'
            f"{esc(h.started)} on {esc(host_line(h.platform))}, suite "
            f"{esc(h.suite_version)}</small>{notes}</td></tr>"
        )
    head = "".join(f"<th>{c.value}</th>" for c in CATEGORIES)
    return (
        f'<table id="summary"><tr><th>run</th><th>verdict</th><th>backend</th><th>settings</th><th>cases</th>{head}'
        f"<th>file</th></tr>{''.join(rows)}</table>"
        "<p>Only <b>fail, rejected, error, crash, timeout</b> fail a run (and <b>flaky</b>, failed then passed on "
        "a retry, under --flaky-fails). <b>observed</b>: behaviour the spec "
        "leaves open, recorded and shown, never judged; only the elements an unspecified register entry really "
        "leaves open are exempt. <b>unsupported</b>: the backend cannot express or run the case (with the "
        "reason); never counted as a pass. <b>waived</b>: a failure excused by a waiver (the vendor's "
        "expectations file, or a built-in backend's known issues), with its reason; the original category is "
        "kept in the case's details. <b>interrupted</b>: the run was stopped while the case ran. Verdicts: "
        "<b>FAIL</b> a case failed (or a case file could not be read); <b>INCOMPLETE</b> the run did not finish "
        "(interrupted, stopped, or shards missing); <b>UNTESTED</b> it finished but no case executed (all "
        "unsupported or deselected); <b>PASS</b> otherwise. A run that holds cases past the four seed pages "
        "(DML_PADDING1, DML_PADDING_MODE_WRAP, DML_JOIN: docs/spec/beyond-seeds.md) shows each part's verdict "
        "under the run's, which covers both.</p>"
    )


def _matrices(runs: list[Results]) -> str:
    return heat_maps(runs, [_run_name(i, run) for i, run in enumerate(runs)])


def dml_name(operator: str) -> str:
    """A bare DirectML operator name as the header spells it ("PADDING1" -> "DML_PADDING1"); others as given."""
    return (
        f"DML_{operator}"
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", operator) and not operator.startswith("DML_")
        else operator
    )


def _reached(runs: list[Results]) -> str:
    rows = []
    for i, run in enumerate(runs):
        # Live-Hypothesis summary records (data_type "*") stand for many runs and name no operator.
        counts = Counter(
            (r.operator, r.reached_operator)
            for r in run.records
            if r.outcome != "invalid" and r.category.executed and r.data_type != "*"
        )
        for (op, reached), n in sorted(counts.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            shown = dml_name(reached) if reached else f"DML_{op} (as described; the backend names no other)"
            rows.append(
                f"<tr><td>{esc(_run_name(i, run))}</td><td>DML_{esc(op)}</td><td>{esc(shown)}</td>"
                f'<td class="num">{n}</td></tr>'
            )
    return (
        "<h2 id='reached'>Which DirectML operator was reached</h2><p>Backends that go through another API (ONNX "
        "Runtime lowers to DML_SLICE1 and DML_PADDING1) report the operator their implementation really executed: "
        "a pass here certifies that operator, not necessarily the one the case describes.</p>"
        "<table><tr><th>run</th><th>case operator</th><th>reached operator</th><th>cases run</th></tr>"
        + "".join(rows)
        + "</table>"
    )


def _clauses(runs: list[Results]) -> str:
    clauses: dict[str, str] = {}
    for run in runs:
        clauses.update(run.header.tables.get("clauses") or {})
    per: dict[str, list[Counter]] = {c: [Counter() for _ in runs] for c in clauses}
    for i, run in enumerate(runs):
        for r in run.records:
            for c in r.clauses:
                per.setdefault(c, [Counter() for _ in runs])[i][r.category.value] += 1
    carried = carried_by(((r.id, r.clauses, r.expected_clause) for run in runs for r in run.records), clauses)
    ids = {c: set(case_ids) for c, case_ids in carried.items()}
    head = "".join(f"<th>{esc(_run_name(i, run))}</th>" for i, run in enumerate(runs))
    rows = []
    for c in per:
        cells = "".join(
            "<td>" + ", ".join(f"{_cat(k)} {n}" for k, n in sorted(counter.items())) + "</td>" for counter in per[c]
        )
        klass = "" if ids.get(c) else ' class="cell-bad"'
        rows.append(
            f"<tr{klass}><td>{esc(c)}{BEYOND if oracle.beyond_seeds(c) else ''}</td><td>{esc(clauses.get(c, ''))}</td>"
            f'<td class="num">{len(ids.get(c, ()))}</td>{cells}</tr>'
        )
    return (
        "<h2 id='clauses'>Clause coverage</h2><p>Clause → distinct cases exercising it → categories per run. "
        "A red row is a clause no case of these runs exercises.</p>"
        f"<table><tr><th>clause</th><th>text</th><th>cases</th>{head}</tr>{''.join(rows)}</table>"
    )


def _errata(runs: list[Results]) -> str:
    errata: dict[str, dict] = {}
    for run in runs:
        for e in run.header.tables.get("errata") or []:
            errata[e["id"]] = e
    blocks = []
    for eid, e in errata.items():
        parts = []
        for i, run in enumerate(runs):
            hits = [r for r in run.records if eid in r.unspecified or eid in r.tags]
            counts = Counter(r.category.value for r in hits)
            items = []
            for r in hits[:MAX_LISTED_PER_ERRATUM]:
                what = ""
                if r.category is Category.OBSERVED:
                    what = (
                        "matches the policy"
                        if r.observed and r.observed.matches_policy
                        else f"differs: {r.reason[:MAX_REASON]}"
                    )
                items.append(f"<li><a href='#case-{i}-{esc(r.id)}'>{esc(r.id)}</a> {_cat(r.category)} {esc(what)}</li>")
            more = f"<li>… {len(hits) - MAX_LISTED_PER_ERRATUM} more</li>" if len(hits) > MAX_LISTED_PER_ERRATUM else ""
            summary = ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "no case of this run"
            parts.append(f"<div><b>{esc(_run_name(i, run))}</b>: {esc(summary)}<ul>{''.join(items)}{more}</ul></div>")
        blocks.append(
            f"<tr id='erratum-{esc(eid)}'><td><b>{esc(eid)}</b><br>{esc(e.get('kind'))}"
            f"{'<br>' + BEYOND if any(map(oracle.beyond_seeds, e.get('clauses') or ())) else ''}"
            f"{'<br><i>observed</i>' if e.get('observed') else ''}</td><td>{esc(', '.join(e.get('clauses') or ()))}</td>"
            f"<td>{esc(e.get('summary'))}<br><b>Decision:</b> {esc(e.get('policy'))}<br><small>decided by "
            f"{esc(e.get('decided_by'))}</small></td><td>{''.join(parts)}</td></tr>"
        )
    return (
        "<h2 id='errata'>Errata register</h2><p>Each decision the suite takes where the pages contradict "
        "themselves or are silent, and what each backend did on the cases that reach it. Observed results are "
        "shown, never failed.</p><table><tr><th>id</th><th>clauses</th><th>text and decision</th>"
        f"<th>what the backends did</th></tr>{''.join(blocks)}</table>"
    )


def _tensor_grid(t: TensorData | None, other: TensorData | None, bad: set, opened: set) -> str:
    if t is None or t.truncated or t.values is None or t.hex is None:
        return f"<i>{esc(t.size if t else '?')} elements: too large to store; see the mismatch list</i>"
    shape = t.shape or [len(t.values)]
    cols = max(shape[-1] if shape else 1, 1)
    rows = []
    other_hex = other.hex if other is not None else None
    for start in range(0, len(t.values), cols):
        tds = []
        for k in range(start, min(start + cols, len(t.values))):
            coord = _unravel(k, shape)
            differs = coord in bad or (other_hex is not None and k < len(other_hex) and other_hex[k] != t.hex[k])
            klass = "open" if coord in opened else "bad" if differs else ""
            tds.append(f'<td class="{klass}" title="0x{esc(t.hex[k])}">{esc(t.values[k])}</td>')
        lead = _unravel(start, shape)[:-1]
        rows.append(f"<tr><th>[{esc(','.join(map(str, lead)))}]</th>{''.join(tds)}</tr>")
    return f'<table class="diff">{"".join(rows)}</table>'


def _unravel(k: int, shape: list) -> tuple:
    coord = []
    for n in reversed(shape or [1]):
        n = max(int(n), 1)
        coord.append(k % n)
        k //= n
    return tuple(reversed(coord))


def _shown_in_failures(r: Record) -> bool:
    return (
        r.category.failing
        or r.category in (Category.WAIVED, Category.INTERRUPTED)
        or (r.category is Category.OBSERVED and r.mismatch is not None)
    )


def _digests(d: Digests) -> str:
    rows = "".join(
        f"<tr><td>{j}</td><td><code>{esc(e)}</code></td><td><code>{esc(a)}</code></td>"
        f"<td>{'same' if e == a else '<b>differ</b>'}</td></tr>"
        for j, (e, a) in enumerate(zip(d.expected, d.actual))
    )
    return (
        f"<details open><summary>sha256 of each output (compared in {d.chunks} chunks; the tensors are not "
        f"stored)</summary><table><tr><th>output</th><th>expected</th><th>actual</th><th></th></tr>{rows}</table></details>"
    )


def _failure(i: int, run: Results, r: Record, repro: str) -> str:
    parts = [
        f"<h3>{esc(r.id)} {_cat(r.category)} <small>{esc(_run_name(i, run))}</small></h3>",
        f"<p>{esc(r.reason)}</p>",
    ]
    if r.attempts:
        parts.append(_attempts(r))
    if r.waiver:
        parts.append(
            f"<p>waiver: {esc(r.waiver.get('reason'))} {esc(r.waiver.get('tracker') or '')} "
            f"(was {esc(r.waived_category.value if r.waived_category else '')})</p>"
        )
    if r.crash:
        how = (
            f"signal {r.crash.signal} ({r.crash.signal_name})"
            if r.crash.signal is not None
            else f"exit code {r.crash.exit_code}"
        )
        parts.append(f"<p>worker process ended: {esc(how)}</p>")
        if r.crash.stderr:
            parts.append(
                "<details open><summary>its last stderr lines</summary><pre>"
                + esc("\n".join(r.crash.stderr))
                + "</pre></details>"
            )
    parts.append(
        f"<p>DML_{esc(r.operator)}, {esc(r.data_type)}, rank {esc(r.rank)}, FL {esc(r.feature_level)}; "
        f"clauses {esc(', '.join(r.clauses))}; reached operator: "
        f"<b>{esc(r.reached_operator or 'not reported')}</b></p>"
    )
    parts += [f"<p class='note'>backend note: {esc(n)}</p>" for n in r.notes]
    mm = r.mismatch
    if mm is not None and mm.problems:
        parts.append("<p>" + esc("; ".join(mm.problems)) + "</p>")
    # Only what fails the run gets the full diff and descriptor: a waived or observed difference is known,
    # and a run of thousands of them would make the report megabytes (the results file has every detail).
    detailed = r.category.failing
    tensors = r.tensors if detailed else None
    if tensors is not None and mm is not None:
        for j, exp in enumerate(tensors.expected):
            act = tensors.actual[j] if j < len(tensors.actual) else None
            bad = {tuple(m.coordinate) for m in mm.first if m.output == j and not m.open}
            opened = {tuple(m.coordinate) for m in mm.first if m.output == j and m.open}
            open_note = (
                f", {mm.open_count} of them where the spec leaves the value open (blue)" if mm.open_count else ""
            )
            parts.append(
                f"<div class='diffpair'><b>output {j}</b> ({mm.count} element(s) differ in all outputs"
                f"{open_note}; mismatching cells marked)<table><tr><th>expected</th><th>actual</th></tr><tr>"
                f"<td class='expected'>{_tensor_grid(exp, act, bad, opened)}</td><td class='actual'>"
                f"{_tensor_grid(act, exp, bad, opened) if act else '<i>missing</i>'}</td></tr></table></div>"
            )
    if mm is not None and mm.first:
        first = mm.first if detailed else mm.first[:MAX_BRIEF_MISMATCHES]
        lis = "".join(
            f"<li>output {m.output} [{esc(','.join(map(str, m.coordinate)))}]: expected "
            f"{esc(m.expected)} ({esc(m.expected_hex)}), actual {esc(m.actual)} ({esc(m.actual_hex)})"
            f"{' (open: observed)' if m.open else ''}</li>"
            for m in first
        )
        parts.append(f"<details open><summary>first mismatches</summary><ul>{lis}</ul></details>")
    if r.digests is not None:  # a large case keeps digests, not tensors
        parts.append(_digests(r.digests))
    if r.descriptor and detailed:
        parts.append(
            "<details><summary>descriptor</summary><pre>" + esc(json.dumps(r.descriptor, indent=1)) + "</pre></details>"
        )
    parts.append(_reproduce(r, repro))
    return (
        f"<div class='failure f' id='fail-{i}-{esc(r.id)}' data-cat='{esc(r.category.value)}' "
        f"data-op='{esc(r.operator)}' data-dt='{esc(r.data_type)}' data-run='{i}' "
        f"data-id='{esc(r.id)}'>{''.join(parts)}</div>"
    )


def _reproduce(r: Record, repro: str) -> str:
    """How to run the case again: its case file (a live Hypothesis example), else the command."""
    if r.case_json:
        return (
            "<details><summary>the case as a case file (save it, run it with --cases)</summary><pre>"
            + esc(json.dumps(r.case_json, indent=1))
            + "</pre></details>"
        )
    command = repro_command(repro, r)
    return f"<p>reproduce: <code class='repro'>{esc(command)}</code></p>" if command else ""


def _failures(runs: list[Results]) -> str:
    blocks = []
    for i, run in enumerate(runs):
        repro = run.header.repro or f"dml-conformance run --backend {run.backend} --case {{id}}"
        blocks += [_failure(i, run, r, repro) for r in run.records if _shown_in_failures(r)]
    if not blocks:
        return "<h2 id='failures'>Failures</h2><p>None.</p>"
    return f"<h2 id='failures'>Failures, waived failures and differing observations ({len(blocks)})</h2>" + "".join(
        blocks
    )


def _grid(runs: list[Results]) -> str:
    if len(runs) < 2:
        return ""
    by_run = [{r.id: r.category.value for r in run.records} for run in runs]
    ids = sorted(set().union(*by_run))
    differing = [c for c in ids if len({b.get(c) for b in by_run}) > 1]
    head = "".join(f"<th>{esc(_run_name(i, run))}</th>" for i, run in enumerate(runs))
    rows = []
    for c in differing[:MAX_GRID_ROWS]:
        cells = "".join(f"<td>{_cat(b.get(c, 'absent'))}</td>" for b in by_run)
        rows.append(f"<tr><td>{esc(c)}</td>{cells}</tr>")
    more = f"<p>… {len(differing) - MAX_GRID_ROWS} more</p>" if len(differing) > MAX_GRID_ROWS else ""
    return (
        f"<h2 id='grid'>Comparison grid</h2><p>{len(ids)} distinct cases; {len(differing)} with different "
        f"categories across runs:</p><table id='grid-table'><tr><th>case</th>{head}</tr>{''.join(rows)}</table>" + more
    )


def _case_row(i: int, r: Record) -> str:
    reason = r.reason if len(r.reason) <= MAX_REASON else r.reason[:MAX_REASON] + "…"
    cat = esc(r.category.value)
    return (
        f"<tr class='f c-{cat}' id='case-{i}-{esc(r.id)}' data-cat='{cat}' data-op='{esc(r.operator)}' "
        f"data-dt='{esc(r.data_type)}' data-run='{i}' data-id='{esc(r.id)}'><td>{esc(r.id)}</td>"
        f"<td>{i + 1}</td><td>{esc(r.operator)}</td><td>{esc(r.data_type)}</td><td>{esc(r.rank)}</td>"
        f"<td>{cat}</td><td>{esc(r.reached_operator or '')}</td><td>{esc(reason)}</td></tr>"
    )


def _summary_row(i: int, cat: str, op: str, dt: str, rank: object, reached: str, reason: str, n: int) -> str:
    return (
        f"<tr class='f sum c-{cat}' data-cat='{cat}' data-op='{esc(op)}' data-dt='{esc(dt)}' data-run='{i}' "
        f"data-id='' data-count='{n}'><td>{n} {cat} case(s)</td><td>{i + 1}</td><td>{esc(op)}</td>"
        f"<td>{esc(dt)}</td><td>{esc(rank)}</td><td>{cat}</td><td>{esc(reached)}</td><td>{esc(reason)}</td></tr>"
    )


def _cases_table(runs: list[Results]) -> str:
    """Each case needing a look, one row each; passes summarised per operator, data type and rank, unsupported
    cases per operator and reason, observed ones that match the suite's policy per operator and register entry.

    A full run has tens of thousands of passes and thousands of unsupported cases: listing each
    made the report megabytes for nothing a reader looks at (the results file has them all)."""
    rows = []
    for i, run in enumerate(runs):
        passes: Counter[tuple[str, str, int, str]] = Counter()
        unsupported: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        observed: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        for r in run.records:
            if r.category is Category.PASS and not r.waived_but_passed:
                passes[(r.operator, r.data_type, r.rank, r.reached_operator or "")] += 1
            elif r.category is Category.UNSUPPORTED:
                unsupported[(r.operator, r.reason[:MAX_REASON])][r.data_type] += 1
            elif r.category is Category.OBSERVED and r.observed is not None and r.observed.matches_policy:
                observed[(r.operator, ", ".join(r.unspecified))][r.data_type] += 1
            else:
                rows.append(_case_row(i, r))
        for (op, dt, rank, reached), n in sorted(passes.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
            rows.append(_summary_row(i, "pass", op, dt, rank, reached, "bit-exact", n))
        for (op, reason), types in sorted(unsupported.items()):
            dt = next(iter(types)) if len(types) == 1 else ", ".join(sorted(types))
            rows.append(_summary_row(i, "unsupported", op, dt, "", "", reason, sum(types.values())))
        for (op, entries), types in sorted(observed.items()):
            dt = ", ".join(sorted(types))
            reason = f"matches the suite's policy for {entries} (errata register)"
            rows.append(_summary_row(i, "observed", op, dt, "", "", reason, sum(types.values())))
    return (
        "<h2 id='cases'>All cases</h2><p>Each case that needs a look has its own row; passing cases are counted "
        "per run, operator, data type and rank, unsupported ones per operator and reason, observed ones that "
        "match the suite's policy per operator and errata entry (every case id is in the results file, and "
        "the errata register lists observed cases).</p>"
        "<table id='cases-table'><tr><th>case</th><th>run</th><th>operator</th>"
        "<th>type</th><th>rank</th><th>category</th><th>reached</th><th>reason</th></tr>" + "".join(rows) + "</table>"
    )


def _attempts(r: Record) -> str:
    items = "".join(
        f"<li>attempt {k + 1}: {_cat(a.category)} {esc(a.reason[:MAX_REASON])}</li>" for k, a in enumerate(r.attempts)
    )
    last = f"<li>attempt {len(r.attempts) + 1}: {_cat(r.category)}</li>"
    return f"<ol class='attempts'>{items}{last}</ol>"


def _flaky(runs: list[Results]) -> str:
    blocks = [
        f"<div class='flaky-case f' id='flaky-{i}-{esc(r.id)}' data-cat='flaky' data-op='{esc(r.operator)}' "
        f"data-dt='{esc(r.data_type)}' data-run='{i}' data-id='{esc(r.id)}'><b>{esc(r.id)}</b> "
        f"<small>{esc(_run_name(i, run))}</small>{_attempts(r)}</div>"
        for i, run in enumerate(runs)
        for r in run.records
        if r.category is Category.FLAKY or (r.waived_category is Category.FLAKY)
    ]
    if not blocks:
        return ""
    return (
        f"<h2 id='flaky'>Flaky cases ({len(blocks)})</h2><p>Failed, then passed on a retry (--retries): each "
        "attempt's result. They do not fail a run unless it was run with --flaky-fails.</p>" + "".join(blocks)
    )


def _filters(runs: list[Results]) -> str:
    ops = sorted({r.operator for run in runs for r in run.records})
    dts = sorted({r.data_type for run in runs for r in run.records})
    cats = [c.value for c in CATEGORIES if any(run.counts()[c] for run in runs)]
    run_opts = "".join(f'<option value="{i}">{esc(_run_name(i, run))}</option>' for i, run in enumerate(runs))
    return (
        "<div id='filters'>Filter failures and cases: "
        f"<select id='f-cat'><option value=''>any category</option>{_options(cats)}</select> "
        f"<select id='f-op'><option value=''>any operator</option>{_options(ops)}</select> "
        f"<select id='f-dt'><option value=''>any data type</option>{_options(dts)}</select> "
        f"<select id='f-run'><option value=''>any run</option>{run_opts}</select> "
        "<input id='f-text' placeholder='case id contains'> <span id='f-count'></span></div>"
    )


def overall_verdict(runs: list[Results]) -> Verdict:
    verdicts = {run.verdict() for run in runs}
    for v in (Verdict.FAIL, Verdict.INCOMPLETE, Verdict.UNTESTED):
        if v in verdicts:
            return v
    return Verdict.PASS


def render(runs: list[Results]) -> str:
    """The whole report as one HTML string (inline CSS and JS, no external resources)."""
    if not runs:
        raise ValueError("no results to report")
    sections = [
        _summary(runs),
        regression_view(runs, [_run_name(i, run) for i, run in enumerate(runs)]),
        _matrices(runs),
        _grid(runs),
        _reached(runs),
        _clauses(runs),
        _errata(runs),
        _filters(runs),
        _failures(runs),
        _flaky(runs),
        _cases_table(runs),
    ]
    return render_page(
        "report.html.j2",
        runs=runs,
        overall=overall_verdict(runs).value,
        total=sum(len(r.records) for r in runs),
        nav=NAV,
        sections=[Markup(s) for s in sections],  # built with esc() on every value taken from a results file
        script=JS,
    )


# --- writing, safely ---------------------------------------------------------------------------------


def write_report(runs: list[Results], path: str | Path) -> Path:
    """Write atomically: a unique temporary file next to `path`, then a rename; ReportError if it cannot."""
    return write_page(render(runs), path)

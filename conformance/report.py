"""The HTML conformance report: one self-contained static file made from results files only.

No network, no suite code run: every table comes from the results records and the tables the
run header embeds.  Everything taken from a results file is HTML-escaped.  Several results
files (backends, driver builds) are shown side by side.
"""

from __future__ import annotations

import html
import json
from collections import Counter, defaultdict
from pathlib import Path

from .results import Results
from .runner import CATEGORIES, FAILING

MAX_LISTED_PER_ERRATUM = 25
MAX_GRID_ROWS = 1000
MAX_REASON = 240

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:0 2em 4em;color:#222}
h1{margin:.6em 0 .2em}h2{border-bottom:2px solid #ccc;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3}.num{text-align:right}
.verdict{font-size:1.4em;font-weight:bold;padding:.3em .8em;display:inline-block;border-radius:4px}
.v-PASS{background:#d4f4d4;color:#064}.v-FAIL{background:#f8d0d0;color:#900}.v-INCOMPLETE{background:#fbeec0;color:#740}
.c-pass{background:#e3f6e3}.c-fail,.c-rejected,.c-error,.c-crash,.c-timeout{background:#f9d6d6}
.c-unsupported{background:#eee;color:#555}.c-observed{background:#e2ecfb}.c-waived{background:#fbeec0}
.cell-ok{background:#e3f6e3}.cell-bad{background:#f9d6d6}.cell-none{background:#f6f6f6;color:#999}.cell-part{background:#eef}
.failure{border:1px solid #d99;border-radius:4px;padding:.5em 1em;margin:1em 0}
.diff td{font-family:monospace;font-size:12px;padding:1px 4px}.diff td.bad{background:#f4a0a0;font-weight:bold}
pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:12px}
code.repro{background:#222;color:#eee;padding:2px 6px;display:inline-block}
#filters{position:sticky;top:0;background:#fff;padding:.5em 0;border-bottom:1px solid #ccc;z-index:1}
.note{color:#740}
"""

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


def esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _options(values) -> str:
    return "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)


def _run_name(i: int, run: Results) -> str:
    return f"{i + 1}: {run.label}"


def _cat(category: str) -> str:
    return f'<span class="c-{esc(category)}">{esc(category)}</span>'


def device_line(versions: dict) -> str:
    """What produced the results, in one line: adapter, driver, DirectML.dll, and the translation stack."""
    if not versions.get("adapter"):
        return ""
    parts = [f"{versions['adapter']} ({versions.get('adapter_ids', '')}), driver {versions.get('driver_version')}, "
             f"D3D12 {versions.get('d3d12_feature_level')}, shader model {versions.get('shader_model')}",
             f"DirectML {versions.get('directml')} ({versions.get('directml_dll_path', '')})"]
    if versions.get("wine"):
        parts.append(f"Wine {versions['wine']}, vkd3d {versions.get('vkd3d')}, Mesa {versions.get('mesa')}")
    return "; ".join(parts)


def _summary(runs: list[Results]) -> str:
    rows = []
    for i, run in enumerate(runs):
        counts = run.counts()
        h = run.header
        versions = ", ".join(f"{k} {v}" for k, v in (h.get("backend_versions") or {}).items())
        device = device_line(h.get("backend_versions") or {})
        device = f'<div class="device">device: {esc(device)}</div>' if device else ""
        cells = "".join(f'<td class="num c-{c}">{counts[c]}</td>' for c in CATEGORIES)
        waived_passed = sum(1 for r in run.records if r.get("waived_but_passed"))
        notes = "".join(f'<div class="note">{esc(n)}</div>' for n in run.notes)
        unmatched = (run.footer or {}).get("unmatched_waivers") or []
        notes += "".join(f'<div class="note">waiver {esc(w.get("id") or (w.get("prefix", "") + "*"))} matches no case '
                         f'({esc(w.get("reason"))})</div>' for w in unmatched)
        if waived_passed:
            notes += f'<div class="note">{waived_passed} waived case(s) passed (waived-but-passed: stale waivers)</div>'
        rows.append(
            f'<tr><td>{esc(_run_name(i, run))}</td><td><span class="verdict v-{run.verdict()}">{run.verdict()}</span>'
            f'</td><td>{esc(h.get("backend_spec", run.backend))}{device}<br><small>{esc(versions)}</small></td>'
            f'<td>FL {esc(h.get("feature_level"))}<br>profile {esc(h.get("profile"))}<br>seed {esc(h.get("seed"))}</td>'
            f'<td class="num">{len(run.records)}</td>{cells}<td><small>{esc(run.path)}<br>'
            f'{esc(h.get("started"))} on {esc((h.get("platform") or {}).get("system"))} '
            f'{esc((h.get("platform") or {}).get("machine"))}, suite {esc(h.get("suite_version"))}</small>{notes}</td></tr>')
    head = "".join(f"<th>{c}</th>" for c in CATEGORIES)
    return (f'<table id="summary"><tr><th>run</th><th>verdict</th><th>backend</th><th>settings</th><th>cases</th>{head}'
            f'<th>file</th></tr>{"".join(rows)}</table>'
            "<p>Only <b>fail, rejected, error, crash, timeout</b> fail a run. <b>observed</b>: behaviour the spec "
            "leaves open, recorded and shown, never judged. <b>unsupported</b>: the backend cannot express or run the "
            "case (with the reason); never counted as a pass. <b>waived</b>: a failure excused by a waiver "
            "(the vendor's expectations file, or a built-in backend's known issues), with its reason; the "
            "original category is kept in the case's details.</p>")


def _matrix(run: Results, i: int, key: str, values: list) -> str:
    operators = [o for o in (run.header.get("tables") or {}).get("operators", [])] or sorted(
        {r["operator"] for r in run.records})
    cells: dict[tuple, Counter] = defaultdict(Counter)
    for r in run.records:
        if r.get("hypothesis") and r.get("data_type") == "*":
            continue
        cells[(r["operator"], r.get(key))][r["category"]] += 1
    head = "".join(f"<th>{esc(v)}</th>" for v in values)
    rows = []
    for op in operators:
        tds = []
        for v in values:
            c = cells.get((op, v))
            if not c:
                tds.append('<td class="cell-none">–</td>')
                continue
            total = sum(c.values())
            ok = c["pass"] + c["observed"]
            bad = sum(c[k] for k in FAILING)
            klass = "cell-bad" if bad else "cell-ok" if ok == total else "cell-part"
            title = ", ".join(f"{k} {n}" for k, n in sorted(c.items()))
            extra = f" <b>✗{bad}</b>" if bad else ""
            tds.append(f'<td class="{klass} num" title="{esc(title)}">{ok}/{total}{extra}</td>')
        rows.append(f"<tr><th>{esc(op)}</th>{''.join(tds)}</tr>")
    return (f'<table class="matrix" data-run="{i}" data-key="{esc(key)}"><tr><th>{esc(_run_name(i, run))}</th>{head}'
            f'</tr>{"".join(rows)}</table>')


def _matrices(runs: list[Results]) -> str:
    out = ["<h2 id='matrix'>Operator × data type, operator × rank</h2><p>Each cell: (pass + observed) / total; "
           "<b>✗n</b>: failing cases; hover for every category. Unsupported cases count in the total.</p>"]
    for i, run in enumerate(runs):
        types = (run.header.get("tables") or {}).get("data_types") or sorted({r.get("data_type") for r in run.records})
        ranks = sorted({r.get("rank") for r in run.records if isinstance(r.get("rank"), int) and r.get("rank")})
        out.append(_matrix(run, i, "data_type", types))
        out.append(_matrix(run, i, "rank", ranks))
    return "".join(out)


def _reached(runs: list[Results]) -> str:
    rows = []
    for i, run in enumerate(runs):
        # Live-Hypothesis summary records (data_type "*") stand for many runs and name no operator.
        counts = Counter((r["operator"], r.get("reached_operator")) for r in run.records
                         if r.get("outcome") != "invalid" and r["category"] != "unsupported"
                         and r.get("data_type") != "*")
        for (op, reached), n in sorted(counts.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            shown = reached or f"DML_{op} (as described; the backend names no other)"
            rows.append(f"<tr><td>{esc(_run_name(i, run))}</td><td>DML_{esc(op)}</td><td>{esc(shown)}</td>"
                        f'<td class="num">{n}</td></tr>')
    return ("<h2 id='reached'>Which DirectML operator was reached</h2><p>Backends that go through another API (ONNX "
            "Runtime lowers to DML_SLICE1 and DML_PADDING1) report the operator their implementation really executed: "
            "a pass here certifies that operator, not necessarily the one the case describes.</p>"
            "<table><tr><th>run</th><th>case operator</th><th>reached operator</th><th>cases run</th></tr>"
            + "".join(rows) + "</table>")


def _clauses(runs: list[Results]) -> str:
    clauses = {}
    for run in runs:
        clauses.update((run.header.get("tables") or {}).get("clauses") or {})
    per: dict[str, list[Counter]] = {c: [Counter() for _ in runs] for c in clauses}
    ids: dict[str, set] = defaultdict(set)
    for i, run in enumerate(runs):
        for r in run.records:
            for c in r.get("clauses") or ():
                per.setdefault(c, [Counter() for _ in runs])[i][r["category"]] += 1
                ids[c].add(r["id"])
            if r.get("expected_clause"):
                ids[r["expected_clause"]].add(r["id"])
    head = "".join(f"<th>{esc(_run_name(i, run))}</th>" for i, run in enumerate(runs))
    rows = []
    for c in per:
        cells = "".join("<td>" + ", ".join(f"{_cat(k)} {n}" for k, n in sorted(counter.items())) + "</td>"
                        for counter in per[c])
        klass = "" if ids.get(c) else ' class="cell-bad"'
        rows.append(f"<tr{klass}><td>{esc(c)}</td><td>{esc(clauses.get(c, ''))}</td>"
                    f'<td class="num">{len(ids.get(c, ()))}</td>{cells}</tr>')
    return ("<h2 id='clauses'>Clause coverage</h2><p>Clause → distinct cases exercising it → categories per run. "
            "A red row is a clause no case of these runs exercises.</p>"
            f"<table><tr><th>clause</th><th>text</th><th>cases</th>{head}</tr>{''.join(rows)}</table>")


def _errata(runs: list[Results]) -> str:
    errata = {}
    for run in runs:
        for e in (run.header.get("tables") or {}).get("errata") or []:
            errata[e["id"]] = e
    blocks = []
    for eid, e in errata.items():
        parts = []
        for i, run in enumerate(runs):
            hits = [r for r in run.records if eid in (r.get("unspecified") or ()) or eid in (r.get("tags") or ())]
            counts = Counter(r["category"] for r in hits)
            items = []
            for r in hits[:MAX_LISTED_PER_ERRATUM]:
                what = ""
                if r["category"] == "observed":
                    what = ("matches the policy" if (r.get("observed") or {}).get("matches_policy")
                            else f"differs: {r.get('reason', '')[:MAX_REASON]}")
                items.append(f"<li><a href='#case-{i}-{esc(r['id'])}'>{esc(r['id'])}</a> {_cat(r['category'])} "
                             f"{esc(what)}</li>")
            more = f"<li>… {len(hits) - MAX_LISTED_PER_ERRATUM} more</li>" if len(hits) > MAX_LISTED_PER_ERRATUM else ""
            summary = ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "no case of this run"
            parts.append(f"<div><b>{esc(_run_name(i, run))}</b>: {esc(summary)}<ul>{''.join(items)}{more}</ul></div>")
        blocks.append(
            f"<tr id='erratum-{esc(eid)}'><td><b>{esc(eid)}</b><br>{esc(e.get('kind'))}"
            f"{'<br><i>observed</i>' if e.get('observed') else ''}</td><td>{esc(', '.join(e.get('clauses') or ()))}</td>"
            f"<td>{esc(e.get('summary'))}<br><b>Decision:</b> {esc(e.get('policy'))}<br><small>decided by "
            f"{esc(e.get('decided_by'))}</small></td><td>{''.join(parts)}</td></tr>")
    return ("<h2 id='errata'>Errata register</h2><p>Each decision the suite takes where the pages contradict "
            "themselves or are silent, and what each backend did on the cases that reach it. Observed results are "
            "shown, never failed.</p><table><tr><th>id</th><th>clauses</th><th>text and decision</th>"
            f"<th>what the backends did</th></tr>{''.join(blocks)}</table>")


def _tensor_grid(t: dict, other: dict | None, bad_coords: set) -> str:
    if not t or t.get("truncated") or "values" not in t:
        return f"<i>{esc(t.get('size') if t else '?')} elements: too large to store; see the mismatch list</i>"
    shape = t.get("shape") or [len(t["values"])]
    cols = shape[-1] if shape else 1
    cols = max(cols, 1)
    rows = []
    other_hex = (other or {}).get("hex")
    for start in range(0, len(t["values"]), cols):
        tds = []
        for k in range(start, min(start + cols, len(t["values"]))):
            coord = _unravel(k, shape)
            differs = coord in bad_coords or (other_hex is not None and k < len(other_hex) and other_hex[k] != t["hex"][k])
            tds.append(f'<td class="{"bad" if differs else ""}" title="0x{esc(t["hex"][k])}">{esc(t["values"][k])}</td>')
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


def _failures(runs: list[Results]) -> str:
    blocks = []
    for i, run in enumerate(runs):
        repro = run.header.get("repro") or f"dml-conformance run --backend {run.backend} --case {{id}}"
        for r in run.records:
            if r["category"] not in FAILING and r["category"] != "waived" and not (
                    r["category"] == "observed" and r.get("mismatch")):
                continue
            parts = [f"<h3>{esc(r['id'])} {_cat(r['category'])} <small>{esc(_run_name(i, run))}</small></h3>",
                     f"<p>{esc(r.get('reason'))}</p>"]
            if r.get("waiver"):
                w = r["waiver"]
                parts.append(f"<p>waiver: {esc(w.get('reason'))} {esc(w.get('tracker') or '')} "
                             f"(was {esc(r.get('waived_category'))})</p>")
            parts.append(f"<p>DML_{esc(r.get('operator'))}, {esc(r.get('data_type'))}, rank {esc(r.get('rank'))}, "
                         f"FL {esc(r.get('feature_level'))}; clauses {esc(', '.join(r.get('clauses') or ()))}; "
                         f"reached operator: <b>{esc(r.get('reached_operator') or 'not reported')}</b></p>")
            parts += [f"<p class='note'>backend note: {esc(n)}</p>" for n in r.get("notes") or ()]
            mm = r.get("mismatch") or {}
            if mm.get("problems"):
                parts.append("<p>" + esc("; ".join(mm["problems"])) + "</p>")
            tensors = r.get("tensors") or {}
            for j, exp in enumerate(tensors.get("expected") or []):
                act = (tensors.get("actual") or [None] * (j + 1))[j] if j < len(tensors.get("actual") or []) else None
                bad = {tuple(m["coordinate"]) for m in mm.get("first") or [] if m.get("output") == j}
                parts.append(f"<div class='diffpair'><b>output {j}</b> ({mm.get('count', 0)} element(s) differ in all "
                             f"outputs; mismatching cells marked)<table><tr><th>expected</th><th>actual</th></tr><tr>"
                             f"<td class='expected'>{_tensor_grid(exp, act, bad)}</td><td class='actual'>"
                             f"{_tensor_grid(act, exp, bad) if act else '<i>missing</i>'}</td></tr></table></div>")
            if mm.get("first"):
                lis = "".join(f"<li>output {m['output']} [{esc(','.join(map(str, m['coordinate'])))}]: expected "
                              f"{esc(m['expected'])} ({esc(m['expected_hex'])}), actual {esc(m['actual'])} "
                              f"({esc(m['actual_hex'])})</li>" for m in mm["first"])
                parts.append(f"<details open><summary>first mismatches</summary><ul>{lis}</ul></details>")
            if r.get("descriptor"):
                parts.append("<details><summary>descriptor</summary><pre>"
                             + esc(json.dumps(r["descriptor"], indent=1)) + "</pre></details>")
            if r.get("case_json"):
                parts.append("<details><summary>the minimal case as a case file (save it, run it with --cases)"
                             "</summary><pre>" + esc(json.dumps(r["case_json"], indent=1)) + "</pre></details>")
            else:
                parts.append(f"<p>reproduce: <code class='repro'>{esc(repro.replace('{id}', r['id']))}</code></p>")
            blocks.append(f"<div class='failure f' id='fail-{i}-{esc(r['id'])}' data-cat='{esc(r['category'])}' "
                          f"data-op='{esc(r.get('operator'))}' data-dt='{esc(r.get('data_type'))}' data-run='{i}' "
                          f"data-id='{esc(r['id'])}'>{''.join(parts)}</div>")
    if not blocks:
        return "<h2 id='failures'>Failures</h2><p>None.</p>"
    return f"<h2 id='failures'>Failures, waived failures and differing observations ({len(blocks)})</h2>" + "".join(blocks)


def _grid(runs: list[Results]) -> str:
    if len(runs) < 2:
        return ""
    by_run = [{r["id"]: r for r in run.records} for run in runs]
    ids = sorted(set().union(*by_run))
    differing = [c for c in ids if len({(b.get(c) or {}).get("category") for b in by_run}) > 1]
    head = "".join(f"<th>{esc(_run_name(i, run))}</th>" for i, run in enumerate(runs))
    rows = []
    for c in differing[:MAX_GRID_ROWS]:
        cells = "".join(f"<td>{_cat((b.get(c) or {}).get('category', 'absent'))}</td>" for b in by_run)
        rows.append(f"<tr><td>{esc(c)}</td>{cells}</tr>")
    more = f"<p>… {len(differing) - MAX_GRID_ROWS} more</p>" if len(differing) > MAX_GRID_ROWS else ""
    return (f"<h2 id='grid'>Comparison grid</h2><p>{len(ids)} distinct cases; {len(differing)} with different "
            f"categories across runs:</p><table id='grid-table'><tr><th>case</th>{head}</tr>{''.join(rows)}</table>"
            + more)


def _cases_table(runs: list[Results]) -> str:
    rows = []
    for i, run in enumerate(runs):
        for r in run.records:
            reason = str(r.get("reason", ""))
            if len(reason) > MAX_REASON:
                reason = reason[:MAX_REASON] + "…"
            rows.append(
                f"<tr class='f c-{esc(r['category'])}' id='case-{i}-{esc(r['id'])}' data-cat='{esc(r['category'])}' "
                f"data-op='{esc(r.get('operator'))}' data-dt='{esc(r.get('data_type'))}' data-run='{i}' "
                f"data-id='{esc(r['id'])}'><td>{esc(r['id'])}</td><td>{i + 1}</td><td>{esc(r.get('operator'))}</td>"
                f"<td>{esc(r.get('data_type'))}</td><td>{esc(r.get('rank'))}</td><td>{esc(r['category'])}</td>"
                f"<td>{esc(r.get('reached_operator') or '')}</td><td>{esc(reason)}</td></tr>")
    return ("<h2 id='cases'>All cases</h2><table id='cases-table'><tr><th>case</th><th>run</th><th>operator</th>"
            "<th>type</th><th>rank</th><th>category</th><th>reached</th><th>reason</th></tr>" + "".join(rows)
            + "</table>")


def _filters(runs: list[Results]) -> str:
    ops = sorted({r.get("operator") for run in runs for r in run.records} - {None})
    dts = sorted({str(r.get("data_type")) for run in runs for r in run.records})
    cats = [c for c in CATEGORIES if any(run.counts()[c] for run in runs)]
    run_opts = "".join(f'<option value="{i}">{esc(_run_name(i, run))}</option>' for i, run in enumerate(runs))
    return ("<div id='filters'>Filter failures and cases: "
            f"<select id='f-cat'><option value=''>any category</option>{_options(cats)}</select> "
            f"<select id='f-op'><option value=''>any operator</option>{_options(ops)}</select> "
            f"<select id='f-dt'><option value=''>any data type</option>{_options(dts)}</select> "
            f"<select id='f-run'><option value=''>any run</option>{run_opts}</select> "
            "<input id='f-text' placeholder='case id contains'> <span id='f-count'></span></div>")


def render(runs: list[Results]) -> str:
    """The whole report as one HTML string (inline CSS and JS, no external resources)."""
    if not runs:
        raise ValueError("no results to report")
    overall = "FAIL" if any(r.verdict() == "FAIL" for r in runs) else (
        "INCOMPLETE" if any(r.verdict() == "INCOMPLETE" for r in runs) else "PASS")
    total = sum(len(r.records) for r in runs)
    nav = " · ".join(f"<a href='#{a}'>{t}</a>" for a, t in (
        ("summary", "summary"), ("grid", "comparison"), ("matrix", "matrix"), ("reached", "reached operators"),
        ("clauses", "clauses"), ("errata", "errata"), ("failures", "failures"), ("cases", "all cases")))
    body = [
        f"<h1>DirectML data-movement conformance</h1><p><span id='overall' class='verdict v-{overall}'>{overall}</span>"
        f" {len(runs)} run(s), {total} case results. {nav}</p>",
        _summary(runs), _grid(runs), _matrices(runs), _reached(runs), _clauses(runs), _errata(runs),
        _filters(runs), _failures(runs), _cases_table(runs),
    ]
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>DirectML conformance report</title>"
            f"<style>{CSS}</style><script>{JS}</script></head><body>{''.join(body)}</body></html>")


def write_report(runs: list[Results], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(render(runs), encoding="utf-8")
    tmp.replace(path)  # never leave a half-written report
    return path


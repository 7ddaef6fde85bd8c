"""The heat maps at DirectML's 26 data-movement operators: one compact grid per view, the run on one screen.

The operators beyond the six do not exist in the suite yet, and the report must not need them to: it reads
records.  So a real run's results file is rewritten into one whose records name all 26 operators in all 11 data
types, ranks 1 to 8 and the seven layouts, with a failure and unsupported cases placed where the test knows them,
and the report is looked at in Chromium at 1,400 x 900 pixels.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from prerequisite import require
from runner_helpers import cli
from test_report_browser import ARGS, CHROMIUM

pytestmark = [pytest.mark.browser]
WIDTH, HEIGHT = 1400, 900
OPERATORS = (
    *("SLICE", "SLICE1", "PADDING", "PADDING1", "SPLIT", "JOIN", "ELEMENT_WISE_IDENTITY", "CAST", "TILE"),
    *("SPACE_TO_DEPTH", "SPACE_TO_DEPTH1", "DEPTH_TO_SPACE", "DEPTH_TO_SPACE1", "REVERSE_SUBSEQUENCES", "SLICE_GRAD"),
    *("GATHER", "GATHER_ELEMENTS", "GATHER_ND", "GATHER_ND1", "SCATTER", "SCATTER_ND", "ONE_HOT"),
    *("FILL_VALUE_CONSTANT", "FILL_VALUE_SEQUENCE", "DIAGONAL_MATRIX", "DIAGONAL_MATRIX1"),
)
DATA_TYPES = (
    *("FLOAT64", "FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8"),
    *("UINT64", "UINT32", "UINT16", "UINT8"),
)
LAYOUTS = ("packed", "padded", "permuted", "broadcast", "oversized", "overlapping", "malformed")
FAILING = ("REVERSE_SUBSEQUENCES", "UINT16")  # rank 1 of it fails
UNSUPPORTED = "CAST"  # its FLOAT64 cases, every one


def synthesise(template: Path, out: Path, label: str, failing: tuple[str, str] = FAILING) -> Path:
    """`template` (a real results file) with its records replaced: 8 per operator and data type, rank k + 1."""
    header, record, *_ = (json.loads(line) for line in template.read_text(encoding="utf-8").splitlines())
    records = []
    for op in OPERATORS:
        for dt in DATA_TYPES:
            for k in range(8):
                category, reason = "pass", "bit-exact"
                if (op, dt) == failing and k == 0:
                    category, reason = "fail", "1 element(s) differ"
                elif op == UNSUPPORTED and dt == "FLOAT64":
                    category, reason = "unsupported", "needs feature level 9.9"
                case = {**record, "id": f"{op}-synthetic-{dt}-{k}", "operator": op, "data_type": dt, "rank": k + 1}
                records.append({**case, "layout": LAYOUTS[k % 7], "category": category, "reason": reason})
    header.update(label=label, case_count=len(records), run_id=f"synthetic-{label}")
    header["selection"]["selected"] = len(records)
    header["tables"]["operators"] = list(OPERATORS)
    counts: dict[str, int] = {}
    for r in records:
        counts[r["category"]] = counts.get(r["category"], 0) + 1
    footer = {"kind": "footer", "finished": header["started"], "duration_s": 1.0, "counts": counts}
    out.write_text("".join(json.dumps(x) + "\n" for x in [header, *records, footer]), encoding="utf-8")
    return out


def _open(p, report: Path):
    browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
    page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    page.goto(report.as_uri())
    return browser, page


@pytest.fixture(scope="module")
def reports(good_run, tmp_path_factory) -> dict[str, Path]:
    """One run of 26 operators, and five such runs side by side (the last with another failure)."""
    base = tmp_path_factory.mktemp("many")
    runs = [synthesise(good_run[1], base / f"results-{k}.jsonl", f"build {k}") for k in range(4)]
    runs.append(synthesise(good_run[1], base / "results-4.jsonl", "build 4", ("GATHER_ND1", "INT8")))
    out = {"one": base / "one.html", "five": base / "five.html"}
    for name, given in (("one", runs[:1]), ("five", runs)):
        proc = cli("report", *map(str, given), "-o", str(out[name]), "--no-fail")
        assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="module")
def playwright(reports):
    require(CHROMIUM.exists(), "no headless Chromium at /usr/bin/chromium (apt install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [test] extra")
    with sync_api.sync_playwright() as p:
        yield p


def _box(page, selector: str) -> dict:
    return page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect(); return {...r.toJSON()}; }")


def test_one_run_of_26_operators_fits_one_screen(playwright, reports):
    b, page = _open(playwright, reports["one"])
    try:
        grids = page.locator("table.heat")
        assert grids.evaluate_all("els => els.map(e => e.dataset.key)") == ["data_type", "rank", "layout"]
        for k in range(3):  # operators down, in the header's order, a row each
            assert grids.nth(k).locator("tbody tr").evaluate_all("els => els.map(e => e.dataset.op)") == list(OPERATORS)
        values = [grids.nth(k).locator("th.value").all_inner_texts() for k in range(3)]
        assert values == [list(DATA_TYPES), [str(r) for r in range(1, 9)], list(LAYOUTS)]
        # The whole picture: from the section's title to the last grid's bottom, within 1,400 x 900, no scrolling.
        page.evaluate("document.getElementById('matrix').scrollIntoView()")
        top = _box(page, "#matrix")["top"]
        boxes = [grids.nth(k).bounding_box() for k in range(3)]
        assert all(boxes) and page.evaluate("document.documentElement.scrollWidth") <= WIDTH
        assert max(b["y"] + b["height"] for b in boxes if b) - top <= HEIGHT
        assert max(b["x"] + b["width"] for b in boxes if b) <= WIDTH
        # The failure and the unsupported cases are where the records put them, and say so.
        bad = page.locator("table.heat[data-key='data_type'] td.cell-bad")
        assert bad.count() == 1 and bad.inner_text() == "✗1"
        assert bad.get_attribute("data-value") == FAILING[1]
        assert bad.evaluate("e => e.parentElement.dataset.op") == FAILING[0]
        assert "REVERSE_SUBSEQUENCES UINT16, run 1: 7/8; fail 1, pass 7" in (bad.get_attribute("title") or "")
        hatched = page.locator("table.heat[data-key='data_type'] td.hatched")
        assert hatched.count() == 1 and hatched.get_attribute("data-value") == "FLOAT64"
        assert hatched.evaluate("e => e.parentElement.dataset.op") == UNSUPPORTED
        rank_one = page.locator("table.heat[data-key='rank'] tr[data-op='REVERSE_SUBSEQUENCES'] td[data-value='1']")
        assert "cell-bad" in (rank_one.get_attribute("class") or "") and rank_one.inner_text() == "✗1"
    finally:
        b.close()


def test_five_runs_of_26_operators_each_view_on_one_screen(playwright, reports):
    b, page = _open(playwright, reports["five"])
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
        grids = page.locator("table.heat")
        for k in range(3):
            box = grids.nth(k).bounding_box()
            assert box and box["height"] <= HEIGHT and box["x"] + box["width"] <= WIDTH
            assert grids.nth(k).locator("tbody tr").count() == len(OPERATORS)
        dt = page.locator("table.heat[data-key='data_type']")
        marked = dt.locator("tbody tr:has(td.mark:not(:empty))").evaluate_all("els => els.map(e => e.dataset.op)")
        assert marked == ["REVERSE_SUBSEQUENCES", "GATHER_ND1"]  # the runs differ there, and only there
        row = dt.locator("tr[data-op='GATHER_ND1']")
        assert row.locator("td.cell-bad").evaluate_all("els => els.map(e => [e.dataset.run, e.dataset.value])") == [
            ["4", "INT8"]
        ]
        assert row.locator("td.mark").get_attribute("title") == "the runs differ in data type INT8"
    finally:
        b.close()

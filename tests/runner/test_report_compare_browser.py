"""A report of five runs of different identities, looked at as a vendor would: Chromium at 1,400 x 900 pixels.

Four real runs on the worked examples: onnxruntime-cpu, oracle, onnx-reference, and a test backend reporting a
DirectML identity (DirectML 1.15.4 on "Test GPU 9000") with one seeded failure.  The fifth is that last run's
results file with its header copied under another DirectML identity (DirectML 1.13.1; the records as they are):
real runs on two DirectML versions are tests/directml's, and need a GPU stack this test does without.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from prerequisite import require
from runner_helpers import EXAMPLES, cli, env, faults_file
from test_report_browser import ARGS, CHROMIUM

from conformance.run.identity import identity
from conformance.run.results import read_results

pytestmark = [pytest.mark.browser]
WIDTH, HEIGHT = 1400, 900
SEEDED = {"SLICE1-example-2": "garbage"}  # the one failure: every output element 90


def _as_another_directml(results: Path, out: Path, version: str) -> Path:
    """`results` with its header copied under DirectML `version` (its identity and fingerprint made anew)."""
    first, *rest = results.read_text(encoding="utf-8").splitlines()
    header = json.loads(first)
    header["backend_versions"]["directml"] = version
    header["identity"] = identity(header["backend"], header["backend_versions"], header["platform"])
    header["label"] = f"DirectML {version} (header copied)"
    out.write_text("\n".join([json.dumps(header), *rest]) + "\n", encoding="utf-8")
    return out


def _start(out: Path, backend: str, label: str, faults: dict[str, str] | None = None) -> subprocess.Popen:
    """`dml-conformance run` on the examples, started (the four runs go at once: each is seconds of start-up)."""
    extra = {"DML_TEST_FAULTS": str(faults_file(out.parent, faults, EXAMPLES))} if faults else {}
    args = ["run", "--backend", backend, "--cases", str(EXAMPLES), "--out", str(out), "--label", label]
    return subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", *args, "-j", "1", "--report", "none"],
        env=env(**extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture(scope="module")
def five(tmp_path_factory) -> list[Path]:
    base = tmp_path_factory.mktemp("five")
    folders = [base / name / "out" for name in ("onnxruntime-cpu", "oracle", "onnx-reference", "dml")]
    (base / "dml").mkdir()
    procs = [_start(folders[k], name, name) for k, name in enumerate(("onnxruntime-cpu", "oracle", "onnx-reference"))]
    procs.append(_start(folders[3], "dml_test_backends:PretendDirectML", "DirectML 1.15.4", SEEDED))
    for proc in procs:
        _, stderr = proc.communicate(timeout=300)
        assert proc.returncode in (0, 1), stderr  # 1: the seeded failure
    runs = [next(folder.glob("results-*.jsonl")) for folder in folders]
    runs.append(_as_another_directml(runs[-1], base / "results-directml-1.13.1.jsonl", "1.13.1.0"))
    return runs


@pytest.fixture(scope="module")
def page(five, tmp_path_factory):
    require(CHROMIUM.exists(), "no headless Chromium at /usr/bin/chromium (apt install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [test] extra")
    out = tmp_path_factory.mktemp("five-report") / "report.html"
    proc = cli("report", *map(str, five), "-o", str(out), "--no-fail")
    assert proc.returncode == 0, proc.stderr
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        page.goto(out.as_uri())
        yield page
        browser.close()


def test_five_identities_one_line_each_within_the_first_screen_and_no_horizontal_scrolling(five, page):
    assert len({read_results(p).header.identity["fingerprint"] for p in five}) == 5
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert page.evaluate("document.getElementById('summary').getBoundingClientRect().bottom") <= HEIGHT
    lines = page.locator("#summary tr[data-run] details.provenance > summary")
    assert lines.count() == 5
    line_height = float(page.eval_on_selector("#summary summary", "e => parseFloat(getComputedStyle(e).lineHeight)"))
    assert all(box["height"] < 1.5 * line_height for box in (lines.nth(k).bounding_box() for k in range(5)))
    texts = lines.all_inner_texts()
    assert "DirectML 1.15.4" in texts[3] and "DirectML 1.13.1" in texts[4]  # the two DirectML runs told apart
    assert not page.locator("#summary .provenance ul").first.is_visible()  # the provenance is folded


def test_the_heat_maps_of_all_runs_side_by_side(page):
    assert page.locator(".heat-runs .run-key").count() == 5  # the key: the runs, numbered as under each value
    grid = page.locator("table.heat[data-key='data_type']")
    values = grid.locator("th.value").evaluate_all("els => els.map(e => e.dataset.value)")
    assert values and grid.locator("th.run-head").count() == 5 * len(values)
    for row in grid.locator("tbody tr").all():
        for value in values:  # under each value, one narrow column per run, in run order, on the one row
            boxes = [row.locator(f"td[data-run='{k}'][data-value='{value}']").bounding_box() for k in range(5)]
            assert all(boxes) and len({round(b["y"]) for b in boxes if b}) == 1
            lefts = [b["x"] for b in boxes if b]
            assert lefts == sorted(lefts) and max(b["x"] + b["width"] for b in boxes if b) <= WIDTH


def test_the_comparison_is_grouped_by_pattern_with_the_failing_pattern_first(five, page):
    runs = [{r.id: r.category.value for r in read_results(p).records} for p in five]
    differing = {c for c in runs[0] if len({run.get(c) for run in runs}) > 1}
    rows = page.locator("#grid-table tr.pattern")
    failing = rows.evaluate_all("els => els.map(e => e.dataset.failing)")
    counts = [int(n) for n in rows.evaluate_all("els => els.map(e => e.dataset.count)")]
    assert failing[0] == "yes" and "yes" not in failing[1:]
    assert counts[0] < max(counts[1:])  # first because it fails, not because it is the largest
    assert sum(counts) == len(differing) and rows.count() < len(differing)  # grouped
    seen = set()
    for k in range(rows.count()):
        row = rows.nth(k)
        categories = row.locator("td span[class^='c-']").all_inner_texts()
        ids = row.locator("details.ids p").text_content().split()
        assert row.locator("details.ids").get_attribute("open") is None  # the ids are folded under the pattern
        assert len(ids) == counts[k] and all([run[i] for run in runs] == categories for i in ids)
        seen |= set(ids)
    assert seen == differing
    assert rows.first.locator("details.ids p").text_content().split() == list(SEEDED)


def test_no_regression_view_between_runs_of_different_identities(page):
    assert page.locator("div.regression").count() == 0
    assert page.locator("p.no-regression").is_visible()
    apart = page.locator("p.apart")  # the two runs of one backend: compared in the grid, not regressed
    assert apart.count() == 1 and (apart.get_attribute("data-before"), apart.get_attribute("data-after")) == ("3", "4")
    assert "differ in directml" in apart.inner_text()

"""The report's heat map and regression view: computed from the records, and rendered in a real headless Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from prerequisite import require
from runner_helpers import EXAMPLES, cli, faults_file
from test_report_browser import ARGS, CHROMIUM

from conformance.report.regression import changes
from conformance.run.results import read_results

BEFORE = {"PADDING-example-1": "garbage", "SPLIT-example-1": "garbage"}
AFTER = {"SLICE-example-1": "garbage", "SPLIT-example-1": "raise"}


def _run(folder: Path, backend: str, label: str, faults: dict[str, str] | None = None) -> Path:
    folder.parent.mkdir(parents=True, exist_ok=True)
    env = {"DML_TEST_FAULTS": str(faults_file(folder.parent, faults, EXAMPLES))} if faults is not None else {}
    cli("run", "--backend", backend, "--cases", str(EXAMPLES), "--out", str(folder), "--label", label, env_extra=env)
    (results,) = folder.glob("results-*.jsonl")
    return results


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> list[Path]:
    """Two nightlies of one backend (a fix, a new failure, a changed category) and a backend without PADDING."""
    base = tmp_path_factory.mktemp("nightlies")
    return [
        _run(base / "before" / "out", "dml_test_backends:Hostile", "monday", BEFORE),
        _run(base / "after" / "out", "dml_test_backends:Hostile", "tuesday", AFTER),
        _run(base / "nopad" / "out", "dml_test_backends:NoInvalidChecks", "no padding"),
    ]


def test_regression_changes_are_new_failures_fixes_and_changed_categories(runs):
    before, after = read_results(runs[0]), read_results(runs[1])
    found = {
        kind: [(c, a.category.value, b.category.value) for c, a, b in rows]
        for kind, rows in changes(before, after).items()
    }
    assert found == {
        "new": [("SLICE-example-1", "pass", "fail")],
        "fixed": [("PADDING-example-1", "fail", "pass")],
        "changed": [("SPLIT-example-1", "fail", "crash")],
    }


@pytest.fixture(scope="module")
def page(runs, tmp_path_factory):
    require(CHROMIUM.exists(), "no headless Chromium at /usr/bin/chromium (apt install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [test] extra")
    out = tmp_path_factory.mktemp("heat") / "report.html"
    proc = cli("report", *map(str, runs), "-o", str(out), "--no-fail")
    assert proc.returncode == 0, proc.stderr
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page()
        page.goto(out.as_uri())
        yield page
        browser.close()


def _style(page, selector: str, prop: str) -> str:
    return page.eval_on_selector(selector, f"el => getComputedStyle(el).{prop}")


@pytest.mark.browser
def test_heat_map_colours_by_pass_rate_and_hatches_unsupported(page):
    grid = "table.heat[data-key='data_type']"  # one grid, a column per run
    full = page.locator(f"{grid} td.heat[data-run='0'][data-rate='1.0000']").first
    partial = page.locator(f"{grid} td.heat.cell-bad[data-run='0']").first
    assert full.count() and partial.count()
    green = full.evaluate("el => getComputedStyle(el).backgroundColor")
    red = partial.evaluate("el => getComputedStyle(el).backgroundColor")
    assert green != red and float(partial.get_attribute("data-rate")) < 1
    # rgb(r, g, b): a fully passing cell is greener than red, a failing one redder than the passing one
    g, r = (tuple(int(x) for x in c[c.index("(") + 1 : -1].split(",")[:3]) for c in (green, red))
    assert g[1] > g[0] and r[0] > g[0]
    hatched = page.locator(f"{grid} tr[data-op='PADDING'] td.hatched[data-run='2']")
    assert hatched.count() >= 1 and hatched.first.get_attribute("data-rate") == ""
    assert "repeating-linear-gradient" in hatched.first.evaluate("el => getComputedStyle(el).backgroundImage")
    assert page.locator("table.heat td.hatched[data-run='0']").count() == 0  # the oracle-based runs support all


@pytest.mark.browser
def test_regression_view_comes_first_with_new_failures_fixes_and_changes(page):
    sections = page.eval_on_selector_all("h2", "els => els.map(e => e.id)")
    assert sections.index("regression") < sections.index("matrix") < sections.index("grid")
    view = page.locator("div.regression")
    assert view.count() == 1 and view.get_attribute("data-before") == "0" and view.get_attribute("data-after") == "1"
    assert view.locator("table.regression-new tr[data-id]").evaluate_all("els => els.map(e => e.dataset.id)") == [
        "SLICE-example-1"
    ]
    assert view.locator("table.regression-fixed tr[data-id]").evaluate_all("els => els.map(e => e.dataset.id)") == [
        "PADDING-example-1"
    ]
    changed = view.locator("table.regression-changed tr[data-id='SPLIT-example-1']")
    assert changed.is_visible() and "crash" in changed.inner_text() and "fail" in changed.inner_text()
    assert "1 new failure(s), 1 fix(es), 1 other change(s)" in view.inner_text()

"""The HTML report opened in a real headless Chromium: the matrix and a failure diff render, filters work."""

from __future__ import annotations

from pathlib import Path

import pytest
from prerequisite import require
from runner_helpers import cli

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def page(broken_run, good_run, tmp_path_factory):
    require(CHROMIUM.exists(), "no headless Chromium at /usr/bin/chromium (apt install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [test] extra")
    out = tmp_path_factory.mktemp("report") / "report.html"
    proc = cli("report", str(good_run[1]), str(broken_run[1]), "-o", str(out), "--no-fail")
    assert proc.returncode == 0, proc.stderr
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(out.as_uri())
        page.dialogs, page.requests = dialogs, requests
        yield page
        browser.close()


def _visible_rows(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.filter(e => e.offsetParent !== null).map(e => e.dataset.id)")


def test_verdict_and_matrix_render(page):
    assert page.inner_text("#overall") == "FAIL"
    assert page.locator("#summary .v-PASS").count() == 1 and page.locator("#summary .v-FAIL").count() == 1
    # One grid per key, a column per run: the broken run's SLICE1 cell is bad, the good run's cells are all fine.
    grid = page.locator("table.matrix[data-key='data_type']")
    assert "SLICE1" in grid.inner_text()
    assert grid.locator("tr[data-op='SLICE1'] td.cell-bad[data-run='1']").count() == 1
    assert (
        grid.locator("td.cell-ok[data-run='0']").count() >= 1 and grid.locator("td.cell-bad[data-run='0']").count() == 0
    )


def test_failure_diff_marks_the_flipped_element(page):
    block = page.locator("#fail-1-SLICE1-example-2")
    assert block.is_visible()
    bad = block.locator("td.actual .diff td.bad")
    assert bad.count() == 1 and bad.first.inner_text() == "14.000000953674316"
    assert bad.first.get_attribute("title") == "0x41600001"
    assert (
        "dml-conformance run --backend dml_test_backends:BitFlip"
        in block.locator("code.repro:not(.standalone)").inner_text()
    )
    assert "--case SLICE1-example-2" in block.locator("code.repro:not(.standalone)").inner_text()


def test_filters_hide_what_does_not_match(page):
    all_rows = _visible_rows(page, "#cases-table tr.f")
    assert len(all_rows) > 10
    page.select_option("#f-cat", "fail")
    assert 0 < len(_visible_rows(page, "#cases-table tr.f")) < len(all_rows)  # the good run's rows are hidden
    assert all(
        c == "fail"
        for c in page.eval_on_selector_all(
            "#cases-table tr.f", "els => els.filter(e => e.offsetParent !== null).map(e => e.dataset.cat)"
        )
    )
    page.select_option("#f-op", "PADDING")
    failures = _visible_rows(page, "div.failure")
    assert failures and all(f.startswith("PADDING-") for f in failures)
    page.select_option("#f-cat", "")
    page.select_option("#f-op", "")
    assert len(_visible_rows(page, "#cases-table tr.f")) == len(all_rows)


def test_self_contained_and_escaped(page):
    assert page.dialogs == []  # the backend's version string carries a <script>: it must stay text
    page.click("#summary tr[data-run='1'] summary")  # the provenance, folded behind the run's line
    assert "bit-flip: 1.0 <script>alert(1)</script>" in page.inner_text("#summary tr[data-run='1'] .provenance")
    assert all(u.startswith("file://") for u in page.requests)

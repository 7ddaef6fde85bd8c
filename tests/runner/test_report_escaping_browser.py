"""A backend's text is text in the report: markup in its versions, errors, notes, reasons and label runs no script.

The Injects backend (dml_test_backends) puts a <script> and an <img onerror> into everything a backend reports;
its run is reported beside a good one (so the comparison grid, heat maps and regression headers name it too) and
opened in a real headless Chromium with every folded part open.
"""

from __future__ import annotations

import pytest
from dml_test_backends import PAYLOAD
from prerequisite import require
from runner_helpers import EXAMPLES, cli
from test_report_browser import ARGS, CHROMIUM

pytestmark = [pytest.mark.browser]
TITLE = "DirectML conformance report"


@pytest.fixture(scope="module")
def report(good_run, tmp_path_factory):
    out = tmp_path_factory.mktemp("injects")
    run = cli(
        *("run", "--backend", "dml_test_backends:Injects", "--cases", str(EXAMPLES), "--out", str(out / "run")),
        *("--label", f"vendor build {PAYLOAD}", "--report", "none"),
    )
    assert run.returncode == 1, run.stdout + run.stderr  # SLICE1's errors fail the run
    (results,) = (out / "run").glob("results-*.jsonl")
    path = out / "report.html"
    done = cli("report", str(good_run[1]), str(results), "-o", str(path), "--no-fail")
    assert done.returncode == 0, done.stderr
    return path


def test_markup_from_a_backend_runs_no_script_and_reads_as_text(report):
    require(CHROMIUM.exists(), "no headless Chromium at /usr/bin/chromium (apt install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [test] extra")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(report.as_uri(), wait_until="load")  # load waits for every <img>, failed ones included
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")  # provenance, ids, ...
        assert page.evaluate("window.__injected") is None and page.title() == TITLE and dialogs == []
        assert page.locator("img").count() == 0 and page.locator("script").count() == 1  # the report's own filters

        # The text is there, as text, where a vendor reads it.
        run_line = page.inner_text("#summary tr[data-run='1']")
        assert f"vendor build {PAYLOAD}" in run_line and f"DirectML 1.15.4 {PAYLOAD}" in run_line  # label, identity
        assert f"injects: 1.0 {PAYLOAD}" in page.inner_text("#summary tr[data-run='1'] .provenance")
        failure = page.inner_text("#fail-1-SLICE1-example-1")
        assert f"driver said {PAYLOAD}" in failure and f"2: vendor build {PAYLOAD}" in failure
        headline = f"cannot {PAYLOAD}".split(";")[0]  # the grid groups by a reason's text before its first ';'
        assert headline in page.inner_text("#grid-table") and f"cannot {PAYLOAD}" in page.inner_text("#cases-table")
        assert f"2: vendor build {PAYLOAD}" in page.inner_text(
            ".heat-runs .run-key[data-run='1']"
        )  # the heat maps' key
        head = page.locator("table.heat[data-key='data_type'] th.run-head[data-run='1']").first
        assert head.get_attribute("title") == f"2: vendor build {PAYLOAD}"
        assert PAYLOAD in page.inner_text("#reached-table")  # the reached operator it named
        assert page.inner_text("body").count(PAYLOAD) >= 10

        # The check can fail: the same text let in as markup runs (the <img>'s onerror sets the flag and the title).
        page.evaluate("t => document.body.insertAdjacentHTML('beforeend', t)", PAYLOAD)
        page.wait_for_function("window.__injected === 'img'")
        assert page.title() == "injected"
        browser.close()

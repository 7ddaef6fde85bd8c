"""Render a report to PNG with Debian's headless Chromium (docs/report.png in the README).

python benchmarks/screenshot_report.py reports/report-onnxruntime-cpu-<time>.html docs/report.png [HEIGHT]

docs/report.png: two quick runs of onnxruntime-cpu, the second with --no-known-issues (so the
regression view has its new failures), reported together, HEIGHT 1900:

    dml-conformance run --out /tmp/a --label onnxruntime-cpu
    dml-conformance run --out /tmp/b --label "onnxruntime-cpu, --no-known-issues" --no-known-issues
    dml-conformance report /tmp/a/results-*.jsonl /tmp/b/results-*.jsonl -o /tmp/two.html --no-fail
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def main(report: str, out: str, height: str = "1100", chromium: str = "/usr/bin/chromium") -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": int(height)})
        page.goto(Path(report).resolve().as_uri())
        page.screenshot(path=out)
        browser.close()


if __name__ == "__main__":
    main(*sys.argv[1:4])

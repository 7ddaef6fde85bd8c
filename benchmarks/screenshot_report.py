"""Render a report to PNG with Debian's headless Chromium (docs/report.png in the README).

python benchmarks/screenshot_report.py REPORT.html docs/report.png [HEIGHT]

The window is 1,400 pixels wide, as a vendor would look.  docs/report.png: five runs of 692 cases each
(the worked examples, the curated cases, the reach set and 100 generated cases), real DirectML 1.15.4
under Wine for the first two, reported together, HEIGHT 1900:

    for b in directml onnxruntime-directml onnxruntime-cpu onnx-reference oracle; do
        dml-conformance run --backend $b --generated 100 --hypothesis-examples 0 --out /tmp/shot/$b --report none
    done
    dml-conformance report /tmp/shot/{directml,onnxruntime-directml,onnxruntime-cpu,onnx-reference,oracle}/results-*.jsonl \
        -o /tmp/five.html --no-fail
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

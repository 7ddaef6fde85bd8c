"""The report's size: python benchmarks/bench_report_size.py [RESULTS.jsonl ...] [--backend NAME] [--profile P].

With results files, reports on them; without, runs `dml-conformance run` first (default: the
oracle backend, quick profile, into a temporary folder).  Prints the number of cases, the
report's size, the size of its sections, and what listing every case in the cases table (as
reports did before passes were summarised) would have added: the figure the report keeps small.

Not a timed test: sizes depend on the corpus and on how many cases fail.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from conformance.report import html as report
from conformance.report.render import environment
from conformance.run.results import merge_shards, read_results


def _mb(n: int) -> str:
    return f"{n / 1e6:.2f} MB"


def _sections(html: str) -> dict[str, int]:
    """Bytes per <h2 id=...> section."""
    marks = [(m.start(), m.group(1)) for m in re.finditer(r"<h2 id='([\w-]+)'>", html)]
    out = {"(head and summary)": marks[0][0] if marks else len(html)}
    for (start, name), (end, _) in zip(marks, [*marks[1:], (len(html), "")], strict=True):
        out[name] = end - start
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="*")
    parser.add_argument("--backend", default="oracle")
    parser.add_argument("--profile", default="quick", choices=("quick", "full"))
    args = parser.parse_args()
    paths = [Path(p) for p in args.results]
    with tempfile.TemporaryDirectory() as tmp:
        if not paths:
            cmd = [sys.executable, "-m", "conformance.cli", "run", "--backend", args.backend, "--profile", args.profile]
            subprocess.run([*cmd, "--out", tmp, "--report", "none"], check=False, capture_output=True)
            paths = sorted(Path(tmp).glob("results-*.jsonl"))
        runs = merge_shards([read_results(p) for p in paths])
        html = report.render(runs)
        row = environment().get_template("macros.html.j2").module.case_row  # the cases table's row, as a macro
        every_row = sum(len(str(row(report.case_row(i, r)))) for i, run in enumerate(runs) for r in run.records)
        table = _sections(html).get("cases", 0)
    cases = sum(len(run.records) for run in runs)
    print(f"{len(runs)} run(s), {cases} cases: report {_mb(len(html.encode()))}")
    for name, size in sorted(_sections(html).items(), key=lambda kv: -kv[1]):
        print(f"  {name:24} {_mb(size)}")
    print(
        f"cases table listing every case: {_mb(every_row)} (now {_mb(table)}): the report would be "
        f"{_mb(len(html.encode()) - table + every_row)}"
    )


if __name__ == "__main__":
    main()

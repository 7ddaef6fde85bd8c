"""The report's size and time: python benchmarks/bench_report_size.py [RESULTS.jsonl ...] [--backend NAME] [--profile P].

With results files, reports on them; without, runs `dml-conformance run` first (default: the
oracle backend, quick profile, into a temporary folder).  Prints the number of cases, the
report's size, the size of its sections, and what listing every case in the cases table (as
reports did before passes were summarised) would have added: the figure the report keeps small.
Then the CPU time of reading the results files and of rendering the report (medians of
REPEATS): compare two revisions on the same files in the same minute, another process's load
moves both.

Not a timed test: sizes depend on the corpus and on how many cases fail.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from conformance.report import html as report
from conformance.report.render import environment
from conformance.run.results import merge_shards, read_results

REPEATS = 5


def _cpu(work: Callable[[], object]) -> float:
    """The median CPU time of `work`, in seconds."""
    times = []
    for _ in range(REPEATS):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


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
        every = [report.case_row(i, r) for i, run in enumerate(runs) for r in run.records]
        none = environment().get_template("report/cases.html.j2").render(cases=[])  # the section without rows
        every_row = len(environment().get_template("report/cases.html.j2").render(cases=every)) - len(none)
        table = _sections(html).get("cases", 0)
        reading = _cpu(lambda: merge_shards([read_results(p) for p in paths]))
        rendering = _cpu(lambda: report.render(runs))
    cases = sum(len(run.records) for run in runs)
    print(f"{len(runs)} run(s), {cases} cases: report {_mb(len(html.encode()))}")
    for name, size in sorted(_sections(html).items(), key=lambda kv: -kv[1]):
        print(f"  {name:24} {_mb(size)}")
    print(
        f"cases table listing every case: {_mb(every_row)} (now {_mb(table)}): the report would be "
        f"{_mb(len(html.encode()) - table + every_row)}"
    )
    print(f"CPU, medians of {REPEATS}: reading the results {reading:.3f} s, rendering the report {rendering:.3f} s")


if __name__ == "__main__":
    main()

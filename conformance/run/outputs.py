"""Where a run's files go, checked before anything runs: folders, and a report path that is safe to replace.

In the run layer, not in conformance.report.html: a session checks its --report target before the
first case (and writes nothing if it is wrong), while rendering the report is the layer above
(report.py reads results; the CLI and the plugin write it after the run).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .config import UsageError

# How a report this suite wrote starts: the only kind of file a new report may replace.
GENERATOR = "dml-conformance"
REPORT_MARKERS = (f"<meta name='generator' content='{GENERATOR}'>", "<title>DirectML conformance report</title>")


class ReportError(OSError):
    """The report cannot be written where asked; the message names the file and why."""


def is_report(path: Path) -> bool:
    """Whether `path` is a report this suite wrote (the only kind of file a report may replace)."""
    try:
        with path.open("rb") as f:
            start = f.read(512).decode("utf-8", "replace")
    except OSError:
        return False
    return start.startswith("<!DOCTYPE html>") and any(m in start for m in REPORT_MARKERS)


def check_folder(folder: Path, option: str) -> None:
    """Files can be written in `folder`: it is a folder we may write in, or can be made in one.

    Checked before a run starts (nothing is created yet: `--collect-only` leaves no trace);
    the folder itself is made when the first file is written.
    """
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        what = folder if existing == folder else f"{existing} (in {folder})"
        raise UsageError(
            f"{option}: {what} is a file, not a folder" if existing.exists() else f"{option}: {folder} is not a folder"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(f"{option}: cannot write in {existing} (permission denied)")


def check_not_results(path: Path, option: str, results: Sequence[Path], what: str) -> None:
    """`path` (an output: `what` it is) is none of `results`, compared resolved: an output never replaces results."""
    for other in results:
        if path.resolve() == other.resolve():
            raise UsageError(f"{option}: {path} is the results file; {what} never replaces results")


def check_target(path: Path, option: str, avoid: Sequence[Path] = ()) -> None:
    """`path` may receive a report: not one of `avoid` (results files), not a folder, not a non-report file."""
    check_not_results(path, option, avoid, "a report")
    if path.is_dir():
        raise UsageError(f"{option}: {path} is a folder; give a file name (e.g. {path / 'report.html'})")
    if path.exists() and not is_report(path):
        raise UsageError(f"{option}: {path} exists and is not a dml-conformance report; it is never overwritten")
    check_folder(path.parent, option)

"""Results files: JSON Lines, one record per case, the single source of truth for the report.

Line 1 is the run header (backend, versions, platform, options, the clause and errata tables).
Before a case runs a `start` line is written, after it its `case` record; every line is flushed
at once.  A run killed mid-way therefore leaves a readable file: the reader turns a `start`
without a record into a `crash` record, and a missing `footer` marks the run incomplete.
"""

from __future__ import annotations

import dataclasses
import json
import platform
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import oracle

from .runner import CATEGORIES, FAILING

FORMAT = "dml-conformance-results"
FORMAT_VERSION = 1


def suite_version() -> str:
    try:
        from importlib.metadata import version

        return version("dml-conformance")
    except Exception:  # not installed (a source checkout on sys.path)
        return oracle.__version__


def platform_info() -> dict:
    return {"python": sys.version.split()[0], "system": platform.system(), "release": platform.release(),
            "machine": platform.machine(), "node": platform.node()}


def tables() -> dict:
    """The spec tables this run judged against, embedded so a report never needs the suite's code."""
    return {
        "clauses": dict(oracle.CLAUSES),
        "errata": [dataclasses.asdict(e) for e in oracle.ERRATA.values()],
        "operators": list(oracle.OPERATORS),
        "data_types": [d.value for d in oracle.ALL_DATA_TYPES],
    }


def make_header(**fields) -> dict:
    header = {"kind": "header", "format": FORMAT, "format_version": FORMAT_VERSION, "suite_version": suite_version(),
              "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "platform": platform_info()}
    header.update(fields)
    header["tables"] = tables()
    return header


class ResultsWriter:
    """Appends records as they happen; each line is flushed so an interrupted run keeps everything it did."""

    def __init__(self, path: str | Path, header: dict):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] | None = self.path.open("w", encoding="utf-8")
        self.counts: Counter[str] = Counter()
        self._t0 = time.perf_counter()
        self._write(header)

    def _write(self, obj: dict) -> None:
        assert self._file is not None, "results file already closed"
        self._file.write(json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n")
        self._file.flush()

    def start(self, case_id: str) -> None:
        self._write({"kind": "start", "id": case_id})

    def record(self, record: dict) -> None:
        self.counts[record["category"]] += 1
        self._write(record)

    def close(self, **footer) -> None:
        if self._file is None:
            return
        self._write({"kind": "footer", "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                     "duration_s": round(time.perf_counter() - self._t0, 3),
                     "counts": dict(self.counts), **footer})
        self._file.close()
        self._file = None


class ResultsFileError(ValueError):
    pass


@dataclass
class Results:
    path: str
    header: dict
    records: list[dict] = field(default_factory=list)
    footer: dict | None = None
    notes: list[str] = field(default_factory=list)  # what the reader had to repair

    @property
    def complete(self) -> bool:
        return self.footer is not None and not self.footer.get("interrupted", False)

    @property
    def backend(self) -> str:
        return str(self.header.get("backend", "?"))

    @property
    def label(self) -> str:
        return str(self.header.get("label") or self.backend)

    def counts(self) -> Counter[str]:
        return Counter(r["category"] for r in self.records)

    @property
    def failed(self) -> bool:
        return any(r["category"] in FAILING for r in self.records)

    def verdict(self) -> str:
        """PASS only for a complete run with nothing failing; an incomplete run never passes."""
        if self.failed:
            return "FAIL"
        if not self.complete:
            return "INCOMPLETE"
        return "PASS"


def read_results(path: str | Path) -> Results:
    """Read a results file, repairing what an interrupted run leaves (a torn last line, unfinished cases)."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ResultsFileError(f"{path}: cannot read: {e}") from e
    if not lines:
        raise ResultsFileError(f"{path}: empty file, not a results file")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as e:
        raise ResultsFileError(f"{path}:1: not JSON ({e.msg}); not a results file") from e
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ResultsFileError(f"{path}:1: the first line is not a {FORMAT} header")
    if header.get("format_version", 0) > FORMAT_VERSION:
        raise ResultsFileError(f"{path}:1: format_version {header['format_version']} is newer than this reader "
                               f"({FORMAT_VERSION}); upgrade dml-conformance")
    results = Results(str(path), header)
    pending: dict[str, None] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):
                results.notes.append(f"line {number} is torn (the run was stopped while writing it); ignored")
                continue
            raise ResultsFileError(f"{path}:{number}: not JSON") from None
        kind = obj.get("kind") if isinstance(obj, dict) else None
        if kind == "start":
            pending[obj["id"]] = None
        elif kind == "case":
            if obj.get("category") not in CATEGORIES:
                raise ResultsFileError(f"{path}:{number}: category {obj.get('category')!r} is not one of "
                                       f"{', '.join(CATEGORIES)}")
            pending.pop(obj["id"], None)
            results.records.append(obj)
        elif kind == "footer":
            results.footer = obj
        else:
            raise ResultsFileError(f"{path}:{number}: unknown record kind {kind!r}")
    for case_id in pending:
        operator = case_id.split("-", 1)[0]
        results.records.append({
            "kind": "case", "id": case_id, "operator": operator, "data_type": "?", "rank": 0, "clauses": [],
            "tags": [], "unspecified": [], "category": "crash", "synthesized": True,
            "reason": "the run stopped while this case was running (the process crashed or was killed)",
        })
        results.notes.append(f"{case_id} was running when the run stopped: recorded as crash")
    if results.footer is None:
        results.notes.append("no footer: the run did not finish (interrupted or crashed); the results are partial")
    return results

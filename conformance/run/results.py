"""Results files: JSON Lines, the single source of truth for the report.

Line 1 is the run header (conformance.run.record.Header); then one `case` record per case,
written by the parent process as each finishes, in completion order (records carry their
selection index, so readers sort them back); a `footer` ends a run.  `--resume` appends a
`resume` line and more records to the same file; the last footer then ends the run, and a
case's last record is its result.

Nothing is lost: a new results file is created exclusively (two runs started in the same
second get two files), every line is one write to an unbuffered file, and a write that fails
(a full disk) stops the run, leaving every line written before it readable.  The reader
repairs what an interrupted run leaves (a torn last line) and reads format version 1 (with
its `start` lines: a case started and never recorded was the one in flight when the
process died, recorded as `crash`).
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar, overload

from ..support import collector, formats
from ..support.formats import FormatError
from ..support.jsonfile import JsonFileError, read_text
from ..support.outputs import being_written, writing_lock
from .jsontypes import JsonTypeError, safe_text
from .record import (
    FORMAT,
    FORMAT_VERSION,
    Category,
    Footer,
    Header,
    Record,
    Resume,
    Shard,
    Verdict,
    fails_run,
    parse_line,
)


class ResultsFileError(FormatError):
    """A file that is not a readable results file; the message names the file, line and JSON path."""


class ResultsWriteError(OSError):
    """The results file cannot be written (a full disk, a lost mount): the run stops.  `whole_lines`: how many
    lines of the failed write reached the file whole (the rest, at most one torn line, the reader drops)."""

    whole_lines = 0


# --- names --------------------------------------------------------------------------------------


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)


def create_results_file(folder: Path, backend: str) -> Path:
    """A new, empty `results-<backend>-<time>[-n].jsonl` in `folder`, created exclusively: never anyone else's."""
    stem = f"results-{_safe(backend)}-{time.strftime('%Y%m%d-%H%M%S')}"
    for n in range(1, 10_000):
        path = folder / (stem + (f"-{n}" if n > 1 else "") + ".jsonl")
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            return path
        except FileExistsError:
            continue
    raise ResultsWriteError(errno.EEXIST, f"no free results file name in {folder}")


def report_path_for(results: Path) -> Path:
    """results-X.jsonl -> report-X.html, next to it (any other name: NAME.html)."""
    name = results.name.removesuffix(".jsonl")
    name = "report-" + name.removeprefix("results-") if name.startswith("results-") else name
    return results.with_name(name + ".html")


# --- writing ------------------------------------------------------------------------------------


class ResultsWriter:
    """Appends lines to a results file the caller has created (or is resuming); each line is one write."""

    def __init__(self, path: Path, *, resume: bool = False):
        self.path = path
        if resume:
            _drop_torn_line(path)
        try:
            self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as e:
            raise ResultsWriteError(e.errno, f"cannot open {path} for writing: {e.strerror}") from e
        writing_lock(self._fd)  # until close (or this process's death): readers say "still being written"
        self.counts: Counter[Category] = Counter()
        self.written = 0
        self.kept: list[Record] = []  # the records whose line is whole in the file: what a reader of it gets

    def _send(self, data: bytes) -> int:
        assert self._fd is not None
        return os.write(self._fd, data)

    def _write(self, line: str) -> None:
        if self._fd is None:
            raise ResultsWriteError(errno.EBADF, f"{self.path} is closed")
        data = (line + "\n").encode("utf-8")
        sent = 0
        try:
            while sent < len(data):
                sent += self._send(data[sent:])
        except OSError as e:
            error = ResultsWriteError(e.errno, f"cannot write {self.path}: {e.strerror}")
            error.whole_lines = data[:sent].count(b"\n")
            raise error from e

    def header(self, header: Header) -> None:
        self._write(header.to_line())

    def resume(self, resume: Resume) -> None:
        self._write(resume.to_line())

    def records(self, records: list[Record]) -> None:
        """Several records in one write: what arrived together is written together, at once."""
        lines = []
        for record in records:
            try:
                lines.append(record.to_line())
            except (TypeError, ValueError) as e:  # a bug, not the backend's: keep the case, say why
                lines.append(
                    Record(
                        record.id,
                        record.operator,
                        Category.ERROR,
                        index=record.index,
                        reason=f"the suite could not write this record: {type(e).__name__}: {e}",
                    ).to_line()
                )
        try:
            if lines:
                self._write("\n".join(lines))
        except ResultsWriteError as e:
            self._keep(records[: e.whole_lines])
            raise
        self._keep(records)

    def _keep(self, records: list[Record]) -> None:
        self.kept += records
        self.counts.update(r.category for r in records)
        self.written += len(records)

    def record(self, record: Record) -> None:
        self.records([record])

    def footer(self, footer: Footer) -> None:
        self._write(footer.to_line())

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _drop_torn_line(path: Path) -> None:
    """A run killed mid-write leaves a partial last line: cut it before appending after it."""
    try:
        with path.open("rb+") as f:
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)
    except OSError as e:
        raise ResultsWriteError(e.errno, f"cannot repair {path}: {e.strerror}") from e


# --- reading ------------------------------------------------------------------------------------


@dataclass
class Results:
    path: str
    header: Header
    records: list[Record] = field(default_factory=list)  # one per case (its last), in selection order
    footer: Footer | None = None
    notes: list[str] = field(default_factory=list)  # what the reader had to repair or merge
    missing_shards: list[Shard] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return (
            self.footer is not None
            and not self.footer.interrupted
            and not self.footer.stopped
            and not self.missing_shards
            and not any(r.category is Category.INTERRUPTED for r in self.records)
        )

    @property
    def backend(self) -> str:
        return self.header.backend

    @property
    def label(self) -> str:
        return self.header.label or self.backend

    def counts(self) -> Counter[Category]:
        return Counter(r.category for r in self.records)

    @property
    def failed(self) -> bool:
        return self._fails(self.records)

    @property
    def executed(self) -> int:
        return sum(1 for r in self.records if r.category.executed)

    def _fails(self, records: list[Record]) -> bool:
        """A case file that could not be read fails every part of a run (nobody knows which part it held)."""
        return bool(self.header.input_errors) or any(fails_run(r.category, self.header.flaky_fails) for r in records)

    def verdict(self, beyond_seed_pages: bool | None = None) -> Verdict:
        """FAIL over INCOMPLETE over UNTESTED over PASS: an unfinished run, or one that tested nothing, never passes.

        With `beyond_seed_pages` True or False, the verdict of that part of the run alone: the cases past the
        four seed pages (Record.beyond_seed_pages), or the four pages' own.
        """
        if beyond_seed_pages is None:
            return self._verdict_of({r.category for r in self.records})
        return self._verdict_of({c for c, beyond in self._tally() if beyond is beyond_seed_pages})

    def _verdict_of(self, categories: set[Category]) -> Verdict:
        """The verdict of a part of the run whose records have these categories."""
        if self.header.input_errors or any(fails_run(c, self.header.flaky_fails) for c in categories):
            return Verdict.FAIL
        if not self.complete:
            return Verdict.INCOMPLETE
        if not any(c.executed for c in categories):
            return Verdict.UNTESTED
        return Verdict.PASS

    def _tally(self) -> set[tuple[Category, bool]]:
        """Each (category, beyond the seed pages) some record has: the parts' verdicts, from one walk over the records."""
        return {(r.category, r.beyond_seed_pages) for r in self.records}

    def part_verdicts(self) -> str:
        """'the four seed pages: PASS; beyond them: PASS' ('no case' for a part the run does not hold), or ''
        for a run with no case past the seed pages."""
        tally = self._tally()
        if not any(beyond for _, beyond in tally):
            return ""
        seeds = self._verdict_of({c for c, beyond in tally if not beyond})
        return (
            f"the four seed pages: {seeds.value if any(not b for _, b in tally) else 'no case'}; "
            f"beyond them: {self._verdict_of({c for c, beyond in tally if beyond}).value}"
        )


def final_records(records: list[Record]) -> list[Record]:
    """One record per case (a resumed run's later record replaces an earlier one), in selection order."""
    by_id: dict[str, Record] = {}
    for r in records:
        by_id.pop(r.id, None)
        by_id[r.id] = r
    return sorted(by_id.values(), key=lambda r: (r.index is None, r.index or 0))


def read_header(path: str | Path) -> Header:
    return _read(Path(path), header_only=True).header


def read_results(path: str | Path) -> Results:
    """Read a results file, repairing what an interrupted run leaves (a torn last line, unfinished cases)."""
    with collector.paused():  # a million objects made and kept, no cycle among them
        return _read(Path(path))


def _lines(path: Path) -> tuple[list[str], Header]:
    """The file's lines and its header, read in full (both readers start here)."""
    try:
        lines = read_text(path).splitlines()
    except JsonFileError as e:
        raise ResultsFileError(e.where, "", e.detail) from None
    if not lines:
        raise ResultsFileError(path, "", "empty file, not a results file")
    return lines, _header(path, lines[0])


def _read(path: Path, header_only: bool = False) -> Results:
    lines, header = _lines(path)
    results = Results(str(path), header)
    if header_only:
        return results
    records: list[Record] = []
    pending: dict[str, None] = {}  # version 1: cases started and not (yet) recorded
    for number, line in enumerate(lines[1:], start=2):
        obj = _parse(path, number, line, number == len(lines), results.notes)
        if obj is None:
            continue
        item = _item(path, number, obj, header.format_version)
        if isinstance(item, str):
            pending[item] = None
        elif isinstance(item, Record):
            pending.pop(item.id, None)
            records.append(item)
        elif isinstance(item, Footer):
            results.footer = item
        elif isinstance(item, Resume):
            results.footer = None  # the run went on: an earlier footer no longer ends it
        else:
            raise ResultsFileError(path, "", "a second header", line=number)
    records += [_never_finished(case_id, results.notes) for case_id in pending]
    results.records = final_records(records)
    if results.footer is None:
        results.notes.append(_unfinished(path))
    return results


def _unfinished(path: Path) -> str:
    """Why a file has no footer: a run still writing it (it holds the writer's lock), or one that died."""
    if being_written(path):
        return "no footer yet: a run is still writing this file; the results are partial"
    return "no footer: the run did not finish (interrupted or crashed); the results are partial"


def _parse(path: Path, number: int, line: str, last: bool, notes: list[str]) -> object | None:
    """One line's JSON; None for a blank line, or a torn last line (the run was stopped while writing it)."""
    if not line.strip():
        return None
    try:
        return json.loads(line)
    except (ValueError, RecursionError):  # not JSON, too deep, or an integer past Python's digit limit
        if last:
            notes.append(f"line {number} is torn (the run was stopped while writing it); ignored")
            return None
        raise ResultsFileError(path, "", "not JSON", line=number) from None


def _item(path: Path, number: int, obj: object, version: int) -> Header | Record | Footer | Resume | str:
    """Validate a line against the results schema, then build it; a version-1 `start` line is its case id."""
    kind = obj.get("kind") if isinstance(obj, dict) else None
    found = formats.results_line_violation(obj)
    if found:
        raise ResultsFileError(path, *found, line=number)
    assert isinstance(obj, dict)
    if kind == "start":
        if version != 1:
            raise ResultsFileError(path, "$.kind", "'start' lines belong to format version 1", line=number)
        return str(obj["id"])
    try:
        return parse_line(obj, "$")
    except JsonTypeError as e:  # the schema and the record types disagree: still a clear error
        raise ResultsFileError(path, "", str(e), line=number) from None


def _never_finished(case_id: str, notes: list[str]) -> Record:
    """Version 1: a case started and never recorded was the one in flight when the process died."""
    notes.append(f"{case_id} was running when the run stopped: recorded as crash")
    return Record(
        case_id,
        case_id.split("-", 1)[0],
        Category.CRASH,
        synthesized=True,
        reason="the run stopped while this case was running (the process crashed or was killed)",
    )


def _header(path: Path, line: str) -> Header:
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, too deep, or an integer past Python's digit limit
        raise ResultsFileError(path, "", "not JSON; not a results file", line=1) from None
    if not isinstance(obj, dict) or obj.get("format") != FORMAT or obj.get("kind") not in ("header", None):
        raise ResultsFileError(path, "", f"the first line is not a {FORMAT} header", line=1)
    version = obj.get("format_version")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        raise ResultsFileError(
            path,
            "",
            f"format_version {version} is newer than this reader ({FORMAT_VERSION}); upgrade dml-conformance",
            line=1,
        )
    found = formats.results_line_violation(obj, first=True)
    if found:
        raise ResultsFileError(path, *found, line=1)
    try:
        header = parse_line({**obj, "kind": "header"}, "$")
    except JsonTypeError as e:
        raise ResultsFileError(path, "", str(e), line=1) from None
    assert isinstance(header, Header)
    return header


# --- reading outcomes only (history) -------------------------------------------------------------


@dataclass(slots=True)
class Outcome:
    """What `history` takes of a case record: its id, category and reason, and what it groups by."""

    id: str
    operator: str
    category: Category
    data_type: str = ""
    reason: str = ""


@dataclass
class Outcomes:
    """A results file read for its outcomes (read_outcomes): the header, one Outcome per case (its last)."""

    path: str
    header: Header
    records: list[Outcome] = field(default_factory=list)
    footer: Footer | None = None
    notes: list[str] = field(default_factory=list)
    missing_shards: list[Shard] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.header.label or self.header.backend


_CATEGORY = {c.value: c for c in Category}
# One JSON string token's content: no raw control character (JSON has none; safe_text would clean C1 ones, so
# a line holding one is read in full), unrolled: the re module runs this form ~5x faster than an alternation.
_STRING = r'"([^"\\\x00-\x1f\x7f-\x9f]*(?:\\.[^"\\\x00-\x1f\x7f-\x9f]*)*)"'
# A case line in the writer's own form (Record.to_line: fields in declaration order, defaults left out): its
# first fields are the ones history takes; the rest of the line is left unparsed.
_WRITER_CASE = re.compile(
    r'\{"kind":"case","id":' + _STRING + r',"operator":' + _STRING + r',"category":"([a-z]+)"'
    r'(?:,"reason":' + _STRING + r')?(?:,"data_type":' + _STRING + r")?(?=[,}])"
)


def _unescaped(content: str) -> str | None:
    """A JSON string's content with escapes, as the full reader gives it (cleaned); None if they are not JSON."""
    try:
        return safe_text(json.loads(f'"{content}"'))
    except json.JSONDecodeError:
        return None


def _lean(line: str) -> Outcome | None:
    """The outcome of a case line in the writer's form; None for any other line (read in full instead).
    Called for every line of every run: one regex match and one object, nothing else when nothing is escaped."""
    m = _WRITER_CASE.match(line)
    if m is None or not line.endswith("}"):
        return None
    category = _CATEGORY.get(m[3])
    if category is None:
        return None
    case_id, operator, _, reason, data_type = m.groups("")
    if line.find("\\", 0, m.end()) >= 0:  # an escape in one of the fields: decode them as JSON
        texts = [_unescaped(t) for t in (case_id, operator, reason, data_type)]
        if None in texts:
            return None
        case_id, operator, reason, data_type = texts  # type: ignore[assignment]
    intern = sys.intern  # fifty runs of one suite: one copy of each id, operator, data type and reason
    return Outcome(intern(case_id), intern(operator), category, intern(data_type), intern(reason))


def read_outcomes(path: str | Path) -> Outcomes:
    """Read a results file for `history`: each case's last category, reason, operator and data type, and
    nothing else, in a fraction of read_results' time (50 full-profile runs: benchmarks/bench_history.py).

    Repairs and refuses what read_results does: the header is read in full; a torn last line is a note,
    a `start` line without its record (format 1) a crash, and a line that is not JSON, or breaks the
    schema, is a ResultsFileError naming the file and line.  Case lines in the writer's own form
    (Record.to_line) are read from their first fields (id, operator, category, reason, data type, each
    checked as the schema and the full reader check it) without parsing the rest of the line; the last
    line and any other line are read in full.
    """
    path = Path(path)
    lines, header = _lines(path)
    out = Outcomes(str(path), header)
    latest: dict[str, Outcome] = {}
    pending: dict[str, None] = {}  # version 1: cases started and not (yet) recorded
    last = len(lines)
    for number, line in enumerate(lines[1:], start=2):
        outcome = _lean(line) if number < last else None
        if outcome is None:
            obj = _parse(path, number, line, number == last, out.notes)
            if obj is None:
                continue
            item = _item(path, number, obj, header.format_version)
            if isinstance(item, str):
                pending[item] = None
                continue
            if isinstance(item, Footer):
                out.footer = item
                continue
            if isinstance(item, Resume):
                out.footer = None  # the run went on: an earlier footer no longer ends it
                continue
            if not isinstance(item, Record):
                raise ResultsFileError(path, "", "a second header", line=number)
            outcome = Outcome(item.id, item.operator, item.category, item.data_type, item.reason)
        pending.pop(outcome.id, None)
        latest[outcome.id] = outcome  # a resumed run's later record replaces the earlier one
    for case_id in pending:
        r = _never_finished(case_id, out.notes)
        latest[case_id] = Outcome(r.id, r.operator, r.category, r.data_type, r.reason)
    out.records = list(latest.values())
    if out.footer is None:
        out.notes.append(_unfinished(path))
    return out


@overload
def _final(records: list[Record]) -> list[Record]: ...
@overload
def _final(records: list[Outcome]) -> list[Outcome]: ...
def _final(records: list[Record] | list[Outcome]) -> list[Record] | list[Outcome]:
    """A merged run's records: one per case, its last (records in selection order, outcomes as read)."""
    if records and isinstance(records[0], Outcome):
        return list({o.id: o for o in records}.values())
    return final_records(records)  # type: ignore[arg-type]


RunT = TypeVar("RunT", Results, Outcomes)


# --- merging shards -------------------------------------------------------------------------------


def _config_key(run: Results | Outcomes) -> str | None:
    if run.header.shard is None or not run.header.config:
        return None
    return json.dumps([run.header.config, run.header.shard.count], sort_keys=True)


def _shard_index(results: Results | Outcomes) -> int:
    return results.header.shard.index if results.header.shard else 0


def merge_shards(runs: list[RunT]) -> list[RunT]:
    """Shard files of one run configuration become one run; everything else stays side by side, in order."""
    groups: dict[str, list[RunT]] = {}
    out: list[RunT | str] = []
    for run in runs:
        key = _config_key(run)
        if key is None:
            out.append(run)
            continue
        if key not in groups:
            groups[key] = []
            out.append(key)
        groups[key].append(run)
    return [_merge(groups[item]) if isinstance(item, str) else item for item in out]


def _merge(shards: list[RunT]) -> RunT:
    count = shards[0].header.shard.count  # type: ignore[union-attr]
    by_index: dict[int, RunT] = {}
    for run in shards:
        index = run.header.shard.index  # type: ignore[union-attr]
        if index in by_index:
            raise ResultsFileError(
                run.path,
                "",
                f"shard {index}/{count} of this run configuration is already given "
                f"({by_index[index].path}); give each shard once",
            )
        by_index[index] = run
    first = shards[0]
    header = dataclasses.replace(
        first.header,
        shard=None,
        case_count=sum(r.header.case_count for r in shards),
        input_errors=sorted({e for r in shards for e in r.header.input_errors}),
    )
    missing = [Shard(i, count) for i in range(1, count + 1) if i not in by_index]
    footers = [r.footer for r in shards]
    footer = None
    if all(footers):
        footer = Footer(
            finished=max(f.finished for f in footers if f),
            duration_s=max(f.duration_s for f in footers if f),
            interrupted=any(f.interrupted for f in footers if f),
            stopped=next((f.stopped for f in footers if f and f.stopped), None),
            not_run=sum(f.not_run for f in footers if f),
            warnings=[w for f in footers if f for w in f.warnings],
        )
    records = _final([r for run in shards for r in run.records])
    footer_counts = Counter(r.category.value for r in records)
    if footer:
        footer.counts = dict(footer_counts)
    notes = [
        f"{len(shards)} of {count} shards merged: "
        + ", ".join(f"{r.header.shard} ({r.path})" for r in sorted(shards, key=_shard_index))
    ]
    notes += [f"shard {s} is missing: the run is incomplete" for s in missing]
    notes += [f"{r.path}: {n}" for r in shards for n in r.notes]
    return type(first)(" + ".join(r.path for r in shards), header, records, footer, notes, missing)

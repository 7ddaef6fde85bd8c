"""The report's failures: each case that fails, is waived or differs where the spec leaves values open.

What is shown, computed from the record alone: the reason, the earlier attempts, the waiver, how a
crashed worker ended, the expected-vs-actual tensors with the mismatching elements marked (blue
where the spec leaves the value open), the first mismatches, the digests of a large case, the
descriptor, and how to run the case again.  Only what fails the run gets the full diff and the
descriptor: a waived or observed difference is known, and a run of thousands of them would make
the report megabytes (the results file has every detail).  templates/report/failures.html.j2
draws it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..run.record import Category, Digests, Record, TensorData, repro_command, standalone_command
from ..run.results import Results

MAX_REASON = 240
MAX_BRIEF_MISMATCHES = 3  # listed for a waived or observed difference (a failure lists all it stored)


@dataclass(frozen=True)
class TensorCell:
    value: str
    hex: str
    klass: str  # "bad": differs, "open": differs where the spec leaves it open, "": equal


@dataclass(frozen=True)
class TensorGrid:
    """A tensor as rows along its last axis, each led by the coordinate of its other axes; or `note` why not."""

    rows: tuple[tuple[str, tuple[TensorCell, ...]], ...] = ()
    note: str = ""


@dataclass(frozen=True)
class DiffPair:
    output: int
    count: int  # elements that differ in all outputs
    open_count: int
    expected: TensorGrid
    actual: TensorGrid | None  # None: the backend gave no such output


@dataclass(frozen=True)
class MismatchLine:
    output: int
    coordinate: str
    expected: str
    expected_hex: str
    actual: str
    actual_hex: str
    open: bool


@dataclass(frozen=True)
class Failure:
    run: int
    name: str  # the run's name ("2: bit-flip build")
    record: Record
    attempts: tuple[tuple[str, str], ...]  # (category, reason) of each try, the last one the record's own
    waiver: str  # the waiver's reason and tracker and the category it excused, "" if none
    crash: str  # how the worker ended ("signal 11 (SIGSEGV)"), "" if it did not
    diffs: tuple[DiffPair, ...]
    mismatches: tuple[MismatchLine, ...]
    digests: tuple[tuple[int, str, str], ...]  # (output, expected, actual) sha256
    digest_chunks: int
    descriptor: str  # JSON, for a failure of the run; "" otherwise
    case_file: str  # a live Hypothesis case as a case file (JSON), "" otherwise
    repro: str  # the command that runs the case again, "" when a case file is given instead
    standalone: str  # `dml-conformance repro ... --cpp/--onnx`: a program for a driver engineer, "" where none applies


def shown_in_failures(r: Record) -> bool:
    return (
        r.category.failing
        or r.category in (Category.WAIVED, Category.INTERRUPTED)
        or (r.category is Category.OBSERVED and r.mismatch is not None)
    )


def attempts(r: Record) -> tuple[tuple[str, str], ...]:
    """Every try of a retried case: the earlier attempts with their reasons, then the record's category."""
    if not r.attempts:
        return ()
    earlier = tuple((a.category.value, a.reason[:MAX_REASON]) for a in r.attempts)
    return (*earlier, (r.category.value, ""))


def unravel(k: int, shape: list) -> tuple:
    coord = []
    for n in reversed(shape or [1]):
        n = max(int(n), 1)
        coord.append(k % n)
        k //= n
    return tuple(reversed(coord))


def tensor_grid(t: TensorData | None, other: TensorData | None, bad: set, opened: set) -> TensorGrid:
    """`t` with each element marked where it is a judged (`bad`) or open mismatch, or differs from `other`."""
    if t is None or t.truncated or t.values is None or t.hex is None:
        return TensorGrid(note=f"{t.size if t else '?'} elements: too large to store; see the mismatch list")
    shape = t.shape or [len(t.values)]
    cols = max(shape[-1] if shape else 1, 1)
    other_hex = other.hex if other is not None else None
    rows = []
    for start in range(0, len(t.values), cols):
        cells = []
        for k in range(start, min(start + cols, len(t.values))):
            coord = unravel(k, shape)
            differs = coord in bad or (other_hex is not None and k < len(other_hex) and other_hex[k] != t.hex[k])
            klass = "open" if coord in opened else "bad" if differs else ""
            cells.append(TensorCell(str(t.values[k]), t.hex[k], klass))
        rows.append((",".join(map(str, unravel(start, shape)[:-1])), tuple(cells)))
    return TensorGrid(tuple(rows))


def _diffs(r: Record) -> tuple[DiffPair, ...]:
    mm, tensors = r.mismatch, r.tensors
    if not r.category.failing or tensors is None or mm is None:
        return ()
    out = []
    for j, exp in enumerate(tensors.expected):
        act = tensors.actual[j] if j < len(tensors.actual) else None
        bad = {tuple(m.coordinate) for m in mm.first if m.output == j and not m.open}
        opened = {tuple(m.coordinate) for m in mm.first if m.output == j and m.open}
        actual = tensor_grid(act, exp, bad, opened) if act else None
        out.append(DiffPair(j, mm.count, mm.open_count, tensor_grid(exp, act, bad, opened), actual))
    return tuple(out)


def _mismatches(r: Record) -> tuple[MismatchLine, ...]:
    mm = r.mismatch
    if mm is None:
        return ()
    first = mm.first if r.category.failing else mm.first[:MAX_BRIEF_MISMATCHES]
    return tuple(
        MismatchLine(
            m.output, ",".join(map(str, m.coordinate)), m.expected, m.expected_hex, m.actual, m.actual_hex, m.open
        )
        for m in first
    )


def _crash(r: Record) -> str:
    if r.crash is None:
        return ""
    if r.crash.signal is not None:
        return f"signal {r.crash.signal} ({r.crash.signal_name})"
    return f"exit code {r.crash.exit_code}"


def _waiver(r: Record) -> str:
    if not r.waiver:
        return ""
    was = r.waived_category.value if r.waived_category else ""
    return f"{r.waiver.get('reason') or ''} {r.waiver.get('tracker') or ''} (was {was})"


def _digests(d: Digests | None) -> tuple[tuple[int, str, str], ...]:
    return tuple((j, e, a) for j, (e, a) in enumerate(zip(d.expected, d.actual))) if d is not None else ()


def failure(i: int, name: str, r: Record, repro: str, backend: str = "", results_path: str | None = None) -> Failure:
    return Failure(
        run=i,
        name=name,
        record=r,
        attempts=attempts(r),
        waiver=_waiver(r),
        crash=_crash(r),
        diffs=_diffs(r),
        mismatches=_mismatches(r),
        digests=_digests(r.digests),
        digest_chunks=r.digests.chunks if r.digests is not None else 0,
        descriptor=json.dumps(r.descriptor, indent=1) if r.descriptor and r.category.failing else "",
        case_file=json.dumps(r.case_json, indent=1) if r.case_json else "",
        repro=repro_command(repro, r) or "",
        standalone=standalone_command(backend, r, results_path) or "" if backend else "",
    )


def failures(runs: list[Results], names: list[str], shown: list[list[Record]] | None = None) -> list[Failure]:
    """Each run's records shown here (`shown`: per run, already picked by shown_in_failures), as failures."""
    out = []
    for i, run in enumerate(runs):
        repro = run.header.repro or f"dml-conformance run --backend {run.backend} --case {{id}}"
        # A run merged from shards has no one file a record came from: its reproducer takes the case by id.
        path = None if " + " in run.path else run.path
        records = shown[i] if shown is not None else [r for r in run.records if shown_in_failures(r)]
        out += [failure(i, names[i], r, repro, run.backend, path) for r in records]
    return out

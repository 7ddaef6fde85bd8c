"""The examples a live Hypothesis unit draws, kept in the generation cache and replayed without Hypothesis.

A live unit's draws depend only on its operator, feature level, seed and example count, the code that draws them
(the strategies, the generation builders and values, the oracle, conformance.run.live) and Hypothesis itself:
conformance.run.live draws without Hypothesis's local constants, so not on what else is loaded.  The examples
of a unit that passed are kept under a key of all of these (`live-KEY.pickle` beside the generated cases,
conformance.support.cache), and `replay` runs them as the check would, in the check's order, duplicates
included, so the record says what the check's would, byte for byte.  Only when an example fails does the unit
go back to Hypothesis (draw and shrink: conformance.run.live), which keeps the shrunk record Hypothesis's own.
A failing unit's draws are kept as well (by a batching backend, which draws them all before its check), and the
minimal example Hypothesis shrank its failure to, for the backend build and the judging code that failed
(`shrunk-KEY.pickle`: the backend's name and versions, a digest of conformance/judging and the case's path).  A
replay that fails first at the same draw on the same build runs that example again, and while it still fails its
record is the check's, as Hypothesis ended it, without Hypothesis; anything else goes back to Hypothesis.
Nothing here imports Hypothesis: a worker on a warm cache never pays for it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import pickle
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

import oracle
from oracle import FeatureLevel

from ..backends.base import Backend
from ..cases.corpus import Case
from ..cases.generation.version import GENERATOR_VERSION
from ..support import pickles
from ..support.cache import CacheDirError, generated_cache_dir
from ..support.outputs import write_atomic
from .execute import Prefetched, execute_case, prefetch_results
from .record import Category, Record
from .units import LiveUnit, Work, blank_record

_CONFORMANCE = Path(__file__).resolve().parents[1]
# The code whose draws the cache holds, found, not listed: every module of cases/ (strategies, generation, values)
# and of the oracle, and the live runner (its strategy and size cap).  Any change there is a new key.
_CODE_ROOTS = (_CONFORMANCE / "cases", Path(oracle.__file__).resolve().parent)
_LIVE = Path(__file__).resolve().parent / "live.py"


def _hypothesis_version() -> str:
    """Hypothesis's version, without importing it: its dist-info folder's name beside the package (importlib.metadata
    costs more than the replay it keys), else the metadata; '' when it is not installed."""
    spec = importlib.util.find_spec("hypothesis")
    if spec is None or not spec.submodule_search_locations:
        return ""
    site = Path(next(iter(spec.submodule_search_locations))).parent
    found = sorted(p.name for p in site.glob("hypothesis-*.dist-info"))
    if len(found) == 1:
        return found[0].removeprefix("hypothesis-").removesuffix(".dist-info")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hypothesis")
    except PackageNotFoundError:
        return ""


@functools.cache
def code_key() -> str:
    """A digest of what the draws depend on besides the unit: Hypothesis's and numpy's versions, GENERATOR_VERSION,
    and the bytes of the code that draws them."""
    files = sorted({p for root in _CODE_ROOTS for p in root.rglob("*.py")} | {_LIVE})
    return _digest(f"{_hypothesis_version()}\0{np.__version__}\0{GENERATOR_VERSION}\0", files)


def _digest(head: str, files: list[Path]) -> str:
    """A digest of `head` and each file's place (folder and name), size and bytes."""
    digest = hashlib.sha256(head.encode())
    for path in files:
        data = path.read_bytes()
        digest.update(f"{path.relative_to(path.parents[1])}\0{len(data)}\0".encode() + data)
    return digest.hexdigest()[:16]


def _path(unit: LiveUnit, level: FeatureLevel) -> Path | None:
    """Where the unit's examples are kept; None when the cache is off or its folder cannot be named."""
    try:
        folder = generated_cache_dir()
    except CacheDirError:  # the run's selection already said so; a worker only goes without
        return None
    if folder is None:
        return None
    name = json.dumps([unit.operator, str(level), unit.seed, unit.examples, code_key()])
    return folder / f"live-{hashlib.sha256(name.encode()).hexdigest()[:24]}.pickle"


def _unit(unit: LiveUnit, level: FeatureLevel) -> list:
    """What a kept file says it is for: a file named by a digest is checked against it when read."""
    return [unit.operator, str(level), unit.seed, unit.examples]


def _read(path: Path | None, unit: LiveUnit, level: FeatureLevel) -> dict | None:
    """What `_write` kept at `path` for the unit; None when nothing is (absent, torn, foreign, another unit's)."""
    if path is None:
        return None
    try:
        held = pickle.loads(path.read_bytes())
    except Exception:  # absent, torn or foreign
        return None
    return held if isinstance(held, dict) and held.get("unit") == _unit(unit, level) else None


def _write(path: Path | None, unit: LiveUnit, level: FeatureLevel, **kept: object) -> None:
    """Keep `kept` for the unit at `path` (atomically: a reader sees the old file or the whole new one)."""
    if path is not None:
        with contextlib.suppress(OSError):  # a read-only or full cache is only slower, never wrong
            write_atomic(path, pickles.dumps({"unit": _unit(unit, level), **kept}))


def load(unit: LiveUnit, level: FeatureLevel) -> list[Case] | None:
    """The unit's examples as its passing check ran them; None when not kept (or torn, or foreign: drawn again)."""
    held = _read(_path(unit, level), unit, level)
    cases = held.get("cases") if held is not None else None
    return cases if isinstance(cases, list) and all(isinstance(c, Case) for c in cases) else None


def save(unit: LiveUnit, level: FeatureLevel, cases: list[Case]) -> None:
    """Keep the examples a passing check ran, or a failing one's draws."""
    _write(_path(unit, level), unit, level, cases=cases)


@functools.cache
def _judging_key() -> str:
    """A digest of the code that decides whether an example fails, and how its record reads (judging, the case's
    path): a kept shrunk example stands only for the code that shrank it."""
    return _digest("", [*sorted((_CONFORMANCE / "judging").glob("*.py")), _CONFORMANCE / "run" / "execute.py"])


def _shrunk_path(unit: LiveUnit, level: FeatureLevel, backend: Backend) -> Path | None:
    """Where the unit's shrunk example on this backend build is kept: keyed by the unit, the drawing code, the
    backend's name and versions (`versions()`), and the judging code; None when any of them cannot be had."""
    live = _path(unit, level)
    if live is None:
        return None
    try:
        versions = sorted((str(k), str(v)) for k, v in dict(backend.versions()).items())
    except Exception:  # a backend that cannot say what it is: its failures always go to Hypothesis
        return None
    name = json.dumps([live.name, str(getattr(backend, "name", "")), versions, _judging_key()])
    return live.parent / f"shrunk-{hashlib.sha256(name.encode()).hexdigest()[:24]}.pickle"


def save_shrunk(unit: LiveUnit, level: FeatureLevel, backend: Backend, first: str, case: Case) -> None:
    """Keep the minimal example Hypothesis shrank the unit's failure to, and the draw that failed first."""
    _write(_shrunk_path(unit, level, backend), unit, level, first=first, case=case)


def _load_shrunk(unit: LiveUnit, level: FeatureLevel, backend: Backend) -> tuple[str, Case] | None:
    held = _read(_shrunk_path(unit, level, backend), unit, level)
    first, case = (held.get("first"), held.get("case")) if held is not None else (None, None)
    return (first, case) if isinstance(first, str) and isinstance(case, Case) else None


def shrunk_record(work: Work, case: Case, record: Record, flaky: bool) -> Record:
    """The unit's record of its failure: the minimal example's own record, named for the unit, saying how it was
    found, with the example as a case file a vendor can save and run with --cases."""
    from ..cases.corpus import case_to_json

    unit = work.unit
    assert isinstance(unit, LiveUnit)
    record.id, record.hypothesis, record.index = unit.id, True, work.index
    how = (
        f"failed once, then passed when Hypothesis ran it again (the backend answered the same case two ways), "
        f"seed {unit.seed}: {case.id}"
        if flaky  # a failure that does not repeat is still a failure: the first answer was wrong
        else f"shrunk by Hypothesis (seed {unit.seed}, {unit.examples} examples) to {case.id}"
    )
    record.reason = f"{how}: {record.reason}"
    record.case_json = case_to_json(case, compact=False)
    return record


def _shrunk_again(
    work: Work,
    backend: Backend,
    level: FeatureLevel,
    first: str,
    answers: dict[str, Prefetched],
    on_example: Callable[[Case], None] | None,
) -> Record | None:
    """The unit's failure record without Hypothesis, when this backend build (the same judging code) failed first at
    the same draw as when Hypothesis shrank it, and the kept minimal example still fails: that example's record,
    as the check would end with it.  None otherwise (Hypothesis shrinks)."""
    unit = work.unit
    assert isinstance(unit, LiveUnit)
    held = _load_shrunk(unit, level, backend)
    if held is None or held[0] != first:
        return None
    case = held[1]
    if on_example is not None:
        on_example(case)
    record = execute_case(Work(work.index, case), backend, level, answers.get(case.id))
    return shrunk_record(work, case, record, flaky=False) if record.category.failing else None


def answered_in_one_batch(cases: list[Case], backend: Backend, level: FeatureLevel) -> dict[str, Prefetched]:
    """For a batching backend: the examples' answers from one run_many, by case id (an id is its content)."""
    if not getattr(backend, "batch_size", 1) > 1:
        return {}
    return {w.unit.id: r for w, r in prefetch_results([Work(i, c) for i, c in enumerate(cases)], backend, level)}


def summary(work: Work, level: FeatureLevel, seen: Counter[Category], started: float) -> Record:
    """The record of a unit none of whose examples failed: how many ran, by category."""
    unit = work.unit
    assert isinstance(unit, LiveUnit)
    total = sum(seen.values())
    counts = ", ".join(f"{k.value} {v}" for k, v in sorted(seen.items(), key=lambda kv: kv[0].value))
    category = Category.PASS if seen[Category.PASS] or seen[Category.OBSERVED] else Category.UNSUPPORTED
    record = blank_record(work, str(level)).set(category, f"{total} live examples (seed {unit.seed}): {counts}")
    record.timings["total_s"] = round(time.perf_counter() - started, 6)
    return record


def replay(
    work: Work, backend: Backend, level: FeatureLevel | None, on_example: Callable[[Case], None] | None = None
) -> tuple[Record | None, dict[str, Prefetched] | None]:
    """The unit's record from its kept examples, each announced and run as the check would, and a batching
    backend's answers to them.  No record when none are kept or one fails: the caller then runs the Hypothesis
    check, which draws and shrinks, and which the answers serve (its draws are the kept examples until the
    failure), so a failing unit's examples do not go through run_many twice."""
    unit = work.unit
    assert isinstance(unit, LiveUnit)
    started = time.perf_counter()
    level = level or backend.capabilities().feature_level
    cases = load(unit, level)
    if cases is None:
        return None, None
    answers = answered_in_one_batch(cases, backend, level)
    seen: Counter[Category] = Counter()
    for case in cases:
        if on_example is not None:
            on_example(case)
        record = execute_case(Work(work.index, case), backend, level, answers.get(case.id))
        if record.category.failing:
            return _shrunk_again(work, backend, level, case.id, answers, on_example), answers
        seen[record.category] += 1
    return summary(work, level, seen, started), answers

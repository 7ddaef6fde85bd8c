"""Which units a run has: stored cases, cases generated at run time, live Hypothesis batches; filters, shards.

Order is stable (stored files in path order, then the reach set (conformance.cases.generation.reach:
every operator at rank 1 and 8 in every data type, SPLIT into up to 256 outputs), then generation
order, then the live batches),
and each unit keeps its position in the full selection (`Work.index`), so shards and
resumed runs name the same cases in the same order.  A shard is every N-th unit.

Run-time generation is deterministic in the seed, and the first n cases of a longer
generation are the n-case generation, so one cache file per seed and generator code holds
them all (`generated_cases`): a run, `--case ID` and `explain` after the first pay a file
read, not seconds of generation.  The cache lives in the suite's cache folder
(conformance.support.cache: `generated/` in $DML_CONFORMANCE_CACHE or ~/.cache/dml-conformance;
$DML_CONFORMANCE_GENERATED moves it, `none` turns it off); it is keyed by a hash of the code
that makes the cases, so a changed builder or oracle never reads stale ones.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import pickle
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import oracle

from ..cases.compositions import Composition, compositions
from ..cases.corpus import CASES_DIR, Case, CaseFileError, LoadResult, load, load_file
from ..cases.stress import StressCase, stress_cases
from ..support import pickles
from ..support.cache import CacheDirError, generated_cache_dir
from ..support.text import shown
from .config import RunConfig, UsageError
from .keyword import parse_keyword
from .options import PROFILE_TABLE
from .units import LiveUnit, Unit, Work

RUN_TIME_SOURCE = "generated at run time"
_CASES = Path(__file__).resolve().parents[1] / "cases"
# The code whose output the generation cache holds (every generation module, found, not listed): any change
# there is a new key.
_CODE = [
    *(_CASES / name for name in ("values.py", "corpus.py", "value_classes.py")),  # what generation imports
    *sorted((_CASES / "generation").glob("*.py")),
]


def stored_roots(profile: str, paths: Iterable[str] | None) -> list[Path]:
    """The profile's folders of cases/ (quick: examples and curated; full: all of it), or the user's paths."""
    if paths:
        roots = [Path(p) for p in paths]
        for root in roots:
            if not root.exists():
                raise UsageError(f"--cases: {root} does not exist")
            if root.is_dir():
                try:
                    found = next(iter(root.rglob("*.json")), None)
                except OSError as e:  # a folder that cannot be listed (a permission, /proc's own entries)
                    raise UsageError(f"--cases: cannot list {root}: {e.strerror or e}") from None
                if found is None:  # else the run would end UNTESTED, as if every case were unsupported
                    raise UsageError(f"--cases: no case file (*.json) in the folder {root}")
        return roots
    folders = [CASES_DIR / name if name else CASES_DIR for name in PROFILE_TABLE[profile].stored]
    return [p for p in folders if p.is_dir()]


# --- the generation cache ---------------------------------------------------------------------------


@functools.cache
def _code_key() -> str:
    digest = hashlib.sha256(np.__version__.encode())
    for path in sorted(_CODE) + sorted(Path(oracle.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_folder() -> Path | None:
    """The generation cache's folder; a malformed $DML_CONFORMANCE_GENERATED or _CACHE is a UsageError naming it."""
    try:
        return generated_cache_dir()
    except CacheDirError as e:
        raise UsageError(str(e)) from None


CHUNK = 1000  # cases per cache file: a lookup reads one, a quick run five


class _GenerationCache:
    """One seed's generated cases on disk: `ids.txt`, chunks of CHUNK pickled cases, and `state.json`.

    `state.json` (how many cases, and the generator's RNG state after them) is written last and
    is the truth; chunks and ids are written before it, each atomically, so a reader never sees
    a count the files do not hold.  Runs that extend the same cache at once write identical
    bytes (generation is deterministic); a chunk shorter than `state.json` promises (one writer
    overtaking another) makes the reader start over, never use it.
    """

    def __init__(self, seed: int):
        folder = _cache_folder()
        self.seed = seed
        self.folder = None if folder is None else folder / f"generated-{_code_key()}-seed{seed}"

    def _read(self, name: str) -> bytes | None:
        if self.folder is None:
            return None
        try:
            return (self.folder / name).read_bytes()
        except OSError:
            return None

    def state(self) -> dict | None:
        data = self._read("state.json")
        try:
            state = json.loads(data) if data else None
        except ValueError:
            return None
        return state if isinstance(state, dict) and isinstance(state.get("done"), int) else None

    def ids(self, count: int) -> list[str]:
        data = self._read("ids.txt")
        return data.decode().split("\n")[:count] if data else []

    def chunk(self, k: int, needed: int) -> list[Case] | None:
        """Chunk k, if it holds at least `needed` cases."""
        data = self._read(f"chunk-{k:05d}.pickle")
        try:
            chunk = pickle.loads(data) if data else None
        except Exception:  # torn or foreign
            return None
        return chunk if isinstance(chunk, list) and len(chunk) >= needed else None

    def cases(self, count: int) -> list[Case] | None:
        out: list[Case] = []
        for k in range((count + CHUNK - 1) // CHUNK):
            chunk = self.chunk(k, min(CHUNK, count - k * CHUNK))
            if chunk is None:
                return None
            out.extend(chunk)
        return out[:count]

    def extend(self, cases: list[Case], count: int) -> list[Case]:
        """The first `count` cases, given the `cases` already held: generate the rest, then save."""
        from ..cases.generation.corpus import GENERATOR_VERSION, Generation

        state = self.state() if cases else None
        generation = Generation(
            self.seed,
            source=f"{RUN_TIME_SOURCE}: seed {self.seed}, generator {GENERATOR_VERSION}",
            state=state,
            seen=[c.id for c in cases],
        )
        if state is None or state["done"] != len(cases):
            generation, cases = Generation(self.seed, source=generation.source), []
        cases = cases + generation.take(count - len(cases))
        self._save(cases, generation.state())
        return cases

    def _save(self, cases: list[Case], state: dict) -> None:
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            for k in range(0, len(cases), CHUNK):
                _atomic(
                    self.folder / f"chunk-{k // CHUNK:05d}.pickle",
                    pickles.dumps(cases[k : k + CHUNK]),
                )
            _atomic(self.folder / "ids.txt", "\n".join(c.id for c in cases).encode())
            _atomic(self.folder / "state.json", json.dumps(state).encode())
        except OSError:  # a read-only or full cache is only slower, never wrong
            pass


def _atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def generated_cases(seed: int, count: int) -> list[Case]:
    """The first `count` cases generated from `seed` (all operators), from the cache when it holds them."""
    if count <= 0:
        return []
    cache = _GenerationCache(seed)
    state = cache.state()
    done = state["done"] if state else 0
    if done >= count:
        cases = cache.cases(count)
        return cases if cases is not None else cache.extend([], count)  # a damaged cache: start over
    return cache.extend((cache.cases(done) or []) if done else [], count)


def cached_reach_cases() -> list[Case]:
    """The reach set (conformance.cases.generation.reach), from the generation cache when it holds it (same code key)."""
    folder = _cache_folder()
    path = None if folder is None else folder / f"reach-{_code_key()}.pickle"
    if path is not None:
        try:
            cases = pickle.loads(path.read_bytes())
            if isinstance(cases, list) and all(isinstance(c, Case) for c in cases):
                return cases
        except Exception:  # absent, torn or foreign: make it again
            pass
    from ..cases.generation.reach import reach_cases  # the builders: only when the cache does not hold the set

    cases = list(reach_cases())
    if path is not None:
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            _atomic(path, pickles.dumps(cases))
    return cases


def case_keys_of(config: RunConfig) -> list[tuple[str, str, str]]:
    """(id, operator, data type) of every case `config` selects, from the generation cache when it holds them.

    A waiver check needs only these, and building the full profile's cases takes a fresh process seconds (about
    27,000 at 26 operators).  Keyed by what they are made from: the code (generation, compositions, stress, the
    oracle), the stored case files' contents, the profile, seed and count."""
    folder = _cache_folder()
    roots = stored_roots(config.profile, config.cases)
    digest = hashlib.sha256(_code_key().encode())
    for module in (_CASES / "compositions.py", _CASES / "stress.py"):  # the cases besides generation's
        digest.update(module.read_bytes())
    for root in roots:
        for file in sorted(root.rglob("*.json")) if root.is_dir() else [root]:
            digest.update(str(file.relative_to(root) if root.is_dir() else file.name).encode() + file.read_bytes())
    digest.update(json.dumps([config.profile, config.seed, config.generated_count, config.operators]).encode())
    path = None if folder is None else folder / f"keys-{digest.hexdigest()[:16]}.json"
    if path is not None:
        try:
            keys = json.loads(path.read_bytes())
            if isinstance(keys, list) and all(isinstance(k, list) and len(k) == 3 for k in keys):
                return [tuple(k) for k in keys]
        except (OSError, ValueError):  # absent, torn or foreign: make them again
            pass
    units, _ = all_units(config)
    keys = [(u.id, u.operator, u.data_type.value) for u in units if hasattr(u, "data_type")]
    if path is not None:
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            _atomic(path, json.dumps(keys).encode())
    return keys


def find_generated(case_id: str, seed: int, count: int) -> Case | None:
    """One generated case by id among the first `count`, reading one chunk of the cache when it can."""
    cache = _GenerationCache(seed)
    state = cache.state()
    held = min(state["done"], count) if state else 0
    ids = cache.ids(held)
    if case_id in ids:
        position = ids.index(case_id)
        chunk = cache.chunk(position // CHUNK, position % CHUNK + 1)
        if chunk is not None and chunk[position % CHUNK].id == case_id:
            return chunk[position % CHUNK]
    if held >= count and len(ids) == held:
        return None  # every one of them is known, and it is not among them
    return next((c for c in generated_cases(seed, count) if c.id == case_id), None)


# --- selection ------------------------------------------------------------------------------------


@dataclass
class Selection:
    works: list[Work]  # this run's units (after shard and resume), each with its index in the full selection
    total: int  # units in the full selection (all shards)
    errors: list[CaseFileError] = field(default_factory=list)

    @property
    def cases(self) -> list[Case]:
        return [w.unit for w in self.works if isinstance(w.unit, Case)]


def _matches(case_id: str, patterns: Iterable[str]) -> bool:
    return any(case_id.startswith(p[:-1]) if p.endswith("*") else case_id == p for p in patterns)


def _exact(patterns: Iterable[str] | None) -> list[str] | None:
    """The ids when every pattern is an exact id (a fast lookup), else None."""
    patterns = list(patterns or ())
    return patterns if patterns and not any(p.endswith("*") for p in patterns) else None


def load_stored(roots: list[Path], ids: list[str] | None = None) -> LoadResult:
    """Load the case files under `roots`; with exact `ids`, parse only the files whose text names one."""
    if ids is None:
        return _load_cached(roots)[0]
    result = LoadResult([], [])
    for path in _files(roots):
        try:
            text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
        except OSError:
            text = ""
        if any(f'"{i}"' in text for i in ids) or not path.is_file():
            part = load_file(path, only=ids)
            result.cases.extend(part.cases)
            result.errors.extend(part.errors)
    return result


# What reading a case file depends on besides the code key's modules: the schemas it is checked against.
_READER = [_CASES.parent / "support" / "formats.py", *sorted((_CASES.parent / "schemas").glob("*.json"))]
# What building the compositions on them depends on besides the oracle (in the code key).
_BUILDERS = [_CASES / "compositions.py"]


def _load_cached(roots: list[Path], build: bool = False) -> tuple[LoadResult, list[Composition]]:
    """load(roots), from the generation cache when these very files were read before by this very code (a pickle
    keyed by the code key, the reader's schemas and every file's path and bytes): parsing and checking the
    stored corpus costs more than a quick run's other selection work.  Files with errors are read anew each time.

    With `build` (the packaged corpus), the compositions built on the cases too, in the same pickle, so that each
    still holds its case: building the full profile's 1,860 took 0.2 s of every run."""
    folder = generated_cache_dir()
    if folder is None:
        return _fresh(roots, build)
    digest = hashlib.sha256(_code_key().encode())
    try:
        for path in [*_READER, *(_BUILDERS if build else ()), *_files(roots)]:
            data = path.read_bytes() if path.is_file() else b"?"  # anything else: load() says what is wrong
            digest.update(f"{path}\0{len(data)}\0".encode() + data)
    except OSError:
        return _fresh(roots, build)
    cache = folder / f"{'stored+built' if build else 'stored'}-{digest.hexdigest()[:24]}.pickle"
    try:
        result, built = pickle.loads(cache.read_bytes())
        if isinstance(result, LoadResult) and not result.errors and isinstance(built, list):
            return result, built
    except Exception:  # absent, torn or foreign: read the files
        pass
    result, built = _fresh(roots, build)
    if not result.errors:
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
            _atomic(cache, pickles.dumps((result, built)))
    return result, built


def _fresh(roots: list[Path], build: bool) -> tuple[LoadResult, list[Composition]]:
    result = load(roots)
    return result, compositions(result.cases) if build else []


def _files(roots: list[Path]) -> list[Path]:
    files: list[Path] = []
    for root in roots:
        files.extend(sorted(root.rglob("*.json")) if root.is_dir() else [root])
    return files


def all_units(config: RunConfig) -> tuple[list[Unit], list[CaseFileError]]:
    """The full selection of `config` (before sharding and resume), in its stable order."""
    exact = _exact(config.case)
    roots = stored_roots(config.profile, config.cases)
    # The packaged corpus's compositions (small DML graphs around its cases, GRAPH.*) come with it from the cache.
    composing = not config.cases and not config.profile_data.stress
    loaded, built = _load_cached(roots, build=composing) if exact is None else (load_stored(roots, exact), None)
    cases: list[Case | StressCase | Composition] = list(loaded.cases)
    if config.profile_data.stress and not config.cases:
        cases.extend(stress_cases())
    if not config.cases and config.profile_data.reach:
        cases.extend(c for c in cached_reach_cases() if exact is None or c.id in exact)
    if not config.cases:
        seen = {c.id for c in cases}
        if exact:  # look the ids up (the cache's index and one chunk each), do not load every case
            found = (find_generated(i, config.seed, config.generated_count) for i in exact if i not in seen)
            generated = [c for c in found if c is not None]
        else:
            generated = generated_cases(config.seed, config.generated_count)
        cases.extend(c for c in generated if c.id not in seen)
    if composing:
        # Small DML graphs around the stored cases (beyond the seed pages, GRAPH.*): after every case they build on.
        if built is None:  # the cases looked up by id: only theirs
            built = compositions(loaded.cases)
        cases.extend(c for c in built if exact is None or c.id in exact)
    if config.operators:
        cases = [c for c in cases if c.operator in config.operators]
    if config.data_types:
        cases = [c for c in cases if c.data_type in config.data_types]
    if config.case:
        cases = [c for c in cases if _matches(c.id, config.case)]
    units: list[Unit] = list(cases)
    if config.hypothesis_count and not config.case and not config.cases:
        units += [LiveUnit(op, config.hypothesis_count, config.seed) for op in config.operators or oracle.OPERATORS]
    return _narrow(units, config), loaded.errors


def unit_words(unit: Unit) -> list[str]:
    """What `-k` matches against: the id, the operator, the data type and the tags."""
    if isinstance(unit, LiveUnit):
        return [unit.id, unit.operator, "hypothesis"]
    return [unit.id, unit.operator, unit.data_type.value, *unit.tags, *unit.unspecified]


def _narrow(units: list[Unit], config: RunConfig) -> list[Unit]:
    """--exclude and -k: the units left out by id, and the ones the keyword expression keeps."""
    if config.exclude:
        units = [u for u in units if not _matches(u.id, config.exclude)]
    if config.keyword:
        matcher = parse_keyword(config.keyword)
        units = [u for u in units if matcher(unit_words(u))]
    return units


def listed(units: list[Unit], clause: str | None, tag: str | None) -> list[Case | StressCase | Composition]:
    """`cases list --clause/--tag`: the cases exercising (or breaking) `clause` and carrying `tag`.

    A clause the spec does not have, or a tag that is neither an errata id nor on any case of the selection,
    is a UsageError naming it: a typo must not read as "no case"."""
    if clause and clause not in oracle.CLAUSES:
        raise UsageError(f"--clause {shown(clause)}: no such clause (the spec's: {', '.join(oracle.CLAUSES)})")
    cases = [c for c in units if isinstance(c, Case | StressCase | Composition)]
    if tag and tag not in oracle.ERRATA and not any(tag in c.tags or tag in c.unspecified for c in cases):
        raise UsageError(
            f"--tag {shown(tag)}: neither an errata id nor a tag of any case of this selection (errata: "
            f"{', '.join(oracle.ERRATA)})"
        )
    return [
        c
        for c in cases
        if (not clause or clause in c.clauses or c.expected.clause == clause)
        and (not tag or tag in c.tags or tag in c.unspecified)
    ]


def select(config: RunConfig, finished: set[str] | frozenset[str] = frozenset()) -> Selection:
    """This run's units: the full selection, this shard's share of it, less the `finished` ids (--resume)."""
    units, errors = all_units(config)
    works = [Work(i, u) for i, u in enumerate(units)]
    if config.shard:
        works = [w for w in works if w.index % config.shard.count == config.shard.index - 1]
    if finished:
        works = [w for w in works if w.id not in finished]
    return Selection(works, len(units), errors)


def select_cases(**options) -> list[Case]:
    """The cases (no live Hypothesis units) of a run configured by `options`, RunConfig's fields: for scripts."""
    return select(RunConfig(**{"hypothesis_examples": 0, **options})).cases


def find_case(
    case_id: str, *, paths: Iterable[str] | None = None, seed: int = 0, count: int | None = None
) -> Case | None:
    """One case by id: the stored corpus, then the first `count` cases generated from `seed` (default: full's)."""
    from .options import MAX_GENERATED

    roots = stored_roots("full", paths)
    for case in load_stored(roots, [case_id]).cases:
        if case.id == case_id:
            return case
    if paths:
        return None
    if "-reach-" in case_id:
        return next((c for c in cached_reach_cases() if c.id == case_id), None)
    return find_generated(case_id, seed, MAX_GENERATED if count is None else count)

"""The report's comparison grid: the cases whose category differs between runs, grouped by pattern.

Two routes over one corpus differ on hundreds of cases, nearly all for one reason ("unsupported"
on one, "pass" on another, because the case needs a feature level one DirectML.dll lacks); listed
one by one, sorted by id, the one failure among them is lost.  A pattern is the categories across
the runs plus the reason: its count, its ids folded under it, the patterns with a failing category
first.  The reason is each record's headline (the text before its first ';': "3 element(s) differ"
without the first mismatch's coordinates, and without the backend's own name in front) with its
whole numbers as N, so cases differing only in a count group together; where every case of a
pattern gave one text, that text is shown as is.
Python computes the patterns here; templates/report/grid.html.j2 draws them.  Reads results
records only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..run.record import Category, Record, fails_run
from ..run.results import Results

MAX_PATTERNS = 300
MAX_IDS = 1000  # per pattern; the results files have them all
QUIET = frozenset({"pass", "absent"})  # categories whose reason says nothing ("bit-exact")
_COUNT = re.compile(r"(?<![\w.])\d+(?![\w.])")  # a whole number on its own: not 6.3, FLOAT16 or 0x3f80


@dataclass
class Pattern:
    categories: tuple[str, ...]  # one per run ("absent": the run has no such case)
    failing: bool  # a category fails its run (as that run judged it: --flaky-fails)
    ids: list[str] = field(default_factory=list)
    texts: list[set[str]] = field(default_factory=list)  # per run: the headlines its cases gave
    keys: tuple[str, ...] = ()  # per run: the normalised headline the pattern groups by

    @property
    def count(self) -> int:
        return len(self.ids)

    @property
    def listed(self) -> list[str]:
        return self.ids[:MAX_IDS]

    def reasons(self) -> list[tuple[str, str]]:
        """("1, 3", reason): the runs (numbered from 1) that gave each distinct reason; one entry when they agree."""
        by_text: dict[str, list[str]] = {}
        for k, key in enumerate(self.keys):
            if key:
                text = next(iter(self.texts[k])) if len(self.texts[k]) == 1 else key
                by_text.setdefault(text, []).append(str(k + 1))
        return [(", ".join(runs), text) for text, runs in by_text.items()]


@dataclass(frozen=True)
class Comparison:
    cases: int  # distinct case ids across the runs
    differing: int  # of them, with different categories
    patterns: list[Pattern]  # at most MAX_PATTERNS, failing ones first, then the largest
    more_patterns: int


@lru_cache(maxsize=4096)  # two runs of a quick profile: thousands of cases, a few hundred distinct reasons
def headline(reason: str, backend: str = "") -> str:
    """A reason's first clause (before ';'), without the backend's own name in front ("onnxruntime-cpu cannot
    express padding mode WRAP" -> "cannot express padding mode WRAP"), so backends that agree read as one."""
    head = reason.split(";", 1)[0].strip()
    for lead in (f"{backend}: ", f"{backend} "):
        if backend and head.startswith(lead) and len(head) > len(lead):
            return head[len(lead) :]
    return head


@lru_cache(maxsize=4096)
def _counted(text: str) -> str:
    """The headline with its whole numbers as N: what a pattern groups by."""
    return _COUNT.sub("N", text)


def _cell(record: Record | None, backend: str) -> tuple[str, str]:
    """(category, headline) of one run's record of a case."""
    if record is None:
        return "absent", ""
    category = record.category.value
    return category, ("" if category in QUIET else headline(record.reason, backend))


def comparison(runs: list[Results]) -> Comparison:
    """The differing cases of `runs` grouped by pattern."""
    by_run = [{r.id: r for r in run.records} for run in runs]
    ids = sorted(set().union(*by_run))
    groups: dict[tuple, Pattern] = {}
    differing = 0
    for case_id in ids:
        cells = [_cell(b.get(case_id), run.backend) for b, run in zip(by_run, runs)]
        categories = tuple(c for c, _ in cells)
        if len(set(categories)) == 1:
            continue
        differing += 1
        keys = tuple(_counted(text) for _, text in cells)
        pattern = groups.get((categories, keys))
        if pattern is None:
            failing = any(
                c != "absent" and fails_run(Category(c), run.header.flaky_fails) for c, run in zip(categories, runs)
            )
            pattern = groups[(categories, keys)] = Pattern(categories, failing, texts=[set() for _ in runs], keys=keys)
        pattern.ids.append(case_id)
        for k, (_, text) in enumerate(cells):
            if text:
                pattern.texts[k].add(text)
    ordered = sorted(groups.values(), key=lambda p: (not p.failing, -p.count, p.categories, p.keys))
    return Comparison(len(ids), differing, ordered[:MAX_PATTERNS], max(0, len(ordered) - MAX_PATTERNS))

"""Live Hypothesis units: their draws do not depend on what is loaded, and a passing unit's examples (a failing
one's draws) are kept and replayed without Hypothesis, saying what the check would have said (conformance.run.live,
live_cache)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from dml_test_backends import AllLevels, Batching, BitFlip

from conformance.cases.corpus import Case
from conformance.run import live_cache
from conformance.run.dispatch import execute
from conformance.run.jsontypes import to_json
from conformance.run.record import Category, Record
from conformance.run.units import LiveUnit, Work
from oracle import FeatureLevel

LEVEL = max(FeatureLevel)  # AllLevels's
UNIT = LiveUnit("PADDING", 20, 3)


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A generation cache of this test's own."""
    folder = tmp_path / "generated"
    monkeypatch.setenv("DML_CONFORMANCE_GENERATED", str(folder))
    return folder


def _said(record: Record) -> str:
    """Everything a record says but how long it took."""
    obj = to_json(record)
    obj.pop("timings", None)
    return json.dumps(obj, sort_keys=True)


def _run(unit: LiveUnit, backend) -> tuple[Record, list[str]]:
    """The unit's record through the worker's dispatcher, and the ids of the examples it announced."""
    announced: list[Case] = []
    record = execute(Work(7, unit), backend, None, on_example=announced.append)
    return record, [c.id for c in announced]


def test_hypothesis_still_has_the_local_constants_this_suite_turns_off():
    # conformance.run.live.fixed_constants replaces this function while drawing; a Hypothesis that renamed it
    # would mix the literals of whatever is loaded into the draws again, silently: this says so first.
    from hypothesis.internal.conjecture import providers

    assert callable(getattr(providers, "_get_local_constants", None))
    assert hasattr(providers, "Constants") and hasattr(providers.CONSTANTS_CACHE, "cache")


def test_the_examples_drawn_do_not_depend_on_the_modules_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from hypothesis.internal.conjecture import providers

    from conformance.run.live import drawn_examples

    # Units whose draws the literals below did change before the fix (the value seeds and `rare` draws take wide
    # integer ranges, where Hypothesis puts a mined constant one draw in forty).
    units = [LiveUnit("SLICE", 20, 0), LiveUnit("SLICE1", 20, 0), LiveUnit("SLICE1", 20, 2), LiveUnit("JOIN", 20, 2)]
    original = providers._get_local_constants
    before = [[c.id for c in drawn_examples(unit, LEVEL)] for unit in units]
    assert providers._get_local_constants is original  # restored after drawing
    # A local module (outside site-packages, not named like a test) full of literals Hypothesis would mine.
    literals = [*range(100, 5000, 37), *(i * 0.371 for i in range(150)), 1e-30, -2.5e7, *(f"s{i}" for i in range(50))]
    module = tmp_path / "dml_distinctive_constants.py"
    module.write_text("".join(f"C{i} = {v!r}\n" for i, v in enumerate(literals)))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module(module.stem)
    after = [[c.id for c in drawn_examples(unit, LEVEL)] for unit in units]
    assert after == before


def test_a_passing_unit_replays_its_kept_examples_and_says_the_same(cache: Path, monkeypatch: pytest.MonkeyPatch):
    cold, cold_examples = _run(UNIT, AllLevels())
    assert cold.category is Category.PASS and cold.reason.startswith(f"20 live examples (seed {UNIT.seed}): ")
    assert len(list(cache.glob("live-*.pickle"))) == 1
    assert live_cache.load(UNIT, LEVEL) is not None

    import conformance.run.live

    def no_drawing(*args, **kwargs):
        raise AssertionError("drew, with the examples kept")

    monkeypatch.setattr(conformance.run.live, "run_live", no_drawing)
    warm, warm_examples = _run(UNIT, AllLevels())
    assert _said(warm) == _said(cold)
    assert warm_examples == cold_examples  # the same examples, in the same order, duplicates and all
    assert live_cache.load(LiveUnit(UNIT.operator, UNIT.examples, UNIT.seed + 1), LEVEL) is None  # keyed by seed


def test_kept_examples_reach_a_batching_backend_in_one_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    cold, cold_examples = _run(UNIT, AllLevels())
    monkeypatch.setenv("DML_TEST_CALLS", str(tmp_path / "calls"))
    warm, warm_examples = _run(UNIT, Batching())
    assert _said(warm) == _said(cold)
    assert warm_examples == cold_examples
    sizes = [int(n) for n in (tmp_path / "calls").read_text().split()]
    assert len(sizes) == 1 and sizes[0] >= 10  # one run_many; no example reached run() singly


def test_a_warm_worker_does_not_import_hypothesis(cache: Path, tmp_path: Path):
    cold, _ = _run(UNIT, AllLevels())
    script = f"""
import sys
from dml_test_backends import AllLevels
from conformance.run.dispatch import execute
from conformance.run.units import LiveUnit, Work
record = execute(Work(7, LiveUnit({UNIT.operator!r}, {UNIT.examples}, {UNIT.seed})), AllLevels(), None)
print(record.reason)
print("hypothesis" in sys.modules)
"""
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [cold.reason, "False"]


def test_a_failing_example_goes_back_to_hypothesis_for_the_shrunk_record(cache: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DML_CONFORMANCE_GENERATED", "none")
    uncached, _ = _run(UNIT, BitFlip())
    monkeypatch.setenv("DML_CONFORMANCE_GENERATED", str(cache))
    _run(UNIT, AllLevels())  # keeps the examples
    kept = live_cache.load(UNIT, LEVEL)
    assert kept is not None
    record, announced = _run(UNIT, BitFlip())
    assert record.category is Category.FAIL and record.reason.startswith(f"shrunk by Hypothesis (seed {UNIT.seed}")
    assert _said(record) == _said(uncached)
    assert announced[0] == kept[0].id  # the replay ran the first kept example, which failed; then Hypothesis
    assert len(announced) > 1


class FlipsInBatches(Batching, BitFlip):
    """Batching's run_many (and refused run()) over BitFlip's wrong answers."""


def test_a_failing_unit_on_a_batching_backend_runs_its_kept_examples_in_one_batch_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    calls = tmp_path / "calls"
    monkeypatch.setenv("DML_TEST_CALLS", str(calls))
    monkeypatch.setenv("DML_CONFORMANCE_GENERATED", "none")
    uncached, _ = _run(UNIT, FlipsInBatches())
    assert calls.read_text().split() == ["20"]  # the check's draws, answered at once
    calls.unlink()
    monkeypatch.setenv("DML_CONFORMANCE_GENERATED", str(tmp_path / "generated"))
    _run(UNIT, AllLevels())  # keeps the examples
    record, _ = _run(UNIT, FlipsInBatches())
    assert record.category.failing and _said(record) == _said(uncached)
    assert calls.read_text().split() == ["20"]  # the replay's batch served the check too: not run twice


def test_a_failing_unit_keeps_its_draws_and_its_shrunk_example_for_the_build_that_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """On a batching backend a failing unit's draws are kept (its check met them in that order until the failure),
    and the example Hypothesis shrank the failure to, for that backend build: the next run on the same build replays
    the draws up to the failure and runs the kept example again, saying what Hypothesis said, without Hypothesis.
    Another build (other versions) fails first at the same draw, and still goes to Hypothesis."""
    from conformance.run import live

    monkeypatch.setenv("DML_CONFORMANCE_GENERATED", str(tmp_path / "generated"))
    first, _ = _run(UNIT, FlipsInBatches())
    assert first.category.failing and first.reason.startswith(f"shrunk by Hypothesis (seed {UNIT.seed}")
    assert [c.id for c in live_cache.load(UNIT, LEVEL) or []] == [c.id for c in live.drawn_examples(UNIT, LEVEL)]
    assert len(list((tmp_path / "generated").glob("shrunk-*.pickle"))) == 1

    real_run_live = live.run_live
    monkeypatch.setattr(live, "run_live", lambda *a, **k: pytest.fail("went to Hypothesis"))
    again, announced = _run(UNIT, FlipsInBatches())
    assert _said(again) == _said(first)
    assert announced[-1] == first.case_json["id"]  # the kept minimal example, run again

    other = FlipsInBatches()
    monkeypatch.setattr(other, "versions", lambda: {"acme": "2"}, raising=False)
    shrank: list[Record] = []

    def spy(*a, **k) -> Record:
        shrank.append(real_run_live(*a, **k))
        return shrank[-1]

    monkeypatch.setattr(live, "run_live", spy)
    monkeypatch.setattr(live, "drawn_examples", lambda unit, level: pytest.fail("drew the unit's examples again"))
    elsewhere, _ = _run(UNIT, other)
    assert len(shrank) == 1 and _said(elsewhere) == _said(first)


def test_a_torn_or_foreign_cache_entry_is_drawn_again_and_rewritten(cache: Path):
    cold, _ = _run(UNIT, AllLevels())
    (path,) = cache.glob("live-*.pickle")
    for damage in (path.read_bytes()[:100], b"not a pickle", b"\x80\x05N."):  # torn, foreign, a pickled None
        path.write_bytes(damage)
        assert live_cache.load(UNIT, LEVEL) is None
        again, _ = _run(UNIT, AllLevels())
        assert _said(again) == _said(cold)
        assert live_cache.load(UNIT, LEVEL) is not None  # rewritten whole


class _WrongOnce(BitFlip):
    """BitFlip's wrong answer for the first case it runs, the right one ever after (a backend that answers the same
    case two ways: uninitialised memory, a race)."""

    answered_wrong = False

    def run(self, descriptor, inputs, feature_level):
        if self.answered_wrong:
            return AllLevels.run(self, descriptor, inputs, feature_level)
        result = super().run(descriptor, inputs, feature_level)
        self.answered_wrong = result.status == "ok"
        return result


def test_a_failure_hypothesis_cannot_repeat_is_a_failure_saying_so_not_a_crash():
    record, _ = _run(LiveUnit("TILE", 20, 3), _WrongOnce())
    assert record.category is Category.FAIL, record.reason
    assert record.reason.startswith("failed once, then passed when Hypothesis ran it again"), record.reason
    assert record.case_json is not None and record.case_json["operator"] == "TILE"

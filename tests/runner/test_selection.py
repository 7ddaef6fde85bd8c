"""Case selection: the generation cache gives exactly what generating gives; filters and shards keep ids."""

from __future__ import annotations

import pytest

from conformance.cases.generation.corpus import Generation, generate
from conformance.run import selection
from conformance.run.config import RunConfig
from conformance.run.record import Shard
from conformance.run.selection import CHUNK, find_case, find_generated, generated_cases, select


def _same(a, b) -> bool:
    return [c.id for c in a] == [c.id for c in b] and all(
        [i.tobytes() for i in x.inputs] == [i.tobytes() for i in y.inputs]  # FILL_VALUE_* have none
        and [o.tobytes() for o in x.expected.outputs] == [o.tobytes() for o in y.expected.outputs]
        for x, y in zip(a, b)
    )


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DML_CONFORMANCE_GENERATED", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_generation_resumed_from_its_state_is_the_longer_generation():
    first = Generation(5)
    head = first.take(70)
    rest = Generation(5, state=first.state(), seen=[c.id for c in head]).take(130)
    assert _same(head + rest, generate(5, 200))


def test_cached_extended_and_shortened_generations_are_what_generating_gives(cache):
    fresh = generate(1, CHUNK + 300)
    assert _same(generated_cases(1, 200), fresh[:200])  # cold: generated and saved
    assert _same(generated_cases(1, CHUNK + 300), fresh)  # extended from the saved state
    assert _same(generated_cases(1, 150), fresh[:150])  # a prefix of what is held
    assert find_generated(fresh[CHUNK + 5].id, 1, CHUNK + 300).id == fresh[CHUNK + 5].id
    assert find_generated("SLICE-00000000", 1, CHUNK + 300) is None


def test_a_damaged_cache_is_regenerated_never_used(cache):
    fresh = generate(2, 120)
    generated_cases(2, 120)
    (chunk,) = cache.glob("generated-*/chunk-00000.pickle")
    chunk.write_bytes(b"not a pickle")
    assert _same(generated_cases(2, 120), fresh)


def test_no_cache_still_generates(monkeypatch):
    monkeypatch.setenv("DML_CONFORMANCE_GENERATED", "none")
    assert selection.generated_cache_dir() is None
    assert _same(generated_cases(3, 40), generate(3, 40))


def test_stored_cases_come_from_the_cache_only_while_their_files_are_unchanged(cache, tmp_path):
    from conformance.cases.corpus import load

    folder = tmp_path / "cases"
    folder.mkdir()
    example = selection.CASES_DIR / "examples" / "JOIN-example-1.json"
    (folder / "a.json").write_bytes(example.read_bytes())
    first = selection.load_stored([folder])
    assert list(cache.glob("stored-*.pickle")) and _same(first.cases, load([folder]).cases)
    assert _same(selection.load_stored([folder]).cases, first.cases)  # from the cache
    text = example.read_text()
    changed = text.replace(f'"{first.cases[0].id}"', f'"{first.cases[0].id}9"', 1)
    assert changed != text
    (folder / "a.json").write_text(changed)
    assert [c.id for c in selection.load_stored([folder]).cases] == [f"{first.cases[0].id}9"]
    (folder / "a.json").write_text("{")  # a broken file is read, and said to be broken, every time
    assert selection.load_stored([folder]).errors and selection.load_stored([folder]).errors


def test_the_compositions_come_from_the_cache_with_their_cases_as_built(cache, monkeypatch):
    """The packaged corpus's compositions are kept with its cases (one pickle, each composition holding its case):
    a warm selection builds none and has what building gives, in the same order."""
    from conformance.cases.compositions import compositions

    config = RunConfig(generated=0, hypothesis_examples=0)
    cold = [w.unit for w in select(config).works]
    assert list(cache.glob("stored+built-*.pickle"))
    monkeypatch.setattr(selection, "compositions", lambda cases: pytest.fail("built the compositions again"))
    warm = [w.unit for w in select(config).works]
    built = compositions(selection.load(selection.stored_roots("quick", None)).cases)
    assert [u.id for u in warm] == [u.id for u in cold] and len(built) > 100
    warm_built = [u for u in warm if u.id in {c.id for c in built}]
    assert [c.id for c in warm_built] == [c.id for c in built]
    assert all(
        [o.tobytes() for o in a.expected.outputs] == [o.tobytes() for o in b.expected.outputs]
        and a.base is next(c for c in warm if c.id == a.base.id)  # still its case, not a copy
        for a, b in zip(warm_built, built, strict=True)
    )


def test_filters_keep_the_ids_of_the_unfiltered_run():
    everything = {w.id for w in select(RunConfig(generated=200, hypothesis_examples=0)).works}
    padding = select(RunConfig(generated=200, hypothesis_examples=0, operators=("PADDING",))).works
    assert padding and {w.id for w in padding} <= everything and all(w.unit.operator == "PADDING" for w in padding)


def test_shards_split_the_selection_without_overlap():
    full = select(RunConfig(generated=100, hypothesis_examples=3))
    parts = [select(RunConfig(generated=100, hypothesis_examples=3, shard=Shard(i, 3))) for i in (1, 2, 3)]
    assert sorted(w.index for p in parts for w in p.works) == [w.index for w in full.works]
    assert all(p.works for p in parts) and {p.total for p in parts} == {full.total}


def test_find_case_looks_in_stored_then_generated():
    assert find_case("SLICE1-example-2").id == "SLICE1-example-2"
    generated = generated_cases(0, 50)[37]
    assert find_case(generated.id, count=60).id == generated.id
    assert find_case("PADDING-nope", count=60) is None


def test_looking_up_an_id_reads_the_index_and_one_chunk_never_generates(cache, monkeypatch):
    cases = generated_cases(4, CHUNK + 10)
    (folder,) = cache.glob("generated-*")
    (folder / "chunk-00000.pickle").write_bytes(b"damaged: must not be read for a case in chunk 1")

    def no_generation(self, count):
        raise AssertionError("a lookup generated cases")

    monkeypatch.setattr(Generation, "take", no_generation)
    assert find_generated(cases[CHUNK + 3].id, 4, CHUNK + 10).id == cases[CHUNK + 3].id
    assert find_generated("SPLIT-ffffffff", 4, CHUNK + 10) is None

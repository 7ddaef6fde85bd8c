"""The frozen corpus: deterministic by seed, expected outputs re-checked with the oracle's literal path."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import oracle
from conformance.cases import corpus
from conformance.cases.generation.corpus import GENERATOR_VERSION, generate, generate_cases, generate_corpus
from conformance.judging.compare import compare_outputs
from oracle import InvalidDescriptor
from oracle.registry import min_feature_level

GENERATED = corpus.CASES_DIR / "generated"


@pytest.fixture(scope="module")
def generated() -> list[corpus.Case]:
    result = corpus.load([GENERATED])
    assert not result.errors, "\n".join(map(str, result.errors[:10]))
    return result.cases


def test_same_seed_same_bytes(tmp_path):
    first = generate_corpus(seed=7, count=120, out_dir=tmp_path / "a")
    second = generate_corpus(seed=7, count=120, out_dir=tmp_path / "b")
    assert (
        [p.name for p in first]
        == [p.name for p in second]
        == [f"{op}.json" for op in oracle.OPERATORS]  # one file per operator, in the registry's order
    )
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes()


def test_another_seed_other_cases(tmp_path):
    a = generate_corpus(seed=1, count=40, out_dir=tmp_path / "a")
    b = generate_corpus(seed=2, count=40, out_dir=tmp_path / "b")
    assert [p.read_bytes() for p in a] != [p.read_bytes() for p in b]


def test_per_operator_gives_each_operator_that_many(tmp_path):
    generate_corpus(seed=3, per_operator=4, out_dir=tmp_path)
    result = corpus.load([tmp_path])
    assert not result.errors
    assert Counter(c.operator for c in result.cases) == dict.fromkeys(oracle.OPERATORS, 4)
    assert {c.source for c in result.cases} == {f"generated: seed 3, 4 per operator, generator {GENERATOR_VERSION}"}


def test_a_generated_folder_loads_with_the_requested_count(tmp_path):
    generate_corpus(seed=3, count=101, out_dir=tmp_path)
    result = corpus.load([tmp_path])
    assert not result.errors
    assert len(result.cases) == 101
    # 101 round-robin over the operators: the first ones get one each of what is left over
    n = len(oracle.OPERATORS)
    assert Counter(c.operator for c in result.cases) == {
        op: 101 // n + (i < 101 % n) for i, op in enumerate(oracle.OPERATORS)
    }


def test_committed_corpus_is_what_its_recorded_seed_generates(tmp_path):
    """Same seed and version, same bytes: the committed files regenerate exactly."""
    headers = [json.loads(p.read_text(encoding="utf-8"))["generator"] for p in sorted(GENERATED.glob("*.json"))]
    header = headers[0]
    assert all(h == header for h in headers) and header["version"] == GENERATOR_VERSION
    assert set(header) == {"seed", "per_operator", "version"}, header  # the committed form: N of each operator
    for path in generate_corpus(seed=header["seed"], per_operator=header["per_operator"], out_dir=tmp_path):
        assert path.read_bytes() == (GENERATED / path.name).read_bytes(), (
            f"{path.name} differs from a fresh `cases generate --seed {header['seed']} --per-operator "
            f"{header['per_operator']}`; regenerate it (and bump GENERATOR_VERSION if the builders changed)"
        )


def test_an_operator_s_cases_do_not_depend_on_the_other_operators():
    """Each operator draws from its own stream: adding an operator (here: dropping all but two, reordering them)
    leaves the others' generated cases as they were, in the committed form and at run time (a prefix per operator)."""
    alone = generate_cases(11, operators=("TILE",), per_operator=6)["TILE"]
    among = generate_cases(11, operators=("SLICE1", "TILE", "CAST"), per_operator=6)["TILE"]
    assert [c["id"] for c in alone] == [c["id"] for c in among]
    # round-robin at run time: TILE's cases among three operators are its first cases alone, in order
    run_time = [c.id for c in generate(11, 9, operators=("CAST", "SLICE1", "TILE")) if c.operator == "TILE"]
    assert run_time == [c.id for c in generate(11, 3, operators=("TILE",))]
    assert run_time == [c["id"] for c in alone[:3]]
    # and another seed gives TILE other cases (the stream is keyed on the seed too)
    other_seed = [c["id"] for c in generate_cases(12, operators=("TILE",), per_operator=3)["TILE"]]
    assert len(other_seed) == 3 and not set(other_seed) & set(run_time)


def test_expected_outputs_agree_with_the_literal_path(generated):
    """Generation used the fast path; the literal element-by-element walk must give the same bytes."""
    bad = []
    for case in generated:
        if not case.valid:
            continue
        actual = oracle.compute(case.descriptor, case.inputs, feature_level=case.feature_level, literal=True)
        comparison = compare_outputs(list(case.expected.outputs), actual)
        if not comparison.equal:
            bad.append(case.id)
    assert not bad, f"literal path disagrees on {len(bad)} cases: {bad[:10]}"


def test_invalid_cases_break_their_clause(generated):
    for case in generated:
        if case.valid:
            continue
        with pytest.raises(InvalidDescriptor) as info:
            oracle.validate(case.descriptor, case.feature_level)
        assert info.value.clause == case.expected.clause, case.id


def test_the_corpus_spreads_over_everything(generated):
    """Every operator, data type, rank its tables name (1-8, or 4 alone), padding mode and invalid family; old and
    new levels."""
    valid = [c for c in generated if c.valid]
    per_operator = Counter(c.operator for c in generated)
    assert set(per_operator) == set(oracle.OPERATORS) and min(per_operator.values()) >= 100, per_operator
    assert 0.08 < 1 - len(valid) / len(generated) < 0.25
    for op in oracle.OPERATORS:
        mine = [c for c in valid if c.operator == op]
        takes = {dt for dt in oracle.DataType if any(min_feature_level(op, dt, r) for r in range(1, 9))}
        assert {c.data_type for c in mine} == takes, op  # every type some level takes (DML_TILE: no FLOAT64)
        assert {c.rank for c in mine} == {r for row in oracle.SUPPORT[op] for r in row.ranks}, op  # D2S: 4 only
        at_min = [c for c in mine if c.feature_level == min_feature_level(op, c.data_type, c.rank)]
        assert 0.3 < len(at_min) / len(mine) < 0.8, op
    for op in ("PADDING", "PADDING1"):
        modes = Counter(c.descriptor.padding_mode.value for c in valid if c.operator == op)
        assert set(modes) == {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"}, op
        wrap = [c for c in valid if c.operator == op and c.descriptor.padding_mode.value == "WRAP"]
        assert all(c.feature_level >= oracle.FeatureLevel.FL_6_4 for c in wrap), op
    families = {t for c in generated for t in c.tags if t.startswith("family:")}
    assert len(families) >= 12
    reached = Counter(u for c in generated for u in c.unspecified)
    assert {"U-SLICE-1", "U-PAD-1", "U-PAD-4", "U-WRAP-1"} <= set(reached)


def test_ids_are_content_hashes(generated):
    for case in generated[:200]:
        assert case.id == corpus.case_id(case.operator, case.feature_level, case.descriptor, case.inputs)

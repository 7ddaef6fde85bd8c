"""The reach set: every operator at rank 1 and 8 in every data type, SPLIT past 8, 16, 32, 64 and 128 outputs.

Issue 20's seeded-bug run found a SPLIT that loses outputs past the eighth caught by no default
run: generated SPLITs stop at 8 outputs.  These tests hold the default profiles to reaching the
ends of every dimension the support tables allow.
"""

from __future__ import annotations

from collections import Counter

import pytest

import oracle
from conformance.cases.generation.reach import REACH_RANKS, REACH_SPLIT_COUNTS, reach_cases
from conformance.judging.compare import compare_outputs
from conformance.run.config import RunConfig
from conformance.run.selection import find_case, select
from oracle.registry import min_feature_level
from oracle.tables import ALL_DATA_TYPES


@pytest.fixture(scope="module")
def quick() -> list:
    return select(RunConfig(profile="quick", hypothesis_examples=0, generated=0)).cases


def test_the_quick_profile_has_splits_past_64_outputs(quick):
    counts = {c.descriptor.output_count for c in quick if c.operator == "SPLIT" and c.valid}
    assert max(counts) > 128 and {9, 17, 33, 65} <= counts
    assert set(REACH_SPLIT_COUNTS) <= counts


@pytest.mark.parametrize("operator", oracle.OPERATORS)
def test_the_quick_profile_has_every_operator_at_rank_1_and_8_in_every_data_type(quick, operator):
    seen = Counter((c.data_type, c.rank) for c in quick if c.operator == operator and c.valid)
    for rank in REACH_RANKS:
        for data_type in ALL_DATA_TYPES:
            if min_feature_level(operator, data_type, rank) is not None:
                assert seen[(data_type, rank)], f"{operator} {data_type.value} rank {rank} is in no quick case"


def test_padding_reaches_rank_1_and_8_in_every_mode():
    seen = {(c.rank, c.descriptor.padding_mode) for c in reach_cases() if c.operator == "PADDING"}
    assert {(r, m) for r in REACH_RANKS for m in oracle.PaddingMode} <= seen


def test_reach_cases_are_named_valid_and_their_outputs_hold_on_the_literal_path():
    cases = reach_cases()
    assert len({c.id for c in cases}) == len(cases)
    for case in cases:
        assert "-reach-" in case.id and "reach" in case.tags and case.valid
        oracle.validate(case.descriptor, case.feature_level)
        literal = oracle.compute(case.descriptor, list(case.inputs), feature_level=case.feature_level, literal=True)
        assert compare_outputs(list(case.expected.outputs), literal).equal, case.id


def test_a_reach_case_is_found_by_id_in_every_run_and_not_in_the_stress_profile():
    case = find_case("SPLIT-reach-outputs-65-UINT32")
    assert case is not None and case.descriptor.output_count == 65
    only = select(RunConfig(case=("SPLIT-reach-outputs-65-UINT32",), hypothesis_examples=0))
    assert [w.id for w in only.works] == ["SPLIT-reach-outputs-65-UINT32"]
    assert not [w for w in select(RunConfig(profile="stress")).works if "-reach-" in w.id]

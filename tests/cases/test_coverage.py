"""Every clause id and every errata/unspecified entry has at least one case in cases/."""

from __future__ import annotations

import pytest

from conformance.cases import corpus
from conformance.cases.compositions import compositions
from conformance.cases.coverage import clause_coverage, coverage, errata_coverage
from oracle import CLAUSES, ERRATA


@pytest.fixture(scope="module")
def loaded() -> corpus.LoadResult:
    return corpus.load([corpus.CASES_DIR])


def test_the_case_folder_loads_without_errors(loaded):
    assert not loaded.errors, "\n".join(str(e) for e in loaded.errors[:20])


def test_every_clause_has_a_case(loaded):
    # GRAPH.* clauses are cited by the compositions built from the stored cases (every run has them).
    missing = coverage([*loaded.cases, *compositions(loaded.cases)]).uncovered_clauses
    assert not missing, f"clause ids with no case in cases/: {missing}"


def test_every_erratum_and_unspecified_entry_has_a_case(loaded):
    missing = coverage([*loaded.cases, *compositions(loaded.cases)]).uncovered_errata
    assert not missing, f"register entries with no case tagged with them in cases/: {missing}"


def test_curated_cases_alone_cover_every_clause_and_entry():
    """The hand-written cases do not lean on the generated corpus (which a new seed replaces)."""
    result = corpus.load([corpus.CASES_DIR / "curated"])
    assert not result.errors
    cov = coverage([*result.cases, *compositions(result.cases)])
    assert cov.uncovered_clauses == [] and cov.uncovered_errata == []


def test_coverage_maps_expected_clause_and_tags(loaded):
    by_id = loaded.by_id()
    clauses = clause_coverage([by_id["SLICE-size-zero"]])
    assert clauses["COMMON.2"] == ["SLICE-size-zero"] and clauses["SLICE.2"] == ["SLICE-size-zero"]
    assert clauses["PAD.1"] == []
    errata = errata_coverage([by_id["PADDING-reflection-size-1"]])
    assert errata["U-PAD-4"] == ["PADDING-reflection-size-1"]
    assert set(clauses) == set(CLAUSES) and set(errata) == set(ERRATA)

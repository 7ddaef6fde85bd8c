"""Curated cases: hand-written expected outputs, checked against the oracle bit for bit (both paths)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import oracle
from conformance.cases import corpus
from conformance.cases.compositions import compositions
from conformance.judging.compare import compare_outputs
from conformance.judging.expectations import KNOWN_ISSUES_DIR
from oracle import ERRATA, InvalidDescriptor

CURATED = corpus.CASES_DIR / "curated"
_LOADED = corpus.load([CURATED])
CASES = {c.id: c for c in _LOADED.cases}


def test_curated_files_load_cleanly():
    assert not _LOADED.errors, "\n".join(map(str, _LOADED.errors))
    assert len(CASES) >= 50


@pytest.mark.parametrize("case_id", sorted(i for i, c in CASES.items() if c.valid))
@pytest.mark.parametrize("literal", [False, True], ids=["fast", "literal"])
def test_hand_written_outputs_equal_the_oracle(case_id, literal):
    case = CASES[case_id]
    actual = oracle.compute(case.descriptor, case.inputs, feature_level=case.feature_level, literal=literal)
    comparison = compare_outputs(list(case.expected.outputs), actual)
    assert comparison.equal, comparison


@pytest.mark.parametrize("case_id", sorted(i for i, c in CASES.items() if not c.valid))
def test_invalid_cases_break_their_clause(case_id):
    case = CASES[case_id]
    with pytest.raises(InvalidDescriptor) as info:
        oracle.validate(case.descriptor, case.feature_level)
    assert info.value.clause == case.expected.clause
    assert case.expected.clause in case.clauses


def test_curated_cases_are_small_named_and_tagged():
    for case in CASES.values():
        assert not corpus.HASH_ID.match(case.id), f"{case.id}: curated ids are names, not content hashes"
        assert "curated" in case.tags and case.description, case.id
        assert all(math.prod(x.shape) <= 16 for x in case.inputs), case.id
        # Besides register ids, a case may name the backend whose shipped known issue it shows.
        known = {t for t in case.tags if t.startswith("known-issue:")}
        for tag in known:
            assert (KNOWN_ISSUES_DIR / f"{tag.split(':', 1)[1]}.json").is_file(), f"{case.id}: {tag} has no file"
        assert set(case.tags) - {"curated"} - known <= set(ERRATA), f"{case.id}: tags other than register ids"


def _slice1_with_typo(case) -> np.ndarray:
    """E-SLICE1-2's typo read literally: CopyStart[i] = Offsets[i] + Sizes[0] - 1 on negative axes."""
    d = case.descriptor
    starts = [o + d.window_sizes[0] - 1 if st < 0 else o for o, st in zip(d.window_offsets, d.window_strides)]
    maps = [s + st * np.arange(n) for s, st, n in zip(starts, d.window_strides, d.output_tensor.sizes)]
    for m, size in zip(maps, d.input_tensor.sizes):
        assert m.min() >= 0 and m.max() < size, "the typo's reading should stay inside the input to be comparable"
    return case.inputs[0][np.ix_(*maps)]


def test_e_slice1_2_the_typo_reading_gives_a_different_output():
    case = CASES["SLICE1-copy-start-same-axis"]
    d = case.descriptor
    assert d.window_sizes[0] != d.window_sizes[2] and d.window_strides[2] < 0
    typo = _slice1_with_typo(case)
    assert typo.reshape(-1).tolist() == [2, 1, 5, 4]  # by hand: CopyStart[2] = 0 + 2 - 1 = 1
    assert typo.tobytes() != case.expected.outputs[0].tobytes()


def test_e_slice1_3_signed_division_would_forbid_the_case():
    case = CASES["SLICE1-max-copied-absolute-stride"]
    size, stride = case.descriptor.window_sizes[0], case.descriptor.window_strides[0]
    c_style = 1 + int((size - 1) / stride)  # truncation toward zero
    floor = 1 + (size - 1) // stride
    assert case.descriptor.output_tensor.sizes[0] > max(c_style, floor)


def test_every_register_entry_has_a_curated_case_that_names_it():
    # U-GRAPH-1 is named by the compositions built from the curated cases (conformance.cases.compositions).
    units = [*CASES.values(), *compositions(list(CASES.values()))]
    tagged = {t for c in units for t in (*c.tags, *c.unspecified)}
    assert set(ERRATA) <= tagged, sorted(set(ERRATA) - tagged)


def test_observed_entries_are_listed_as_unspecified_on_valid_cases():
    """Cases that reach an observed (unspecified) entry say so; judged ones do not."""
    for case in CASES.values():
        if case.valid:
            assert set(case.unspecified) == set(oracle.unspecified(case.descriptor)), case.id
            assert all(ERRATA[u].observed for u in case.unspecified), case.id

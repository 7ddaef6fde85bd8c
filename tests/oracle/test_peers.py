"""Peer test vectors (ONNX node tests, PyTorch-converted tests, webnn-baseline) through the oracle.

Each case is converted to a DirectML descriptor by tests/oracle/peers.py (the README's
rule, implemented independently), the conversion is compared with the ONNX files' own
`dml_*` proposal, and the oracle's outputs must equal the peer's expected outputs bit for
bit (expected values cast to the input's data type).  Inexpressible cases are listed with
their reason (as skips, visible under -ra) and counted; none is dropped.
"""

from __future__ import annotations

import pytest
from peers import PEERS, PeerCase, load_all

import oracle
from conformance.judging.compare import compare_outputs

if not PEERS.is_dir():
    pytest.skip(f"{PEERS} is absent (../shared is not checked out next to this repository)", allow_module_level=True)

CASES = load_all()
# The inexpressible cases, with the reason each one has (documented in the report).
INEXPRESSIBLE = {
    "onnx/test_slice_start_out_of_bounds": "empty window",
    "onnx/test_split_zero_size_splits_opset13": "zero-size tensor",
    "onnx/test_split_zero_size_splits_opset18": "zero-size tensor",
    "onnx/test_wrap_pad": "has no DML_PADDING_MODE",
}


def test_counts(capsys) -> None:
    passed = [c for c in CASES if c.descriptor is not None and _matches(c)]
    inexpressible = [c for c in CASES if c.inexpressible]
    failed = [c.name for c in CASES if c.descriptor is not None and not _matches(c)]
    with capsys.disabled():
        print(
            f"\npeer vectors: {len(CASES)} cases, {len(passed)} passed, {len(inexpressible)} inexpressible, "
            f"{len(failed)} failed"
        )
        for c in inexpressible:
            print(f"  inexpressible {c.name}: {c.inexpressible}")
    assert (len(CASES), len(passed), len(inexpressible), failed) == (52, 48, 4, [])


def _matches(case: PeerCase) -> bool:
    return compare_outputs(case.expected, oracle.compute(case.descriptor, [case.input])).equal


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_peer_case(case: PeerCase) -> None:
    if case.inexpressible:
        assert INEXPRESSIBLE.get(case.name, "?") in case.inexpressible
        pytest.skip(f"inexpressible in DirectML: {case.inexpressible}")
    assert case.name not in INEXPRESSIBLE
    for literal in (False, True):
        result = compare_outputs(case.expected, oracle.compute(case.descriptor, [case.input], literal=literal))
        assert result.equal, result.summary()


@pytest.mark.parametrize("case", [c for c in CASES if c.proposal is not None], ids=lambda c: c.name)
def test_conversion_equals_proposal(case: PeerCase) -> None:
    """Our reading of the conversion rule and the file's `dml_*` proposal agree field by field."""
    proposal = {k: v for k, v in case.proposal.items() if k != "notes"}
    assert case.derived == proposal


BEYOND = [c for c in CASES if c.beyond_seeds is not None]


def test_every_onnx_pad_is_also_a_padding1_case() -> None:
    """Each expressible ONNX Pad vector, and 'wrap', which DML_PADDING cannot take before 6.4."""
    names = {c.name for c in BEYOND}
    assert "onnx/test_wrap_pad" in names
    assert {c.name for c in CASES if c.name.startswith("onnx/") and c.derived.get("PaddingMode")} <= names


@pytest.mark.parametrize("case", BEYOND, ids=lambda c: c.name)
def test_peer_case_as_padding1(case: PeerCase) -> None:
    """Beyond the seed pages: ONNX's own expected outputs for its Pad vectors as DML_PADDING1 at 6.4, typed
    constant and all; ONNX's test_wrap_pad is an outside check of the U-WRAP-1 policy (wrap-around)."""
    for literal in (False, True):
        actual = oracle.compute(case.beyond_seeds, [case.input], literal=literal, feature_level="6.4")
        result = compare_outputs(case.expected, actual)
        assert result.equal, result.summary()

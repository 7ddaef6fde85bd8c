"""The worked examples (cases/examples, typed in by hand) reproduce bit for bit.

The seed pages' ten, typed in from ../shared/seeds, and DML_PADDING1's and DML_JOIN's four each, typed
in from their DirectML pages (docs/spec/beyond-seeds.md): never produced by the oracle, so these are the oracle's
first independent check, both the fast path and the literal one.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import oracle
from conformance.cases.corpus import CASES_DIR, Case, load
from conformance.judging.compare import compare_outputs

EXAMPLES_DIR = CASES_DIR / "examples"
EXPECTED_IDS = {
    "SLICE-example-1",
    "SLICE-example-2",
    "SLICE1-example-1",
    "SLICE1-example-2",
    "PADDING-example-1",
    "PADDING-example-2",
    "PADDING-example-3",
    "PADDING-example-4",
    "SPLIT-example-1",
    "SPLIT-example-2",
    "PADDING1-example-1",
    "PADDING1-example-2",
    "PADDING1-example-3",
    "PADDING1-example-4",
    "JOIN-example-1",
    "JOIN-example-2",
    "JOIN-example-3",
    "JOIN-example-4",
    "TILE-example-1",
    # issue 31, the depth-space family
    "SPACE_TO_DEPTH-example-1",
    "SPACE_TO_DEPTH1-example-1",
    "SPACE_TO_DEPTH1-example-2",
    "DEPTH_TO_SPACE-example-1",
    "DEPTH_TO_SPACE1-example-1",
    "DEPTH_TO_SPACE1-example-2",
    "SLICE_GRAD-example-1",  # the page's one diagram (it has no Example section)
    "REVERSE_SUBSEQUENCES-example-1",
    "REVERSE_SUBSEQUENCES-example-2",
    # issue 32: no input tensor
    "FILL_VALUE_CONSTANT-example-1",
    "FILL_VALUE_SEQUENCE-example-1",
    "FILL_VALUE_SEQUENCE-example-2",
    "DIAGONAL_MATRIX-example-1",
    "DIAGONAL_MATRIX-example-2",
    "DIAGONAL_MATRIX-example-3",
    "DIAGONAL_MATRIX-example-4",
    "DIAGONAL_MATRIX1-example-1",
    "DIAGONAL_MATRIX1-example-2",
    "DIAGONAL_MATRIX1-example-3",
    "DIAGONAL_MATRIX1-example-4",
    # issue 32
    "GATHER_ND-example-1",
    "GATHER_ND-example-2",
    "GATHER_ND1-example-1",
    "GATHER_ND1-example-2",
    # issue 32
    "ONE_HOT-example-1",
    "ONE_HOT-example-2",
    "ONE_HOT-example-3",
    "ONE_HOT-example-4",
    # issue 32
    *(f"GATHER-example-{n}" for n in range(1, 6)),
    "GATHER_ELEMENTS-example-1",
    "SCATTER-example-1",
    "SCATTER-example-2",  # as the page should have printed it (E-SCATTER-2: InputTensor {3,3})
    "SCATTER_ND-example-1",  # as the page should have printed it (E-SCATND-2, E-SCATND-3)
}
# The oldest feature level at which each example is valid (the page's operator introduction,
# or DML_FEATURE_LEVEL_3_0 for SYMMETRIC, PADDING example 4; PADDING1 is 5.0, past SYMMETRIC's 3.0).
OLDEST_LEVEL = {"SLICE": "1.0", "SLICE1": "2.1", "PADDING": "1.0", "SPLIT": "1.0", "PADDING1": "5.0", "JOIN": "1.0"}
OLDEST_LEVEL["TILE"] = "1.0"
# The depth-space pages' examples are UINT32: DML_FEATURE_LEVEL_2_1 (DEPTH_TO_SPACE's 1.0 row has FLOAT32/16 only).
OLDEST_LEVEL |= {"DEPTH_TO_SPACE": "2.1", "DEPTH_TO_SPACE1": "2.1", "SPACE_TO_DEPTH": "2.1", "SPACE_TO_DEPTH1": "2.1"}
OLDEST_LEVEL["SLICE_GRAD"] = "3.1"  # introduced in 3.0, where its table has no 2-D: the diagram is 2-D
OLDEST_LEVEL["REVERSE_SUBSEQUENCES"] = "2.1"  # 4-D FLOAT32 data, UINT32 lengths: the 2.1 row
OLDEST_LEVEL |= {"FILL_VALUE_CONSTANT": "2.1", "FILL_VALUE_SEQUENCE": "2.1"}  # 4-D, introduced in 2.1
OLDEST_LEVEL["DIAGONAL_MATRIX"] = "2.0"  # 4-D FLOAT32, introduced in 2.0
OLDEST_LEVEL["DIAGONAL_MATRIX1"] = "5.1"  # introduced in 5.1
# GATHER_ND's example 1 is 2-D: FL 3.0 (E-GND-4); its example 2 is 4-D (the 2.1 row); GATHER_ND1 exists from 3.0.
OLDEST_LEVEL |= {"GATHER_ND-example-1": "3.0", "GATHER_ND-example-2": "2.1", "GATHER_ND1": "3.0"}
OLDEST_LEVEL["ONE_HOT"] = "2.0"  # 4-D FLOAT32 values, UINT32 indices; example 4's INT32 indices: 3.0 (ONEHOT.10)
NEWER_EXAMPLE_LEVEL = {"PADDING-example-4": "3.0", "ONE_HOT-example-4": "3.0"}
OLDEST_LEVEL["GATHER"] = "3.0"  # 1- to 3-D: the first row past 4 dimensions only
OLDEST_LEVEL["GATHER_ELEMENTS"] = "3.0"  # 2-D, as GATHER's
OLDEST_LEVEL["SCATTER"] = "3.0"  # 1-D and 2-D: the 3.0 row (the 2.0 and 2.1 rows are 4-D)
OLDEST_LEVEL["SCATTER_ND"] = "3.0"  # 2-D: the 3.0 row (the 2.1 row is 4-D)


def _examples() -> list[Case]:
    result = load([EXAMPLES_DIR])
    assert not result.errors, "\n".join(map(str, result.errors))
    return sorted(result.cases, key=lambda c: c.id)


EXAMPLES = _examples()


def test_exactly_the_pages_examples() -> None:
    assert {c.id for c in EXAMPLES} == EXPECTED_IDS
    assert {p.stem for p in Path(EXAMPLES_DIR).glob("*.json")} == EXPECTED_IDS


@pytest.mark.parametrize("case", EXAMPLES, ids=lambda c: c.id)
@pytest.mark.parametrize("literal", [False, True], ids=["fast", "literal"])
def test_example_reproduces_bit_for_bit(case: Case, literal: bool) -> None:
    actual = oracle.compute(case.descriptor, case.inputs, feature_level=case.feature_level, literal=literal)
    result = compare_outputs(case.expected.outputs, actual)
    assert result.equal, result.summary()


# The errata each worked example shows, by operator (every example of it) or by case id.
EXAMPLE_ERRATA: dict[str, set[str]] = {
    "PADDING": {"E-PAD-1"},
    "PADDING1": {"E-PAD1-1"},
    "TILE": {"E-TILE-1", "E-TILE-2"},
    "SPACE_TO_DEPTH": {"E-S2D-1"},  # sized as the examples, not as the printed formula
    "SPACE_TO_DEPTH1": {"E-S2D-1"},
    "REVERSE_SUBSEQUENCES": {"E-REVSEQ-1", "E-REVSEQ-2"},
    "FILL_VALUE_CONSTANT": {"E-FILLC-1"},  # the page states no ValueDataType
    "DIAGONAL_MATRIX1-example-1": {"E-DIAG1-1"},  # Value 7, printed as ones
    "FILL_VALUE_SEQUENCE-example-2": {"E-FILLS-1", "E-FILLS-2"},  # -2 on UINT8, row-major
    "GATHER_ND-example-2": {"E-GND-1"},  # sized as the examples, not as the printed formula
    "GATHER_ND1-example-2": {"E-GND-1"},
}


@pytest.mark.parametrize("case", EXAMPLES, ids=lambda c: c.id)
def test_example_metadata(case: Case) -> None:
    """Tagged `example`, at its oldest level, with the errata the register says it shows."""
    assert "example" in case.tags
    expected_level = NEWER_EXAMPLE_LEVEL.get(case.id, OLDEST_LEVEL.get(case.id, OLDEST_LEVEL.get(case.operator)))
    assert str(case.feature_level) == expected_level
    tagged = EXAMPLE_ERRATA.get(case.operator, set()) | EXAMPLE_ERRATA.get(case.id, set())
    assert tagged <= set(case.tags), tagged - set(case.tags)
    if case.operator in ("SPACE_TO_DEPTH", "SPACE_TO_DEPTH1"):
        assert all(oracle.beyond_seeds(c) for c in case.clauses)
    if case.id == "GATHER-example-3":
        assert "E-GATHER-1" in case.tags  # typed in with IndexDimensions 1, as its sizes need
    if case.operator == "GATHER_ELEMENTS":
        assert "E-GELEM-1" in case.tags  # typed in with a FLOAT32 output, the input's type
    if case.operator == "SCATTER":
        # Its open elements depend on the index values (U-SCATTER-1, U-SCATTER-2), so every case lists the entries
        # its descriptor can reach; the values leave open only example 1's element 3 (written twice: E-SCATTER-1).
        assert set(case.unspecified) == set(oracle.unspecified(case.descriptor))
        (mask,) = oracle.unspecified_mask(case.descriptor, case.inputs)
        assert np.flatnonzero(mask).tolist() == ([3] if case.id == "SCATTER-example-1" else [])
        assert {"E-SCATTER-1"} <= set(case.tags) if case.id == "SCATTER-example-1" else "E-SCATTER-2" in case.tags
    if case.operator == "SCATTER_ND":  # its tuples distinct and inside: every element judged
        assert set(case.unspecified) == set(oracle.unspecified(case.descriptor))
        assert not oracle.unspecified_mask(case.descriptor, case.inputs)[0].any()
        assert {"E-SCATND-2", "E-SCATND-3"} <= set(case.tags)
    if case.operator in (
        "PADDING1",
        "JOIN",
        "TILE",
        "DEPTH_TO_SPACE",
        "DEPTH_TO_SPACE1",
        "SLICE_GRAD",
        "REVERSE_SUBSEQUENCES",
        "FILL_VALUE_CONSTANT",
        "FILL_VALUE_SEQUENCE",
        "DIAGONAL_MATRIX",
        "DIAGONAL_MATRIX1",
        "GATHER_ND",
        "GATHER_ND1",
        "ONE_HOT",
        "GATHER",
        "GATHER_ELEMENTS",
        "SCATTER",
        "SCATTER_ND",
    ):
        assert all(oracle.beyond_seeds(c) for c in case.clauses)
    if case.operator in ("GATHER_ND", "GATHER_ND1"):  # U-GND-1 is every descriptor's; no example index is open
        assert case.unspecified == ("U-GND-1",)
        assert not oracle.unspecified_mask(case.descriptor, case.inputs)[0].any()
        return
    if case.id in ("PADDING-example-3", "PADDING-example-4"):
        assert "U-PAD-5" in case.tags
    if case.id == "SLICE1-example-2":
        assert {"E-SLICE1-2", "E-SLICE1-3"} <= set(case.tags)
    if case.id == "ONE_HOT-example-4":  # signed indices can be below -size (U-ONEHOT-1); these are not
        assert case.unspecified == ("U-ONEHOT-1",)
    else:  # an index tensor's entry is reached by every descriptor (its values decide)
        assert set(case.unspecified) <= {"U-GATHER-1", "U-GELEM-1"} or case.operator in ("SCATTER", "SCATTER_ND")
    if case.operator not in ("SCATTER", "SCATTER_ND"):  # SCATTER's example 1 repeats an index (E-SCATTER-1)
        assert not any(m.any() for m in oracle.unspecified_mask(case.descriptor, case.inputs))
    assert set(case.clauses) <= set(oracle.CLAUSES)


def test_oldest_level_is_the_oldest() -> None:
    """One level below the example's (where one exists) the descriptor is invalid."""
    below = {"SLICE1": "2.0", "PADDING-example-4": "2.1"}
    by_id = {c.id: c for c in EXAMPLES}
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(by_id["SLICE1-example-1"].descriptor, below["SLICE1"])
    assert e.value.clause == "SLICE1.8"
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(by_id["PADDING-example-4"].descriptor, below["PADDING-example-4"])
    assert e.value.clause == "PAD.3"
    for n in range(1, 5):  # DML_PADDING1 exists from 5.0 (PAD1.6), every mode of its examples with it
        with pytest.raises(oracle.InvalidDescriptor) as e:
            oracle.validate(by_id[f"PADDING1-example-{n}"].descriptor, "4.1")
        assert e.value.clause == "PAD1.6"
    # DML_JOIN at 1.0 and 2.1 takes 4 dimensions only (JOIN.7): its examples as 3-D are invalid there, valid at 4.1.
    squeezed = oracle.join_desc(
        [oracle.TensorDesc(t.data_type, t.sizes[1:]) for t in by_id["JOIN-example-1"].descriptor.input_tensors], 2
    )
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(squeezed, "4.0")
    assert e.value.clause == "JOIN.7"
    oracle.validate(squeezed, "4.1")
    # DML_REVERSE_SUBSEQUENCES exists from 2.1 (REVSEQ.7).
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(by_id["REVERSE_SUBSEQUENCES-example-1"].descriptor, "2.0")
    assert e.value.clause == "REVSEQ.7"
    # DML_FILL_VALUE_CONSTANT and DML_FILL_VALUE_SEQUENCE exist from 2.1 (FILLC.4, FILLS.5).
    for example, clause in (("FILL_VALUE_CONSTANT-example-1", "FILLC.4"), ("FILL_VALUE_SEQUENCE-example-2", "FILLS.5")):
        with pytest.raises(oracle.InvalidDescriptor) as e:
            oracle.validate(by_id[example].descriptor, "2.0")
        assert e.value.clause == clause
    # GATHER_ND's example 1 (2-D) is invalid at 2.1 (E-GND-4); GATHER_ND1 does not exist before 3.0 (GND1.8).
    for case_id, clause in (("GATHER_ND-example-1", "GND.8"), ("GATHER_ND1-example-2", "GND1.8")):
        with pytest.raises(oracle.InvalidDescriptor) as e:
            oracle.validate(by_id[case_id].descriptor, "2.1")
        assert e.value.clause == clause
    # DML_ONE_HOT exists from 2.0 (ONEHOT.9); signed indices from 3.0 (ONEHOT.10).
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(by_id["ONE_HOT-example-1"].descriptor, "1.0")
    assert e.value.clause == "ONEHOT.9"
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(by_id["ONE_HOT-example-4"].descriptor, "2.1")
    assert e.value.clause == "ONEHOT.10"
    # DML_GATHER's examples are 1- to 3-D: 2.1 takes 4 dimensions only (GATHER.8).
    with pytest.raises(oracle.InvalidDescriptor) as e:
        oracle.validate(by_id["GATHER-example-2"].descriptor, "2.1")
    assert e.value.clause == "GATHER.8"


def test_slice1_example_2_typo_reading_differs() -> None:
    """E-SLICE1-2: the prose's InputWindowSizes[0] gives CopyStart[2] = 0, whose output differs from the page's."""
    case = {c.id: c for c in EXAMPLES}["SLICE1-example-2"]
    d = case.descriptor
    typo_start = d.window_offsets[2] + d.window_sizes[0] - 1  # = 0 + 1 - 1
    assert typo_start == 0
    assert oracle.op_slice1.copy_start(d.window_offsets[2], d.window_sizes[2], d.window_strides[2]) == 3
    # With CopyStart[2] = 0 and stride -2, output row 1 would read input row -2: outside the input.
    assert typo_start + d.window_strides[2] * 1 < 0


# --- the typed-in values against the pages' printed tensors ---------------------------------

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
PRINTED = re.compile(
    r"(Input|Output)Tensors?(?:\[\d+\])?: \(Sizes:\{([\d, ]+)\}, DataType:FLOAT32\)\s*\n(\[\[\[\[.*?\]\]\]\])",
    re.DOTALL,
)
# Which examples each seed prints, in page order.
SEED_EXAMPLES = {
    "002_e13a9c6f00fe5ba4.txt": ["SLICE-example-1", "SLICE-example-2"],
    "000_9a338deee1dc608b.txt": ["SLICE1-example-1", "SLICE1-example-2"],
    "003_2c8cf8c88a3d4f14.txt": ["SLICE1-example-1", "SLICE1-example-2"],
    "001_f6230be9978f9bf3.txt": [f"PADDING-example-{n}" for n in range(1, 5)],
    "004_62d11e62c511bcd0.txt": ["SPLIT-example-1", "SPLIT-example-2"],
}


def _printed_tensors(seed: str) -> tuple[list, list]:
    """(inputs, outputs) as (sizes, values) pairs, digits read straight from the page.

    Reading digits only copes with E-PAD-1 (the missing comma after the first output row).
    """
    path = SEEDS / seed
    if not path.is_file():
        pytest.skip(f"{path} is absent (../shared is not checked out next to this repository)")
    inputs, outputs = [], []
    for kind, sizes, block in PRINTED.findall(path.read_text(encoding="utf-8")):
        pair = ([int(n) for n in sizes.split(",")], [int(n) for n in re.findall(r"-?\d+", block)])
        (inputs if kind == "Input" else outputs).append(pair)
    return inputs, outputs


@pytest.mark.parametrize("seed", list(SEED_EXAMPLES))
def test_case_files_equal_the_printed_tensors(seed: str) -> None:
    inputs, outputs = _printed_tensors(seed)
    assert inputs, f"no input tensor found in {seed}"
    by_id = {c.id: c for c in EXAMPLES}
    cases = [by_id[i] for i in SEED_EXAMPLES[seed]]
    printed_outputs = [(list(y.shape), y.ravel().astype(int).tolist()) for c in cases for y in c.expected.outputs]
    assert outputs == printed_outputs
    for sizes, values in inputs:  # every input the page prints is the (shared) input of its examples
        assert all(
            (list(c.inputs[0].shape), c.inputs[0].ravel().astype(int).tolist()) == (sizes, values) for c in cases
        )

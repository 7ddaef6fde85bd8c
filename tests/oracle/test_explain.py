"""oracle.explain prints the pages' derivation lines ("Output[0,0,0,0] = ... = Input[{0,0,0,1}] = 2").

For SLICE1 the expected lines are read out of the seed pages themselves (000 English, 003
Korean); for the other operators, whose pages print no derivation, they are typed in here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import oracle
from conformance.cases.corpus import CASES_DIR, load

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
SLICE1_ENGLISH = SEEDS / "000_9a338deee1dc608b.txt"
SLICE1_KOREAN = SEEDS / "003_2c8cf8c88a3d4f14.txt"
DERIVATION = re.compile(r"^Output\[[0-9,]+\] = .*$", re.MULTILINE)

CASES = {c.id: c for c in load([CASES_DIR / "examples"]).cases}


def _explain(case_id: str) -> list[str]:
    case = CASES[case_id]
    return oracle.explain(case.descriptor, case.inputs, case.feature_level)


def _seed_derivations(path: Path) -> list[list[str]]:
    """The page's derivation lines, split into one block per example (4 lines each)."""
    if not path.is_file():
        pytest.skip(f"{path} is absent (../shared is not checked out next to this repository)")
    lines = DERIVATION.findall(path.read_text(encoding="utf-8"))
    assert len(lines) == 8, f"expected two examples of 4 derivation lines in {path.name}, found {len(lines)}"
    return [lines[:4], lines[4:]]


@pytest.mark.parametrize("number", [1, 2])
def test_slice1_explain_equals_english_page(number: int) -> None:
    assert _explain(f"SLICE1-example-{number}") == _seed_derivations(SLICE1_ENGLISH)[number - 1]


def test_slice1_korean_page_has_the_same_derivations() -> None:
    assert _seed_derivations(SLICE1_KOREAN) == _seed_derivations(SLICE1_ENGLISH)


def test_slice1_explain_typed_in() -> None:
    """The same lines typed in, so the check does not depend on ../shared being present."""
    assert _explain("SLICE1-example-2") == [
        "Output[0,0,0,0] = {0,0,3,1} + {1,1,-2,2} * {0,0,0,0} = Input[{0,0,3,1}] = 14",
        "Output[0,0,0,1] = {0,0,3,1} + {1,1,-2,2} * {0,0,0,1} = Input[{0,0,3,3}] = 16",
        "Output[0,0,1,0] = {0,0,3,1} + {1,1,-2,2} * {0,0,1,0} = Input[{0,0,1,1}] = 6",
        "Output[0,0,1,1] = {0,0,3,1} + {1,1,-2,2} * {0,0,1,1} = Input[{0,0,1,3}] = 8",
    ]


def test_slice_explain() -> None:
    assert _explain("SLICE-example-2") == [
        "Output[0,0,0,0] = {0,0,1,0} + {1,1,2,3} * {0,0,0,0} = Input[{0,0,1,0}] = 5",
        "Output[0,0,0,1] = {0,0,1,0} + {1,1,2,3} * {0,0,0,1} = Input[{0,0,1,3}] = 8",
        "Output[0,0,1,0] = {0,0,1,0} + {1,1,2,3} * {0,0,1,0} = Input[{0,0,3,0}] = 13",
        "Output[0,0,1,1] = {0,0,1,0} + {1,1,2,3} * {0,0,1,1} = Input[{0,0,3,3}] = 16",
    ]


def test_padding_explain_constant_lines() -> None:
    lines = _explain("PADDING-example-1")
    assert len(lines) == 80
    assert lines[0] == "Output[0,0,0,0] = CONSTANT({0,0,0,0} - {0,0,1,2}) = {0,0,-1,-2} outside = PaddingValue = 9"
    assert lines[12] == "Output[0,0,1,2] = CONSTANT({0,0,1,2} - {0,0,1,2}) = Input[{0,0,0,0}] = 1"
    assert lines[79] == "Output[0,0,7,9] = CONSTANT({0,0,7,9} - {0,0,1,2}) = {0,0,6,7} outside = PaddingValue = 9"


def test_padding_explain_mirrored_lines() -> None:
    reflection, symmetric = _explain("PADDING-example-3"), _explain("PADDING-example-4")
    # Output row 0, column 9: shifted (-1, 7); REFLECTION folds -1 -> 1, 7 -> 1 (period 6).
    assert reflection[9] == "Output[0,0,0,9] = REFLECTION({0,0,0,9} - {0,0,1,2}) = Input[{0,0,1,1}] = 6"
    # SYMMETRIC folds -1 -> 0, 7 -> 0 (period 8).
    assert symmetric[9] == "Output[0,0,0,9] = SYMMETRIC({0,0,0,9} - {0,0,1,2}) = Input[{0,0,0,0}] = 1"
    edge = _explain("PADDING-example-2")
    assert edge[0] == "Output[0,0,0,0] = EDGE({0,0,0,0} - {0,0,1,2}) = Input[{0,0,0,0}] = 1"


def test_split_explain() -> None:
    lines = _explain("SPLIT-example-1")
    assert len(lines) == 12
    assert lines[0] == "OutputTensors[0][0,0,0,0] = {0,0,0,0} + {0,0,0,0} = Input[{0,0,0,0}] = 1"
    assert lines[4] == "OutputTensors[1][0,0,0,0] = {0,0,2,0} + {0,0,0,0} = Input[{0,0,2,0}] = 5"
    assert lines[11] == "OutputTensors[2][0,0,2,1] = {0,0,3,0} + {0,0,2,1} = Input[{0,0,5,1}] = 12"

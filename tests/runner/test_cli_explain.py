"""`dml-conformance explain`: the header and derivation for a case file or id; exit 2 otherwise.

(Formerly `python -m oracle explain`: the oracle no longer imports the suite, so the one
explain command is the CLI's.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cases.corpus import CASES_DIR
from conformance.cli import main

EXAMPLES = CASES_DIR / "examples"
EXAMPLE = EXAMPLES / "SLICE1-example-2.json"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["explain", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_explain_case_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = run(capsys, "SLICE1-example-2", "--cases", str(EXAMPLES))
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == "SLICE1-example-2: DML_SLICE1, FLOAT32, rank 4, FL 2.1"
    assert lines[1].startswith("clauses: ") and "SLICE1.2" in lines[1]
    assert lines[2].startswith("descriptor: ") and '"window_strides": [1, 1, -2, 2]' in lines[2]
    assert lines[-4:] == [
        "Output[0,0,0,0] = {0,0,3,1} + {1,1,-2,2} * {0,0,0,0} = Input[{0,0,3,1}] = 14",
        "Output[0,0,0,1] = {0,0,3,1} + {1,1,-2,2} * {0,0,0,1} = Input[{0,0,3,3}] = 16",
        "Output[0,0,1,0] = {0,0,3,1} + {1,1,-2,2} * {0,0,1,0} = Input[{0,0,1,1}] = 6",
        "Output[0,0,1,1] = {0,0,3,1} + {1,1,-2,2} * {0,0,1,1} = Input[{0,0,1,3}] = 8",
    ]


def test_explain_path_equals_id(capsys: pytest.CaptureFixture[str]) -> None:
    by_path = run(capsys, str(EXAMPLE))
    assert by_path[0] == 0
    assert by_path == run(capsys, "SLICE1-example-2", "--cases", str(EXAMPLES))


def test_explain_invalid_case_names_the_clause(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    case.update(id="SLICE1-zero-stride", expected={"outcome": "invalid", "clause": "SLICE1.5"})
    case["descriptor"]["window_strides"] = [1, 1, 0, 2]
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), encoding="utf-8")
    code, text, _ = run(capsys, str(path))
    assert code == 0
    assert "expected [SLICE1.5]: window_strides[2]=0, but strides may not be 0 [SLICE1.5]" in text


def test_unknown_id_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = run(capsys, "SLICE1-no-such-case", "--cases", str(EXAMPLES))
    assert (code, text) == (2, "")
    assert "no case 'SLICE1-no-such-case'" in err


def test_bad_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    code, text, err = run(capsys, str(path))
    assert (code, text) == (2, "")
    assert "not valid JSON" in err and str(path) in err


def test_entry_point() -> None:
    """The installed command, as a vendor runs it (a subprocess: argv, stdout and exit status)."""
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "explain", "SPLIT-example-2", "--cases", str(EXAMPLES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "OutputTensors[1][0,0,5,0] = {0,0,0,1} + {0,0,5,0} = Input[{0,0,5,1}] = 12" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "explain", "nope", "--cases", str(EXAMPLES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "no case 'nope'" in done.stderr


def test_the_oracle_has_no_command_line() -> None:
    """`python -m oracle` is gone: the oracle package does not depend on the suite."""
    done = subprocess.run([sys.executable, "-m", "oracle", "explain", "x"], capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "No module named oracle.__main__" in done.stderr

"""`python -m oracle explain`: the header and derivation for a case file or id; exit 2 otherwise."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from conformance.corpus import CASES_DIR
from oracle.__main__ import main

EXAMPLE = CASES_DIR / "examples" / "SLICE1-example-2.json"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_explain_case_id() -> None:
    code, text = run("explain", "SLICE1-example-2")
    assert code == 0
    lines = text.splitlines()
    assert lines[0].startswith("case SLICE1-example-2 (")
    assert lines[1].startswith("operator: SLICE1  feature level: 2.1")
    assert lines[2].startswith("descriptor: ") and '"window_strides": [1, 1, -2, 2]' in lines[2]
    assert lines[-4:] == [
        "Output[0,0,0,0] = {0,0,3,1} + {1,1,-2,2} * {0,0,0,0} = Input[{0,0,3,1}] = 14",
        "Output[0,0,0,1] = {0,0,3,1} + {1,1,-2,2} * {0,0,0,1} = Input[{0,0,3,3}] = 16",
        "Output[0,0,1,0] = {0,0,3,1} + {1,1,-2,2} * {0,0,1,0} = Input[{0,0,1,1}] = 6",
        "Output[0,0,1,1] = {0,0,3,1} + {1,1,-2,2} * {0,0,1,1} = Input[{0,0,1,3}] = 8",
    ]


def test_explain_path_equals_id() -> None:
    assert run("explain", str(EXAMPLE)) == run("explain", "SLICE1-example-2")


def test_explain_invalid_case_names_the_clause(tmp_path: Path) -> None:
    case = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    case.update(id="SLICE1-zero-stride", expected={"outcome": "invalid", "clause": "SLICE1.5"})
    case["descriptor"]["window_strides"] = [1, 1, 0, 2]
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), encoding="utf-8")
    code, text = run("explain", str(path))
    assert code == 0
    assert "expected invalid [SLICE1.5]: window_strides[2]=0, but strides may not be 0 [SLICE1.5]" in text


def test_unknown_id_exits_2(capsys) -> None:
    code, text = run("explain", "SLICE1-no-such-case")
    assert (code, text) == (2, "")
    assert "unknown case id 'SLICE1-no-such-case'" in capsys.readouterr().err


def test_bad_file_exits_2(tmp_path: Path, capsys) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    assert run("explain", str(path))[0] == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "oracle", "explain", "SPLIT-example-2"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "OutputTensors[1][0,0,5,0] = {0,0,0,1} + {0,0,5,0} = Input[{0,0,5,1}] = 12" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "oracle", "explain", "nope"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "unknown case id" in done.stderr

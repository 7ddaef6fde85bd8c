"""`mypy` reports no error on oracle and conformance ([tool.mypy] in pyproject.toml).

Part of the test command, so a change that breaks a type (a descriptor field read off the
union without narrowing, an Optional used as a value) fails here with mypy's own message.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_clean() -> None:
    if importlib.util.find_spec("mypy") is None:
        message = "mypy is not installed (pip install -e '.[test]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--hide-error-context"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, f"mypy reports errors:\n{result.stdout}{result.stderr}"

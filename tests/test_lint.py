"""The code base stays `ruff` clean and `ruff format`ted: part of the test command, so CI and developers see it alike."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    try:
        import ruff  # noqa: F401
    except ImportError:
        if not shutil.which("ruff"):
            pytest.skip("ruff is not installed (pip install -e '.[test]')")
    return subprocess.run([sys.executable, "-m", "ruff", *args, str(ROOT)], capture_output=True, text=True)


def test_ruff_clean():
    result = _ruff("check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_applied():
    result = _ruff("format", "--check")
    assert result.returncode == 0, "run `ruff format .`:\n" + result.stdout + result.stderr

"""The code base stays `ruff` clean: part of the test command, so CI and developers see it alike."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_clean():
    try:
        import ruff  # noqa: F401
    except ImportError:
        if not shutil.which("ruff"):
            pytest.skip("ruff is not installed (pip install -e '.[test]')")
    result = subprocess.run([sys.executable, "-m", "ruff", "check", str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr

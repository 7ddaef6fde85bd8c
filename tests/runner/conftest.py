"""Shared runs for the CLI and report tests: real `dml-conformance run` subprocesses on the examples."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.corpus import CASES_DIR

HERE = Path(__file__).resolve().parent
EXAMPLES = CASES_DIR / "examples"


def cli(*args: str, env_extra: dict | None = None, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(HERE), **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], capture_output=True, text=True, env=env,
                          timeout=120, **kw)


def _run(out: Path, backend: str, label: str) -> tuple[subprocess.CompletedProcess, Path]:
    proc = cli("run", "--backend", backend, "--cases", str(EXAMPLES), "--out", str(out), "--label", label)
    (results,) = out.glob("results-*.jsonl")
    return proc, results


@pytest.fixture(scope="session")
def broken_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    return _run(tmp_path_factory.mktemp("broken"), "dml_test_backends:BitFlip", "bit-flip build")


@pytest.fixture(scope="session")
def good_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    return _run(tmp_path_factory.mktemp("good"), "dml_test_backends:AllLevels", "oracle build")

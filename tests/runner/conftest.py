"""Shared runs for the CLI and report tests: real `dml-conformance run` subprocesses on the examples."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from runner_helpers import _run


@pytest.fixture(scope="session")
def broken_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    return _run(tmp_path_factory.mktemp("broken"), "dml_test_backends:BitFlip", "bit-flip build")


@pytest.fixture(scope="session")
def good_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    return _run(tmp_path_factory.mktemp("good"), "dml_test_backends:AllLevels", "oracle build")

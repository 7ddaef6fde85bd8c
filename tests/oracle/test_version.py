"""One version, from the package metadata: the oracle, the suite and the results header agree."""

from __future__ import annotations

import importlib.metadata

import pytest

import conformance
import oracle
from conformance.run.header import suite_version
from oracle import version


def test_every_place_writes_the_installed_version() -> None:
    installed = importlib.metadata.version("dml-conformance")
    assert oracle.__version__ == conformance.__version__ == suite_version() == installed


def test_uninstalled_source_tree_says_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a stale copy of the number: a tree without metadata has no version."""

    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert version.package_version() == "0+unknown"


def test_importing_the_packages_does_not_read_the_metadata() -> None:
    """A worker process imports the oracle and the suite and never needs the version: importlib.metadata stays out."""
    import subprocess
    import sys

    code = "import sys, conformance.run.worker, oracle; print('importlib.metadata' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"

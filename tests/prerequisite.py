"""A test's missing prerequisite: skipped with the reason outside CI, failed inside it (`CI` set),
so a missing install step in `.ci/run` cannot hide behind a skip."""

from __future__ import annotations

import os

import pytest


def require(available: bool, reason: str) -> None:
    if available:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must have this prerequisite: {reason}", pytrace=False)
    pytest.skip(reason)


def require_directml() -> None:
    """Real DirectML needs `dml-conformance setup directml`: skip with the reason outside CI, fail in CI."""
    from conformance.backends.directml.build import find_compiler, find_directml_h
    from conformance.backends.directml.stack import Missing, discover

    try:
        discover()
        find_directml_h(find_compiler())
    except Missing as e:
        require(False, f"real DirectML is not set up here (run `dml-conformance setup directml`): {e}")

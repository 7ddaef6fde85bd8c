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

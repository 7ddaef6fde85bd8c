"""The suite's version, from the installed package's metadata only.

Why one place: the results header, the oracle backend's version and `oracle.__version__` must
agree, and pyproject.toml is where the version is set.  A source tree that is not installed
has no metadata: "0+unknown" then, never a stale copy of the number.

Read on first use (`VERSION`, a module attribute computed by `__getattr__`): importing importlib.metadata
and finding the distribution cost a worker process's start-up tens of milliseconds it never needs.
"""

from __future__ import annotations

import functools

DISTRIBUTION = "dml-conformance"
VERSION: str  # the installed version, computed on first access (below)


def package_version() -> str:
    """The installed distribution's version, or "0+unknown" when it is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


@functools.cache
def _installed() -> str:
    return package_version()


def __getattr__(name: str) -> str:
    if name == "VERSION":
        return _installed()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

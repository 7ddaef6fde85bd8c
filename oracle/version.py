"""The suite's version, from the installed package's metadata only.

Why one place: the results header, the oracle backend's version and `oracle.__version__` must
agree, and pyproject.toml is where the version is set.  A source tree that is not installed
has no metadata: "0+unknown" then, never a stale copy of the number.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "dml-conformance"


def package_version() -> str:
    """The installed distribution's version, or "0+unknown" when it is not installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


VERSION: str = package_version()

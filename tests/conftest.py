"""Hypothesis profiles: `ci` (default, bounded for a 15-minute CI on 2 cores), `dev`, `long`; a private generation
cache; the built wheels (a session fixture, for the install tests and the Windows lane).

Select with HYPOTHESIS_PROFILE=long (e.g. the 20,000-example literal-vs-fast run).
"""

import atexit
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "long", max_examples=20_000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Run-time generation is cached (conformance.run.selection); the tests and every CLI or pytest
# subprocess they start share one private cache, removed at the end, never the user's.
_CACHE = tempfile.mkdtemp(prefix="dml-conformance-test-cache-")
os.environ.setdefault("DML_CONFORMANCE_GENERATED", _CACHE)
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def built_wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist, the pure wheel and the Windows wheel, built from this checkout as a release would be
    (`python -m build`, then `python -m build --wheel -C wheel=windows`), once per test session."""
    from prerequisite import require

    require(importlib.util.find_spec("build") is not None, "the `build` package is in the [test] extra")
    dist = tmp_path_factory.mktemp("dist")
    root = Path(__file__).resolve().parent.parent
    for extra in ([], ["--wheel", "-C", "wheel=windows"]):
        done = subprocess.run(
            [sys.executable, "-m", "build", "-o", str(dist), *extra, str(root)],
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        if done.returncode != 0 and extra and "cannot be built here" in done.stdout + done.stderr:
            require(False, f"the Windows wheel needs mingw-w64 and DirectML.h: {(done.stdout + done.stderr)[-600:]}")
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    found = {
        "sdist": next(dist.glob("*.tar.gz")),
        "any": next(dist.glob("*-py3-none-any.whl")),
        "windows": next(dist.glob("*-py3-none-win_amd64.whl")),
    }
    return found

"""Hypothesis profiles: `ci` (default, bounded for a 15-minute CI on 2 cores), `dev`, `long`; a private generation cache.

Select with HYPOTHESIS_PROFILE=long (e.g. the 20,000-example literal-vs-fast run).
"""

import atexit
import os
import shutil
import tempfile

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

"""Deliberately broken backends, loaded as `dml_test_backends:Name` by the runner tests.

Built on the oracle so everything they do not break is right: each failure in a test is
the one planted here.
"""

from __future__ import annotations

import os
import time

import numpy as np

from conformance.backends.base import Capabilities, RunResult
from conformance.backends.oracle_backend import OracleBackend
from oracle import FeatureLevel


class AllLevels(OracleBackend):
    """The oracle, claiming every feature level (the generated corpus goes up to 6.4)."""

    name = "all-levels"

    def capabilities(self) -> Capabilities:
        return Capabilities(checks_invalid_descriptors=True, feature_level=max(FeatureLevel))


class BitFlip(AllLevels):
    """Flips the lowest bit of the first element of output 0, except for SPLIT, where it drops the last output."""

    name = "bit-flip"

    def versions(self) -> dict[str, str]:
        return {"bit-flip": "1.0 <script>alert(1)</script>"}  # the report must escape this

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        result = super().run(descriptor, inputs, feature_level)
        if result.status != "ok":
            return result
        outputs = [o.copy() for o in result.outputs]
        if descriptor.operator == "SPLIT":
            return RunResult.ok(outputs[:-1], reached_operator="DML_SPLIT")
        flat = outputs[0].reshape(-1)
        bits = flat.view(np.dtype(f"<u{flat.dtype.itemsize}"))
        bits[0] ^= 1
        return RunResult.ok(outputs, reached_operator=f"DML_{descriptor.operator}")


class Slow(AllLevels):
    """Correct but slow (DML_TEST_DELAY seconds per case): a run to kill mid-way."""

    name = "slow"

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        time.sleep(float(os.environ.get("DML_TEST_DELAY", "0.05")))
        return super().run(descriptor, inputs, feature_level)


class NoInvalidChecks(AllLevels):
    """Cannot observe descriptor validation and has no PADDING: exercises `unsupported`."""

    name = "no-checks"

    def capabilities(self) -> Capabilities:
        return Capabilities(operators=frozenset({"SLICE", "SLICE1", "SPLIT"}), feature_level=max(FeatureLevel))

"""What the real-DirectML tests share: the prerequisite check (skip here, fail in CI) and a killing backend."""

from __future__ import annotations

import os
import signal

from prerequisite import require_directml

from conformance.backends.directml import DirectMLBackend

__all__ = ["KillingDirectML", "require_directml"]


class KillingDirectML(DirectMLBackend):
    """DirectML, one request per case (batches have their own tests: test_batches.py), whose runner is killed
    (SIGKILL) while it runs the N-th case (N from DML_TEST_KILL_AT)."""

    calls = 0

    def __init__(self, **kw):
        super().__init__(**kw, one_by_one=True)

    def run(self, descriptor, inputs, feature_level):
        type(self).calls += 1
        if str(self.calls) == os.environ.get("DML_TEST_KILL_AT"):
            process = self._ensure_running()
            original = process.request

            def request_then_die(header, payload=b"", **kw):
                assert process._proc is not None
                os.kill(process._proc.pid, signal.SIGKILL)
                return original(header, payload, **kw)

            process.request = request_then_die  # type: ignore[method-assign]
        return super().run(descriptor, inputs, feature_level)

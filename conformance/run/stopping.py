"""The signals that stop a run, caught the same way by every front end.

A stop signal only records itself (`Stop.reason`); the front end acts on it at a point of its own
choosing, between records, so that a signal never lands half-way through taking in a record or
writing a line.  The handlers are installed whatever the process inherited: a run started by a
harness that ignores SIGINT (a shell's background job) still stops, with a footer and a partial
report, when it is sent one.  On Windows Ctrl-C arrives as SIGINT and Ctrl-Break as SIGBREAK
(console control events, turned into signals by Python).
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM) + (
    (signal.SIGBREAK,) if sys.platform == "win32" else ()  # type: ignore[attr-defined]
)


class Stop:
    """Catches the stop signals while installed; `reason` is the first one's name (`SIGINT`), or None.

    `urgent()` says whether a signal should also interrupt at once (raise KeyboardInterrupt where
    it lands): the pytest plugin says yes while a test of the user's own runs, so Ctrl-C behaves
    as pytest's own there.
    """

    def __init__(self, urgent: Callable[[], bool] = lambda: False):
        self.reason: str | None = None
        self.urgent = urgent
        self._previous: dict[signal.Signals, Any] = {}

    def __call__(self) -> str | None:
        return self.reason

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.reason = self.reason or signal.Signals(signum).name
        if self.urgent():
            raise KeyboardInterrupt(signal.Signals(signum).name)

    def install(self) -> Stop:
        for s in STOP_SIGNALS:
            self._previous[s] = signal.signal(s, self._handle)
        return self

    def restore(self) -> None:
        for s, handler in self._previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)
        self._previous.clear()

    def __enter__(self) -> Stop:
        return self.install()

    def __exit__(self, *exc: object) -> None:
        self.restore()

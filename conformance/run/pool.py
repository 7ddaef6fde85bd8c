"""Worker processes, seen from the parent: start them, feed them units, and survive whatever they do.

Each worker (conformance.run.worker) is started as a process tree (conformance.support.processes: its own
process group, or on Windows its own Job Object), so killing it also ends whatever the backend
started, and nothing it started outlives the parent.  The parent never blocks on a worker: a reader thread
per pipe turns the worker's messages and stderr into events, a writer thread feeds it work,
and the main loop (`poll`) only waits on the event queue, with a timeout.  So:

- a worker that dies (segfault, os._exit, sys.exit, killed, device lost) costs only the unit
  at the head of its queue: that unit's record is `crash`, with the signal or exit code and
  the worker's last stderr lines; the rest of its queue goes back to the others, and a new
  worker takes its place.  One that dies while a batching backend runs a batch of units at once
  (its `batch` message, before any of them is `done`) blames none of them: they run again, each
  in a message of its own and unbatched, so that only the unit that crashes alone is a crash;
- a unit running longer than `timeout` (measured from when it started, not from when the
  backend was constructed) gets `timeout`: its worker is killed, GIL or not, and replaced;
- backend construction has its own limit; if no worker can construct the backend at all,
  `start` raises BackendStartError with the backend's own message.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..support.processes import Tree, read_some
from .jsontypes import safe_text
from .record import Category, Crash, Record
from .spawn import Spares, start_worker
from .units import LiveUnit, Work, blank_record, completed
from .worker import FrameBuffer, frame

# Construction (importing a runtime, opening a device, starting Wine) is not a case: its own limit.
MIN_CONSTRUCT_TIMEOUT_S = 120.0
# Replacement workers that fail to construct, in a row, before a slot is given up.
MAX_RESTART_FAILURES = 3
STDERR_LINES = 20  # kept in a crash record
MAX_BATCH = 32
CLOSE_GRACE_S = 10.0


class BackendStartError(Exception):
    """No worker could construct the backend; `unavailable` when it said so (BackendUnavailable)."""

    def __init__(self, message: str, unavailable: bool = False):
        super().__init__(message)
        self.unavailable = unavailable


@dataclass
class WorkerInfo:
    """What a worker reports once its backend is constructed (the first one goes into the header)."""

    name: str
    versions: dict[str, str]
    feature_level: str
    pid: int


def describe_exit(returncode: int | None) -> str:
    if returncode is None:
        return "did not exit"
    if returncode < 0:
        try:
            return f"was killed by signal {-returncode} ({signal.Signals(-returncode).name})"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"


def crash_info(returncode: int | None, stderr: list[str]) -> Crash:
    sig = -returncode if returncode is not None and returncode < 0 else None
    name = None
    if sig is not None:
        with contextlib.suppress(ValueError):
            name = signal.Signals(sig).name
    return Crash(exit_code=returncode if sig is None else None, signal=sig, signal_name=name, stderr=stderr)


@dataclass(eq=False)
class _Worker:
    slot: int
    tree: Tree  # the worker and whatever its backend starts
    started: float
    outbox: queue.Queue = field(default_factory=queue.Queue)
    stderr: collections.deque = field(default_factory=lambda: collections.deque(maxlen=200))
    stderr_done: threading.Event = field(default_factory=threading.Event)
    assigned: collections.deque = field(default_factory=collections.deque)
    ready: bool = False
    closing: bool = False
    retiring: bool = False  # it said it is exiting on its own: the next unit is not to blame
    batch: int = 0  # the units at the head of `assigned` its backend is running at once (none `done` yet)
    dead: bool = False
    clock: float = 0.0  # when the unit at the head of `assigned` started
    example: dict | None = None  # the live Hypothesis example in flight
    failure: dict | None = None  # its construction failure, as the worker reported it

    @property
    def proc(self) -> subprocess.Popen:
        return self.tree.proc

    def tail(self) -> list[str]:
        self.stderr_done.wait(0.5)  # a grandchild may hold the pipe open: do not wait for it
        return [line[:500] for line in list(self.stderr)[-STDERR_LINES:]]


class Pool:
    """`jobs` workers running `spec(**kwargs)`; units in with `submit`, records out of `poll`."""

    def __init__(
        self,
        spec: str,
        kwargs: dict[str, str],
        *,
        jobs: int,
        timeout: float | None,
        feature_level: str | None = None,
        construct_timeout: float | None = None,
        batch_size: int = 1,
        max_bytes: int | None = None,
        target: str | None = None,
        spares: Spares | None = None,
    ):
        self.spec, self.kwargs, self.jobs = spec, kwargs, jobs
        # What the worker imports (`module:Class`, resolved here: BackendFactory.target); the spec by default.
        self.target = target or spec
        self.spares = spares  # worker processes started before the run (conformance.run.spawn): taken first
        # A message holds up to this many units: a batching backend gets whole batches (Backend.batch_size).
        self.max_batch = max(MAX_BATCH, batch_size)
        self.timeout = timeout
        self.construct_timeout = (
            (max(MIN_CONSTRUCT_TIMEOUT_S, timeout) if timeout else None)
            if construct_timeout is None
            else construct_timeout
        )
        self.feature_level = feature_level
        self.max_bytes = max_bytes  # each case's memory budget, checked in the worker (conformance.run.large)
        self.events: queue.Queue = queue.Queue()
        self.pending: collections.deque[Work] = collections.deque()
        self.alone: set[int] = set()  # indices of units a worker died on in a batch: each now runs unbatched
        self.units: dict[int, Work] = {}  # every unit submitted, by index: what completes a worker's record
        self.workers: list[_Worker] = []
        self.info: WorkerInfo | None = None
        self.failures: list[dict] = []  # construction failures, in order
        self.restart_failures: collections.Counter[int] = collections.Counter()
        self.warnings: list[str] = []
        self.broken: str | None = None  # set when no worker can be started any more
        self.closed = False

    # --- lifecycle ------------------------------------------------------------------------------
    def prestart(self, count: int = 1) -> None:
        """Start the first `count` workers now, before `start` (their backends construct while the caller prepares
        the run)."""
        started = {w.slot for w in self.workers}
        for slot in range(min(count, self.jobs)):
            if slot not in started:
                self._spawn(slot)

    def start(self, stop: Callable[[], str | None] = lambda: None) -> WorkerInfo | None:
        """Start every worker; return when the first has constructed its backend (None if `stop` says so first)."""
        started = {w.slot for w in self.workers}
        for slot in range(self.jobs):
            if slot not in started:
                self._spawn(slot)
        if self.spares is not None:
            self.spares.close()  # the ones left over (fewer jobs than spares) hold memory for nothing
        while self.info is None:
            if stop():
                return None
            self.poll(0.01)  # short: poll waits its whole time unless a record comes, and `ready` is no record
            if self.broken is not None:
                failure: dict[str, Any] = self.failures[0] if self.failures else {"message": self.broken}
                raise BackendStartError(failure["message"], failure.get("unavailable", False))
        return self.info

    def submit(self, works: Iterable[Work]) -> None:
        works = list(works)
        self.units.update((w.index, w) for w in works)
        self.pending.extend(works)
        # The units (and the selection they came from) live until the run ends: out of the collector's sight, so
        # that the collections the records' short-lived objects set off do not walk them each time.
        gc.freeze()
        self._dispatch(time.monotonic())

    @property
    def busy(self) -> bool:
        return bool(self.pending) or any(w.assigned for w in self.workers)

    def interrupt(self, why: str, drain: float = 2.0) -> tuple[list[Record], int]:
        """Kill every worker now; returns the records of the run's end and how many units never ran.

        Killed first, so that nothing new finishes; then what the workers had already sent is taken in
        (a case that finished just before the signal keeps its own result, it is not `interrupted`),
        and only then is the unit each worker was running marked `interrupted`.
        """
        records: list[Record] = []
        not_run = len(self.pending)
        self.pending.clear()
        live = [w for w in self.workers if not w.dead]
        for w in live:
            self._kill(w)
        deadline = time.monotonic() + drain
        open_pipes = set(live)
        while open_pipes and time.monotonic() < deadline:
            try:
                event = self.events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if event[0] == "eof":
                open_pipes.discard(event[1])
            elif event[1] in live and event[2][0] == "done":
                self._handle(event, records)
        for w in live:
            w.dead = True
            w.tree.release()
            w.outbox.put(None)
            if w.ready and w.assigned:
                work = w.assigned.popleft()
                records.append(
                    self._record(work, w, Category.INTERRUPTED, f"the run was stopped ({why}) while this case ran")
                )
            not_run += len(w.assigned)
            w.assigned.clear()
        return records, not_run

    def close(self, grace: float = CLOSE_GRACE_S) -> list[str]:
        """Ask every worker to close its backend and exit; kill what is left after `grace`.  Returns warnings."""
        self.closed = True
        for w in self.workers:
            if w.dead or w.closing:  # closing already (close_idle): only waited for
                continue
            w.closing = True
            if w.ready and not w.assigned:
                w.outbox.put(frame(("close",)))
            else:
                self._kill(w)
        deadline = time.monotonic() + grace
        while any(not w.dead for w in self.workers) and time.monotonic() < deadline:
            self.poll(0.01)  # short: poll waits its whole time unless a record comes, and an exit is no record
        for w in self.workers:
            if not w.dead:
                self.warnings.append(f"worker {w.proc.pid} did not exit within {grace:g} s of close; killed")
                self._kill(w)
                w.tree.release()
        return self.warnings

    def close_idle(self) -> None:
        """With no unit left to hand out, ask the workers with nothing to do to close their backends and exit now, so
        that the end of the run waits for the last one only.  A unit that comes back (its worker died) goes to a
        new worker, as always."""
        if self.pending:
            return
        for w in self.workers:
            if w.ready and not w.dead and not w.closing and not w.assigned:
                w.closing = True
                w.outbox.put(frame(("close",)))

    # --- the loop ---------------------------------------------------------------------------------
    def poll(self, wait: float, linger: float = 0.0) -> list[Record]:
        """Handle what happened (waiting at most `wait` seconds for something); the records that finished.

        `linger`: once a record is in, keep collecting for this long, so that records are handed
        on (and written) in batches rather than one by one.
        """
        records: list[Record] = []
        end = time.monotonic() + wait
        while True:
            now = time.monotonic()
            try:
                event = self.events.get(timeout=max(0.0, min(end, self._next_deadline(now)) - now))
            except queue.Empty:
                event = None
            while event is not None:
                self._handle(event, records)
                try:
                    event = self.events.get_nowait()
                except queue.Empty:
                    event = None
            now = time.monotonic()
            self._check_deadlines(now, records)
            self._dispatch(now)
            if now >= end or (records and not linger):
                return records
            if records and end - now > linger:
                end = now + linger

    def _next_deadline(self, now: float) -> float:
        deadlines = [now + 1.0]
        for w in self.workers:
            if w.dead:
                continue
            if not w.ready and self.construct_timeout:
                deadlines.append(w.started + self.construct_timeout)
            elif w.assigned and self.timeout:
                deadlines.append(w.clock + self.timeout)
        return min(deadlines)

    def _handle(self, event: tuple, records: list[Record]) -> None:
        kind, w = event[0], event[1]
        now = time.monotonic()
        if kind == "eof":
            self._ended(w, records)
            return
        message = event[2]
        if message[0] == "done":
            for index, outcome in message[1]:
                work = w.assigned.popleft() if w.assigned and w.assigned[0].index == index else self.units[index]
                records.append(completed(work, outcome))
            w.clock, w.example, w.batch = now, None, 0
        elif message[0] == "batch":
            w.batch = message[1]
        elif message[0] == "example":
            w.clock, w.example = now, message[2]
        elif message[0] == "ready":
            w.ready, w.clock = True, now
            self.restart_failures[w.slot] = 0
            if self.info is None:
                self.info = WorkerInfo(**message[1])
        elif message[0] == "failed":
            w.failure = message[1]
        elif message[0] == "closed":
            self.warnings.extend(message[1])
        elif message[0] == "retire":
            w.retiring = True

    def _check_deadlines(self, now: float, records: list[Record]) -> None:
        for w in list(self.workers):
            if w.dead:
                continue
            if not w.ready and self.construct_timeout and now - w.started > self.construct_timeout:
                self._kill(w)
                w.failure = {
                    "unavailable": False,
                    "message": f"backend {self.spec} did not finish constructing within {self.construct_timeout:g} s",
                }
                self._ended(w, records)
            elif w.ready and w.assigned and self.timeout and now - w.clock > self.timeout:
                self._kill(w)
                work = w.assigned.popleft()
                records.append(
                    self._record(
                        work,
                        w,
                        Category.TIMEOUT,
                        f"no answer within {self.timeout:g} s; the worker (pid {w.proc.pid}) was killed and replaced",
                    )
                )
                self._ended(w, records, blame=False)

    def _ended(self, w: _Worker, records: list[Record], *, blame: bool = True) -> None:
        """A worker's protocol pipe closed: it exited, crashed, or was killed (`blame`: its head unit is at fault)."""
        if w.dead:
            return
        w.dead = True
        try:
            returncode = w.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            returncode = None
        if not (w.closing and returncode == 0):
            self._kill(w)  # whatever the backend left running in the worker's process group
        returncode = w.proc.returncode if returncode is None else returncode
        w.tree.release()
        w.outbox.put(None)
        if w.closing:
            if returncode and w.ready and not w.assigned:
                self.warnings.append(f"worker {w.proc.pid} {describe_exit(returncode)} while closing")
            return
        if not w.ready:
            self._construction_failed(w, returncode)
            return
        if w.assigned and blame and not w.retiring and w.batch:
            # It died running a batch at once: which unit did it is unknown, so each runs again on its own.
            self.alone.update(work.index for work in list(w.assigned)[: w.batch])
        elif w.assigned and blame and not w.retiring:
            work = w.assigned.popleft()
            tail = w.tail()
            record = self._record(
                work,
                w,
                Category.CRASH,
                f"the worker process {describe_exit(returncode)} while this case ran"
                + (f"; last stderr line: {tail[-1]}" if tail else ""),
            )
            record.crash = crash_info(returncode, tail)
            records.append(record)
        elif returncode not in (0, None) and not self.broken:
            self.warnings.append(f"worker {w.proc.pid} {describe_exit(returncode)} between cases; replaced")
        self.pending.extendleft(reversed(w.assigned))
        w.assigned.clear()
        if self.pending or any(x.assigned for x in self.workers):
            self._spawn(w.slot)

    def _construction_failed(self, w: _Worker, returncode: int | None) -> None:
        failure = w.failure or {
            "unavailable": False,
            "message": (
                f"the worker process {describe_exit(returncode)} while constructing backend {self.spec}"
                + "".join(f"\n  {line}" for line in w.tail())
            ),
        }
        self.failures.append(failure)
        self.pending.extendleft(reversed(w.assigned))
        w.assigned.clear()
        if self.info is not None:  # a replacement failed: retry a few times, then give the slot up
            self.restart_failures[w.slot] += 1
            if self.restart_failures[w.slot] < MAX_RESTART_FAILURES:
                self._spawn(w.slot)
                return
            self.warnings.append(f"gave up restarting worker slot {w.slot}: {failure['message']}")
        if all(x.dead for x in self.workers):
            self.broken = failure["message"]

    def _record(self, work: Work, w: _Worker, category: Category, reason: str) -> Record:
        record = blank_record(work, self.info.feature_level if self.info else "")
        if isinstance(work.unit, LiveUnit) and w.example is not None:
            record.case_json = w.example
            reason += f" (live example {w.example.get('id')}, saved in this record as a case file)"
        record.set(category, reason)
        record.timings["total_s"] = round(time.monotonic() - w.clock, 6) if w.clock else 0.0
        return record

    def _dispatch(self, now: float) -> None:
        live = [w for w in self.workers if w.ready and not w.dead and not w.closing]
        if not live or not self.pending:
            return
        batch = max(1, min(self.max_batch, len(self.pending) // (2 * len(live))))
        for w in live:
            while self.pending and len(w.assigned) < 2 * batch:
                works = [self.pending.popleft()]
                alone = works[0].index in self.alone
                # A live Hypothesis unit is long: alone in its batch, so the units after it go to other workers.
                while (
                    self.pending
                    and len(works) < batch
                    and not alone
                    and not isinstance(works[0].unit, LiveUnit)
                    and not isinstance(self.pending[0].unit, LiveUnit)
                    and self.pending[0].index not in self.alone
                ):
                    works.append(self.pending.popleft())
                if not w.assigned:
                    w.clock = now
                w.assigned.extend(works)
                w.outbox.put(frame(("run", works, alone)))

    # --- processes --------------------------------------------------------------------------------
    def _spawn(self, slot: int) -> None:
        tree = (self.spares.take() if self.spares is not None else None) or start_worker()
        w = _Worker(slot, tree, time.monotonic())
        self.workers = [x for x in self.workers if not (x.slot == slot and x.dead)] + [w]
        w.outbox.put(
            frame(
                (
                    "init",
                    {
                        "spec": self.spec,
                        "target": self.target,
                        "kwargs": self.kwargs,
                        "sys_path": list(sys.path),
                        "parent": os.getpid(),
                        "feature_level": self.feature_level,
                        "max_bytes": self.max_bytes,
                        "timeout": self.timeout,
                    },
                )
            )
        )
        for target in (self._read_messages, self._read_stderr, self._write):
            threading.Thread(target=target, args=(w,), name=f"dml-pool-{target.__name__}-{slot}", daemon=True).start()

    def _read_messages(self, w: _Worker) -> None:
        buffer, stream = FrameBuffer(), w.proc.stdout
        assert stream is not None
        fd = stream.fileno()
        while True:
            chunk = read_some(fd)
            if not chunk:
                break
            try:
                for message in buffer.feed(chunk):
                    self.events.put(("message", w, message))
            except Exception:  # a torn or foreign frame: the worker is not speaking the protocol
                self._kill(w)
                break
        self.events.put(("eof", w))

    def _read_stderr(self, w: _Worker) -> None:
        assert w.proc.stderr is not None
        try:
            for line in w.proc.stderr:
                w.stderr.append(safe_text(line.decode("utf-8", "replace").rstrip("\r\n")))
        except (OSError, ValueError):
            pass
        w.stderr_done.set()

    def _write(self, w: _Worker) -> None:
        stream = w.proc.stdin
        assert stream is not None
        while (data := w.outbox.get()) is not None:
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):
                break
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    def _kill(self, w: _Worker) -> None:
        """Kill the worker and everything it started (its process group, or its Job Object), even if it is gone."""
        w.tree.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            w.proc.wait(timeout=5.0)

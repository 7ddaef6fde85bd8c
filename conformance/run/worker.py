"""A worker process: constructs the backend once, then runs the units its parent sends, one at a time.

`python -m conformance.run.worker`, started by conformance.run.pool in its own session (process
group), so that the parent can kill it and everything it started at once.  Messages are
length-prefixed pickles: the parent sends `init`, batches of work (`run`, flagged when each unit is to
run on its own) and `close`; the worker answers `ready` (or `failed`), `batch` before a batching backend
runs a message's cases at once, `done` with the records of units finished since the last message (by unit
index, in order: a case's as conformance.run.units.outcome_of, which the parent completes), an `example` before each live Hypothesis
example, `retire` before it exits on its own (the backend called sys.exit), and `closed`.  The protocol uses a private copy of stdout: anything the backend
prints goes to stderr, whose last lines the parent keeps for crash records.

One unit at a time, on the main thread: the backend is never called twice at once.  A case
that hangs, even holding the GIL, is the parent's to end (it kills the worker).  The worker
dies with its parent (Linux: PR_SET_PDEATHSIG; Windows: the parent's Job Object; elsewhere:
stdin closing).
"""

from __future__ import annotations

import ctypes
import functools
import gc
import io
import os
import pickle
import queue
import signal
import struct
import sys
import threading
from collections.abc import Callable
from typing import IO, Any, NoReturn

from ..support import pickles
from ..support.processes import exit_now

HEADER = struct.Struct(">I")


# --- framing (shared with the parent) ------------------------------------------------------------


def frame(message: Any) -> bytes:
    data = pickles.dumps(message)
    return HEADER.pack(len(data)) + data


def read_frame(stream: IO[bytes]) -> Any:
    """The next message, or None at end of file."""
    head = _read_exactly(stream, HEADER.size)
    if head is None:
        return None
    body = _read_exactly(stream, HEADER.unpack(head)[0])
    return None if body is None else pickle.loads(body)


def _read_exactly(stream: IO[bytes], n: int) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        chunk = stream.read(n - got)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


class FrameBuffer:
    """Parent side: bytes in as they arrive, whole messages out."""

    def __init__(self) -> None:
        self._data = bytearray()

    def feed(self, chunk: bytes) -> list[Any]:
        self._data += chunk
        out = []
        while len(self._data) >= HEADER.size:
            (size,) = HEADER.unpack_from(self._data)
            if len(self._data) < HEADER.size + size:
                break
            out.append(pickle.loads(bytes(self._data[HEADER.size : HEADER.size + size])))
            del self._data[: HEADER.size + size]
        return out


# --- the worker ----------------------------------------------------------------------------------


def _die_with_parent(parent: int) -> None:
    if sys.platform == "win32":
        # The parent's Job Object ends this process when the parent dies (conformance.support.processes); and
        # os.getppid() is no check here (Python 3.12 calls PssCaptureSnapshot, which Wine 8 lacks: abort).
        return
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(3)


class Worker:
    def __init__(self, out: IO[bytes]):
        self.out = out
        self.lock = threading.Lock()
        self.held: list[tuple[int, Any]] = []  # (unit index, record) of units finished, sent together

    def send(self, *message: Any) -> None:
        """Send now (and whatever is held, first)."""
        with self.lock:
            self._flush(frame(message))

    def hold(self, index: int, record: Any) -> None:
        """Send with the next `send` or `flush`: for the records of units whose backend call is over (judged from a
        batch's answers) or never came, so that a batch's records cross the pipe in one write and one pickle (the
        field names and categories they share pickled once), not one each."""
        with self.lock:
            self.held.append((index, record))

    def flush(self) -> None:
        with self.lock:
            self._flush()

    def _flush(self, then: bytes = b"") -> None:
        data = frame(("done", self.held)) + then if self.held else then
        if data:
            self.out.write(data)
            self.out.flush()
            self.held = []


def _construct(init: dict) -> tuple[Any, dict]:
    from ..backends.base import Backend
    from ..backends.registry import resolve_backend
    from .execute import call
    from .jsontypes import safe_text

    factory = resolve_backend(init.get("target") or init["spec"]).factory
    backend = factory(**init["kwargs"])
    if not isinstance(backend, Backend):
        raise TypeError(f"{init['spec']} produced a {type(backend).__name__}, not a conformance.backends.base.Backend")
    caps = call("capabilities", backend.capabilities)
    try:
        versions = call("versions", backend.versions)
        versions = {safe_text(str(k)): safe_text(str(v)) for k, v in dict(versions).items()}
    except Exception as e:  # versions are for the header; a broken one must not stop the run
        versions = {"error": safe_text(f"versions() failed: {e}")}
    return backend, {
        "name": safe_text(str(backend.name or init["spec"])),
        "versions": versions,
        "feature_level": str(caps.feature_level),
        "pid": os.getpid(),
    }


def _construction_failure(e: BaseException, spec: str) -> dict:
    from ..backends.base import BackendUnavailable
    from .execute import describe_exception
    from .jsontypes import safe_text

    if isinstance(e, BackendUnavailable):
        return {"unavailable": True, "message": safe_text(str(e))}
    if isinstance(e, SystemExit):
        return {"unavailable": False, "message": f"constructing backend {spec} called sys.exit({e.code!r})"}
    return {"unavailable": False, "message": f"constructing backend {spec} raised {describe_exception(e)}"}


def _preload() -> None:
    """What every unit needs whatever the backend, imported before the parent's first message: a worker started
    early (conformance.run.spawn) has it by the time the parent has checked the run and built its selection."""
    try:
        from . import dispatch  # noqa: F401  (the oracle, numpy, the cases, judging and records come with it)
    except Exception:  # a broken module says so where it is used, as a construction failure or a unit's record
        pass


def serve(parent: int) -> NoReturn:
    """The worker process's whole life (spawn.BOOTSTRAP): `main`, then `os._exit` once its streams are flushed.
    Python's own shutdown (finalizing numpy, the backend's libraries: tens of milliseconds) would be time the
    parent waits at the end of every run and of every retry round; what a backend cleans up, `close()` does
    (docs/backends.md)."""
    exit_now(main(parent))


def main(parent: int | None = None) -> int:
    stdin = io.FileIO(0, closefd=False)  # raw: a daemon thread blocked in a buffered read aborts shutdown
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a backend printing to stdout must not corrupt the protocol
    worker = Worker(out)
    if parent is not None:
        _die_with_parent(parent)
    _preload()
    init = read_frame(stdin)
    if init is None:
        return 0
    init = init[1]
    _die_with_parent(init["parent"])
    sys.path[:0] = [p for p in init["sys_path"] if p not in sys.path]
    try:
        backend, info = _construct(init)
    except BaseException as e:  # BackendUnavailable, anything a constructor raises, sys.exit in it
        worker.send("failed", _construction_failure(e, init["spec"]))
        return 0
    try:
        backend.time_limit = init.get("timeout")  # a batching backend sizes its batches to it (Backend.time_limit)
    except AttributeError:  # a backend that made it read-only keeps its own
        pass
    worker.send("ready", info)

    from oracle import FeatureLevel

    from .execute import describe_exception

    # Everything imported and constructed so far lives as long as the worker: out of the collector's sight, so
    # that the collections the cases' many short-lived objects set off do not walk it each time.
    gc.freeze()
    level = FeatureLevel.parse(init["feature_level"] or info["feature_level"])
    inbox: queue.Queue = queue.Queue()

    def read_inbox() -> None:
        while (message := read_frame(stdin)) is not None:
            inbox.put(message)
        os._exit(0)  # the parent closed the pipe or died: nobody is waiting for results

    threading.Thread(target=read_inbox, name="dml-worker-inbox", daemon=True).start()
    while True:
        message = inbox.get()
        if message[0] == "close":
            try:
                backend.close()
                worker.send("closed", [])
            except Exception as e:
                worker.send("closed", [f"backend.close() raised {describe_exception(e)}"])
            return 0
        ended = _run_message(worker, message, backend, level, init.get("max_bytes"))
        if ended is not None:
            return ended
        if _exhausted(backend):
            try:
                backend.close()
            finally:
                worker.send("retire")  # a fresh worker takes over; nothing here is to blame
            return 0


def _run_message(worker: Worker, message: tuple, backend, level, max_bytes: int | None) -> int | None:
    """Run a `run` message's units, one record each; the exit status if the backend ended the worker."""
    from .dispatch import execute
    from .execute import describe_exception, may_call_backend
    from .record import Category
    from .units import LiveUnit, outcome_of

    results = _prefetch(worker, message, backend, level, max_bytes)
    for work in message[1]:
        if may_call_backend(work, backend, level, results.get(work.index)):
            # The records before it go out first, so that a worker dying on it blames it alone (the pool blames the
            # first unit without a record).
            worker.flush()
        try:
            record = execute(
                work,
                backend,
                level,
                on_example=functools.partial(_send_example, worker, work.index),
                prefetched=results.get(work.index),
                max_bytes=max_bytes,
                facts=False,  # the parent has the case: it completes the record (units.completed)
            )
        except BaseException as e:  # SystemExit or KeyboardInterrupt from the backend: this worker ends
            from .units import blank_record

            record = blank_record(work).set(Category.CRASH, f"the backend ended the worker: {describe_exception(e)}")
            worker.hold(work.index, record)
            worker.send("retire")  # the next unit in this batch is not to blame for this exit
            return 4
        # A live unit's record is whole: its facts are those of the example it failed on, not the unit's.
        worker.hold(work.index, record if isinstance(work.unit, LiveUnit) else outcome_of(record))
    worker.flush()
    return None


def _prefetch(worker: Worker, message: tuple, backend, level, max_bytes: int | None) -> dict:
    """A batching backend's answers for the message's cases, got at once (none for units to run on their own:
    a worker died on them in a batch)."""
    from .execute import prefetch

    if len(message) > 2 and message[2]:
        return {}
    batch_size = getattr(backend, "batch_size", 1)
    if len(message[1]) > 1 and isinstance(batch_size, int) and batch_size > 1:
        worker.send("batch", len(message[1]))  # dying before the next `done` blames none of them (the pool)
    return prefetch(message[1], backend, level, max_bytes, _ends_the_process(str(getattr(backend, "name", ""))))


@functools.cache
def _ends_the_process(backend_name: str) -> Callable[[Any], bool]:
    """The descriptors a known issue of this backend says end its process (run alone: prefetch)."""
    from ..judging.expectations import ends_the_process

    return ends_the_process(backend_name)


def _exhausted(backend) -> bool:
    try:
        return bool(backend.exhausted())
    except Exception:  # a broken check must not end a run: keep this worker
        return False


def _send_example(worker, index: int, case) -> None:
    """Tell the pool which live example is in flight (reported if the worker dies on it)."""
    worker.send("example", index, _case_json(case))


def _case_json(case) -> dict:
    from ..cases.corpus import case_to_json

    return case_to_json(case, compact=False)


if __name__ == "__main__":
    sys.exit(main())

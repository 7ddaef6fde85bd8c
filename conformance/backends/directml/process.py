"""The native runner as a child process: framed requests in, framed responses out.

A frame is ``[u32 header length][u64 payload length][JSON header][payload]``, little-endian (the
C++ side, native/dml_runner.cpp, documents the same).  The child is a process tree
(conformance.support.processes: its own process group, SIGKILL when its parent dies on Linux; a Job Object
on Windows), so a killed worker never leaves a Wine process or a runner behind.  A child that dies or stops answering raises `RunnerDied` / `RunnerTimeout` carrying its
exit status and its last stderr lines; the caller restarts it for the next case.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence

import orjson

from ...support.processes import Tree, read_some

PREFIX = struct.Struct("<IQ")
MAX_HEADER = 1 << 20
STDERR_LINES = 40
# After the child exits, how long its last stderr lines may take to arrive at most: EOF ends the wait at once, and
# so (not on Windows) does an empty pipe (RunnerProcess._drain_stderr).
STDERR_GRACE_S = 2.0


class RunnerError(RuntimeError):
    """The runner process failed as a process (not DirectML refusing a case)."""

    def __init__(self, message: str, *, exit_status: int | None = None, stderr: Sequence[str] = ()):
        tail = "\n".join(stderr[-12:])
        super().__init__(message + (f"\n--- last stderr lines ---\n{tail}" if tail else ""))
        self.exit_status = exit_status
        self.stderr = list(stderr)


class RunnerDied(RunnerError):
    pass


class RunnerTimeout(RunnerError, TimeoutError):
    pass


def encode_header(header: Mapping) -> bytes:
    """A frame's JSON header, compact, byte for byte what `json.dumps(header, separators=(",", ":"))` makes.

    orjson makes it in a tenth of json's time (a quick run encodes thousands: each case's request is measured for
    its batch, then sent), and writes the same bytes for what requests hold: ASCII strings, integers, booleans,
    null, lists and objects.  json makes what orjson cannot (an integer past 64 bits, which an invalid
    descriptor's field may hold) and any character json escapes and orjson does not (past ASCII, and DEL)."""
    try:
        body = orjson.dumps(header)
    except (orjson.JSONEncodeError, TypeError):
        pass
    else:
        if body.isascii() and b"\x7f" not in body:  # json escapes DEL too
            return body
    return json.dumps(header, separators=(",", ":")).encode()


def describe_exit(status: int | None) -> str:
    """'exit status 3', 'killed by signal 11 (SIGSEGV)' or 'still running'."""
    if status is None:
        return "still running"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = "?"
        return f"killed by signal {-status} ({name})"
    if status > 0x7FFFFFFF or status >= 0xC0000000:  # a Windows NTSTATUS, e.g. 0xc0000005 access violation
        return f"exit status 0x{status:08x}"
    return f"exit status {status}"


class RunnerProcess:
    """One runner child: start it, exchange frames with deadlines, kill it."""

    def __init__(self, command: Sequence[str], *, env: Mapping[str, str] | None = None, start_timeout: float = 120.0):
        self.command = list(command)
        self.env = dict(env) if env is not None else None
        self.start_timeout = start_timeout
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._tree: Tree | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: threading.Thread | None = None
        self._wake: int | None = None  # written when the child has exited: the reader ends once the pipe is empty
        self.started_s = 0.0  # how long the last start took, ready frame included

    # -- life cycle ----------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> dict:
        """Start the child and wait for its first frame ({"status": "ready"} or a start-up failure)."""
        t0 = time.perf_counter()
        self.stderr_tail.clear()
        try:
            self._tree = Tree(
                self.command,
                pdeathsig=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self.env,
            )
        except OSError as e:
            raise RunnerDied(f"cannot start {self.command[0]}: {e}") from e
        self._proc = self._tree.proc
        woken = None
        self._wake_reader()  # a reader left from a child not killed through kill()
        if sys.platform != "win32":  # pipes cannot be select()ed on Windows: the reader ends at EOF there
            woken, self._wake = os.pipe()
        self._reader = threading.Thread(
            target=self._drain_stderr, args=(self._proc, self.stderr_tail, woken), daemon=True
        )
        self._reader.start()
        header, _ = self._read_frame(self.start_timeout, "start-up")
        self.started_s = time.perf_counter() - t0
        return header

    @staticmethod
    def _drain_stderr(proc: subprocess.Popen[bytes], tail: collections.deque[str], woken: int | None) -> None:
        """Keep the child's stderr lines, until EOF or, once `woken` is written (the child has exited, so all it
        wrote is in the pipe), until the pipe is empty.  Under Wine the pipe stays open after the runner exits when
        the wineserver and Wine's services were started by this runner and inherited its stderr: waiting for EOF
        then lasted the whole grace period each time a runner died (2 s a death)."""
        assert proc.stderr is not None
        fd, pending = proc.stderr.fileno(), b""
        try:
            while True:
                if woken is not None and fd not in select.select([fd, woken], [], [])[0]:
                    break  # woken, and nothing left to read
                chunk = read_some(fd)
                if not chunk:
                    break
                *lines, pending = (pending + chunk).split(b"\n")
                for raw in lines:
                    line = raw.decode("utf-8", "replace").rstrip()
                    if line:
                        tail.append(line)
            line = pending.decode("utf-8", "replace").rstrip()
            if line:
                tail.append(line)
        finally:
            if woken is not None:
                os.close(woken)

    def kill(self, *, stderr_tail: bool = True) -> int | None:
        """Kill the child and its process group; return its exit status.  `stderr_tail`: wait (STDERR_GRACE_S at
        most) for its last stderr lines, for the message that says why it died (`_drain_stderr`)."""
        proc, tree, self._proc, self._tree = self._proc, self._tree, None, None
        if proc is None or tree is None:
            return None
        if proc.poll() is None:
            tree.kill()
        try:
            status = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            status = None
        tree.release()  # Windows: whatever the child started dies with its Job Object
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._wake_reader()  # the child has exited (or is past answering)
        if self._reader is not None and stderr_tail:
            self._reader.join(timeout=STDERR_GRACE_S)
        return status

    def _wake_reader(self) -> None:
        """Tell the stderr reader the child is gone: it ends once the pipe is empty."""
        if self._wake is not None:
            with contextlib.suppress(OSError):  # a reader that met EOF has closed its end already
                os.write(self._wake, b"x")
            os.close(self._wake)
            self._wake = None

    def close(self, timeout: float = 5.0) -> None:
        """Ask the child to quit; kill it if it does not."""
        if self.alive:
            try:
                self.request({"op": "quit"}, timeout=timeout)
            except RunnerError:
                pass
        if self._proc is not None:
            try:
                self._proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        self.kill(stderr_tail=False)  # it said goodbye: nothing to explain

    # -- frames ------------------------------------------------------------------------------
    def request(
        self, header: dict, payload: bytes | memoryview = b"", *, timeout: float, max_payload: int | None = None
    ) -> tuple[dict, bytes]:
        """Send one frame and read the answer; RunnerDied / RunnerTimeout if the child fails.

        `max_payload`: the most answer bytes the request can justify (its outputs' sizes); a child
        announcing more is killed before a byte of it is read, so a wrong size never costs memory."""
        self.send(header, payload)
        return self.receive(timeout, header.get("op", "request"), max_payload)

    def send(self, header: dict, payload: bytes | memoryview = b"") -> None:
        """Send one frame (a request answered by several frames, as a batch is, is read with `receive`)."""
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise RunnerDied("the runner is not running")
        body = encode_header(header)
        try:
            proc.stdin.write(PREFIX.pack(len(body), len(payload)) + body)
            if len(payload):
                proc.stdin.write(payload)
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            self._fail(RunnerDied, f"the runner stopped reading its input ({e})")

    def receive(self, timeout: float, what: str, max_payload: int | None = None) -> tuple[dict, bytes]:
        """Read the next frame within `timeout` seconds (see `request` for `max_payload`)."""
        if self._proc is None:
            raise RunnerDied("the runner is not running")
        return self._read_frame(timeout, what, max_payload)

    def _read_frame(self, timeout: float, what: str, max_payload: int | None = None) -> tuple[dict, bytes]:
        deadline = time.monotonic() + timeout
        prefix = self._read_exact(PREFIX.size, deadline, what)
        header_len, payload_len = PREFIX.unpack(prefix)
        if header_len > MAX_HEADER:
            self._fail(RunnerDied, f"the runner sent a header of {header_len} bytes: the stream is out of step")
        if max_payload is not None and payload_len > max_payload:
            self._fail(
                RunnerDied,
                f"the runner announced {payload_len} bytes of outputs, but the descriptor's output "
                f"tensors hold at most {max_payload}: not read",
            )
        header_bytes = self._read_exact(header_len, deadline, what)
        payload = self._read_exact(payload_len, deadline, what) if payload_len else b""
        try:
            header = json.loads(header_bytes)  # not orjson: it reads an integer past 64 bits as a float
        except ValueError:
            self._fail(RunnerDied, f"the runner sent a header that is not JSON: {header_bytes[:200]!r}")
        if not isinstance(header, dict):
            self._fail(RunnerDied, f"the runner sent a header that is not an object: {header!r}")
        return header, payload

    def _read_exact(self, n: int, deadline: float, what: str) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        chunks: list[bytes] = []
        remaining = n
        while remaining:
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(RunnerTimeout, f"the runner did not answer {what} within the time limit")
            if sys.platform != "win32":
                ready, _, _ = select.select([fd], [], [], left)
                if not ready:
                    continue
                chunk = os.read(fd, min(remaining, 1 << 22))
            else:  # pragma: no cover - Windows pipes cannot be select()ed; reads block
                chunk = proc.stdout.read(remaining)
            if not chunk:
                self._fail(RunnerDied, f"the runner exited during {what}")
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)

    def _fail(self, kind: type[RunnerError], message: str):
        """Kill the child, then raise `kind` with its exit status and stderr tail."""
        proc = self._proc
        status = proc.poll() if proc is not None else None
        if status is None and kind is RunnerDied and proc is not None:
            try:
                status = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                status = None
        killed = self.kill()  # its last stderr lines kept
        status = status if status is not None else killed
        detail = describe_exit(status) if kind is RunnerDied else "killed after the time limit"
        raise kind(f"{message} ({detail})", exit_status=status, stderr=list(self.stderr_tail))

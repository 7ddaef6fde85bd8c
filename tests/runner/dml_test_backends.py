"""Deliberately broken backends, loaded as `dml_test_backends:Name` by the runner tests.

Built on the oracle so everything they do not break is right: each failure in a test is
the one planted here.  `Hostile` misbehaves per case, as a JSON file named by
$DML_TEST_FAULTS says (descriptor JSON -> fault), and logs every call's start and end with
its process id to $DML_TEST_CALLS, so a test can check what ran where and when.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
import time

import numpy as np

import oracle
from conformance.backends.base import Backend, BackendUnavailable, Capabilities, RunResult
from conformance.backends.oracle_backend import OracleBackend
from oracle import FeatureLevel


class AllLevels(OracleBackend):
    """The oracle, claiming every feature level (the generated corpus goes up to 6.4)."""

    name = "all-levels"

    def capabilities(self) -> Capabilities:
        return Capabilities(checks_invalid_descriptors=True, feature_level=max(FeatureLevel), tensor_layouts=True)


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


class BeyondFlip(BitFlip):
    """BitFlip on the cases past the four seed pages only (DML_PADDING1, WRAP); the oracle everywhere else."""

    name = "beyond-flip"

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        mode = getattr(descriptor, "padding_mode", None)
        if descriptor.operator == "PADDING1" or (mode is not None and mode.value == "WRAP"):
            return super().run(descriptor, inputs, feature_level)
        return AllLevels.run(self, descriptor, inputs, feature_level)


class Slow(AllLevels):
    """Correct but slow (DML_TEST_DELAY seconds per case): a run to kill mid-way."""

    name = "slow"

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        time.sleep(float(os.environ.get("DML_TEST_DELAY", "0.05")))
        return super().run(descriptor, inputs, feature_level)


class Hangs(AllLevels):
    """Correct, but the DML_TEST_HANG_AT-th case a worker is given (default 3) hangs, once it has written
    its id to $DML_TEST_MARK: a run with exactly one case in flight, for as long as a test needs."""

    name = "hangs"

    def __init__(self):
        self.calls = 0

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        self.calls += 1
        if self.calls == int(os.environ.get("DML_TEST_HANG_AT", "3")):
            mark = os.environ["DML_TEST_MARK"]
            with open(mark + ".tmp", "w") as f:
                f.write(str(os.getpid()))
            os.replace(mark + ".tmp", mark)
            time.sleep(600)
        return super().run(descriptor, inputs, feature_level)


class Exhausts(AllLevels):
    """Correct, but worn out after every DML_TEST_EXHAUST_AFTER cases (default 3): asks for a fresh worker."""

    name = "exhausts"

    def __init__(self):
        self.ran = 0

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        self.ran += 1
        result = super().run(descriptor, inputs, feature_level)
        result.notes = [f"pid {os.getpid()}"]
        return result

    def exhausted(self) -> bool:
        return self.ran >= int(os.environ.get("DML_TEST_EXHAUST_AFTER", "3"))


class FailsInFirstWorker(AllLevels):
    """Drops SPLIT's last output in the first worker process of a test (a marker in $DML_TEST_STATE), and is
    right in every later one: what --retries, each round in fresh workers, turns into `flaky`."""

    name = "fails-in-first-worker"

    def __init__(self):
        marker = os.path.join(os.environ["DML_TEST_STATE"], "first-worker")
        try:
            os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
            self.bad = True
        except FileExistsError:
            self.bad = False

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        result = super().run(descriptor, inputs, feature_level)
        if self.bad and descriptor.operator == "SPLIT" and result.status == "ok":
            return RunResult.ok(result.outputs[:-1])
        return result


class NoInvalidChecks(AllLevels):
    """Cannot observe descriptor validation and has no PADDING: exercises `unsupported`."""

    name = "no-checks"

    def capabilities(self) -> Capabilities:
        return Capabilities(operators=frozenset({"SLICE", "SLICE1", "SPLIT"}), feature_level=max(FeatureLevel))


class NothingSupported(AllLevels):
    """Declares no operator: every case is unsupported, so nothing is tested."""

    name = "nothing"

    def capabilities(self) -> Capabilities:
        return Capabilities(operators=frozenset(), checks_invalid_descriptors=False, feature_level=max(FeatureLevel))


class Garbage(AllLevels):
    """Returns the right shapes and types filled with 90: wrong wherever the spec fixes a value."""

    name = "garbage"

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        result = super().run(descriptor, inputs, feature_level)
        return RunResult.ok([np.full_like(o, 90) for o in result.outputs]) if result.status == "ok" else result


class Unavailable(AllLevels):
    name = "unavailable"

    def __init__(self):
        raise BackendUnavailable("unavailable needs the Acme driver: install acme-dml (Windows, driver >= 31.0)")


class ExitsInConstructor(AllLevels):
    name = "exits"

    def __init__(self):
        sys.exit(5)


class DiesInConstructor(AllLevels):
    name = "dies"

    def __init__(self):
        print("constructor: about to die", file=sys.stderr, flush=True)
        os._exit(9)


class SlowConstructor(AllLevels):
    """Takes DML_TEST_CONSTRUCT seconds to construct (a runtime under Wine): not a case's time."""

    name = "slow-constructor"

    def __init__(self):
        time.sleep(float(os.environ.get("DML_TEST_CONSTRUCT", "1.5")))


class OneAtATime(AllLevels):
    """max_jobs = 1: the run must use one worker, whatever --jobs says."""

    name = "one-at-a-time"
    max_jobs = 1

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        result = super().run(descriptor, inputs, feature_level)
        result.notes = [f"pid {os.getpid()}"]
        return result


class WithOptions(AllLevels):
    """Takes the DirectML backend's options; reports them as versions."""

    name = "with-options"

    def __init__(self, *, dml_dll: str | None = None, adapter: str | None = None):
        self.dml_dll, self.adapter = dml_dll, adapter

    def versions(self) -> dict[str, str]:
        return {"dml_dll": str(self.dml_dll), "adapter": str(self.adapter)}


class BadExtras(AllLevels):
    """Answers right, but with a close() that raises and versions that are not text."""

    name = "bad-extras"

    def versions(self) -> dict[str, str]:
        return {"driver": object(), "nan": float("nan")}  # type: ignore[dict-item]

    def close(self) -> None:
        raise RuntimeError("close exploded")


def fault_key(descriptor) -> str:
    return json.dumps(oracle.descriptor_to_json(descriptor), sort_keys=True)


class Hostile(AllLevels):
    """The oracle, except for the cases $DML_TEST_FAULTS names: there it does the named harm.

    `garbage_once` is wrong only the first time the case runs in a test (across processes:
    a marker file per case in $DML_TEST_STATE), as a flaky driver is; `garbage_then_hang` is
    wrong the first time and hangs after.
    """

    name = "hostile"

    def __init__(self):
        path = os.environ.get("DML_TEST_FAULTS")
        self.faults: dict[str, str] = json.loads(open(path).read()) if path else {}
        self.calls = os.environ.get("DML_TEST_CALLS")

    def _log(self, what: str, key: str) -> None:
        if self.calls:
            line = json.dumps({"pid": os.getpid(), "what": what, "t": time.monotonic(), "fault": self.faults.get(key)})
            fd = os.open(self.calls, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
            os.write(fd, (line + "\n").encode())
            os.close(fd)

    def unsupported_reason(self, descriptor, feature_level):
        if self.faults.get(fault_key(descriptor)) == "unsupported_reason_raises":
            raise ValueError("unsupported_reason exploded")
        return super().unsupported_reason(descriptor, feature_level)

    def _first_time(self, key: str) -> bool:
        """True the first time any process of this test asks about `key` (a marker file in $DML_TEST_STATE)."""
        import hashlib

        marker = os.path.join(os.environ["DML_TEST_STATE"], hashlib.sha256(key.encode()).hexdigest()[:16])
        try:
            os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return False
        return True

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        key = fault_key(descriptor)
        self._log("start", key)
        fault = self.faults.get(key)
        if fault == "garbage_once":  # wrong the first time, right ever after: a flaky case
            fault = "garbage" if self._first_time(key) else None
        if fault == "garbage_then_hang":  # wrong the first time, then never answers
            fault = "garbage" if self._first_time(key) else "hang"
        try:
            return self._run(fault, descriptor, inputs, feature_level)
        finally:
            self._log("end", key)

    def _run(self, fault, descriptor, inputs, feature_level) -> RunResult:
        good = super().run(descriptor, inputs, feature_level)
        if fault is None:
            return good
        print(f"hostile: doing {fault}", file=sys.stderr, flush=True)
        if fault in _ENDINGS:
            _ENDINGS[fault]()
            raise AssertionError(f"fault {fault!r} returned")  # hang: only after 1000 s
        if fault not in _ANSWERS:
            raise AssertionError(f"unknown fault {fault!r}")
        return _ANSWERS[fault](good)


def _raise() -> None:
    raise RuntimeError("driver exploded")


# Faults that end, kill or stall the worker (or raise out of run()).
_ENDINGS = {
    "segfault": lambda: ctypes.string_at(0),
    "os_exit": lambda: os._exit(7),
    "sys_exit": lambda: sys.exit(5),
    "kill": lambda: os.kill(os.getpid(), signal.SIGKILL),
    "raise": _raise,
    "hang": lambda: time.sleep(1000),  # releases the GIL
    "hang_gil": lambda: ctypes.PyDLL(None).sleep(1000),  # a C call made without releasing the GIL
}
# Faults that answer, wrongly or malformed, given the right answer.
_ANSWERS = {
    "ok_none": lambda good: RunResult("ok", None),
    "nan_timing": lambda good: RunResult.ok(good.outputs, timings={"device_s": float("nan")}, notes=[object()]),
    "surrogate": lambda good: RunResult.error("driver said \udc80 and \x1b[31mred\x1b[0m"),
    "garbage": lambda good: RunResult.ok([np.full_like(o, 90) for o in good.outputs]),
}


class DriverBuilds(Hostile):
    """Hostile on a made-up GPU whose driver build is $DML_TEST_DRIVER: runs of one backend across driver
    builds, each of its own identity (`history`)."""

    name = "driver-builds"

    def versions(self) -> dict[str, str]:
        return {**super().versions(), "adapter": "Test GPU", "driver_version": os.environ.get("DML_TEST_DRIVER", "1")}


class NotABackend:
    """A class that is not a Backend."""


class PretendDirectML(Hostile):
    """Hostile (its faults from $DML_TEST_FAULTS) reporting what the directml backend reports of its DirectML.dll,
    adapter and driver, so a report can be shown runs of DirectML identities without a GPU."""

    name = "pretend-directml"

    def versions(self) -> dict[str, str]:
        return {
            "directml": "1.15.4.0",
            "dml_feature_level": "6.4",
            "adapter": "Test GPU 9000",
            "adapter_ids": "vendor 0x1234 device 0x5678 subsys 0x00000000 rev 0",
            "driver_version": "31.0.101.5000",
        }


# Markup that runs script wherever a page lets it in as markup: the <img> fails to load and its onerror sets the flag
# and the title (a <script> set by innerHTML never runs; one in the page source would).
PAYLOAD = (
    "<script>window.__injected = 'script'; document.title = 'injected'</script>"
    "<img src=x onerror=\"window.__injected = 'img'; document.title = 'injected'\">"
)


class Injects(AllLevels):
    """Puts PAYLOAD into everything a backend reports: its versions (the adapter and DirectML.dll: its identity), an
    error message (SLICE1), an unsupported reason (SPLIT), notes and the reached operator (the rest)."""

    name = "injects"

    def versions(self) -> dict[str, str]:
        return {"injects": f"1.0 {PAYLOAD}", "directml": f"1.15.4 {PAYLOAD}", "adapter": f"GPU {PAYLOAD}"}

    def unsupported_reason(self, descriptor, feature_level):
        if descriptor.operator == "SPLIT":
            return f"cannot {PAYLOAD}"
        return super().unsupported_reason(descriptor, feature_level)

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        if descriptor.operator == "SLICE1":
            return RunResult.error(f"driver said {PAYLOAD}")
        result = super().run(descriptor, inputs, feature_level)
        return RunResult.ok(result.outputs, reached_operator=PAYLOAD, notes=[f"note {PAYLOAD}"])


class SegfaultsOnSplit(AllLevels):
    """Dies (SIGSEGV) on every SPLIT it runs, live Hypothesis examples included."""

    name = "segfaults-on-split"

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        if descriptor.operator == "SPLIT":
            ctypes.string_at(0)
        return super().run(descriptor, inputs, feature_level)


class Batching(AllLevels):
    """batch_size 8: answers through run_many, logs each call's size to $DML_TEST_CALLS; run() is refused
    so a case that reaches it singly shows up as an error."""

    name = "batching"
    batch_size = 8

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        return RunResult.error("run() was called: this case was not batched")

    def run_many(self, items):
        log = os.environ.get("DML_TEST_CALLS")
        if log:
            with open(log, "a") as f:
                f.write(f"{len(items)}\n")
        return [super(Batching, self).run(descriptor, inputs, level) for descriptor, inputs, level in items]


class BatchSegfaultsOnSplit(AllLevels):
    """batch_size 8: run_many dies (SIGSEGV) on any batch that holds a SPLIT, as run() does on a SPLIT alone (an
    in-process runtime crashing on one node of its batched model)."""

    name = "batch-segfaults-on-split"
    batch_size = 8

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        if descriptor.operator == "SPLIT":
            ctypes.string_at(0)
        return super().run(descriptor, inputs, feature_level)

    def run_many(self, items):
        if any(descriptor.operator == "SPLIT" for descriptor, _, _ in items):
            ctypes.string_at(0)
        return [self.run(descriptor, inputs, level) for descriptor, inputs, level in items]


class _Buffers(AllLevels):
    """The oracle's outputs in their buffers (every case, packed ones too), then `touch` changes one byte."""

    def touch(self, buffer, tensor) -> None:
        raise NotImplementedError

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        result = super().run(descriptor, inputs, feature_level)
        if result.status != "ok":
            return result
        buffers = []
        for out, tensor in zip(result.outputs, descriptor.output_tensors):
            buffer = oracle.layout.pack(out, tensor, oracle.layout.output_buffer(tensor))
            self.touch(buffer, tensor)
            buffers.append(buffer)
        return RunResult.ok([], buffers=buffers)


class WritesPastOutput(_Buffers):
    """Writes one element more than output 0 has, right after its TotalTensorSizeInBytes (into the guard)."""

    name = "writes-past-output"

    def touch(self, buffer, tensor) -> None:
        total, item = oracle.layout.total_size(tensor), tensor.data_type.numpy.itemsize
        buffer[total : total + item] = 0x00


class WritesPadding(_Buffers):
    """Writes the last byte inside each output's TotalTensorSizeInBytes when no element owns it (LAYOUT.4 allows it)."""

    name = "writes-padding"

    def touch(self, buffer, tensor) -> None:
        total = oracle.layout.total_size(tensor)
        if not oracle.layout.addressed(tensor)[total - 1]:
            buffer[total - 1] = 0x00


class NoGraphs(Backend):
    """The oracle, one operator at a time, with no run_graph(): DML graphs are unsupported."""

    name = "no-graphs"

    def capabilities(self) -> Capabilities:
        return Capabilities(feature_level=max(FeatureLevel))

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        return RunResult.ok(oracle.compute(descriptor, inputs, feature_level=feature_level))


class BatchedBitFlip(BitFlip):
    """BitFlip in batches of 16 through run_many: -x sees a whole batch of failures come back at once."""

    name = "batched-bit-flip"
    batch_size = 16

    def run_many(self, items):
        return [self.run(descriptor, inputs, level) for descriptor, inputs, level in items]

"""Backend `directml`: DirectML's own API, every descriptor exactly as the case states it.

Each case becomes the operator's DirectML struct (DML_SLICE_OPERATOR_DESC, DML_SLICE1_..., DML_PADDING_...
with PaddingValue as the FLOAT the struct holds, DML_SPLIT_..., DML_PADDING1_... with its typed
DML_SCALAR_UNION) over DML_BUFFER_TENSOR_DESCs, and goes
to the native runner (native/dml_runner.cpp): CreateOperator, CompileOperator, initialise, bind,
dispatch, read back.  Invalid descriptors go to CreateOperator too, so DirectML's own validation is
judged.  On Linux the runner runs under Wine (D3D12 from vkd3d over Mesa's lavapipe): real DirectML
results from a software adapter, always recorded with the stack that produced them.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import oracle
from oracle import DataType, Descriptor, FeatureLevel, InvalidDescriptor, TensorDesc, layout
from oracle.graph import GraphSpec

from ...support.cache import cache_dir
from ..base import Backend, BackendUnavailable, Capabilities, RunResult
from .graph import graph_request
from .hresults import DEVICE_LOST, failure_text
from .kernels import shader_model_reason
from .process import RunnerDied, RunnerProcess, RunnerTimeout, encode_header
from .program import NativeProgram
from .stack import SETUP, Stack
from .versions import same as same_version
from .wire import inexpressible, input_payload, request, tensor_desc
from .xserver import XServer


def _executed(frame: dict, job: int, submissions: dict[int, list[int]], clobbered: set[int]) -> bool:
    """Note which submission of a batch executed `job` (and whether a case's block there was written by someone);
    True when the job wrote a guard byte: in a batch, that write could be another case's."""
    submission = int(frame.get("submission", 0))
    submissions.setdefault(submission, []).append(job)
    if frame.get("clobbered"):
        clobbered.add(submission)
    return any(at >= 0 for at in frame.get("guard_written_at", ()))


def _lost(header: dict) -> bool:
    """The runner's answer names a device-removed HRESULT: whatever call returned it, the device is gone."""
    hr = header.get("hresult")
    return isinstance(hr, str) and int(hr, 16) in DEVICE_LOST


# Windows' own software rasterisers: a machine without a working GPU driver lands on them.  (The suite's Linux
# stack, llvmpipe under Wine, is the adapter expected there; the identity calls both "software adapter".)
WINDOWS_SOFTWARE_ADAPTER = re.compile(r"Microsoft Basic Render Driver|\bWARP\b", re.IGNORECASE)


def software_refusal(info: dict, asked: str | None, allow: bool) -> str | None:
    """Why the backend refuses the adapter the runner chose: a Windows software rasteriser nobody asked for by
    name (a vendor would read a CPU's results as their GPU's).  None when it is fine."""
    name = str(info.get("adapter", ""))
    if allow or not WINDOWS_SOFTWARE_ADAPTER.search(name):
        return None
    if asked and not asked.isdigit() and asked.lower() in name.lower():
        return None  # asked for by name: testing the software adapter on purpose
    return (
        f"the adapter DirectML would run on is {name!r}, a software rasteriser (adapters: "
        f"{info.get('adapters') or name}): its results would be a CPU's, not a GPU's. Install the GPU's driver, "
        f"pick the GPU with --adapter, or test this adapter on purpose with --adapter {name!r} or "
        "--allow-software-adapter"
    )


def version_refusal(asked: str | None, info: dict, dll: Path, origin: str) -> str | None:
    """--directml-version: why the DLL the runner loaded is refused (its own file version, as the runner read it,
    is not the release asked for: the run would be recorded under a version it is not).  None when it is fine."""
    loaded = str(info.get("directml_version", "unknown"))
    if asked is None or same_version(asked, loaded):
        return None
    fix = (
        f"delete {dll.parent} and run `{SETUP} --directml-version {asked}` to fetch it again"
        if dll.parent.resolve().is_relative_to(cache_dir().resolve())
        else "that package holds another DirectML.dll than the suite's table says"
    )
    return f"--directml-version {asked} asked for DirectML {asked}, but {dll} ({origin}) is DirectML {loaded}: {fix}"


# How the runner compiles a case (--dml-path): IDMLDevice::CompileOperator, a one-node DML graph through
# IDMLDevice1::CompileGraph (as ONNX Runtime reaches DirectML), or both, which must agree byte for byte.
DML_PATHS = ("operator", "graph", "both")


def both_paths(operator: RunResult, graph: RunResult) -> RunResult:
    """--dml-path both: the graph's result when the two paths agree byte for byte; otherwise an error naming
    the first difference (which path is right is for `--dml-path operator` and `graph` runs to show)."""
    note = "the operator path (CompileOperator) and the graph path (CompileGraph) gave the same bytes"
    if operator.status != graph.status:
        return RunResult.error(
            f"the operator path says {operator.status} ({operator.reason or 'outputs'}), the graph path says "
            f"{graph.status} ({graph.reason or 'outputs'})",
            reached_operator=graph.reached_operator,
        )
    if graph.status != "ok":
        return graph
    if (operator.buffers is None) != (graph.buffers is None):  # a guard written on one path only
        wrote = "operator" if operator.buffers is not None else "graph"
        return RunResult.error(
            f"the operator and graph paths disagree: only the {wrote} path wrote past an output's buffer",
            reached_operator=graph.reached_operator,
        )
    mine, theirs = (
        (operator.buffers, graph.buffers) if operator.buffers and graph.buffers else (operator.outputs, graph.outputs)
    )
    for j, (a, b) in enumerate(zip(mine, theirs)):
        ab, bb = np.ascontiguousarray(a).view(np.uint8).ravel(), np.ascontiguousarray(b).view(np.uint8).ravel()
        if not np.array_equal(ab, bb):  # the same descriptor's outputs: the same sizes on both paths
            k = int(np.flatnonzero(ab != bb)[0])
            return RunResult.error(
                f"the operator and graph paths disagree: output {j} byte {k} (operator path 0x{int(ab[k]):02x}, "
                f"graph path 0x{int(bb[k]):02x})",
                reached_operator=graph.reached_operator,
            )
    graph.notes = [*graph.notes, note]
    graph.timings = {**{f"operator_{k}": v for k, v in operator.timings.items()}, **graph.timings}
    return graph


# Batches (run_many): cases per call the run layer hands over at most, and what one runner request may hold.
BATCH_SIZE = 256
BATCH_BYTES = 64 << 20  # the tensors of one request: inputs, outputs and guards (a larger case goes alone)
BATCH_HEADER_BYTES = 512 << 10  # its JSON header (the runner reads headers of at most 1 MiB)
# The run layer counts a run_many call's time against its first case's --timeout: the call starts no batch
# after this share of it (the rest run alone, each on its own clock), and sizes each batch to a tenth of it
# at the cost per case measured so far.
TIME_SHARE = 0.5
BATCH_TIME_SHARE = 0.1
FIRST_SECONDS_PER_CASE = 0.01  # the guess before a batch is measured (about 1 ms measured here)
# Threads compiling a batch's operators in the runner (IDMLDevice is free-threaded).  Measured under Wine on
# lavapipe with 2 cores: see benchmarks/bench_directml.py.
COMPILE_THREADS = 1


@dataclass
class _Job:
    """One runner job of a run_many call: a case on one path (--dml-path both makes two)."""

    case: int  # its index in run_many's items
    request: dict
    payload: bytes
    outputs: Sequence[TensorDesc]
    reached: str
    laid_out: bool
    check: bool = False  # a check_only request (check_many): accepted or refused, nothing run
    allowed: int = 0  # answer bytes its outputs justify at most

    def __post_init__(self) -> None:
        described = self.request["graph"] if "graph" in self.request else self.request["tensors"]
        self.allowed = 0 if self.check else sum(t["total_size"] + layout.GUARD_BYTES for t in described["outputs"])
        self.size = len(self.payload) + self.allowed
        self.header_size = len(encode_header(self.request))  # its share of a batch's header (BATCH_HEADER_BYTES)


class DirectMLBackend(Backend):
    """DirectML through the native runner; `dml_dll`, `directml_version`, `adapter` and `adapter_kind` come from
    --dml-dll, --directml-version (a release of versions.RELEASES, fetched by `setup directml --directml-version`),
    --adapter and --adapter-kind.

    Cases come in batches (run_many): one request carries many, the runner creates and compiles their
    operators, records every initialisation and dispatch into one command list and waits once, and answers
    each case on its own.  A refusal or a failed output check stays its case's; a batch the runner could not
    finish (it crashed, hung, lost its device, or a case wrote into another's buffers) leaves its cases
    without an answer, and the run layer runs each of those alone, so that the one at fault is named.
    `one_by_one`: one request per case, one fence wait each (--one-by-one: for comparison and debugging).
    """

    name = "directml"
    # One D3D12 device per process (under vkd3d with Vulkan descriptor heaps, 1.5 GB each: see program.VKD3D_CONFIG).
    max_jobs = 2
    # The runner stages every tensor through Wine pipes and D3D12 upload, default and readback heaps,
    # on both sides of the pipe: about six copies (a 2.1 GB input took the runner to 11.6 GB).
    tensor_copies = 6.0
    batch_size = BATCH_SIZE

    def __init__(
        self,
        *,
        dml_dll: str | os.PathLike[str] | None = None,
        directml_version: str | None = None,
        adapter: str | None = None,
        adapter_kind: str | None = None,
        case_timeout: float = 300.0,
        dml_path: str = "operator",
        allow_software_adapter: bool = False,
        one_by_one: bool = False,
        log=None,
        native: NativeProgram | None = None,
    ):
        if dml_path not in DML_PATHS:
            raise ValueError(f"dml_path={dml_path!r}; expected one of {', '.join(DML_PATHS)}")
        self.dml_path = dml_path
        self.case_timeout = case_timeout
        self.one_by_one = bool(one_by_one)
        self.batch_size = 1 if self.one_by_one else BATCH_SIZE
        self.compile_threads = COMPILE_THREADS
        self.seconds_per_case = FIRST_SECONDS_PER_CASE
        self.stats = {"requests": 0, "batches": 0, "alone": 0, "broken_batches": 0}
        self.last_batch: dict = {}  # the runner's figures for the last batch (its batch_done frame)
        # `native`: a runner started elsewhere (tests give a fake one).
        self.native = native or NativeProgram(
            "dml_runner",
            dml_dll=dml_dll,
            directml_version=directml_version,
            adapter=adapter,
            adapter_kind=adapter_kind,
            log=log,
        )
        refusal = software_refusal(self.info, adapter, allow_software_adapter) or version_refusal(
            directml_version, self.info, self.stack.dml_dll, self.stack.dml_dll_origin
        )
        if refusal:
            self.close()
            raise BackendUnavailable(refusal)
        self._self_test()
        self._caps = Capabilities(
            data_types=self.native.data_types(),
            feature_level=self.native.feature_level(),
            checks_invalid_descriptors=True,
            tensor_layouts=True,  # the runner binds the exact descs and returns each output's whole buffer
        )

    @property
    def info(self) -> dict:
        return self.native.info

    @property
    def stack(self) -> Stack:
        return self.native.stack

    @property
    def process(self) -> RunnerProcess | None:
        return self.native.process

    @property
    def xserver(self) -> XServer | None:
        return self.native.xserver

    def _self_test(self) -> None:
        """DML_ELEMENT_WISE_IDENTITY (not an operator under test) must copy 256 floats exactly, or
        nothing this device returns can be trusted: a too-old lavapipe returns S_OK and garbage."""
        tensor = TensorDesc(DataType.FLOAT32, (256,))
        x = np.arange(256, dtype=np.float32) * np.float32(1.25) - np.float32(100)
        frame = {
            "op": "run",
            "operator": "ELEMENT_WISE_IDENTITY",
            "min_feature_level": "1.0",
            "tensors": {"inputs": [tensor_desc(tensor)], "outputs": [tensor_desc(tensor)]},
            "fields": {},
        }
        header, payload = self.native.request(frame, input_payload([x], (tensor,)), timeout=120)
        if header.get("status") != "ok" or payload[: x.nbytes] != x.tobytes():
            self.close()
            raise BackendUnavailable(
                "the device failed the self-test (DML_ELEMENT_WISE_IDENTITY did not copy 256 floats: "
                f"{failure_text(header) if header.get('status') != 'ok' else 'wrong values'}); results from "
                f"this driver stack would be garbage. Adapter: {self.info.get('adapter')}; "
                + (f"Mesa {self.stack.lavapipe.version}" if self.stack.lavapipe else "")
            )

    def _ensure_running(self) -> RunnerProcess:
        restarted = not self.native.alive
        process = self.native.ensure_running()
        if restarted:
            self._self_test()
        return process

    def close(self) -> None:
        self.native.close()

    # -- what the device can do -------------------------------------------------------------
    def capabilities(self) -> Capabilities:
        return self._caps

    def versions(self) -> dict[str, str]:
        path = {
            "operator": "operator (IDMLDevice::CompileOperator, one operator per case)",
            "graph": "graph (IDMLDevice1::CompileGraph, each case a one-node DML graph)",
            "both": "both (CompileOperator and CompileGraph, which must agree byte for byte)",
        }[self.dml_path]
        return {**self.native.versions(), "dml_path": path}

    # -- running -----------------------------------------------------------------------------
    def unsupported_reason(self, descriptor: Descriptor, feature_level: FeatureLevel) -> str | None:
        """The capabilities' reasons, and a kernel this device's shader model cannot run (kernels.py)."""
        return super().unsupported_reason(descriptor, feature_level) or shader_model_reason(self.info, descriptor)

    def _send(self, req: dict, payload: bytes, outputs: Sequence[TensorDesc]) -> tuple[dict, bytes]:
        self._ensure_running()
        allowed = sum(layout.total_size(t) + layout.GUARD_BYTES for t in outputs)
        return self.native.request(req, payload, timeout=self.case_timeout, max_payload=allowed)

    def _refused(self, header: dict) -> str:
        return f"DirectML refused the descriptor: {failure_text(header)}"

    def run(self, descriptor: Descriptor, inputs: list[np.ndarray], feature_level: FeatureLevel) -> RunResult:
        reason = self.unsupported_reason(descriptor, feature_level) or inexpressible(descriptor)
        if reason:
            return RunResult.unsupported(reason)
        payload = input_payload(inputs, descriptor.input_tensors)
        if self.dml_path != "both":
            return self._run_path(descriptor, feature_level, payload, graph=self.dml_path == "graph")
        return both_paths(
            self._run_path(descriptor, feature_level, payload, graph=False),
            self._run_path(descriptor, feature_level, payload, graph=True),
        )

    def _run_path(self, descriptor: Descriptor, level: FeatureLevel, payload: bytes, graph: bool) -> RunResult:
        """One run through IDMLDevice::CompileOperator, or (graph) a one-node IDMLDevice1::CompileGraph."""
        reached = f"{descriptor.operator} (graph)" if graph else descriptor.operator
        req = request(descriptor, level, graph=graph)
        return self._execute(req, payload, descriptor.output_tensors, reached, layout.has_layout(descriptor))

    def run_graph(self, graph: GraphSpec, inputs: list[np.ndarray], level: FeatureLevel) -> RunResult:
        """A DML graph of several nodes (conformance.cases.compositions) through IDMLDevice1::CompileGraph."""
        for node in graph.nodes:
            reason = self.unsupported_reason(node, level) or inexpressible(node)
            if reason:
                return RunResult.unsupported(f"{node.operator} node: {reason}")
        reached = " + ".join(node.operator for node in graph.nodes) + " (graph)"
        req = graph_request(graph, level, tensor_desc)
        payload = input_payload(inputs, graph.inputs)
        return self._execute(req, payload, graph.outputs, reached, any(t.has_layout for t in graph.outputs))

    def _execute(
        self, req: dict, payload: bytes, output_tensors: Sequence[TensorDesc], reached: str, laid_out: bool
    ) -> RunResult:
        t0 = time.perf_counter()
        self.stats["requests"] += 1
        header, data = self._send(req, payload, output_tensors)
        return self._answer(header, data, output_tensors, reached, laid_out, time.perf_counter() - t0)

    def _answer(
        self,
        header: dict,
        data: bytes,
        output_tensors: Sequence[TensorDesc],
        reached: str,
        laid_out: bool,
        round_trip: float,
    ) -> RunResult:
        """The runner's answer for one case as a RunResult (a lost device also closes the runner)."""
        status = header.get("status")
        timings = {k: float(v) for k, v in header.items() if k.endswith("_s") and isinstance(v, (int, float))}
        timings["round_trip_s"] = round_trip
        if isinstance(header.get("submitted_with"), int):  # executed in one submission with this many cases
            timings["batch"] = float(header["submitted_with"])
        if status == "refused" and not _lost(header):
            return RunResult.rejected(self._refused(header), reached_operator=reached, timings=timings)
        if status != "ok":  # a device lost at creation is no refusal of the descriptor: the device is gone
            return self._error(header, timings, reached)
        outputs, buffers, offset, guard_written = [], [], 0, False
        for j, (tensor, size) in enumerate(zip(output_tensors, header["output_bytes"])):
            buffers.append(np.frombuffer(data, dtype=np.uint8, count=size, offset=offset))
            offset += size
            outputs.append(layout.unpack(buffers[-1], tensor))
            guard_written = guard_written or header["guard_written_at"][j] >= 0
        if laid_out or guard_written:
            # Every byte judged (conformance.judging.buffers): padding inside TotalTensorSizeInBytes, the guard.
            return RunResult.ok(outputs, buffers=buffers, reached_operator=reached, timings=timings)
        return RunResult.ok(outputs, reached_operator=reached, timings=timings)

    def _error(self, header: dict, timings: dict, reached: str) -> RunResult:
        text = failure_text(header)
        if _lost(header):
            self.native.close()  # a lost device: a fresh runner for the next case
            text += " (device lost; the runner is restarted for the next case)"
        return RunResult.error(
            f"DirectML failed to run the operator: {text}",
            reached_operator=reached,
            timings=timings,
        )

    # -- batches ----------------------------------------------------------------------------
    def run_many(
        self, items: Sequence[tuple[Descriptor, list[np.ndarray], FeatureLevel]]
    ) -> list[RunResult | BaseException | None]:
        """Many cases in few runner requests; None for a case whose batch could not be finished (run it alone)."""
        if self.one_by_one:
            return list(super().run_many(items))
        results: list[RunResult | BaseException | None] = [None] * len(items)
        jobs: list[_Job] = []
        for i, (descriptor, inputs, level) in enumerate(items):
            reason = self.unsupported_reason(descriptor, level) or inexpressible(descriptor)
            if reason:
                results[i] = RunResult.unsupported(reason)
                continue
            payload = input_payload(inputs, descriptor.input_tensors)
            graphs = {"operator": (False,), "graph": (True,), "both": (False, True)}[self.dml_path]
            for graph in graphs:
                reached = f"{descriptor.operator} (graph)" if graph else descriptor.operator
                req = request(descriptor, level, graph=graph)
                jobs.append(_Job(i, req, payload, descriptor.output_tensors, reached, layout.has_layout(descriptor)))
        answers = self._run_jobs(jobs)
        per_case: dict[int, list[RunResult | None]] = {}
        for k, job in enumerate(jobs):
            per_case.setdefault(job.case, []).append(answers.get(k))
        for i, answered in per_case.items():
            if any(a is None for a in answered):
                continue  # None: the run layer runs it alone
            results[i] = both_paths(*answered) if len(answered) == 2 else answered[0]  # type: ignore[arg-type]
        return results

    def _time_limit(self) -> float:
        """The run's --timeout per case, or this backend's own limit when the run sets none."""
        return self.time_limit if self.time_limit else self.case_timeout

    def _run_jobs(self, jobs: list[_Job]) -> dict[int, RunResult]:
        """Answers by job index; a job without one (its batch broke, or time ran out) is left out."""
        answers: dict[int, RunResult] = {}
        started = time.monotonic()
        deadline = started + self._time_limit() * TIME_SHARE
        k = 0
        while k < len(jobs) and time.monotonic() < deadline:
            most = max(1, int(self._time_limit() * BATCH_TIME_SHARE / max(self.seconds_per_case, 1e-6)))
            batch, size, header = [k], jobs[k].size, jobs[k].header_size
            k += 1
            while k < len(jobs) and len(batch) < most:
                if size + jobs[k].size > BATCH_BYTES or header + jobs[k].header_size > BATCH_HEADER_BYTES:
                    break
                batch.append(k)
                size += jobs[k].size
                header += jobs[k].header_size
                k += 1
            t0 = time.monotonic()
            answers.update(self._batch(jobs, batch, deadline))
            self.seconds_per_case = 0.5 * self.seconds_per_case + 0.5 * (time.monotonic() - t0) / len(batch)
        return answers

    def _batch(self, jobs: list[_Job], batch: list[int], deadline: float) -> dict[int, RunResult]:
        """One batch request: each case's answer as it streams in.  Left without one: the cases the runner had
        not answered when it died, hung, or lost its device; a case whose guard bytes were written (alone, that
        write is surely its own); and every case of a submission in which a case's inputs, or the poison
        before them, changed (one of them wrote outside its outputs: alone, each shows whether it was it)."""
        self._ensure_running()
        self.stats["batches"] += 1
        cases = [{**jobs[k].request, "input_bytes": len(jobs[k].payload)} for k in batch]
        got: dict[int, RunResult] = {}
        submissions: dict[int, list[int]] = {}  # submission -> the jobs it executed
        clobbered: set[int] = set()
        t0 = time.perf_counter()
        try:
            self.native.send(
                {"op": "batch", "threads": self.compile_threads, "cases": cases},
                b"".join(jobs[k].payload for k in batch),
            )
            waiting = set(range(len(batch)))
            most = max(jobs[k].allowed for k in batch)  # 0 for checks: they answer no bytes
            while waiting:
                left = max(0.0, min(deadline, time.monotonic() + self.case_timeout) - time.monotonic())
                frame, data = self.native.receive(timeout=left, what="a batch", max_payload=most)
                index = frame.get("index")
                if index is None:  # the batch ended: failed as a whole (a lost device, a buffer not made)
                    self.last_batch = frame
                    if _lost(frame):
                        self.native.kill()  # a fresh runner for the next request
                    break
                job = jobs[batch[index]] if isinstance(index, int) and index in waiting else None
                if job is None or len(data) > job.allowed:
                    self.native.kill()  # out of step: nothing more it says can be matched to a case
                    break
                waiting.discard(index)
                if _lost(frame) or (
                    frame.get("status") == "ok" and _executed(frame, batch[index], submissions, clobbered)
                ):
                    continue  # no answer: alone, it is surely its own
                got[batch[index]] = (
                    self._checked(frame, job.reached)
                    if job.check
                    else self._answer(frame, data, job.outputs, job.reached, job.laid_out, time.perf_counter() - t0)
                )
            else:  # every case answered: the runner's own figures for the batch follow (or the device's loss)
                self.last_batch, _ = self.native.receive(timeout=self.case_timeout, what="a batch's end")
                if _lost(self.last_batch):
                    self.native.kill()
        except (RunnerDied, RunnerTimeout):
            pass  # the runner is gone; the next request starts a fresh one
        for submission in clobbered:
            for k in submissions[submission]:
                got.pop(k, None)
        if len(got) < len(batch):
            self.stats["broken_batches"] += 1
        return got

    def check_descriptor(self, descriptor: Descriptor, feature_level: FeatureLevel) -> RunResult:
        """Give the invalid descriptor to CreateOperator: refusal is the expected answer."""
        early = self._not_checkable(descriptor, feature_level)
        if early is not None:
            return early
        graph = self.dml_path == "graph"
        self.stats["requests"] += 1
        header, _ = self._send(request(descriptor, feature_level, check_only=True, graph=graph), b"", ())
        return self._checked(header, descriptor.operator)

    def check_many(self, items: Sequence[tuple[Descriptor, FeatureLevel]]) -> list[RunResult | None]:
        """check_descriptor for many invalid descriptors in few runner requests; None where a batch broke (the
        run layer then calls check_descriptor for that case alone)."""
        results: list[RunResult | None] = [None] * len(items)
        jobs: list[_Job] = []
        for i, (descriptor, level) in enumerate(items):
            results[i] = self._not_checkable(descriptor, level)
            if results[i] is None:
                req = request(descriptor, level, check_only=True, graph=self.dml_path == "graph")
                jobs.append(_Job(i, req, b"", (), descriptor.operator, False, check=True))
        for k, answer in self._run_jobs(jobs).items():
            results[jobs[k].case] = answer
        return results

    def _not_checkable(self, descriptor: Descriptor, feature_level: FeatureLevel) -> RunResult | None:
        """`unsupported` when DirectML cannot be judged on this invalid descriptor; None when it can."""
        reason = inexpressible(descriptor)
        if reason:
            return RunResult.unsupported(reason)
        device_level = self._caps.feature_level
        if feature_level < device_level:
            try:
                oracle.validate(descriptor, device_level)
            except InvalidDescriptor:
                pass
            else:
                return RunResult.unsupported(
                    f"valid at feature level {device_level}, which DirectML {self.info.get('directml_version')} "
                    f"implements and validates against whatever minimum the device is created with; invalid only at "
                    f"the case's level {feature_level}, so DirectML cannot be judged on it"
                )
        return None

    def _checked(self, header: dict, operator: str) -> RunResult:
        """The runner's answer to a check_only request: refused, accepted, or an error."""
        if header.get("status") == "refused" and not _lost(header):
            return RunResult.rejected(self._refused(header), reached_operator=operator)
        if header.get("status") == "accepted":
            return RunResult.ok([], reached_operator=operator)
        return self._error(header, {}, operator)

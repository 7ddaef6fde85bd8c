"""Backend `onnxruntime-directml`: ONNX Runtime's DirectML execution provider, executed for real.

The descriptor is lowered to an ONNX node (conformance.lowering; ORT runs Slice as DML_SLICE1, Pad as
DML_PADDING1, Split as DML_SPLIT), many cases' nodes go into one model, and the model runs on
DmlExecutionProvider alone with CPU fallback disabled: a node DirectML will not take makes the session
fail, and the batch is halved until that case stands alone and is reported unsupported with ORT's
message, never run on the CPU.  A worker that dies or hangs on a batch answered none of it: each of
its cases runs again alone, so that only the one at fault gets the crash.  Every case's node reads
only its own inputs, so its result is the one it gets in a session of its own (tests/directml checks
that record by record).

What a session costs, measured under Wine (vkd3d 1.6 on lavapipe, 2 cores): each session's DirectML
provider creates a 2048-descriptor heap, and vkd3d takes 1-6 s and about 1.5 GB for it; ORT's own
work was milliseconds.  So the worker hands heaps that a released session gave back to the next one
(ort_worker.cpp, HeapPool): a session then costs 2 ms for one node, about 1 ms a node up to
BATCH_SIZE and more per node beyond (ORT's partitioning grows faster than the node count).  A batch
also keeps its tensors under BINDINGS_PER_SESSION, so that one heap holds its descriptors (past
about 1,400 tensors ORT's provider creates another heap during the run), and under
BYTES_PER_SESSION.

Sessions come from a host (`--ort-host`).  `worker` (`WorkerSessions`, on Windows and under Wine
alike) is the native ort_worker on ONNX Runtime's C API, with one D3D12 device, DirectML device and
queue shared by every session; `python` (`PythonSessions`) runs the installed `onnxruntime` module
in the worker process, on DmlExecutionProvider (Windows; tests substitute the CPU provider with
it).  By default the worker, where it can start, else the module.  Everything above the host is
the same code on every platform, and the results header says which host ran.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from oracle import ALL_DATA_TYPES, DataType, Descriptor, FeatureLevel
from oracle.graph import GraphSpec
from oracle.size import tensor_bytes

from ..lowering import (
    IR_VERSION,
    OPSET,
    Inexpressible,
    Lowering,
    build_graphs_model,
    lower,
)
from ..support.lazy import lazy_import
from .base import Backend, BackendUnavailable, Capabilities, RunResult
from .batches import BatchedSessions, BatchItem, SessionFailed, session_batches
from .lowered import lower_graph
from .onnxruntime_backend import CPU, DISABLE_CPU_FALLBACK, DML, KNOWN_LIMITS, NO_KERNEL

if TYPE_CHECKING:
    import onnx
else:
    onnx = lazy_import("onnx")  # the run's own process reads the class only (conformance.backends.registry)

# ORT's GraphOptimizationLevel by name (--ort-graph-optimization); "all" is ORT's default, as applications run.
GRAPH_OPTIMIZATION_LEVELS = {"disabled": 0, "basic": 1, "extended": 2, "all": 99}
# ORT's DirectML provider compiles each DirectML partition into one DML graph (DmlGraphFusionTransformer,
# IDMLDevice1::CompileGraph) whatever the optimization level; this session entry turns that off, so that each
# node runs as its own DirectML operator (onnxruntime/core/session/onnxruntime_session_options_config_keys.h).
DISABLE_DML_GRAPH_FUSION = "ep.dml.disable_graph_fusion"


@dataclass(frozen=True)
class SessionSettings:
    """How sessions are made: ORT's graph optimization level and whether DML graph fusion runs."""

    graph_optimization: str = "all"
    dml_graph_fusion: bool = True

    @property
    def level(self) -> int:
        return GRAPH_OPTIMIZATION_LEVELS[self.graph_optimization]

    def describe(self) -> dict[str, str]:
        fusion = (
            "on (ORT compiles each DirectML partition into one DML graph, IDMLDevice1::CompileGraph, as applications run)"
            if self.dml_graph_fusion
            else f"off ({DISABLE_DML_GRAPH_FUSION}=1: every node runs as its own DirectML operator)"
        )
        return {
            "graph_optimization": f"{self.graph_optimization} (GraphOptimizationLevel {self.level})",
            "dml_graph_fusion": fusion,
        }


CPU_SETTINGS = SessionSettings("disabled", dml_graph_fusion=False)  # tests' CPU stand-in: nothing fused
# Cases per session.  Measured under Wine with heaps recycled, the quick profile's mix: create + run 4.7 ms a
# case at 25 a session, 2.0 at 50, 1.5-1.7 at 100-200, 1.9 at 300, 2.9 at 800.  Without recycling a session
# cost 1-6 s whatever its size (the heap), which 100 cases a session amortised (LEGACY_BATCH_SIZE).
BATCH_SIZE = 200
LEGACY_BATCH_SIZE = 100
# Data tensors (inputs + outputs) per session: the provider's descriptor pool holds 2048 descriptors a heap and
# took about 1.4 per tensor; batches of 1,460 tensors already needed a second heap (2-9 s more under vkd3d,
# 1.5 GB), of 1,000 never did.
BINDINGS_PER_SESSION = 1000
# The batch's tensors (inputs and outputs, as the descriptors size them).  Measured with 1 MiB Slices: about
# 200 MiB/s in and out alike at 4, 16 or 64 MiB a session (the session's cost is gone by 4 MiB), 134 MiB/s at 256.
BYTES_PER_SESSION = 64 << 20
# The onnxruntime module creates a D3D12 device per DirectML session and never gives it back (about
# 1.5 GB each under vkd3d): a worker process that reached 23 GB was killed by the kernel. After this
# many sessions the backend asks for a fresh worker process (Backend.exhausted).
PYTHON_DML_SESSIONS_PER_PROCESS = 6
ONNX_SYMMETRIC_FREE = frozenset({"CONSTANT", "EDGE", "REFLECTION", "WRAP"})  # WRAP: Pad-19 wrap


class Sessions(Protocol):
    """Where sessions live: create from model bytes, run with named feeds, release."""

    def create(self, model: bytes) -> Any: ...

    def run(self, session: Any, feeds: dict[str, np.ndarray], outputs: list[str]) -> list[np.ndarray]: ...

    def release(self, session: Any) -> None: ...

    def describe(self) -> dict[str, str]: ...

    def data_types(self) -> frozenset[DataType]: ...

    def exhausted(self) -> bool: ...

    def close(self) -> None: ...


class PythonSessions:
    """The `onnxruntime` module in this process, on one provider (DirectML on Windows; CPU in tests)."""

    def __init__(
        self,
        provider: str = DML,
        settings: SessionSettings = CPU_SETTINGS,
        *,
        provider_options: dict[str, str] | None = None,
    ):
        try:
            import onnxruntime
        except ImportError as e:
            raise BackendUnavailable(
                "ONNX Runtime is not installed: `pip install onnxruntime-directml` on Windows"
            ) from e
        self.ort = onnxruntime
        self.provider = provider
        self.provider_options = dict(provider_options or {})
        self.settings = settings
        self.created = 0
        # The device's shader caps where they were asked (`directml`): what kernels.shader_model_reason reads.
        self.info: dict[str, str] = {}
        if provider not in onnxruntime.get_available_providers():
            raise BackendUnavailable(
                f"ONNX Runtime {onnxruntime.__version__} here offers "
                f"{', '.join(onnxruntime.get_available_providers())}, not {provider}"
            )

    @classmethod
    def directml(
        cls,
        *,
        adapter: str | None = None,
        adapter_kind: str | None = None,
        performance_preference: str | None = None,
        settings: SessionSettings = SessionSettings(),
    ) -> PythonSessions:
        """The module on DmlExecutionProvider.  With `adapter_kind`, ORT chooses as an application selecting an NPU
        does: its provider options `device_filter` and `performance_preference` (ORT lists the adapters through
        DXCore).  Otherwise `device_id` is always given (the adapter's DXGI index, default 0): without it ORT
        picks the adapter through dxcore.dll, which Wine 8 lacks."""
        if adapter_kind is not None or performance_preference is not None:
            if adapter is not None:
                raise BackendUnavailable(
                    f"--adapter {adapter} with --adapter-kind/--ort-performance-preference: the python host gives "
                    "DmlExecutionProvider either a device_id or a device filter, not both (--ort-host worker takes both)"
                )
            options = {
                "device_filter": adapter_kind or "gpu",
                "performance_preference": performance_preference or "default",
            }
            sessions = cls(DML, settings, provider_options=options)
            sessions.info = {"shader_model": "unknown (ONNX Runtime picks the adapter through DXCore: --adapter-kind)"}
            return sessions
        if adapter is not None and not adapter.isdigit():
            raise BackendUnavailable(
                f"--adapter {adapter}: the python host picks an adapter by index only (DmlExecutionProvider's "
                "device_id); give its index, or --ort-host worker to pick it by name"
            )
        from .directml.device_caps import device_caps

        sessions = cls(DML, settings, provider_options={"device_id": adapter or "0"})
        sessions.info = device_caps(int(adapter or "0"))  # the adapter device_id names: EnumAdapters order
        return sessions

    def create(self, model: bytes) -> Any:
        options = self.ort.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        options.log_severity_level = 4  # failures come back as exceptions with ORT's message
        options.graph_optimization_level = self.ort.GraphOptimizationLevel(self.settings.level)
        if self.provider != CPU:  # ORT refuses the entry when the CPU provider is the one asked for
            options.add_session_config_entry(DISABLE_CPU_FALLBACK, "1")
            if not self.settings.dml_graph_fusion:
                options.add_session_config_entry(DISABLE_DML_GRAPH_FUSION, "1")
            options.enable_mem_pattern = False
            options.execution_mode = self.ort.ExecutionMode.ORT_SEQUENTIAL
        providers: list = [(self.provider, self.provider_options)] if self.provider_options else [self.provider]
        self.created += 1
        try:
            return self.ort.InferenceSession(model, options, providers=providers)
        except Exception as e:  # ORT's refusal: its message is the evidence
            raise SessionFailed(str(e).strip()) from e

    def run(self, session: Any, feeds: dict[str, np.ndarray], outputs: list[str]) -> list[np.ndarray]:
        try:
            return [np.asarray(y) for y in session.run(outputs, feeds)]
        except Exception as e:
            raise SessionFailed(str(e).strip()) from e

    def release(self, session: Any) -> None:
        del session

    def describe(self) -> dict[str, str]:
        out = {
            "onnxruntime": self.ort.__version__,
            "provider": self.provider,
            "ort_host": "python",
            "route": "the onnxruntime module (Python), in the worker process",
        }
        if self.provider_options:
            out["provider_options"] = ", ".join(f"{k}={v}" for k, v in sorted(self.provider_options.items()))
        if self.provider == DML:
            from pathlib import Path

            dll = Path(self.ort.__file__).parent / "capi" / "DirectML.dll"
            out["directml_dll_path"] = str(dll)
            out["directml_dll_origin"] = "the onnxruntime module's own"
        if self.info:  # the device's shader caps, in the worker host's words (program.NativeProgram.versions)
            out["shader_model"] = self.info.get("shader_model", "unknown")
            if "int64_shader_ops" in self.info:
                out["shader_64_bit_ops"] = (
                    f"Int64ShaderOps {self.info['int64_shader_ops']}, "
                    f"DoublePrecisionFloatShaderOps {self.info.get('double_shader_ops', 'unknown')}"
                )
        return out

    def data_types(self) -> frozenset[DataType]:
        return frozenset(ALL_DATA_TYPES)

    def exhausted(self) -> bool:
        return self.provider == DML and self.created >= PYTHON_DML_SESSIONS_PER_PROCESS

    def close(self) -> None:
        pass


class WorkerSessions:
    """The native ort_worker: ONNX Runtime's C API with one shared DirectML device (Windows, or Wine)."""

    def __init__(
        self,
        *,
        dml_dll: str | None = None,
        adapter: str | None = None,
        adapter_kind: str | None = None,
        performance_preference: str | None = None,
        ort_dll: str | None = None,
        settings: SessionSettings = SessionSettings(),
        timeout: float = 600.0,
        recycle_descriptor_heaps: bool | None = None,
    ):
        from .directml.program import NativeProgram

        self.settings = settings
        self.timeout = timeout
        self.program = NativeProgram(
            "ort_worker",
            dml_dll=dml_dll,
            adapter=adapter,
            # ORT's own selection is probed for a kind: a preference alone asks about GPUs, ORT's default filter.
            adapter_kind=adapter_kind or ("gpu" if performance_preference else None),
            ort_dll=ort_dll,
            extra=["--ort-performance-preference", performance_preference] if performance_preference else [],
        )
        self.info = self.program.info
        # Off unless asked: under Wine the worker runs with VKD3D_CONFIG=virtual_heaps (backend.NativeProgram), which
        # makes a heap cost microseconds and the worker 0.18 GB instead of 1.6 GB, with the same bytes (measured on
        # 900 cases); on a Windows driver ONNX Runtime's heaps stay exactly as applications get them.  Recycling
        # (the worker's HeapPool) stays for a vkd3d without virtual heaps (a VKD3D_CONFIG of the user's own).
        self.recycle_descriptor_heaps = bool(recycle_descriptor_heaps)
        # The worker's descriptor heap counters (HeapPool): created, reused, create_s, since its process started.
        self.heaps: dict[str, float] = {}

    def create(self, model: bytes) -> int:
        header, _ = self.program.request(
            {
                "op": "session",
                "graph_optimization_level": self.settings.level,
                "disable_dml_graph_fusion": not self.settings.dml_graph_fusion,
                "recycle_descriptor_heaps": self.recycle_descriptor_heaps,
            },
            model,
            timeout=self.timeout,
        )
        self._count_heaps(header)
        if header.get("status") != "ok":
            raise SessionFailed(header.get("message") or f"{header.get('call')}: {header}")
        return int(header["session"])

    def _count_heaps(self, header: dict) -> None:
        heaps = header.get("heaps")
        if isinstance(heaps, dict):
            self.heaps = {k: float(v) for k, v in heaps.items() if isinstance(v, (int, float))}

    def run(self, session: int, feeds: dict[str, np.ndarray], outputs: list[str]) -> list[np.ndarray]:
        arrays = [np.ascontiguousarray(x) for x in feeds.values()]
        inputs = [
            {
                "name": n,
                "type": onnx.helper.np_dtype_to_tensor_dtype(x.dtype),
                "shape": list(x.shape),
                "bytes": x.nbytes,
            }
            for n, x in zip(feeds, arrays)
        ]
        header, payload = self.program.request(
            {"op": "run", "session": session, "inputs": inputs, "outputs": outputs},
            b"".join(x.tobytes() for x in arrays),
            timeout=self.timeout,
        )
        self._count_heaps(header)
        if header.get("status") != "ok":
            raise SessionFailed(header.get("message") or f"{header.get('call')}: {header}")
        results, offset = [], 0
        for meta in header["outputs"]:
            dtype = onnx.helper.tensor_dtype_to_np_dtype(meta["type"]).newbyteorder("<")
            chunk = payload[offset : offset + meta["bytes"]]
            offset += meta["bytes"]
            results.append(np.frombuffer(chunk, dtype=dtype).reshape(meta["shape"]).copy())
        return results

    def release(self, session: int) -> None:
        if self.program.alive:
            self.program.request({"op": "release", "session": session}, timeout=self.timeout)

    def describe(self) -> dict[str, str]:
        info = self.info
        return {
            "onnxruntime": info.get("onnxruntime_version", "unknown"),
            "onnxruntime_dll": info.get("onnxruntime_dll", "unknown"),
            "provider": DML,
            "ort_host": "worker",
            "route": "ort_worker (ONNX Runtime's C API, one DirectML device for every session)",
            # With --adapter-kind: the adapter ORT's own device filter takes (DML2), against the one sessions run on.
            **(
                {"ort_device_selection": str(self.info["ort_device_selection"]).strip()}
                if self.info.get("ort_device_selection")
                else {}
            ),
            "descriptor_heaps": self._heap_policy(),
            **self.program.versions(),
        }

    def _heap_policy(self) -> str:
        pool = str(self.info.get("descriptor_heap_pool", "not installed (an older ort_worker)"))
        if not self.recycle_descriptor_heaps:
            return "one set per session, as ONNX Runtime alone creates them"
        if pool != "installed":
            return f"one set per session: ort_worker's heap pool is {pool}"
        return "recycled: a heap a released session gave back serves the next session (ort_worker's HeapPool)"

    def data_types(self) -> frozenset[DataType]:
        return self.program.data_types()

    def exhausted(self) -> bool:
        return False  # one shared device for every session

    def close(self) -> None:
        self.program.close()


def open_sessions(
    host: str | None,
    *,
    dml_dll: str | None,
    adapter: str | None,
    settings: SessionSettings,
    recycle_descriptor_heaps: bool | None = None,
    adapter_kind: str | None = None,
    performance_preference: str | None = None,
) -> Sessions:
    """The host --ort-host names; by default the worker where it can start, else the module (a Windows machine
    with no built programs and no compiler still runs ORT's DirectML provider)."""
    if host == "python" and dml_dll is not None:
        raise BackendUnavailable("--dml-dll needs --ort-host worker: the onnxruntime module loads its own DirectML.dll")
    if host in (None, "worker"):
        try:
            return WorkerSessions(
                dml_dll=dml_dll,
                adapter=adapter,
                adapter_kind=adapter_kind,
                performance_preference=performance_preference,
                settings=settings,
                recycle_descriptor_heaps=recycle_descriptor_heaps,
            )
        except BackendUnavailable as e:
            if host == "worker" or dml_dll is not None:
                raise
            worker_error = e
    try:
        return PythonSessions.directml(
            adapter=adapter, adapter_kind=adapter_kind, performance_preference=performance_preference, settings=settings
        )
    except BackendUnavailable as e:
        if host == "python":
            raise
        raise BackendUnavailable(
            f"the ort_worker cannot start ({worker_error}); nor the onnxruntime module ({e})"
        ) from e


class OnnxRuntimeDirectMLBackend(Backend, BatchedSessions):
    """ORT's DirectML provider alone, batches of cases per session.  `dml_dll`/`adapter`/`adapter_kind` as for
    `directml`; `ort_performance_preference` (default, high_performance, minimum_power) with the kind is ORT's own
    device selection (OrtDmlDeviceOptions, the python host's provider options)."""

    name = "onnxruntime-directml"
    # Two worker processes at most, as the directml backend: the quick profile end to end 4.5 s against 5.6-6.1 s
    # with one (2 cores, 2026-11-27), the same records.  One each was the rule while every worker held a ~1.5 GB
    # descriptor heap under vkd3d (before VKD3D_CONFIG=virtual_heaps and heaps recycled across sessions), when two
    # measured no faster (26 s against 25 s).
    max_jobs = 2
    batch_size = BATCH_SIZE
    tensor_copies = 6.0  # like the directml runner: every tensor through pipes and D3D12 heaps under Wine

    def __init__(
        self,
        *,
        dml_dll: str | None = None,
        adapter: str | None = None,
        adapter_kind: str | None = None,
        ort_performance_preference: str | None = None,
        ort_host: str | None = None,
        sessions: Sessions | None = None,
        batch_size: int = BATCH_SIZE,
        graph_optimization: str = "all",
        dml_graph_fusion: str = "on",
        recycle_descriptor_heaps: bool | None = None,
    ):
        """`batch_size` (cases per session) and `recycle_descriptor_heaps` (the worker's HeapPool) change only how
        fast results come: batch_size=1, recycle_descriptor_heaps=False is a session of its own per case, with
        every heap ONNX Runtime asks for created anew."""
        if graph_optimization not in GRAPH_OPTIMIZATION_LEVELS:
            raise ValueError(
                f"graph_optimization={graph_optimization!r}; expected one of {', '.join(GRAPH_OPTIMIZATION_LEVELS)}"
            )
        if dml_graph_fusion not in ("on", "off"):
            raise ValueError(f"dml_graph_fusion={dml_graph_fusion!r}; expected on or off")
        self.settings = SessionSettings(graph_optimization, dml_graph_fusion == "on")
        if not (isinstance(batch_size, int) and batch_size >= 1):
            raise ValueError(f"batch_size={batch_size!r}; expected an integer >= 1")
        self.sessions: Sessions = sessions or open_sessions(
            ort_host,
            dml_dll=dml_dll,
            adapter=adapter,
            adapter_kind=adapter_kind,
            performance_preference=ort_performance_preference,
            settings=self.settings,
            recycle_descriptor_heaps=recycle_descriptor_heaps,
        )
        self.batch_size = batch_size
        self.stats = {
            "sessions": 0,
            "refused_sessions": 0,
            "cases": 0,
            "known_refusals": 0,
            "crash_reruns": 0,  # cases run again alone after a worker died or hung on their batch
        }
        # (ONNX operator, data type) -> the result of the case whose node ORT refused for want of a kernel: the
        # same node in another case is refused the same way, without a session to find out.
        self.no_kernel: dict[tuple[str, DataType], RunResult] = {}
        self._caps = Capabilities(
            data_types=self.sessions.data_types(), padding_modes=ONNX_SYMMETRIC_FREE, feature_level=max(FeatureLevel)
        )

    def capabilities(self) -> Capabilities:
        return self._caps

    def unsupported_reason(self, descriptor: Descriptor, feature_level: FeatureLevel) -> str | None:
        """The capabilities' reasons, and a DirectML kernel the device's shader model cannot run: ORT's provider
        places the node on DirectML all the same (directml/kernels.py)."""
        from .directml.kernels import shader_model_reason

        info = getattr(self.sessions, "info", None) or {}
        return super().unsupported_reason(descriptor, feature_level) or shader_model_reason(info, descriptor)

    def versions(self) -> dict[str, str]:
        return {
            **self.sessions.describe(),
            "onnx_opset": str(OPSET),
            "onnx_ir_version": str(IR_VERSION),
            **self.settings.describe(),
        }

    def close(self) -> None:
        self.sessions.close()

    def exhausted(self) -> bool:
        return self.sessions.exhausted()

    def run(self, descriptor: Descriptor, inputs: list[np.ndarray], feature_level: FeatureLevel) -> RunResult:
        (result,) = self.run_many([(descriptor, inputs, feature_level)])
        if isinstance(result, BaseException):
            raise result
        return result

    def run_graph(self, graph: GraphSpec, inputs: list[np.ndarray], feature_level: FeatureLevel) -> RunResult:
        """A DML graph (conformance.cases.compositions) as one ONNX model: with DML graph fusion on, ORT compiles
        its DirectML partition into one DML graph, as it does an application's model."""
        (result,) = self.run_graphs([(graph, inputs, feature_level)])
        return result

    def run_graphs(self, items: Sequence[tuple[GraphSpec, list[np.ndarray], FeatureLevel]]) -> list[RunResult]:
        """Several graphs in one model and one session (cut as run_many's cases are); if ORT refuses the batch,
        each graph alone, so that a refusal is its own graph's."""
        results: list[RunResult | None] = [None] * len(items)
        batch = []
        for i, (graph, inputs, level) in enumerate(items):
            lowered = lower_graph(self, graph, level)
            if isinstance(lowered, RunResult):
                results[i] = lowered
            else:
                batch.append((i, graph, lowered, inputs))
        graph_batches = session_batches(
            batch,
            self.batch_size,
            lambda one: sum(lw.input_count + lw.output_count for lw in one[2]),
            lambda one: sum(np.asarray(x).nbytes for x in one[3]),
            max_bindings=BINDINGS_PER_SESSION,
            max_bytes=BYTES_PER_SESSION,
        )
        for session_batch in graph_batches:
            done = self._graph_batch(session_batch)
            if done is None:  # refused as a batch: one at a time
                for one in session_batch:
                    results[one[0]] = (self._graph_batch([one]) or {})[one[0]]
            else:
                for i, result in done.items():
                    results[i] = result
        return [r if r is not None else RunResult.error("no result") for r in results]

    def _graph_batch(self, batch: list) -> dict[int, RunResult] | None:
        """Run `batch` (index, graph, lowerings, inputs) in one session; None if ORT refused it as a whole
        (and it held more than one graph), else each graph's result."""
        model, names = build_graphs_model([(graph, lowerings) for _, graph, lowerings, _ in batch])
        suffix = " (graph)" if self.settings.dml_graph_fusion else ""
        reached = {i: " + ".join(lw.dml_operator for lw in lowerings) + suffix for i, _, lowerings, _ in batch}
        feeds = {
            name: np.ascontiguousarray(x) for (_, _, _, xs), (ins, _) in zip(batch, names) for name, x in zip(ins, xs)
        }
        wanted = [name for _, outs in names for name in outs]
        phase = "create a session for"
        try:
            session = self.sessions.create(model.SerializeToString())
            self.stats["sessions"] += 1
            phase = "run"
            try:
                ys = self.sessions.run(session, feeds, wanted)
            finally:
                self.sessions.release(session)
        except SessionFailed as e:
            if len(batch) > 1:
                return None
            i, _, lowerings, _ = batch[0]
            return {i: self._classify(e, phase, lowerings[0])}
        out: dict[int, RunResult] = {}
        for (i, _, _, _), (_, outs) in zip(batch, names):
            out[i] = RunResult.ok([ys.pop(0) for _ in outs], reached_operator=reached[i])
        return out

    def run_many(
        self, items: Sequence[tuple[Descriptor, list[np.ndarray], FeatureLevel]]
    ) -> list[RunResult | BaseException]:
        """Run many cases in as few sessions as possible; one result (or the exception it raised) each."""
        results: list[RunResult | BaseException | None] = [None] * len(items)
        batch: list[BatchItem] = []
        for i, (descriptor, inputs, level) in enumerate(items):
            reason = self.unsupported_reason(descriptor, level)
            if reason:
                results[i] = RunResult.unsupported(reason)
                continue
            try:
                lowering = lower(descriptor)
            except Inexpressible as e:
                results[i] = RunResult.unsupported(f"{self.name}: {e}")
                continue
            refused = lowering.refusal(inputs)
            if refused is not None:
                results[i] = RunResult.unsupported(f"{self.name}: {refused}")
                continue
            known = self.no_kernel.get((lowering.onnx_operator, lowering.data_type))
            if known is not None:
                self.stats["known_refusals"] += 1
                results[i] = RunResult.unsupported(known.reason, reached_operator=known.reached_operator)
                continue
            batch.append(BatchItem(i, lowering, list(inputs), sum(tensor_bytes(descriptor).values())))
        # A batch per opset: a model takes its nodes' highest, and the DirectML provider's kernels are registered
        # per opset (a WRAP Pad's opset 19 made a ScatterElements of the same batch an opset-18 node, which ORT
        # 1.24.4's provider has no kernel for: the batch was refused where each case alone runs).
        for opset in sorted({item.lowering.opset for item in batch}):
            cut = session_batches(
                [item for item in batch if item.lowering.opset == opset],
                self.batch_size,
                lambda i: i.bindings,
                lambda i: i.nbytes,
                max_bindings=BINDINGS_PER_SESSION,
                max_bytes=BYTES_PER_SESSION,
            )
            for session_batch in cut:
                for index, result in self._run_batch(session_batch).items():
                    results[index] = result
        self.stats["cases"] += len(items)
        return [r if r is not None else RunResult.error("internal: no result") for r in results]

    # BatchedSessions: sessions from the host; a refused case is unsupported or an error with ORT's message.
    def _create(self, model: bytes) -> Any:
        return self.sessions.create(model)

    def _run_session(self, session: Any, feeds: dict[str, np.ndarray], names: list[str]) -> list[np.ndarray]:
        return self.sessions.run(session, feeds, names)

    def _release(self, session: Any) -> None:
        self.sessions.release(session)

    def _alone(self, item: BatchItem, error: SessionFailed, phase: str) -> RunResult:
        return self._classify(error, phase, item.lowering)

    def _answer(self, item: BatchItem, outputs: list[np.ndarray], timings: dict[str, float]) -> RunResult:
        return RunResult.ok(
            outputs, reached_operator=item.lowering.dml_operator, notes=list(item.lowering.notes), timings=timings
        )

    def _classify(self, error: SessionFailed, phase: str, lowering: Lowering) -> RunResult:
        message = str(error)
        for pattern, rule in KNOWN_LIMITS:
            if pattern.search(message):
                result = RunResult.unsupported(
                    f"{self.name}: {rule.format(provider=DML)}: {message}", reached_operator=lowering.dml_operator
                )
                if pattern is NO_KERNEL:  # a property of the operator and type, not of this case
                    self.no_kernel[(lowering.onnx_operator, lowering.data_type)] = result
                return result
        return RunResult.error(
            f"{self.name}: ONNX Runtime failed to {phase} {lowering.onnx_operator} "
            f"({lowering.data_type.value}, rank {lowering.rank}): {message}",
            reached_operator=lowering.dml_operator,
        )

"""ONNX Runtime's CPU provider: the lowered graphs, many cases in one session (the fast CPU path).

run_many puts a batch of cases' nodes into one model and one session (conformance.backends.batches); a case that
batch cannot answer as it would alone takes the one-case path (LoweredGraphBackend.run: one session per graph
signature), which is also where a case ORT refused in a batch is answered, in the words it gets alone (a graph of an
operator and types whose kernel ORT refused once gets that refusal without another session: _runner).  run_graphs
does the same for the compositions: many graphs in a session, a graph ORT refuses answered by run_graph alone.

ONNX Runtime's DirectML provider is its own backend (onnxruntime_directml.py): batched models on a
worker that shares one DirectML device, on Windows and under Wine alike.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from packaging.version import Version

from oracle import DataType, Descriptor, FeatureLevel, PaddingMode
from oracle.graph import GraphSpec
from oracle.size import tensor_bytes

from ..lowering import IR_VERSION, OPSET, Lowering, build_graphs_model
from ..lowering.graph import model_opset
from ..support.lazy import lazy_import
from .base import BackendUnavailable, RunResult
from .batches import BatchedSessions, BatchItem, SessionFailed, session_batches
from .lowered import LoweredGraphBackend, Runner, lower_graph

if TYPE_CHECKING:
    import onnx
else:
    onnx = lazy_import("onnx")  # the run's own process reads the class only (conformance.backends.registry)

CPU = "CPUExecutionProvider"
DML = "DmlExecutionProvider"
DISABLE_CPU_FALLBACK = "session.disable_cpu_ep_fallback"

# Failures that are known limits of ONNX Runtime, not wrong answers: reported unsupported with
# ORT's own message and the rule that explains it.
# A name of case k in a batch model (conformance.lowering.batch_prefix): its node's inputs and outputs.
BATCH_NAME = re.compile(r"c(\d+)_")
# A node of graph i in a model of several graphs (conformance.lowering.build_graphs_model): `g<i>_n<n>_<Op>`.
GRAPH_NODE_NAME = re.compile(r"\bg(\d+)_n(\d+)_")
NO_KERNEL = re.compile(r"NOT_IMPLEMENTED|Could not find an implementation")
# ORT's whole refusal of a one-node session for want of a kernel, and nothing else: the operator, its since-version
# and the node's name are all it says (onnxruntime/core/framework/kernel_registry_manager.cc).
NO_KERNEL_ONLY = re.compile(
    r"\[ONNXRuntimeError\] : 9 : NOT_IMPLEMENTED : Could not find an implementation for "
    r"(?P<operator>\w+)\(\d+\) node with name '(?P<node>\w+)'"
)
NO_KERNEL_RULE = "ONNX Runtime has no kernel for this operator and data type on {provider}"
KNOWN_LIMITS: list[tuple[re.Pattern[str], str]] = [
    (NO_KERNEL, NO_KERNEL_RULE),
    (
        re.compile(r"Pad reflect: (pre|post)-pad \(\d+\) exceeds maximum allowed"),
        "ONNX Runtime's reflect Pad needs every pad < the dimension's size (no periodic folding, PAD.3)",
    ),
    (
        re.compile(r"Pad reflect requires axis length >= 2"),
        "ONNX Runtime's reflect Pad needs a padded axis of size >= 2 (reflecting a size-1 axis is U-PAD-4)",
    ),
    (
        re.compile(r"fallback to CPU EP has been explicitly disabled"),
        "a node would run on the CPU, not on {provider}: refused, never reported as a {provider} result",
    ),
]
# Cases per session on the CPU provider, and their tensors' bytes (a batch's outputs are all held at once).
# Measured on the quick profile (2 cores, CPU time): session creation about 0.17 ms a node at 50 a session and
# 0.2 ms at 200, against 0.5 ms for a one-node session.
CPU_BATCH_SIZE = 64
CPU_BYTES_PER_SESSION = 16 << 20
# unsupported_reason's verdicts kept (a few messages' cases): each case is asked about three times, close together.
VERDICTS_KEPT = 1024


def _import_ort():
    try:
        import onnxruntime
    except ImportError as e:
        raise BackendUnavailable(
            "ONNX Runtime is not installed: `pip install onnxruntime` (CPU, any platform) or "
            "`pip install onnxruntime-directml` (Windows 10/11 with a DirectX 12 GPU), never both"
        ) from e
    return onnxruntime


class OnnxRuntimeBackend(LoweredGraphBackend, BatchedSessions):
    """The lowered graphs on one ONNX Runtime execution provider, with nothing else allowed to run them."""

    name = "onnxruntime"
    batch_size = CPU_BATCH_SIZE

    def __init__(self, provider: str = CPU, *, cache: bool = True, parameters_as_inputs: bool = True, threads: int = 1):
        super().__init__(cache=cache, parameters_as_inputs=parameters_as_inputs)
        self.ort = _import_ort()
        self.provider = provider
        self.threads = threads
        self.stats.update({"sessions": 0, "refused_sessions": 0, "crash_reruns": 0, "batched": 0, "known_refusals": 0})
        # (ONNX operator, data type) that ORT had no kernel for: its cases take the one-case path.
        self.no_kernel: set[tuple[str, DataType]] = set()
        # A one-node session ORT refused for want of a kernel, by kernel_key: the answer of every other graph of
        # that key (see _runner).
        self._kernel_refusals: dict[tuple, RunResult] = {}
        self._temporary: tempfile.TemporaryDirectory | None = None  # where FLOAT16 sessions write their graph
        self._watch_inserted = False  # the sessions being made are a FLOAT16 batch's (run_many)

    def versions(self) -> dict[str, str]:
        return {
            "onnxruntime": self.ort.__version__,
            "provider": self.provider,
            "onnx": onnx.__version__,
            "onnx_opset": str(OPSET),
            "onnx_ir_version": str(IR_VERSION),
        }

    def session_options(self):
        options = self.ort.SessionOptions()
        # One thread: the cases are tiny, and thread pools cost more than they save here.
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 4  # failures are reported through RunResult, not stderr
        # No graph optimisation: the node runs as lowered (nothing folded or fused away), and a session of
        # a one-node graph is made in about half the time (0.23 ms against 0.40 on the CPU provider).
        options.graph_optimization_level = self.ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        if self.provider != CPU:
            # Only the chosen provider may run a node: with CPU fallback disabled, session creation
            # fails instead of quietly placing a node on the CPU provider.  (ORT refuses this entry
            # when the CPU provider is the one asked for: "Conflicting session configuration".)
            options.add_session_config_entry(DISABLE_CPU_FALLBACK, "1")
        return options

    def _folder(self) -> str:
        """This backend's own temporary folder, made once (a folder a session costs more than the session)."""
        if self._temporary is None:
            self._temporary = tempfile.TemporaryDirectory(prefix="dml-conformance-ort-")
        return self._temporary.name

    def close(self) -> None:
        super().close()
        if self._temporary is not None:
            self._temporary.cleanup()
            self._temporary = None

    def _compile(self, model: onnx.ModelProto) -> Runner:
        options = self.session_options()
        node = model.graph.node[0]
        added: list[str] = []
        tensors = (*model.graph.input, *model.graph.output)
        if any(t.type.tensor_type.elem_type == onnx.TensorProto.FLOAT16 for t in tensors):
            # The graph ORT really runs: lacking a FLOAT16 kernel, ORT wraps the node in Casts to
            # float32 and back (CPU Pad does), which changes what a result means.  Checked for
            # FLOAT16 only: writing the optimized model costs more than the session itself.  Any
            # tensor of the node, not its first input: OneHot's is INT64 indices, its values FLOAT16.
            options.optimized_model_filepath = os.path.join(self._folder(), "optimized.onnx")  # written over each time
            session = self.ort.InferenceSession(model.SerializeToString(), options, providers=[self.provider])
            added = [
                n.op_type for n in onnx.load(options.optimized_model_filepath).graph.node if n.op_type != node.op_type
            ]
        else:
            session = self.ort.InferenceSession(model.SerializeToString(), options, providers=[self.provider])

        def run(feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            return session.run(None, feeds)

        if added:
            # A function attribute: LoweredGraphBackend reads it with getattr (Runner is a plain callable).
            run.notes = (self._inserted_note(node.op_type, added),)  # type: ignore[attr-defined]
        return run

    def _runner(self, lowering: Lowering) -> Runner | RunResult:
        """The one-case runner, or the refusal of its session; a graph whose kernel ORT has already refused (the
        same operator, opset and tensor types) is answered with that refusal without another session.

        ORT refuses a graph for want of a kernel after loading and resolving it, when it looks the node's kernel
        up by operator, domain, since-version, provider and the node's tensor types (kernel_key), and names only
        the operator, its since-version and the node (a one-node graph's node is named after its operator): its
        words are the same for every graph of the key.  A message that says anything more is not reused."""
        if not self.cache:  # a session for every graph, as asked
            return super()._runner(lowering)
        key = kernel_key(lowering)
        known = self._kernel_refusals.get(key)
        if known is not None:
            self.stats["known_refusals"] += 1
            return known
        runner = super()._runner(lowering)
        if isinstance(runner, RunResult) and runner.status == "unsupported" and runner.reason is not None:
            prefix = f"{self.name}: {NO_KERNEL_RULE.format(provider=self.provider)}: "  # as _classify words it
            whole = runner.reason.startswith(prefix) and NO_KERNEL_ONLY.fullmatch(runner.reason[len(prefix) :])
            if whole and whole["operator"] == whole["node"] == lowering.onnx_operator:
                self._kernel_refusals[key] = runner
        return runner

    def _inserted_note(self, operator: str, added: list[str]) -> str:
        return (
            f"ONNX Runtime ran {operator} between inserted {', '.join(added)} nodes "
            f"({self.provider} has no FLOAT16 kernel): the values went through float32"
        )

    def run_many(
        self, items: Sequence[tuple[Descriptor, list[np.ndarray], FeatureLevel]]
    ) -> list[RunResult | BaseException | None]:
        """The cases a batch answers as they would be answered alone in sessions of a batch each; the others on
        the one-case path (run()), or None (a case whose lowering raised: the run layer calls run() for it)."""
        results: list[RunResult | BaseException | None] = [None] * len(items)
        batch: list[BatchItem] = []
        for i, (descriptor, inputs, level) in enumerate(items):
            try:
                lowering = self.lower(descriptor)  # as run(): lowering first, its reason is the specific one
                if isinstance(lowering, RunResult):
                    results[i] = lowering
                    continue
                refused = lowering.refusal(inputs)
                reason = self.unsupported_reason(descriptor, level) or (refused and f"{self.name}: {refused}")
                if reason is not None:
                    results[i] = RunResult.unsupported(reason)
                elif self._batchable(lowering, inputs):
                    nbytes = sum(tensor_bytes(descriptor).values())
                    batch.append(BatchItem(i, lowering, list(inputs), nbytes, descriptor, level))
                else:
                    results[i] = self.run(descriptor, inputs, level)
            except Exception:  # left to run() alone, which reports it as this case's own
                results[i] = None
        # FLOAT16 cases in sessions of their own, which write their optimized graph: the nodes ORT inserted around
        # each case's node are seen there, as its one-case session sees them (_compile), and only they pay for it.
        for half in (False, True):
            cut = session_batches(
                [item for item in batch if (item.lowering.data_type is DataType.FLOAT16) is half],
                self.batch_size,
                lambda item: item.bindings,
                lambda item: item.nbytes,
                max_bindings=1 << 30,  # no descriptor heap on the CPU: the count and the bytes cut
                max_bytes=CPU_BYTES_PER_SESSION,
            )
            self._watch_inserted = half
            try:
                for session_batch in cut:
                    for index, result in self._run_batch(session_batch).items():
                        results[index] = result
            finally:
                self._watch_inserted = False
        self.stats["batched"] += len(batch)
        return results

    def run_graphs(self, items: Sequence[tuple[GraphSpec, list[np.ndarray], FeatureLevel]]) -> list[RunResult | None]:
        """Several DML graphs (compositions) in sessions of many each, every graph answered as run_graph answers it:
        a graph ORT refuses, and one with a node ORT had no kernel for, is run_graph's own (its words are those of
        its own session); None where run_graph raised (the run layer then calls it for that graph alone)."""
        results: list[RunResult | None] = [None] * len(items)
        batch: list[tuple[int, GraphSpec, list[Lowering], list[np.ndarray]]] = []
        for i, (graph, inputs, level) in enumerate(items):
            try:
                lowered = lower_graph(self, graph, level)
                if isinstance(lowered, RunResult):
                    results[i] = lowered
                elif any(
                    (lw.onnx_operator, lw.data_type) in self.no_kernel
                    or kernel_key(lw) in self._kernel_refusals
                    or reflect_pad_at_risk(lw, node.input_tensors[0].sizes if node.input_tensors else ())
                    for node, lw in zip(graph.nodes, lowered)
                ):  # a node ORT may refuse: its refusal would cost the batch another session
                    results[i] = self.run_graph(graph, inputs, level)
                else:
                    batch.append((i, graph, lowered, list(inputs)))
            except Exception:  # left to run_graph alone, which reports it as this graph's own
                results[i] = None
        # By opset: a model takes its nodes' highest, and each graph's nodes are read at its own, as alone.
        for opset in sorted({model_opset(one[2]) for one in batch}):
            cut = session_batches(
                [one for one in batch if model_opset(one[2]) == opset],
                self.batch_size,
                lambda one: len(one[2]),
                lambda one: (
                    sum(np.asarray(x).nbytes for x in one[3])
                    + sum(math.prod(t.sizes) * t.data_type.numpy.itemsize for t in one[1].outputs)
                ),
                max_bindings=1 << 30,
                max_bytes=CPU_BYTES_PER_SESSION,
            )
            for session_batch in cut:
                for i, result in self._graph_batch(session_batch, items).items():
                    results[i] = result
        return results

    def _graph_batch(self, batch: list, items: Sequence) -> dict[int, RunResult | None]:
        """One session for `batch` (index, graph, lowerings, inputs); a graph ORT refuses (by its node's name
        `g<i>_n<n>_<Op>`, else by halving) is answered by run_graph alone, the others by a session without it."""
        if len(batch) == 1:
            i = batch[0][0]
            return {i: self._graph_alone(items[i])}
        model, names = build_graphs_model([(graph, lowerings) for _, graph, lowerings, _ in batch])
        feeds = {name: np.ascontiguousarray(x) for one, (ins, _) in zip(batch, names) for name, x in zip(ins, one[3])}
        try:
            session = self._create(model.SerializeToString())
            self.stats["sessions"] += 1
            outputs = self._run_session(session, feeds, [name for _, outs in names for name in outs])
        except SessionFailed as e:
            self.stats["refused_sessions"] += 1
            match = GRAPH_NODE_NAME.search(str(e))
            k, n = (int(match[1]), int(match[2])) if match else (len(batch), 0)
            if k < len(batch):
                if n < len(batch[k][2]) and NO_KERNEL.search(str(e)):  # the next graph with such a node goes alone
                    self.no_kernel.add((batch[k][2][n].onnx_operator, batch[k][2][n].data_type))
                done = {batch[k][0]: self._graph_alone(items[batch[k][0]])}
                return {**done, **self._graph_batch(batch[:k] + batch[k + 1 :], items)}
            half = len(batch) // 2
            return {**self._graph_batch(batch[:half], items), **self._graph_batch(batch[half:], items)}
        answers = iter(outputs)
        return {
            i: RunResult.ok(
                [np.asarray(next(answers)) for _ in outs],
                reached_operator=" + ".join(f"ONNX {lw.onnx_operator}-{lw.opset}" for lw in lowerings),
            )
            for (i, _, lowerings, _), (_, outs) in zip(batch, names)
        }

    def _graph_alone(self, item: tuple[GraphSpec, list[np.ndarray], FeatureLevel]) -> RunResult | None:
        try:
            return self.run_graph(*item)
        except Exception:  # the run layer calls run_graph again, and reports it as this graph's own
            return None

    def _batchable(self, lowering: Lowering, inputs: Sequence[np.ndarray]) -> bool:
        """Whether a batch answers this case as its own session would, and is not likely to be refused for it:
        not a node ORT had no kernel for, not a reflect Pad ORT may refuse while running.  (A FLOAT16 case's
        batch writes its optimized graph, where the Casts ORT may insert around its node are seen: `_created`.)"""
        if (lowering.onnx_operator, lowering.data_type) in self.no_kernel:
            return False
        if isinstance(self._runners.get(lowering.signature), RunResult):  # its one-case session was refused
            return False
        return lowering.onnx_operator != "Pad" or not reflect_pad_at_risk(lowering, np.shape(inputs[0]))

    # BatchedSessions: sessions of this provider in this process; a refused case takes the one-case path.
    def _create(self, model: bytes) -> Any:
        options = self.session_options()
        if self._watch_inserted:
            options.optimized_model_filepath = self._optimized_path()
        try:
            return self.ort.InferenceSession(model, options, providers=[self.provider])
        except Exception as e:  # ORT's refusal: the case it names is found and answered alone
            raise SessionFailed(str(e).strip()) from e

    def _optimized_path(self) -> str:
        return os.path.join(self._folder(), "optimized-batch.onnx")  # written over by each FLOAT16 batch

    def _refused(self, item: BatchItem) -> bool:
        return (item.lowering.onnx_operator, item.lowering.data_type) in self.no_kernel

    def _created(self, batch: list[BatchItem]) -> None:
        """A FLOAT16 batch: the nodes ORT inserted for case k (their inputs or outputs are its `c<k>_` names), noted
        as its one-case session notes them (the operators of its graph that are not its node's, in graph order)."""
        if not self._watch_inserted:
            return
        for item in batch:
            item.notes = []  # a halved batch's case: only its latest session's graph speaks for it
        added: dict[int, list[str]] = {}
        for node in onnx.load(self._optimized_path()).graph.node:
            for name in (*node.input, *node.output):
                match = BATCH_NAME.match(name)
                if match and int(match[1]) < len(batch):
                    if node.op_type != batch[int(match[1])].lowering.onnx_operator:
                        added.setdefault(int(match[1]), []).append(node.op_type)
                    break
        for k, ops in added.items():
            batch[k].notes.append(self._inserted_note(batch[k].lowering.onnx_operator, ops))

    def _run_session(self, session: Any, feeds: dict[str, np.ndarray], names: list[str]) -> list[np.ndarray]:
        try:
            return session.run(names, feeds)
        except Exception as e:
            raise SessionFailed(str(e).strip()) from e

    def _alone(self, item: BatchItem, error: SessionFailed, phase: str) -> RunResult:
        """The one-case path, so that a refusal reads as it does alone (ORT names the one-case graph's node)."""
        assert item.descriptor is not None and item.level is not None
        if NO_KERNEL.search(str(error)):
            self.no_kernel.add((item.lowering.onnx_operator, item.lowering.data_type))
        return self.run(item.descriptor, item.xs, item.level)

    def _answer(self, item: BatchItem, outputs: list[np.ndarray], timings: dict[str, float]) -> RunResult:
        assert item.descriptor is not None
        self.stats["runs"] += 1
        return RunResult.ok(
            [np.asarray(y) for y in outputs],
            reached_operator=self._reached(item.descriptor, item.lowering),
            notes=[*item.lowering.notes, *item.notes],
            timings=timings,
        )

    def _classify(self, error: Exception, phase: str, lowering: Lowering) -> RunResult:
        message = str(error).strip()
        for pattern, rule in KNOWN_LIMITS:
            if pattern.search(message):
                return RunResult.unsupported(f"{self.name}: {rule.format(provider=self.provider)}: {message}")
        return RunResult.error(
            f"{self.name}: ONNX Runtime failed to {phase} {lowering.onnx_operator} "
            f"({lowering.data_type.value}, rank {lowering.rank}): {message}"
        )


def reflect_pad_at_risk(lowering: Lowering, shape: Sequence[int]) -> bool:
    """A reflect Pad ORT may refuse while running: ORT refuses a reflect pad of the axis' size or more, and any on
    an axis of 1 (KNOWN_LIMITS); such a node is run alone a little before that, so that one case's refusal does
    not cost its batch another session."""
    if lowering.onnx_operator != "Pad" or lowering.attributes.get("mode") != "reflect":
        return False
    pads = lowering.parameters["pads"].reshape(2, -1)
    return not (
        all(p >= 0 for p in pads.flat)
        and all(max(pads[0][a], pads[1][a]) < shape[a] - 1 for a in range(lowering.rank) if pads[:, a].any())
    )


def kernel_key(lowering: Lowering) -> tuple:
    """What ORT looks a node's kernel up by, besides the provider: the operator and its model's opset (which give
    its since-version), and the type of each of its tensors."""
    return (
        lowering.onnx_operator,
        lowering.opset,
        lowering.data_type,
        lowering.output_data_type,
        tuple(side.dtype.str for side in lowering.side_inputs),
        tuple((name, value.dtype.str) for name, value in lowering.parameters.items()),
        lowering.node_inputs,
    )


# ONNX Runtime's CPU Pad 'wrap' was reported wrong where a pad exceeds its axis (microsoft/onnxruntime pull
# request 32725, "Fix CPU Pad wrap for large padding"). 1.32.0 measured right (every type, ranks 1-8, pads to
# 3 x the axis); an older release runs such pads only where the pad fits its axis.
WRAP_PAST_AXIS_RIGHT_FROM = Version("1.32")


def wrap_past_axis(descriptor: Descriptor) -> bool:
    """A WRAP padding with a pad larger than its axis (DML_PADDING or DML_PADDING1)."""
    if getattr(descriptor, "padding_mode", None) is not PaddingMode.WRAP:
        return False
    pads = zip(descriptor.start_padding, descriptor.end_padding, descriptor.input_tensor.sizes)  # type: ignore[union-attr]
    return any(s > n or e > n for s, e, n in pads)


class OnnxRuntimeCpuBackend(OnnxRuntimeBackend):
    name = "onnxruntime-cpu"
    tensor_copies = 1.0  # the session's output, copied into the numpy array run() returns

    def __init__(self, **kw):
        super().__init__(CPU, **kw)
        # The latest verdicts, by the descriptor's identity: the run layer asks for a case's before it sends it
        # (prefetch) and as it records it, run_many as it runs it (a descriptor is immutable, and held here).
        self._verdicts: dict[int, tuple[Descriptor, FeatureLevel, str, str | None]] = {}

    def unsupported_reason(self, descriptor: Descriptor, feature_level: FeatureLevel) -> str | None:
        seen = self._verdicts.get(id(descriptor))
        version = self.ort.__version__
        if seen is not None and seen[0] is descriptor and seen[1] is feature_level and seen[2] == version:
            return seen[3]
        reason = super().unsupported_reason(descriptor, feature_level)
        if reason is None and wrap_past_axis(descriptor) and Version(version) < WRAP_PAST_AXIS_RIGHT_FROM:
            reason = (
                f"{self.name}: ONNX Runtime {version}'s CPU Pad 'wrap' is reported wrong where a pad "
                "exceeds its axis (microsoft/onnxruntime pull request 32725); 1.32 measured right"
            )
        if len(self._verdicts) >= VERDICTS_KEPT:
            self._verdicts.clear()
        self._verdicts[id(descriptor)] = (descriptor, feature_level, version, reason)
        return reason

"""The backend interface: what an implementation under test declares and how it runs a case.

A backend never judges: it returns the outputs it produced, or a typed outcome saying why
it produced none.  Comparison with the oracle happens in conformance.judging.compare.
Third-party backends register under the entry point group ENTRY_POINT_GROUP.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

import oracle
from oracle import ALL_DATA_TYPES, DEFAULT_FEATURE_LEVEL, OPERATORS, DataType, Descriptor, FeatureLevel, PaddingMode

ENTRY_POINT_GROUP = "dml_conformance.backends"


class BackendUnavailable(RuntimeError):
    """The backend cannot run on this machine; the message says what to install, and where."""


@dataclass(frozen=True)
class Capabilities:
    """What a backend can express.  A case outside this is `unsupported` before it is run."""

    operators: frozenset[str] = frozenset(OPERATORS)
    data_types: frozenset[DataType] = frozenset(ALL_DATA_TYPES)
    ranks: frozenset[int] = frozenset(range(1, 9))
    padding_modes: frozenset[str] = frozenset(m.value for m in PaddingMode)  # WRAP: from 6.4, feature_level says
    feature_level: FeatureLevel = DEFAULT_FEATURE_LEVEL
    # Whether the backend can observe descriptor validation (a native DirectML binding can:
    # E_INVALIDARG at operator creation).  Without it, invalid cases are unsupported (U-ALL-2).
    checks_invalid_descriptors: bool = False
    # Whether the backend binds tensors with their layout (strides, TotalTensorSizeInBytes, alignment, flags:
    # LAYOUT.*) and returns each output's whole buffer (RunResult.buffers).  Without it, cases that state a
    # layout are unsupported: running them packed would pass what was never run.
    tensor_layouts: bool = False


@dataclass
class RunResult:
    """What one run produced.  status: "ok", "unsupported", "rejected" or "error"."""

    status: str
    outputs: list[np.ndarray] = field(default_factory=list)
    reason: str = ""
    # The DirectML operator the implementation really executed, when it is not the case's own
    # (ONNX Runtime lowers every Slice to DML_SLICE1 and every Pad to DML_PADDING1).
    reached_operator: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    # What the reader of a result must know to weigh it (e.g. "the suite converted PaddingValue
    # before it reached the implementation, so that conversion was not exercised").
    notes: list[str] = field(default_factory=list)
    # With Capabilities.tensor_layouts: per output, its buffer as the implementation left it (uint8), the
    # TotalTensorSizeInBytes bytes and the guard after them (oracle.layout.GUARD_BYTES), all filled with
    # oracle.layout.OUTPUT_FILL before the run.  The run layer then reads the outputs through their strides
    # and judges every byte (conformance.judging.buffers); `outputs` may stay empty.
    buffers: list[np.ndarray] | None = None

    @classmethod
    def ok(cls, outputs: list[np.ndarray], **kw) -> RunResult:
        return cls("ok", list(outputs), **kw)

    @classmethod
    def unsupported(cls, reason: str, **kw) -> RunResult:
        return cls("unsupported", reason=reason, **kw)

    @classmethod
    def rejected(cls, reason: str, **kw) -> RunResult:
        return cls("rejected", reason=reason, **kw)

    @classmethod
    def error(cls, reason: str, **kw) -> RunResult:
        return cls("error", reason=reason, **kw)


class Backend(abc.ABC):
    """Subclass, set `name`, and implement `capabilities`, `versions` and `run`."""

    name: str = ""
    # At most this many instances at once: a run uses min(--jobs, max_jobs) worker processes, each
    # constructing one.  Read from the class, before any is constructed.  None: no limit.  (A
    # DirectML device under Wine costs 1.5 GB per process, so such a backend says 1 or 2.)
    max_jobs: int | None = None
    # Cases per call to run_many: a backend whose cost is per compiled unit (ONNX Runtime's DirectML
    # provider: about a second per session) runs many cases at once.  1: the run calls run() per case.
    batch_size: int = 1
    # Copies of a case's tensors (input + outputs) the backend holds at its peak, besides the run layer's
    # own: the run's memory budget (--max-bytes) counts (1 + tensor_copies) x the tensors.  An estimate.
    tensor_copies: float = 1.0
    # The run's per-case limit in seconds (--timeout; None: none), set on each instance by the run layer before its
    # first case.  The run layer counts a run_many call against the limit of its first case: a batching backend
    # keeps its batches well within it, and leaves the cases it has no time for to run alone (None results).
    time_limit: float | None = None

    @abc.abstractmethod
    def capabilities(self) -> Capabilities: ...

    def close(self) -> None:  # noqa: B027 - optional hook, nothing to release by default
        """Release sessions, devices or processes; called once in each worker process as it ends normally."""

    def versions(self) -> dict[str, str]:
        """Versions worth recording in a run header (runtime, driver, provider...)."""
        return {}

    def exhausted(self) -> bool:
        """True when this instance should be replaced by a fresh one in a fresh worker process before the next
        batch: a runtime that never gives memory back (ONNX Runtime's DirectML provider in Python keeps a device
        of ~1.5 GB per session under vkd3d).  Checked between batches; the cases still queued move on."""
        return False

    @abc.abstractmethod
    def run(self, descriptor: Descriptor, inputs: list[np.ndarray], feature_level: FeatureLevel) -> RunResult:
        """Execute one valid descriptor on the implementation; never raise for the implementation's errors."""

    def run_many(
        self, items: Sequence[tuple[Descriptor, list[np.ndarray], FeatureLevel]]
    ) -> Sequence[RunResult | BaseException | None]:
        """Run several valid cases at once (batch_size > 1); one result each, the exception that case raised, or
        None: no result (its batch failed as a whole), and the run layer then calls run() for that case alone.

        The default runs them one by one; a batching backend overrides it.  The run layer calls it with
        up to batch_size cases, then judges each result like run()'s.
        """
        results: list[RunResult | BaseException | None] = []
        for descriptor, inputs, level in items:
            try:
                results.append(self.run(descriptor, inputs, level))
            except Exception as e:  # that case's crash, not the others'
                results.append(e)
        return results

    def check_descriptor(self, descriptor: Descriptor, feature_level: FeatureLevel) -> RunResult:
        """For backends with checks_invalid_descriptors: "ok" if accepted, "rejected" with its error if not."""
        return RunResult.unsupported(f"{self.name} cannot observe descriptor validation (U-ALL-2)")

    def unsupported_reason(self, descriptor: Descriptor, feature_level: FeatureLevel) -> str | None:
        """Why this backend cannot express the descriptor, from its capabilities; None if it can."""
        caps = self.capabilities()
        if descriptor.operator not in caps.operators:
            return f"{self.name} does not implement DML_{descriptor.operator}"
        # Every tensor's type: DML_CAST's output type is not its input's.
        for tensor in (*descriptor.input_tensors, *descriptor.output_tensors):
            if tensor.data_type not in caps.data_types:
                return f"{self.name} does not support data type {tensor.data_type.value} for {descriptor.operator}"
        rank = oracle.case_tensor(descriptor).dimension_count  # FILL_VALUE_*: no input
        if rank not in caps.ranks:
            return f"{self.name} does not support rank {rank}"
        if not caps.tensor_layouts and oracle.layout.has_layout(descriptor):
            return (
                f"{self.name} cannot express tensor layouts (strides, TotalTensorSizeInBytes, "
                "GuaranteedBaseOffsetAlignment, flags: LAYOUT.1-7)"
            )
        mode = getattr(descriptor, "padding_mode", None)
        if mode is not None and mode.value not in caps.padding_modes:
            return f"{self.name} cannot express padding mode {mode.value}"
        if feature_level > caps.feature_level:
            return f"{self.name} implements feature level {caps.feature_level}, the case needs {feature_level}"
        return None

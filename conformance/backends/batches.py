"""Many cases in one ONNX model and one session: the batching both ONNX Runtime backends share.

Creating a session is what costs, on every provider; running one costs little.  So a batch of cases' one-node
graphs goes into one model (conformance.lowering.build_batch_model: case k's names prefixed `c<k>_`), and every
node reads only its own inputs, so that each case's result is the one it gets in a session of its own.  If ONNX
Runtime refuses the batch (creating or running its session), the case its message names (node `c<k>_<Op>`) is
taken out, or else the batch halved, until the refused case stands alone; that lone case's result is then the
backend's own (`_alone`).  A host that died or hung on a batch answered none of it: each case runs again alone,
so that only the one at fault gets the crash.
"""

from __future__ import annotations

import abc
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from oracle import Descriptor, FeatureLevel

from ..lowering import Lowering, batch_prefix, build_batch_model
from .base import RunResult

# ORT names the node a failure happened in ("... running Pad node. Name:'c3_Pad'"): the case is c3.
NODE_NAME = re.compile(r"\bName:\s*'c(\d+)_[A-Za-z]+'|node with name '?c(\d+)_")

T = TypeVar("T")


class SessionFailed(Exception):
    """ONNX Runtime refused to create or run a session; the message is ORT's."""


def session_batches(
    items: Sequence[T],
    count: int,
    bindings: Callable[[T], int],
    nbytes: Callable[[T], int],
    *,
    max_bindings: int,
    max_bytes: int,
) -> Iterator[list[T]]:
    """`items` in order, cut into sessions: at most `count` each, their tensors under `max_bindings` and
    `max_bytes` (an item over a budget on its own gets a session of its own)."""
    batch: list[T] = []
    total_bindings = total_bytes = 0
    for item in items:
        b, n = bindings(item), nbytes(item)
        full = len(batch) >= count or total_bindings + b > max_bindings or total_bytes + n > max_bytes
        if batch and full:
            yield batch
            batch, total_bindings, total_bytes = [], 0, 0
        batch.append(item)
        total_bindings += b
        total_bytes += n
    if batch:
        yield batch


@dataclass
class BatchItem:
    """One case of a batch: its place in the caller's list, its node, and what it was asked with."""

    index: int
    lowering: Lowering
    xs: list[np.ndarray]  # the data inputs (several for JOIN's Concat)
    nbytes: int  # the descriptor's tensors, inputs and outputs
    descriptor: Descriptor | None = None
    level: FeatureLevel | None = None
    notes: list[str] = field(default_factory=list)  # what the backend saw of this case in its batch's session

    @property
    def bindings(self) -> int:
        """The tensors the provider binds for this case's node: its data inputs, side inputs and outputs."""
        return self.lowering.input_count + len(self.lowering.side_inputs) + self.lowering.output_count


class BatchedSessions(abc.ABC):
    """A backend that runs batches of cases in one session each (`_run_batch`); it says how a session is made,
    run and released, what a lone refused case's result is, and what a case's outputs make."""

    stats: dict[str, int]

    @abc.abstractmethod
    def _create(self, model: bytes) -> Any:
        """A session for the model; SessionFailed if ORT refuses it (any other exception: the host died or hung)."""

    @abc.abstractmethod
    def _run_session(self, session: Any, feeds: dict[str, np.ndarray], names: list[str]) -> list[np.ndarray]:
        """The named outputs; SessionFailed if ORT fails the run (any other exception: the host died or hung)."""

    def _refused(self, item: BatchItem) -> bool:
        """Whether a session would refuse this case, from what refusals taught the backend (then it runs alone)."""
        return False

    def _created(self, batch: list[BatchItem]) -> None:  # noqa: B027 - optional hook
        """The batch's session was made: what it says of each case goes into the case's `notes`."""

    def _release(self, session: Any) -> None:  # noqa: B027 - optional hook: a session in this process is freed with it
        """Give the session back."""

    @abc.abstractmethod
    def _alone(self, item: BatchItem, error: SessionFailed, phase: str) -> RunResult:
        """The result of a case ORT refused on its own (`phase`: "create a session for" or "run")."""

    @abc.abstractmethod
    def _answer(self, item: BatchItem, outputs: list[np.ndarray], timings: dict[str, float]) -> RunResult:
        """The result of a case that ran: its outputs, with what the backend says about them."""

    def _run_batch(self, batch: list[BatchItem]) -> dict[int, RunResult | BaseException]:
        """One session for the batch; a refusal halves it until the culprit stands alone, a crash reruns each case."""
        if not batch:
            return {}
        t0 = time.perf_counter()
        try:
            session = self._create(build_batch_model([item.lowering for item in batch]).SerializeToString())
        except SessionFailed as e:
            self.stats["refused_sessions"] += 1
            return self._halve(batch, e, "create a session for")
        except Exception as e:  # the worker died or hung: find the case that did it
            return self._rerun_alone(batch, e)
        self.stats["sessions"] += 1
        self._created(batch)
        t1 = time.perf_counter()
        feeds = {
            batch_prefix(k) + name: x
            for k, item in enumerate(batch)
            for name, x in item.lowering.feeds(item.xs, parameters_as_inputs=False).items()
        }
        names = [f"{batch_prefix(k)}out{j}" for k, item in enumerate(batch) for j in range(item.lowering.output_count)]
        try:
            outputs = self._run_session(session, feeds, names)
        except SessionFailed as e:
            return self._halve(batch, e, "run")
        except Exception as e:
            return self._rerun_alone(batch, e)
        finally:
            try:
                self._release(session)
            except Exception:  # a worker that died while running: the rerun restarts it
                pass
        t2 = time.perf_counter()
        results: dict[int, RunResult | BaseException] = {}
        timings = {"session_s": (t1 - t0) / len(batch), "run_s": (t2 - t1) / len(batch), "batch": float(len(batch))}
        answers = iter(outputs)
        for item in batch:
            mine = [next(answers) for _ in range(item.lowering.output_count)]
            results[item.index] = self._answer(item, mine, dict(timings))
        return results

    def _rerun_alone(self, batch: list[BatchItem], error: BaseException) -> dict[int, RunResult | BaseException]:
        """The worker died or hung on `batch` before answering any of it: each case again in a session of its own
        (the worker restarts), so that the crash is only the case that crashes alone (as deqp-runner reruns a
        crashed group case by case).  Halving would restart the worker once per level."""
        if len(batch) == 1:
            return {batch[0].index: error}  # the worker crashed or hung on this very case
        self.stats["crash_reruns"] += len(batch)
        results: dict[int, RunResult | BaseException] = {}
        for item in batch:
            results.update(self._run_batch([item]))
        return results

    def _halve(self, batch: list[BatchItem], error: SessionFailed, phase: str) -> dict[int, RunResult | BaseException]:
        """Find the case ORT refused: the one its message names (its node is `c<k>_<Op>`), else by halving."""
        if len(batch) == 1:
            return {batch[0].index: self._alone(batch[0], error, phase)}
        match = NODE_NAME.search(str(error))
        k = int(next(g for g in match.groups() if g)) if match else len(batch)
        if k < len(batch):
            culprit = {batch[k].index: self._alone(batch[k], error, phase)}
            rest = batch[:k] + batch[k + 1 :]
            # The cases refused for what the culprit was refused for (as the backend learnt it): alone now, rather than
            # each costing the batch another session (as they would the next batch: _batchable).
            culprit.update({item.index: self._alone(item, error, phase) for item in rest if self._refused(item)})
            return {**culprit, **self._run_batch([item for item in rest if item.index not in culprit])}
        half = len(batch) // 2
        return {**self._run_batch(batch[:half]), **self._run_batch(batch[half:])}

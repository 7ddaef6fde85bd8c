"""Execute one case on one backend and say what happened: a result record, categorised.

Categories follow the Khronos CTS: a verdict per case, and only some verdicts fail a run.
The runner never judges unspecified behaviour (observed) and never turns "could not run"
into a pass (unsupported).  The record is plain JSON so results files are the source of
truth for the report.
"""

from __future__ import annotations

import concurrent.futures
import math
import time
import traceback
from typing import Any

import numpy as np

import oracle
from oracle import FeatureLevel

from . import deviations
from .backends.base import Backend, RunResult
from .compare import compare_outputs
from .corpus import Case

CATEGORIES = ("pass", "fail", "rejected", "error", "crash", "timeout", "unsupported", "observed", "waived")
# Only these make a run fail (exit code 1); waived ones were failures a vendor's expectations file excused.
FAILING = frozenset({"fail", "rejected", "error", "crash", "timeout"})
# Tensors with at most this many elements are stored in a record for the report's diff; larger ones are
# summarised by the mismatch list only (a 1M-element diff helps nobody and bloats the results file).
MAX_STORED_ELEMENTS = 1024


class Watchdog:
    """Runs backend calls on one worker thread so a hung implementation becomes `timeout`, not a hung suite.

    A timed-out call cannot be killed from Python; its thread is abandoned and a fresh one serves
    the next case.  timeout=None runs inline (no thread hop).
    """

    def __init__(self, timeout: float | None):
        self.timeout = timeout if timeout and timeout > 0 else None
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    def call(self, fn, *args):
        if self.timeout is None:
            return fn(*args)
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="dml-backend")
        future = self._pool.submit(fn, *args)
        try:
            return future.result(timeout=self.timeout)
        except concurrent.futures.TimeoutError:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def tensor_record(array: np.ndarray) -> dict:
    """A small tensor as JSON for the diff: values as numbers ('nan'/'inf' as text) and as hex bits."""
    array = np.asarray(array)
    data_type = oracle.DataType.from_numpy(array.dtype)
    flat = np.ascontiguousarray(array, dtype=data_type.numpy).reshape(-1)
    out: dict[str, Any] = {"data_type": data_type.value, "shape": list(array.shape), "size": int(flat.size)}
    if flat.size > MAX_STORED_ELEMENTS:
        out["truncated"] = True
        return out
    bits = flat.view(data_type.bits)
    width = data_type.numpy.itemsize * 2
    values: list = []
    for v in flat.tolist():
        if isinstance(v, float) and not math.isfinite(v):
            values.append(repr(v))
        else:
            values.append(v)
    out["values"] = values
    out["hex"] = [f"{int(b):0{width}x}" for b in bits.tolist()]
    return out


def base_record(case: Case) -> dict:
    """What a record says about the case itself, whatever happened."""
    return {
        "kind": "case",
        "id": case.id,
        "operator": case.operator,
        "data_type": case.data_type.value,
        "rank": case.rank,
        "feature_level": str(case.feature_level),
        "outcome": case.expected.outcome,
        "clauses": list(case.clauses),
        "tags": list(case.tags),
        "unspecified": list(case.unspecified),
        "source": case.path or case.source,
        "descriptor": oracle.descriptor_to_json(case.descriptor),
    }


def _describe_exception(e: BaseException) -> str:
    frames = traceback.extract_tb(e.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return f"{type(e).__name__}: {e}{where}"


def execute(case: Case, backend: Backend, *, feature_level: FeatureLevel | None = None,
            watchdog: Watchdog | None = None) -> dict:
    """Run `case` on `backend` and return its result record (never raises for the backend's faults)."""
    watchdog = watchdog or Watchdog(None)
    record = base_record(case)
    started = time.perf_counter()
    try:
        _execute(case, backend, feature_level, watchdog, record)
    finally:
        record.setdefault("timings", {})["total_s"] = round(time.perf_counter() - started, 6)
    return record


def _set(record: dict, category: str, reason: str = "") -> None:
    record["category"] = category
    record["reason"] = reason


def _call(record: dict, watchdog: Watchdog, fn, *args) -> RunResult | None:
    """Call the backend; a raise is a crash, a hang a timeout, a non-RunResult an error."""
    t0 = time.perf_counter()
    try:
        result = watchdog.call(fn, *args)
    except concurrent.futures.TimeoutError:
        _set(record, "timeout", f"no answer within {watchdog.timeout:g} s")
        return None
    except Exception as e:
        # The backend contract is "never raise for the implementation's errors": an exception is
        # the implementation (or its binding) crashing, not a typed refusal.
        _set(record, "crash", _describe_exception(e))
        return None
    finally:
        record["timings"] = {"backend_s": round(time.perf_counter() - t0, 6)}
    if not isinstance(result, RunResult):
        _set(record, "error", f"backend returned {type(result).__name__}, not a RunResult")
        return None
    record["reached_operator"] = result.reached_operator
    if getattr(result, "notes", None):
        # What the backend did around the operator (e.g. "FLOAT16 went through float32"): shown in the report.
        record["notes"] = list(result.notes)
    if result.timings:
        record["timings"].update({f"backend.{k}": v for k, v in result.timings.items()})
    return result


def _execute(case: Case, backend: Backend, level: FeatureLevel | None, watchdog: Watchdog, record: dict) -> None:
    if level is not None and case.feature_level > level:
        _set(record, "unsupported", f"the case needs feature level {case.feature_level}; the run targets {level}")
        return
    if not case.valid:
        _execute_invalid(case, backend, watchdog, record)
        return
    reason = backend.unsupported_reason(case.descriptor, case.feature_level)
    if reason:
        _set(record, "unsupported", reason)
        return
    result = _call(record, watchdog, backend.run, case.descriptor, list(case.inputs), case.feature_level)
    if result is None:
        return
    open_validity = [u for u in case.unspecified if oracle.ERRATA[u].refusal_observed]
    if result.status == "rejected" and open_validity:
        # The pages leave open whether this descriptor is valid at all: refusing it is observed, not failed.
        _set(record, "observed", f"refused where the pages leave validity open ({', '.join(open_validity)}): "
                                 f"{result.reason}")
        record["observed"] = {"matches_policy": False, "refused": True}
        return
    if result.status in ("unsupported", "rejected", "error"):
        _set(record, result.status, result.reason or f"backend said {result.status} without a reason")
        return
    if result.status != "ok":
        _set(record, "error", f"backend returned unknown status {result.status!r}")
        return
    expected = list(case.expected.outputs)
    comparison = compare_outputs(expected, result.outputs)
    if comparison.equal:
        _set(record, "observed" if case.unspecified else "pass",
             "matches the oracle's policy for " + ", ".join(case.unspecified) if case.unspecified else "bit-exact")
        if case.unspecified:
            record["observed"] = {"matches_policy": True}
        return
    record["mismatch"] = comparison.to_json()
    if not comparison.problems:
        # Which known deviations predict exactly this output (a waiver may name one: conformance.deviations).
        record["mismatch"]["explained_by"] = deviations.explain(case.descriptor, case.inputs, result.outputs)
    record["tensors"] = {
        "input": tensor_record(case.inputs[0]),
        "expected": [tensor_record(e) for e in expected],
        "actual": [tensor_record(a) for a in result.outputs],
    }
    if case.unspecified and not comparison.problems:
        # Values differ where the spec is silent: record what the implementation did, never judge it.
        _set(record, "observed", f"differs from the oracle's policy for {', '.join(case.unspecified)}: "
                                 f"{comparison.summary()}")
        record["observed"] = {"matches_policy": False}
        return
    _set(record, "fail", comparison.summary())


def _execute_invalid(case: Case, backend: Backend, watchdog: Watchdog, record: dict) -> None:
    clause = case.expected.clause
    record["expected_clause"] = clause
    if not backend.capabilities().checks_invalid_descriptors:
        _set(record, "unsupported", f"{backend.name} cannot observe descriptor validation (U-ALL-2); "
                                    f"the descriptor breaks {clause}")
        return
    result = _call(record, watchdog, backend.check_descriptor, case.descriptor, case.feature_level)
    if result is None:
        return
    if result.status == "rejected":
        matched = clause == result.reached_operator or f"[{clause}]" in result.reason
        record["clause_matched"] = matched
        _set(record, "pass", f"rejected as expected ({clause}); backend said: {result.reason}")
    elif result.status == "ok":
        _set(record, "fail", f"accepted an invalid descriptor that breaks {clause}: {oracle.CLAUSES.get(clause, '')}")
    elif result.status in ("unsupported", "error"):
        _set(record, result.status, result.reason or f"backend said {result.status}")
    else:
        _set(record, "error", f"backend returned unknown status {result.status!r}")

"""Execute one case on a backend, in the process that owns the backend, and categorise what happened.

Never raises for a backend's faults: an exception from any backend method is `crash`, naming
the method and the error; a RunResult that breaks the contract (docs/backends.md) is `error`,
naming what is wrong with it.  Only BaseExceptions that are not Exceptions (SystemExit,
KeyboardInterrupt) escape, so that the worker running this can end.  Timeouts are not
handled here: the parent kills a worker whose case runs too long (conformance.run.pool).

A difference is judged only where the spec fixes the value: elements an unspecified register
entry leaves open (oracle.unspecified_mask) are observed, never failed, and nothing else is.
"""

from __future__ import annotations

import contextlib
import math
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

import oracle
from oracle import FeatureLevel, TensorDesc

from ..backends.base import Backend, RunResult
from ..cases.compositions import Composition
from ..cases.corpus import Case
from ..cases.stress import StressCase, make_inputs
from ..judging import deviations
from ..judging.buffers import judge_buffers
from ..judging.compare import Comparison, compare_outputs
from ..judging.drawn import bounded, values_outside_input
from .jsontypes import safe_text
from .large import graph_over_budget, judge_chunked, over_budget, oversized
from .record import Category, Observed, Record, TensorData, Tensors
from .units import Work, blank_record

STATUSES = ("ok", "unsupported", "rejected", "error")


class BackendRaised(Exception):
    """A backend method raised: the record becomes `crash` with this text."""


# The folder the suite's packages are in (a checkout or site-packages): a raising frame inside it is named from
# there (`conformance/backends/directml/process.py:239`), so that a record says the same on every machine.
_INSTALLED = Path(__file__).resolve().parents[2]


def describe_exception(e: BaseException) -> str:
    frames = traceback.extract_tb(e.__traceback__)
    where = ""
    if frames:
        name = frames[-1].filename
        with contextlib.suppress(ValueError, OSError):
            name = Path(name).resolve().relative_to(_INSTALLED).as_posix()
        where = f" at {name}:{frames[-1].lineno}"
    return safe_text(f"{type(e).__name__}: {e}{where}")


def call(method: str, fn: Callable, *args):
    """Call a backend method; an Exception becomes BackendRaised naming the method."""
    try:
        return fn(*args)
    except Exception as e:
        raise BackendRaised(f"backend.{method}() raised {describe_exception(e)}") from e


def check_result(result: object, record: Record) -> str | None:
    """What is wrong with a backend's answer (None if nothing); copies its extras into the record.

    Notes and timings are informational: values that are not text or finite numbers are kept
    as text or dropped, with a note saying so, rather than costing the case its verdict.
    """
    if not isinstance(result, RunResult):
        return f"backend returned {type(result).__name__}, not a RunResult"
    if result.status not in STATUSES:
        return f"backend returned unknown status {result.status!r} (expected one of {', '.join(STATUSES)})"
    if not isinstance(result.reason, str):
        return f"RunResult.reason is {type(result.reason).__name__}, not a string"
    if result.reached_operator is not None and not isinstance(result.reached_operator, str):
        return f"RunResult.reached_operator is {type(result.reached_operator).__name__}, not a string"
    if result.status == "ok" and not (
        isinstance(result.outputs, (list, tuple)) and all(isinstance(o, np.ndarray) for o in result.outputs)
    ):
        return f"RunResult.outputs is {safe_text(repr(result.outputs))[:80]}, not a list of numpy arrays"
    if result.buffers is not None and not (
        isinstance(result.buffers, (list, tuple)) and all(isinstance(b, np.ndarray) for b in result.buffers)
    ):
        return f"RunResult.buffers is {safe_text(repr(result.buffers))[:80]}, not a list of numpy arrays"
    record.reached_operator = None if result.reached_operator is None else safe_text(result.reached_operator)
    notes = result.notes if isinstance(result.notes, (list, tuple)) else [result.notes]
    record.notes = [safe_text(str(n)) for n in notes if n is not None]
    timings = result.timings if isinstance(result.timings, dict) else {}
    for key, value in timings.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            record.timings[f"backend.{safe_text(str(key))}"] = float(value)
        else:
            record.notes.append(safe_text(f"backend timing {key!r}={value!r} dropped: not a finite number"))
    return None


class Unsupported(str):
    """Why a batching backend's case does not reach run(), found while choosing the cases for run_many: its record
    says this rather than asking the backend again."""


Prefetched = RunResult | BaseException | Unsupported | None  # a batching backend's answer for one case, got beforehand


def prefetch(
    works: list[Work],
    backend: Backend,
    level: FeatureLevel | None,
    max_bytes: int | None = None,
    alone: Callable[[oracle.Descriptor], bool] | None = None,
) -> dict[int, RunResult | BaseException | Unsupported]:
    """For a backend with batch_size > 1: run_many on the valid cases that would reach run(), by unit index (and
    check_many on the invalid ones that would reach check_descriptor, run_graphs on the compositions, where the
    backend has them).

    Only what execute_case would pass to run() goes in; anything that fails here (a raising
    unsupported_reason, run_many raising or answering with the wrong count) is left to execute_case,
    which then calls run() for that case alone and reports the fault as itself.  So is a case `alone` names (one
    a known issue says ends the backend's process: in the batch it would end the batch).
    """
    if not (isinstance(getattr(backend, "batch_size", 1), int) and backend.batch_size > 1):
        return {}
    unsupported: dict[int, Unsupported] = {}
    found: dict[int, RunResult | BaseException | Unsupported] = {
        w.index: r for w, r in prefetch_results(works, backend, level, max_bytes, unsupported, alone) if r is not None
    }  # a case without a result runs alone (execute_case calls run())
    found.update(unsupported)
    found.update(prefetch_checks(works, backend, level))
    graphs = [w for w in works if isinstance(w.unit, Composition) and (level is None or w.unit.feature_level <= level)]
    run_graphs = getattr(backend, "run_graphs", None)
    if graphs and run_graphs is not None:  # the compositions of this batch in one call (one session for ORT)
        try:
            results = run_graphs([(w.unit.graph, list(w.unit.inputs), w.unit.feature_level) for w in graphs])  # type: ignore[union-attr]
        except Exception:
            results = None  # each runs alone, and reports its own fault
        if isinstance(results, list) and len(results) == len(graphs):
            found.update({w.index: r for w, r in zip(graphs, results)})
    return found


def prefetch_checks(works: list[Work], backend: Backend, level: FeatureLevel | None) -> dict[int, RunResult]:
    """For a backend with `check_many`: check_descriptor's answers for the invalid cases that would reach it, at
    once; {} when that cannot be done (each case then asks check_descriptor alone), and no entry where the
    backend answered None."""
    check_many = getattr(backend, "check_many", None)
    if check_many is None:
        return {}
    try:
        caps = backend.capabilities()
        if not caps.checks_invalid_descriptors:
            return {}
        chosen = [
            w
            for w in works
            if isinstance(w.unit, Case)
            and not w.unit.valid
            and (level is None or w.unit.feature_level <= level)
            and (caps.tensor_layouts or not oracle.layout.has_layout(w.unit.descriptor))
        ]
        results = check_many([(w.unit.descriptor, w.unit.feature_level) for w in chosen]) if chosen else []  # type: ignore[union-attr]
    except Exception:
        return {}
    if not isinstance(results, list) or len(results) != len(chosen):
        return {}
    return {w.index: r for w, r in zip(chosen, results) if r is not None}


def prefetch_results(
    works: list[Work],
    backend: Backend,
    level: FeatureLevel | None,
    max_bytes: int | None = None,
    unsupported: dict[int, Unsupported] | None = None,
    alone: Callable[[oracle.Descriptor], bool] | None = None,
) -> list[tuple[Work, RunResult | BaseException | None]]:
    """run_many on the valid cases among `works` that would reach run(); [] when that cannot be done.  The others'
    reasons (the backend's, the memory budget's) go into `unsupported`, by unit index."""
    chosen: list[Work] = []
    for work in works:
        case = work.unit
        if not isinstance(case, Case) or not case.valid or (level is not None and case.feature_level > level):
            continue
        try:
            reason = _unsupported(case, backend, max_bytes)
        except Exception:
            continue
        if reason:
            if unsupported is not None:
                unsupported[work.index] = Unsupported(reason)
            continue
        if alone is not None and alone(case.descriptor):
            continue  # run() alone, by execute_case
        chosen.append(work)
    if not chosen:
        return []
    try:
        results = backend.run_many(
            [
                (w.unit.descriptor, list(w.unit.inputs), w.unit.feature_level)  # type: ignore[union-attr]
                for w in chosen
            ]
        )
    except Exception:
        return []
    if not isinstance(results, list) or len(results) != len(chosen):
        return []
    return list(zip(chosen, results))


def may_call_backend(work: Work, backend: Backend, level: FeatureLevel | None, prefetched: Prefetched) -> bool:
    """Whether executing the unit may call into the backend past capabilities() (run, check_descriptor, run_graph,
    a live unit's examples): not one prefetched, above the run's level, or invalid where validation is not seen."""
    unit = work.unit
    if prefetched is not None or (isinstance(unit, Case) and level is not None and unit.feature_level > level):
        return False
    if isinstance(unit, Case) and not unit.valid:
        try:
            return bool(backend.capabilities().checks_invalid_descriptors)
        except Exception:  # execute_case calls it again, and reports the crash
            return True
    return True


def execute_case(
    work: Work,
    backend: Backend,
    level: FeatureLevel | None,
    prefetched: Prefetched = None,
    max_bytes: int | None = None,
    *,
    facts: bool = True,
) -> Record:
    """Run `work.unit` (a stored, generated or stress case) on `backend` and return its record (never raises
    for the backend's faults).  One path for every case: a stress case differs only in where its input
    comes from (its recipe) and how its outputs are compared (in chunks, conformance.run.large).  Without
    `facts`, the record says only what the run found (a worker's: units.outcome_of, completed by its parent)."""
    case = work.unit
    if not isinstance(case, (Case, StressCase, Composition)):
        raise TypeError(f"execute_case runs a case; {case!r} is a live unit (conformance.run.live)")
    record = blank_record(work, facts=facts)
    started = time.perf_counter()
    try:
        _execute(case, backend, level, record, prefetched, max_bytes)
    except BackendRaised as e:
        # The backend contract is "never raise for the implementation's errors": an exception is
        # the implementation (or its binding) crashing, not a typed refusal.
        record.set(Category.CRASH, str(e))
    finally:
        if isinstance(case, StressCase):
            oracle.release_buffers()  # the next case starts from nothing: no idle gigabyte kept for it
    record.timings["total_s"] = round(time.perf_counter() - started, 6)
    return record


def _run(record: Record, method: str, fn: Callable, *args, prefetched: Prefetched = None) -> RunResult | None:
    if isinstance(prefetched, BaseException):  # this case's own exception from run_many: its crash
        raise BackendRaised(f"backend.run_many() raised for this case {describe_exception(prefetched)}")
    t0 = time.perf_counter()
    try:
        result = prefetched if prefetched is not None else call(method, fn, *args)
    finally:
        record.timings["backend_s"] = round(time.perf_counter() - t0, 6)
    problem = check_result(result, record)
    if problem:
        record.set(Category.ERROR, f"backend.{method}(): {problem}")
        return None
    return result if isinstance(result, RunResult) else None  # check_result said it is one


def _execute(
    case: Case | StressCase | Composition,
    backend: Backend,
    level: FeatureLevel | None,
    record: Record,
    prefetched: Prefetched = None,
    max_bytes: int | None = None,
) -> None:
    if level is not None and case.feature_level > level:
        record.set(Category.UNSUPPORTED, f"the case needs feature level {case.feature_level}; the run targets {level}")
        return
    if isinstance(case, Composition):
        _execute_composition(case, backend, record, prefetched, max_bytes)
        return
    if isinstance(case, Case) and not case.valid:
        _execute_invalid(case, backend, record, prefetched)
        return
    stress = isinstance(case, StressCase)
    # A prefetched case was asked both in prefetch_results (supported, in the budget): not asked again.
    reason = str(prefetched) if isinstance(prefetched, Unsupported) else None
    if prefetched is None:
        reason = _unsupported(case, backend, max_bytes)
    if reason:
        record.set(Category.UNSUPPORTED, reason)
        return
    t0 = time.perf_counter()
    inputs = make_inputs(case) if isinstance(case, StressCase) else list(case.inputs)
    if stress:
        record.timings["input_s"] = round(time.perf_counter() - t0, 6)
    result = _run(record, "run", backend.run, case.descriptor, inputs, case.feature_level, prefetched=prefetched)
    if result is None:
        return
    if isinstance(case, StressCase):  # no stress case reaches an unspecified entry: every element is judged
        if result.status != "ok":
            record.set(Category(result.status), result.reason or f"backend said {result.status} without a reason")
            return
        t0 = time.perf_counter()
        judge_chunked(case.descriptor, inputs, list(result.outputs), record)
        record.timings["compare_s"] = round(time.perf_counter() - t0, 6)
        return
    open_validity = [u for u in case.unspecified if oracle.ERRATA[u].refusal_observed]
    if result.status == "rejected" and open_validity:
        # The pages leave open whether this descriptor is valid at all: refusing it is observed, not failed.
        record.observed = Observed(False, refused=True)
        record.set(
            Category.OBSERVED,
            f"refused where the pages leave validity open ({', '.join(open_validity)}): {result.reason}",
        )
        return
    if result.status != "ok":
        _set_not_run(case, result, record)
        return
    _judge(case, result, record)


def _set_not_run(case: Case, result: RunResult, record: Record) -> None:
    """A valid case the backend did not compute; a refusal names the known validation deviations that refuse
    exactly this descriptor (a waiver may name one)."""
    record.set(Category(result.status), result.reason or f"backend said {result.status} without a reason")
    if result.status == "rejected":
        explained = deviations.explain_refusal(case.descriptor, case.feature_level)
        if explained:
            record.mismatch = Comparison(False, ["a valid descriptor was refused"], explained_by=explained)


def _unsupported(case: Case | StressCase, backend: Backend, max_bytes: int | None) -> str | None:
    """Why the backend cannot run the case (its own reason, or the memory budget's); None if it can."""
    reason = call("unsupported_reason", backend.unsupported_reason, case.descriptor, case.feature_level)
    if reason:
        return str(reason)
    return over_budget(case.descriptor, backend, max_bytes, chunked=isinstance(case, StressCase))


def _read_outputs(
    tensors: Sequence[TensorDesc], result: RunResult, record: Record
) -> tuple[list[np.ndarray], list[str]] | None:
    """The outputs to compare and the padding writes seen (U-LAYOUT-1), or None when the record already fails:
    with `buffers`, every byte judged (a guard byte written fails), the outputs read through their strides."""
    if result.buffers is None:
        return list(result.outputs), []
    judged = judge_buffers(tensors, list(result.buffers))
    if judged.problems:
        record.mismatch = Comparison(False, judged.problems)
        record.set(Category.FAIL, "; ".join(judged.problems))
        return None
    record.notes += judged.padding
    return judged.outputs, judged.padding


def _judge(case: Case, result: RunResult, record: Record) -> None:
    read = _read_outputs(case.descriptor.output_tensors, result, record)
    if read is None:
        return
    outputs, padding = read
    too_big = oversized(case.descriptor, outputs)
    if too_big:  # not read: neither compared nor kept
        record.mismatch = Comparison(False, [too_big])
        record.set(Category.FAIL, too_big)
        return
    expected = list(case.expected.outputs)
    open_elements = oracle.unspecified_mask(case.descriptor, case.inputs) if case.unspecified else None
    open_count = sum(int(m.sum()) for m in open_elements) if open_elements else 0
    entries = ", ".join(case.unspecified)
    comparison = compare_outputs(expected, outputs, open_elements)
    if not comparison.fails and open_count and open_elements and bounded(case.unspecified):
        # Open, yet bounded (GATHER.4): each open element one of the input buffer's values (conformance.judging.drawn).
        outside = values_outside_input(case.inputs[0], case.descriptor.input_tensors[0], outputs, open_elements)
        if outside:
            record.mismatch = Comparison(False, outside)
            record.tensors = _tensors(case, expected, outputs)
            record.set(Category.FAIL, "; ".join(outside))
            return
        entries += " (each one of the input buffer's values, as judged)"
    if comparison.equal:
        if padding:
            record.observed = Observed(True, open_count)
            record.set(Category.OBSERVED, f"bit-exact; {'; '.join(padding)}")
        elif open_count:
            record.observed = Observed(True, open_count)
            record.set(Category.OBSERVED, f"matches the oracle's policy for {entries} in {open_count} open element(s)")
        else:
            record.set(Category.PASS, "bit-exact")
        return
    record.mismatch = comparison
    if not comparison.problems:
        # Which known deviations predict exactly this output (a waiver may name one: conformance.judging.deviations).
        comparison.explained_by = deviations.explain(case.descriptor, case.inputs, outputs)
    record.tensors = _tensors(case, expected, outputs)
    if comparison.fails:
        record.set(Category.FAIL, comparison.summary())
        return
    # Values differ only where the spec is silent: record what the implementation did, never judge it.
    record.observed = Observed(False, open_count)
    record.set(
        Category.OBSERVED,
        f"differs from the oracle's policy for {entries} only in open elements: {comparison.summary()}",
    )


def _tensors(case: Case, expected: list[np.ndarray], outputs: list[np.ndarray]) -> Tensors:
    """What a record shows of a case that differs: its inputs, the expected and the actual outputs."""
    return Tensors(
        TensorData.of(case.inputs[0]) if case.inputs else None,  # FILL_VALUE_*: no input tensor
        [TensorData.of(e) for e in expected],
        [_tensor(a) for a in outputs],
        [TensorData.of(x) for x in case.inputs[1:]],
    )


def _tensor(array: np.ndarray) -> TensorData:
    try:
        return TensorData.of(array)
    except (TypeError, ValueError):  # a dtype no DirectML type has: the mismatch's problems say so
        return TensorData("?", list(np.shape(array)), int(np.size(array)), truncated=True)


def _execute_invalid(case: Case, backend: Backend, record: Record, prefetched: Prefetched = None) -> None:
    clause = case.expected.clause
    record.expected_clause = clause
    if not call("capabilities", backend.capabilities).checks_invalid_descriptors:
        record.set(
            Category.UNSUPPORTED,
            f"{backend.name} cannot observe descriptor validation (U-ALL-2); the descriptor breaks {clause}",
        )
        return
    if oracle.layout.has_layout(case.descriptor) and not call("capabilities", backend.capabilities).tensor_layouts:
        record.set(
            Category.UNSUPPORTED,
            f"{backend.name} cannot express tensor layouts (LAYOUT.1-7); the descriptor breaks {clause}",
        )
        return
    result = _run(
        record, "check_descriptor", backend.check_descriptor, case.descriptor, case.feature_level, prefetched=prefetched
    )
    if result is None:
        return
    if result.status == "rejected":
        record.clause_matched = clause == result.reached_operator or f"[{clause}]" in result.reason
        record.set(Category.PASS, f"rejected as expected ({clause}); backend said: {result.reason}")
    elif result.status == "ok":
        record.set(
            Category.FAIL,
            f"accepted an invalid descriptor that breaks {clause}: {oracle.CLAUSES.get(clause or '', '')}",
        )
        # Which known validation deviations accept exactly this descriptor (a waiver may name one).
        explained = deviations.explain_acceptance(case.descriptor, case.feature_level)
        if explained:
            record.mismatch = Comparison(
                False, [f"an invalid descriptor ({clause}) was accepted"], explained_by=explained
            )
    else:
        record.set(Category(result.status), result.reason or f"backend said {result.status}")


def _execute_composition(
    case: Composition, backend: Backend, record: Record, prefetched: Prefetched = None, max_bytes: int | None = None
) -> None:
    """A small DML graph (conformance.cases.compositions): run by a backend that runs graphs (`run_graph`), judged
    against the oracle's composition bit for bit; over --max-bytes (all its nodes' tensors) it is unsupported."""
    reason = graph_over_budget(case.graph, backend, max_bytes)
    if reason:
        record.set(Category.UNSUPPORTED, reason)
        return
    run_graph = getattr(backend, "run_graph", None)
    if run_graph is None:
        record.set(Category.UNSUPPORTED, f"{backend.name} runs no DML graphs (GRAPH.1): it has no run_graph()")
        return
    result = _run(
        record, "run_graph", run_graph, case.graph, list(case.inputs), case.feature_level, prefetched=prefetched
    )
    if result is None:
        return
    if result.status != "ok":
        record.set(Category(result.status), result.reason or f"backend said {result.status} without a reason")
        return
    read = _read_outputs(case.graph.outputs, result, record)
    if read is None:
        return
    outputs, padding = read
    comparison = compare_outputs(list(case.expected.outputs), outputs)
    if comparison.equal:
        if padding:
            record.observed = Observed(True, 0)
            record.set(Category.OBSERVED, f"bit-exact; {'; '.join(padding)}")
        else:
            record.set(Category.PASS, "bit-exact")
        return
    record.mismatch = comparison
    node = case.graph.nodes[0]
    if len(case.graph.nodes) == 1 and not comparison.problems:
        # One node: the known deviations of its operator predict it as they would the node alone.
        comparison.explained_by = deviations.explain(node, list(case.inputs)[: len(node.input_tensors)], outputs)
    record.set(Category.FAIL, comparison.summary())

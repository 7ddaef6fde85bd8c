"""ONNX Runtime's DirectML provider for real (the pinned wheel's onnxruntime.dll; under Wine on Linux).

Needs `dml-conformance setup directml`; skipped with the reason elsewhere, failed in CI.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from directml_helpers import require_directml
from onnx import TensorProto, helper, numpy_helper

import oracle
from conformance.backends.directml import DirectMLBackend
from conformance.backends.onnxruntime_directml import OnnxRuntimeDirectMLBackend, SessionFailed
from conformance.cases.compositions import compositions
from conformance.cases.corpus import CASES_DIR, load
from conformance.judging.compare import compare_outputs
from conformance.lowering import IR_VERSION, OPSET, Inexpressible, lower
from conformance.run.selection import select_cases
from oracle import FeatureLevel


@pytest.fixture(scope="module")
def ort_dml():
    require_directml()
    backend = OnnxRuntimeDirectMLBackend()
    yield backend
    backend.close()


def run_all(backend, cases):
    results = backend.run_many([(c.descriptor, list(c.inputs), c.feature_level) for c in cases])
    outcome: Counter[str] = Counter()
    failures = []
    for case, result in zip(cases, results):
        if isinstance(result, BaseException):
            failures.append((case.id, repr(result)))
        elif result.status != "ok":
            outcome[result.status] += 1
            assert result.status == "unsupported", (case.id, result.reason)
        elif compare_outputs(list(case.expected.outputs), result.outputs).equal:
            outcome[f"reached {result.reached_operator}"] += 1
        elif case.unspecified:
            outcome["observed"] += 1
        else:
            failures.append((case.id, compare_outputs(list(case.expected.outputs), result.outputs).summary()))
    return outcome, failures


def test_the_route_and_versions_are_recorded(ort_dml):
    v = ort_dml.versions()
    assert v["onnxruntime"].count(".") == 2 and v["provider"] == "DmlExecutionProvider"
    assert "ort_worker" in v["route"] and v["directml"] and v["adapter"]
    # As applications run: ORT's default optimizations, each DirectML partition compiled into one DML graph.
    assert v["graph_optimization"].startswith("all") and v["dml_graph_fusion"].startswith("on")


def test_with_graph_fusion_and_optimizations_off_each_node_runs_alone_and_bit_exact():
    require_directml()
    backend = OnnxRuntimeDirectMLBackend(graph_optimization="disabled", dml_graph_fusion="off")
    try:
        v = backend.versions()
        assert v["graph_optimization"].startswith("disabled") and "disable_graph_fusion" in v["dml_graph_fusion"]
        stored = [c for c in load([CASES_DIR / "examples", CASES_DIR / "curated"]).cases if c.valid]
        outcome, failures = run_all(backend, stored)
        assert failures == [] and sum(n for k, n in outcome.items() if k.startswith("reached")) > len(stored) // 2
    finally:
        backend.close()


def _expressible(descriptor) -> bool:
    try:
        lower(descriptor)
    except Inexpressible:
        return False
    return True


def test_three_hundred_generated_cases_run_bit_exact_in_a_few_sessions(ort_dml):
    # Generated at random (the reach set's extremes, WRAP and rank 8 in every type, are the quick profile's).
    # Without tensor layouts, which ONNX cannot express (tests/backends/test_onnxruntime_directml.py).
    cases = [
        c
        for c in select_cases(generated=700, seed=21)  # 26 operators, some with few ONNX forms: 300 expressible
        if c.valid
        and "generated" in c.tags
        and "reach" not in c.tags
        and not oracle.layout.has_layout(c.descriptor)
        and _expressible(c.descriptor)  # SLICE_GRAD, SPACE_TO_DEPTH1's COLUMN_ROW_DEPTH, ...: no ONNX form
    ]
    assert len(cases) >= 300
    before = ort_dml.stats["sessions"]
    outcome, failures = run_all(ort_dml, cases)
    assert failures == []
    assert {"reached SLICE1", "reached PADDING1", "reached SPLIT"} <= set(outcome)  # Slice -> DML_SLICE1 etc.
    assert sum(n for k, n in outcome.items() if k.startswith("reached")) >= 0.8 * len(cases)
    assert ort_dml.stats["sessions"] - before <= len(cases) // 50  # batches, not a session per case


def test_worked_examples_and_curated_cases(ort_dml):
    stored = [c for c in load([CASES_DIR / "examples", CASES_DIR / "curated"]).cases if c.valid]
    outcome, failures = run_all(ort_dml, stored)
    assert failures == []
    # Of the cases with a one-node ONNX form (not SYMMETRIC, SLICE_GRAD, issue 32's 4-D EyeLike and Range pages),
    # fewer than a third unsupported (DML_SLICE stride 0, layouts, out-of-range indices, kernels DirectML lacks)
    expressible = sum(_expressible(c.descriptor) for c in stored)  # the others are all unsupported
    assert outcome["unsupported"] - (len(stored) - expressible) < expressible // 3


def test_a_node_directml_does_not_take_is_refused_not_run_on_the_cpu(ort_dml):
    unique = helper.make_graph(
        [helper.make_node("Unique", ["x"], ["y"])],
        "u",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(unique, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = IR_VERSION
    with pytest.raises(SessionFailed, match="fallback to CPU EP has been explicitly disabled"):
        ort_dml.sessions.create(model.SerializeToString())


# --- ONNX Runtime behaviour seen on the way: no descriptor of this suite reaches it (DirectML's pads are
# unsigned and its sizes >= 1), so these are notes about ORT's DirectML provider, not DirectML findings.


def one_node(node, initializers, outputs) -> bytes:
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = IR_VERSION
    return model.SerializeToString()


@pytest.mark.parametrize(
    ("mode", "dml_gives"), [("constant", [0, 0, 0, 0]), ("edge", [4, 4, 4, 4]), ("reflect", [2, 3, 4, 3])]
)
def test_ort_pad_with_a_negative_pad(ort_dml, mode, dml_gives):
    """Pad [1,2,3,4] by -1 at the start and +1 at the end: ONNX says [2,3,4,0] / [2,3,4,4] / [2,3,4,3]."""
    pads = numpy_helper.from_array(np.array([-1, 1], np.int64), "pads")
    session = ort_dml.sessions.create(one_node(helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode), [pads], ["y"]))
    (y,) = ort_dml.sessions.run(session, {"x": np.array([1, 2, 3, 4], np.float32)}, ["y"])
    assert y.tolist() == dml_gives


def test_directml_itself_computes_what_ort_gets_wrong_for_negative_edge_pads():
    """The same result from DirectML's own operators, SLICE1 then PADDING EDGE: [2,3,4,4], not [4,4,4,4]."""
    require_directml()
    native = DirectMLBackend()
    try:
        f32 = oracle.DataType.FLOAT32
        sliced = native.run(
            oracle.Slice1Desc(oracle.TensorDesc(f32, (4,)), oracle.TensorDesc(f32, (3,)), (1,), (3,), (1,)),
            [np.array([1, 2, 3, 4], np.float32)],
            FeatureLevel.FL_3_0,
        )
        padded = native.run(
            oracle.PaddingDesc(oracle.TensorDesc(f32, (3,)), oracle.TensorDesc(f32, (4,)), "EDGE", 0.0, (0,), (1,)),
            sliced.outputs,
            FeatureLevel.FL_3_0,
        )
        assert padded.outputs[0].tolist() == [2, 3, 4, 4]
    finally:
        native.close()


def test_ort_split_with_a_zero_length_output_fails_at_session_creation(ort_dml):
    split = numpy_helper.from_array(np.array([4, 0], np.int64), "split")
    with pytest.raises(SessionFailed, match=r"invalid unordered_map<K, T> key"):
        ort_dml.sessions.create(
            one_node(helper.make_node("Split", ["x", "split"], ["a", "b"], axis=0), [split], ["a", "b"])
        )


# --- through the command line: the run layer hands the route whole batches -------------------------------


def dml_cli(*args: str, timeout: float = 600):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", *args], capture_output=True, text=True, cwd=root, timeout=timeout
    )


def results_of(folder):
    import json

    (path,) = folder.glob("results-*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_run_of_300_generated_cases_passes_on_real_directml(tmp_path):
    require_directml()
    done = dml_cli(
        "run",
        "--backend",
        "onnxruntime-directml",
        "--generated",
        "300",
        "--hypothesis-examples",
        "0",
        "--out",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = results_of(tmp_path)
    cases = [r for r in lines if r.get("kind") == "case"]
    assert len([r for r in cases if "generated" in r["tags"]]) >= 300
    assert not [r for r in cases if r["category"] in ("fail", "rejected", "error", "crash", "timeout")]
    reached = Counter(r.get("reached_operator") for r in cases if r["category"] == "pass")
    assert {"SLICE1", "PADDING1", "SPLIT"} <= set(reached)
    assert "route" in lines[0]["backend_versions"] and lines[0]["backend_versions"]["wine"]


def test_one_report_compares_the_three_routes_on_the_same_cases(tmp_path):
    require_directml()
    folders = {}
    for backend in ("directml", "onnxruntime-directml", "onnxruntime-cpu"):
        folders[backend] = tmp_path / backend
        done = dml_cli(
            "run",
            "--backend",
            backend,
            "--generated",
            "0",
            "--hypothesis-examples",
            "0",
            "--out",
            str(folders[backend]),
            "--report",
            "none",
        )
        assert done.returncode == 0, (backend, done.stdout[-1500:], done.stderr[-1500:])
    ids = {b: {r["id"] for r in results_of(f) if r.get("kind") == "case"} for b, f in folders.items()}
    assert ids["directml"] == ids["onnxruntime-directml"] == ids["onnxruntime-cpu"]
    report = tmp_path / "compare.html"
    done = dml_cli("report", *(str(next(f.glob("results-*.jsonl"))) for f in folders.values()), "-o", str(report))
    assert done.returncode == 0, done.stderr
    html = report.read_text()
    reached = html[html.index("<h2 id='reached'>") :]
    reached = reached[: reached.index("</table>")]
    for name in ("directml", "onnxruntime-directml", "onnxruntime-cpu"):
        assert name in html
    # The ORT route reaches DML_SLICE1 and DML_PADDING1; the native route reaches each case's own operator.
    assert "<td>DML_PADDING</td><td>DML_PADDING1</td>" in reached
    assert "<td>DML_SLICE</td><td>DML_SLICE1</td>" in reached
    assert "<td>DML_PADDING</td><td>DML_PADDING</td>" in reached  # directml: the case's own operator


def test_graph_compositions_as_onnx_graphs_run_bit_exact_in_one_session(ort_dml):
    """The metamorphic ONNX family: Split then Concat, Pad then Slice, an unread Split output, an unused graph
    input, all in one model (ORT fuses the DirectML partition into one DML graph), against the oracle."""
    units = compositions(load([CASES_DIR / "examples", CASES_DIR / "curated"]).cases)
    before = ort_dml.stats["sessions"]
    results = ort_dml.run_graphs([(u.graph, list(u.inputs), u.feature_level) for u in units])
    assert ort_dml.stats["sessions"] - before <= 3  # one session for the batch, unless ORT refused it
    outcome = Counter()
    for u, r in zip(units, results):
        if r.status == "ok":
            assert compare_outputs(list(u.expected.outputs), r.outputs).equal, u.id
            outcome[u.kind] += 1
        else:
            assert r.status == "unsupported", (u.id, r.reason)  # SYMMETRIC, reflect past the axis: no ONNX form
    assert set(outcome) == {"split-join", "padding-slice1", "unconnected-output", "unused-input"}

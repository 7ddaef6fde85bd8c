"""The onnxruntime-directml backend's own logic, without DirectML: batching, halving, refusal, results.

The sessions come from stand-ins here (ORT's CPU provider in this process, or a fake host that
refuses or dies on cue); tests/directml/test_real_ort_directml.py runs the same code on DirectML.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime
import pytest

import oracle
from conformance.backends.onnxruntime_backend import CPU
from conformance.backends.onnxruntime_directml import OnnxRuntimeDirectMLBackend, PythonSessions, SessionFailed
from conformance.judging.compare import compare_outputs
from conformance.lowering import OPSET, Inexpressible, lower
from conformance.run.selection import select_cases
from oracle import DEFAULT_FEATURE_LEVEL as FL

PADS = ("PADDING", "PADDING1")  # both lower to Pad
D2S = ("DEPTH_TO_SPACE", "DEPTH_TO_SPACE1", "SPACE_TO_DEPTH", "SPACE_TO_DEPTH1")  # DepthToSpace, SpaceToDepth


def _has_onnx_form(case) -> bool:
    """The descriptor lowers, and the node takes the case's values (GATHER*'s out-of-range indices it refuses)."""
    try:
        lowering = lower(case.descriptor)
    except Inexpressible:
        return False
    return lowering.refusal(list(case.inputs)) is None


# Valid cases without DML_SLICE stride 0, SLICE_GRAD (inexpressible in ONNX) and WRAP (U-WRAP-1), without FLOAT16 Pad (the CPU
# stand-in's own known NaN-payload deviation, tests/backends/test_lowering.py): every one should come back bit-exact.
FIT = [
    c
    for c in select_cases(generated=300, seed=5)
    if c.valid
    and "reach" not in c.tags  # generated at random: the mix of types and ranks this stand-in expects
    and c.operator not in ("SLICE", "SLICE_GRAD")  # SLICE_GRAD has no ONNX form
    # ReverseSequence's shapes only; Gather's IndexDimensions 1, in-range indices only (GATHER*); issue 32's: EyeLike's
    # and Trilu's bands, Range's 1-D sequences, OneHot's ranks, ScatterElements' and ScatterND's distinct indices
    and _has_onnx_form(c)
    # GatherND: INT64 indices only, and an out-of-range index's elements are open (U-GND-1), not bit-exact
    and (
        not c.operator.startswith("GATHER_ND")
        or (_has_onnx_form(c) and not oracle.unspecified_mask(c.descriptor, c.inputs)[0].any())
    )
    and getattr(c.descriptor, "padding_mode", None) is not oracle.PaddingMode.WRAP  # its padding is observed
    and getattr(c.descriptor, "scale_bias", None) is None  # ELEMENT_WISE_IDENTITY's ScaleBias: no ONNX form
    # ORT CPU's NaN known issues (ONE_HOT's by its values' type, the output's)
    and not (
        c.operator in (*PADS, "TILE", *D2S, "ONE_HOT") and c.descriptor.output_tensors[0].data_type.value == "FLOAT16"
    )
    # the CPU stand-in's DepthToSpace and SpaceToDepth kernels (measured on ORT 1.32: the other types have none,
    # FLOAT16 quiets NaNs); SpaceToDepth has no COLUMN_ROW_DEPTH form
    and not (c.operator in D2S and c.data_type.value not in ("FLOAT32", "FLOAT64", "INT8", "UINT8"))
    and not (c.operator == "SPACE_TO_DEPTH1" and c.descriptor.order is oracle.DepthSpaceOrder.COLUMN_ROW_DEPTH)
    and not oracle.layout.has_layout(c.descriptor)  # ONNX has no tensor layouts: the test below
]
# Half worked examples and curated cases, half generated ones (their larger tensors the byte budget cuts): the
# twenty-six operators' examples and curated cases alone would fill 120.
CASES = [c for c in FIT if "generated" not in c.tags][:60] + [c for c in FIT if "generated" in c.tags][:60]
LAYOUT_CASES = [c for c in select_cases(generated=300, seed=5) if c.valid and oracle.layout.has_layout(c.descriptor)]


def items(cases):
    return [(c.descriptor, list(c.inputs), c.feature_level) for c in cases]


class FakeHost:
    """A session host that runs models on ORT's CPU provider, but refuses or dies where told."""

    def __init__(
        self,
        refuse_op: str | None = None,
        die_on_op: str | None = None,
        no_kernel_op: str | None = None,
        die_on_input: np.ndarray | None = None,
    ):
        self.cpu = PythonSessions(CPU)
        self.refuse_op, self.die_on_op, self.no_kernel_op = refuse_op, die_on_op, no_kernel_op
        self.die_on_input = None if die_on_input is None else np.ascontiguousarray(die_on_input).tobytes()
        self.created: list[int] = []  # node count of every model a session was asked for
        self.bindings: list[int] = []  # its tensors: graph inputs and outputs (the parameters are initializers)
        self.graphs: list[onnx.GraphProto] = []

    def create(self, model: bytes):
        graph = onnx.load_from_string(model).graph
        self.created.append(len(graph.node))
        self.bindings.append(len(graph.input) + len(graph.output))
        self.graphs.append(graph)
        if any(n.op_type == self.refuse_op for n in graph.node):
            raise SessionFailed(
                "This session contains graph nodes that are assigned to the default CPU EP, but "
                "fallback to CPU EP has been explicitly disabled by the user."
            )
        missing = next((n for n in graph.node if n.op_type == self.no_kernel_op), None)
        if missing is not None:  # as ORT words it, naming the node
            raise SessionFailed(
                f"[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for "
                f"{missing.op_type}(13) node with name '{missing.name}'"
            )
        return self.cpu.create(model), graph

    def run(self, session, feeds, outputs):
        inner, graph = session
        if any(n.op_type == self.die_on_op for n in graph.node) or any(
            np.ascontiguousarray(x).tobytes() == self.die_on_input for x in feeds.values()
        ):
            raise RuntimeError("the worker exited during run (killed by signal 11 (SIGSEGV))")
        return self.cpu.run(inner, feeds, outputs)

    def release(self, session):
        pass

    def describe(self):
        return {"onnxruntime": onnxruntime.__version__, "provider": "fake"}

    def data_types(self):
        return frozenset(oracle.ALL_DATA_TYPES)

    def exhausted(self):
        return False

    def close(self):
        pass


# The CPU stand-in's own limits (ORT CPU: no INT16/UINT16 Pad, reflect pads < the axis): unsupported, with ORT's words.
STAND_IN_LIMITS = ("SYMMETRIC", "no kernel for this operator", "reflect Pad needs", "has no ONNX form")


def judged_equal(case, outputs) -> bool:
    """Bit for bit where the case judges (a CAST's open elements, U-CAST-1, are observed, as the run layer does)."""
    open_elements = oracle.unspecified_mask(case.descriptor, case.inputs) if case.unspecified else None
    return not compare_outputs(list(case.expected.outputs), outputs, open_elements).fails


def judge(cases, results):
    """(passed, other) after comparing every ok result with the case's expected outputs."""
    passed, other = 0, []
    for case, result in zip(cases, results):
        if not isinstance(result, BaseException) and result.status == "ok":
            assert compare_outputs(list(case.expected.outputs), result.outputs).equal or case.unspecified, case.id
            passed += 1
        else:
            other.append((case, result))
    return passed, other


def test_batches_run_bit_exact_in_few_sessions():
    host = FakeHost()
    backend = OnnxRuntimeDirectMLBackend(sessions=host, batch_size=50)
    results = backend.run_many(items(CASES))
    passed, other = judge(CASES, results)
    assert all(r.status == "unsupported" and any(w in r.reason for w in STAND_IN_LIMITS) for _, r in other)
    assert passed >= 90
    # One session per batch of 50; a batch holding a case the stand-in cannot run is halved until it stands alone.
    assert len(host.created) < len(CASES) // 4


def test_cases_with_a_tensor_layout_are_unsupported_before_any_session():
    """ONNX tensors are dense and packed: strides, buffer sizes, alignment and flags cannot be expressed (LAYOUT.*)."""
    assert LAYOUT_CASES
    host = FakeHost()
    results = OnnxRuntimeDirectMLBackend(sessions=host, batch_size=50).run_many(items(LAYOUT_CASES))
    assert all(r.status == "unsupported" and "cannot express tensor layouts" in r.reason for r in results)
    assert host.created == []


def test_a_refused_node_is_isolated_by_halving_and_only_its_cases_are_unsupported():
    host = FakeHost(refuse_op="Split")
    backend = OnnxRuntimeDirectMLBackend(sessions=host, batch_size=64)
    results = backend.run_many(items(CASES))
    for case, result in zip(CASES, results):
        if case.operator == "SPLIT":
            assert result.status == "unsupported"
            assert "refused, never reported as a DmlExecutionProvider result" in result.reason
            assert "fallback to CPU EP has been explicitly disabled" in result.reason  # ORT's own words
            assert result.outputs == []
        elif result.status != "unsupported":
            assert result.status == "ok" and judged_equal(case, result.outputs), case.id
    assert backend.stats["refused_sessions"] > 0


def test_a_case_that_kills_the_worker_gets_the_exception_and_no_other_case_does():
    host = FakeHost(die_on_op="Pad")
    backend = OnnxRuntimeDirectMLBackend(sessions=host, batch_size=64)
    results = backend.run_many(items(CASES))
    died = [c for c, r in zip(CASES, results) if isinstance(r, BaseException)]
    assert died and all(c.operator in PADS for c in died)  # only the cases whose node killed the worker
    assert all("SIGSEGV" in str(r) for r in results if isinstance(r, BaseException))
    for case, result in zip(CASES, results):
        if case.operator in PADS and not isinstance(result, BaseException):  # refused before it could run
            assert result.status == "unsupported" and any(w in result.reason for w in STAND_IN_LIMITS)


def _same_input(a, b) -> bool:
    """The stand-in host matches an input by its bytes alone (TILE's and IDENTITY's int64-bounds share theirs); FILL_*
    and DIAGONAL_MATRIX have none."""
    return (
        bool(a.inputs)
        and bool(b.inputs)
        and np.ascontiguousarray(a.inputs[0]).tobytes() == np.ascontiguousarray(b.inputs[0]).tobytes()
    )


def test_a_crash_on_the_kth_case_of_a_batch_costs_exactly_that_case():
    """The batch answered nothing: each of its cases runs again alone, and only the one that crashes alone crashes."""
    # no stand-in limits: every case comes back (ORT CPU's OneHot has kernels for a few type pairs only, its EyeLike
    # for five types); one opset, so one session (a batch is cut per opset: DIAGONAL_MATRIX1's Trilu is opset 14)
    batch = [
        c
        for c in CASES
        if c.operator not in (*PADS, "ONE_HOT", "DIAGONAL_MATRIX") and lower(c.descriptor).opset == OPSET
    ][:40]
    # The stand-in dies on an input: the victim's must be its own (examples of one page share theirs).
    k = next(i for i in range(17, len(batch)) if sum(_same_input(c, batch[i]) for c in batch) == 1)
    victim = batch[k]
    host = FakeHost(die_on_input=victim.inputs[0])
    backend = OnnxRuntimeDirectMLBackend(sessions=host, batch_size=64)
    results = backend.run_many(items(batch))
    assert [c.id for c, r in zip(batch, results) if isinstance(r, BaseException)] == [victim.id]
    assert "SIGSEGV" in str(results[k])
    passed, other = judge(batch, results)
    assert passed == len(batch) - 1 and [c.id for c, _ in other] == [victim.id]
    assert host.created == [len(batch)] + [1] * len(batch)  # one try as a batch, then one session a case
    assert backend.stats["crash_reruns"] == len(batch)


def test_sessions_keep_to_the_case_tensor_and_byte_budgets(monkeypatch):
    import conformance.backends.onnxruntime_directml as ort_dml

    monkeypatch.setattr(ort_dml, "BINDINGS_PER_SESSION", 30)
    monkeypatch.setattr(ort_dml, "BYTES_PER_SESSION", 4000)
    host = FakeHost()
    backend = OnnxRuntimeDirectMLBackend(sessions=host, batch_size=16)
    results = backend.run_many(items(CASES))
    assert judge(CASES, results)[0] >= 90
    sizes = [sum(oracle.size.tensor_bytes(c.descriptor).values()) for c in CASES]
    big = sum(s > 4000 for s in sizes)
    assert big > 0  # some cases over the byte budget: each gets a session of its own
    assert host.created.count(1) >= big
    for nodes, bindings in zip(host.created, host.bindings):
        assert nodes <= 16 and (nodes == 1 or bindings <= 30)
    assert len(host.created) > len(CASES) // 16  # the budgets cut sessions that 16 cases alone would not


def test_graph_compositions_are_cut_into_sessions_by_the_same_budgets(monkeypatch):
    import conformance.backends.onnxruntime_directml as ort_dml
    from conformance.cases.compositions import compositions
    from conformance.cases.corpus import CASES_DIR, load

    # the examples whose operator has a one-node ONNX form (not issue 32's 4-D EyeLike and Range examples, SLICE_GRAD)
    units = compositions([c for c in load([CASES_DIR / "examples"]).cases if _has_onnx_form(c)])
    monkeypatch.setattr(ort_dml, "BINDINGS_PER_SESSION", 12)
    host = FakeHost()
    backend = OnnxRuntimeDirectMLBackend(sessions=host)
    results = backend.run_graphs([(u.graph, list(u.inputs), u.feature_level) for u in units])
    ok = [(u, r) for u, r in zip(units, results) if r.status == "ok"]
    assert len(ok) > len(units) // 2
    assert all(compare_outputs(list(u.expected.outputs), r.outputs).equal for u, r in ok)
    assert len(host.created) > 1
    for graph in host.graphs:  # each node's tensors, the parameters (initializers) aside: the budget's measure
        constants = {t.name for t in graph.initializer}
        bound = sum(len([n for n in node.input if n not in constants]) + len(node.output) for node in graph.node)
        compositions_in_it = {node.name.split("_")[0] for node in graph.node}  # g<i>_n<n>_<Op>
        assert len(compositions_in_it) == 1 or bound <= 12


def test_a_missing_kernel_is_learnt_once_and_the_same_node_is_refused_without_a_session():
    host = FakeHost(no_kernel_op="Split")
    backend = OnnxRuntimeDirectMLBackend(sessions=host, batch_size=64)
    splits = [c for c in CASES if c.operator == "SPLIT"]
    first = backend.run_many(items(splits[:1]))
    assert first[0].status == "unsupported" and "no kernel for this operator" in first[0].reason
    sessions = len(host.created)
    rest = [c for c in splits[1:] if c.data_type == splits[0].data_type]
    assert rest, "the stand-in corpus has two SPLITs of one type"
    results = backend.run_many(items(rest))
    assert len(host.created) == sessions  # no session was needed to know
    assert all(r.status == "unsupported" and r.reason == first[0].reason for r in results)
    assert backend.stats["known_refusals"] == len(rest)


def test_every_result_names_the_directml_operator_ort_reaches():
    backend = OnnxRuntimeDirectMLBackend(sessions=FakeHost())
    t = oracle.TensorDesc(oracle.DataType.FLOAT32, (4,))
    x = [np.arange(4, dtype=np.float32)]
    slice1 = oracle.Slice1Desc(t, t, (0,), (4,), (-1,))
    pad = oracle.PaddingDesc(t, oracle.TensorDesc(oracle.DataType.FLOAT32, (6,)), "CONSTANT", 10.5, (1,), (1,))
    split = oracle.SplitDesc(
        t, (oracle.TensorDesc(oracle.DataType.FLOAT32, (1,)), oracle.TensorDesc(oracle.DataType.FLOAT32, (3,))), 0
    )
    assert backend.run(slice1, x, FL).reached_operator == "SLICE1"
    padded = backend.run(pad, x, FL)
    assert padded.reached_operator == "PADDING1"  # ORT's Pad-13 with a typed value
    assert any("PaddingValue conversion is not exercised" in n for n in padded.notes)
    assert backend.run(split, x, FL).reached_operator == "SPLIT"


def test_symmetric_is_unsupported_before_any_session():
    host = FakeHost()
    backend = OnnxRuntimeDirectMLBackend(sessions=host)
    desc = oracle.PaddingDesc(
        oracle.TensorDesc.of("FLOAT32", [3]), oracle.TensorDesc.of("FLOAT32", [5]), "SYMMETRIC", 0.0, [1], [1]
    )
    result = backend.run(desc, [np.zeros(3, np.float32)], FL)
    assert result.status == "unsupported" and "SYMMETRIC" in result.reason
    assert host.created == []


@pytest.mark.skipif(
    "AzureExecutionProvider" not in onnxruntime.get_available_providers(),
    reason="needs a provider that takes no Slice node; AzureExecutionProvider is one",
)
def test_in_process_a_node_the_provider_will_not_take_is_refused_never_run_on_the_cpu():
    """AzureExecutionProvider, like DirectML for a node it does not take, takes no Slice: ORT would place
    it on the CPU, but CPU fallback is disabled, so the session fails and the case is unsupported."""
    backend = OnnxRuntimeDirectMLBackend(sessions=PythonSessions("AzureExecutionProvider"))
    t = oracle.TensorDesc(oracle.DataType.FLOAT32, (4,))
    result = backend.run(oracle.Slice1Desc(t, t, (0,), (4,), (1,)), [np.arange(4, dtype=np.float32)], FL)
    assert result.status == "unsupported"
    assert "fallback to CPU EP has been explicitly disabled" in result.reason
    assert result.outputs == []


def test_the_python_host_on_directml_asks_for_a_fresh_process_after_its_session_budget():
    from conformance.backends.onnxruntime_directml import DML, PYTHON_DML_SESSIONS_PER_PROCESS

    host = PythonSessions(CPU)
    model = onnx.load_from_string(_identity_model())
    for _ in range(PYTHON_DML_SESSIONS_PER_PROCESS):
        host.create(model.SerializeToString())
    assert not host.exhausted()  # the CPU provider gives its memory back
    host.provider = DML  # the count is the same; only DirectML's sessions keep a device each
    assert host.exhausted()
    assert OnnxRuntimeDirectMLBackend(sessions=host).exhausted()


def _identity_model() -> bytes:
    node = onnx.helper.make_node("Identity", ["x"], ["y"])
    tensor = onnx.helper.make_tensor_value_info
    graph = onnx.helper.make_graph(
        [node], "g", [tensor("x", onnx.TensorProto.FLOAT, [1])], [tensor("y", onnx.TensorProto.FLOAT, [1])]
    )
    return onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 13)]).SerializeToString()


def test_the_python_host_selects_an_npu_as_applications_do_by_ort_device_filter(monkeypatch):
    """--adapter-kind gives DmlExecutionProvider ORT's own device selection (device_filter, performance_preference),
    not a DXGI device_id; with --adapter too it is refused (the provider takes one or the other)."""
    from conformance.backends.base import BackendUnavailable
    from conformance.backends.onnxruntime_directml import DML

    monkeypatch.setattr(onnxruntime, "get_available_providers", lambda: [DML, CPU])
    npu = PythonSessions.directml(adapter_kind="npu")
    assert npu.provider_options == {"device_filter": "npu", "performance_preference": "default"}
    assert npu.describe()["provider_options"] == "device_filter=npu, performance_preference=default"
    low = PythonSessions.directml(performance_preference="minimum_power")
    assert low.provider_options == {"device_filter": "gpu", "performance_preference": "minimum_power"}
    assert PythonSessions.directml(adapter="1").provider_options == {"device_id": "1"}
    with pytest.raises(BackendUnavailable, match="either a device_id or a device filter, not both"):
        PythonSessions.directml(adapter="1", adapter_kind="npu")


def test_a_64_bit_cast_on_a_device_below_shader_model_6_is_unsupported_before_any_session():
    """ORT's provider places a 64-bit Cast on DirectML, whose kernel is shader model 6 code (directml/kernels.py):
    on a shader model 5.1 device (vkd3d 1.6) the case is unsupported with the caps; a 32-bit Cast still runs."""
    host = FakeHost()
    host.info = {"shader_model": "5.1", "int64_shader_ops": "yes", "double_shader_ops": "yes"}  # type: ignore[attr-defined]
    backend = OnnxRuntimeDirectMLBackend(sessions=host)
    wide = oracle.CastDesc(oracle.TensorDesc.of("INT32", (2, 3)), oracle.TensorDesc.of("INT64", (2, 3)))
    narrow = oracle.CastDesc(oracle.TensorDesc.of("INT32", (2, 3)), oracle.TensorDesc.of("FLOAT32", (2, 3)))
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    result, ran = backend.run_many([(wide, [x], FL), (narrow, [x], FL)])
    assert result.status == "unsupported" and "highest shader model is 5.1" in result.reason
    assert ran.status == "ok" and ran.outputs[0].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert host.created == [1]  # one session, the 32-bit Cast's alone

"""The stress profile and the size guard, fast: recipes, ids, the budget, chunked comparison and digests.

No test here builds a large tensor: the guard is checked on descriptors of 2^40 elements, the
chunked comparison on small cases cut into many chunks.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import time
import tracemalloc

import numpy as np
import pytest
from dml_test_backends import AllLevels
from runner_helpers import case_lines, cli, lines

import oracle
from conformance.backends.base import RunResult
from conformance.cases.corpus import CASES_DIR, load
from conformance.cases.stress import StressCase, cuttable, expected_chunks, make_input, make_inputs, stress_cases
from conformance.run import execute as execute_module
from conformance.run import large
from conformance.run.config import RunConfig
from conformance.run.dispatch import execute
from conformance.run.execute import execute_case
from conformance.run.options import parse_bytes
from conformance.run.record import Category, Record
from conformance.run.units import Work
from oracle import DataType, PaddingMode
from oracle.checks import TensorDesc

# The ids are names users type and waivers match: they never change meaning.
STABLE_IDS = [
    "SLICE-stress-axis-past-65535",
    "SLICE1-stress-axis-past-65535",
    "PADDING-stress-axis-past-65535",
    "PADDING-stress-axis2-past-65535-edge",
    "SPLIT-stress-axis-past-65535",
    "SLICE-stress-in-past-2GiB",
    "PADDING-stress-out-past-2GiB",
    "PADDING-stress-out-past-4GiB",
    "SLICE-stress-8d-large-strides",
    "SLICE1-stress-8d-negative-strides",
    "PADDING-stress-8d-reflection",
    "SPLIT-stress-8d",
    "SPLIT-stress-many-outputs",
    "SPLIT-stress-uneven-256MiB",
    "PADDING-stress-reflection-past-axis",
    "PADDING-stress-symmetric-past-axis",
    "PADDING-stress-edge-past-axis",
    "SLICE1-stress-reverse-256MiB",
    "PADDING-stress-symmetric-256MiB",
    "SLICE-stress-stride-past-65535",
    "PADDING1-stress-axis-past-65535",
    "PADDING1-stress-8d-edge",
    "JOIN-stress-axis-past-65535",
    "JOIN-stress-8d",
    "TILE-stress-axis-past-65535",
    "TILE-stress-8d",
    "TILE-stress-256MiB-from-4KiB",
    "ELEMENT_WISE_IDENTITY-stress-axis-past-65535",
    "ELEMENT_WISE_IDENTITY-stress-8d",
    "DEPTH_TO_SPACE-stress-axis-past-65535",
    "DEPTH_TO_SPACE1-stress-axis-past-65535",
    "SLICE_GRAD-stress-axis-past-65535",
    "SLICE_GRAD-stress-8d-negative-strides",
    "SPACE_TO_DEPTH-stress-block-257",
    "SPACE_TO_DEPTH1-stress-axis-past-65535",
    "SPACE_TO_DEPTH1-stress-256MiB",
    "REVERSE_SUBSEQUENCES-stress-axis-past-65535",
    "REVERSE_SUBSEQUENCES-stress-8d",
    "REVERSE_SUBSEQUENCES-stress-64MiB-uint64-lengths",
    "CAST-stress-axis-past-65535",
    "CAST-stress-8d",
    "CAST-stress-256MiB",
    "ONE_HOT-stress-axis-past-65535",
    "ONE_HOT-stress-8d",
    "ONE_HOT-stress-64MiB",
    "GATHER-stress-axis-past-65535",
    "GATHER-stress-8d",
    "GATHER-stress-embedding-64MiB",
    "GATHER_ELEMENTS-stress-axis-past-65535",
    "GATHER_ELEMENTS-stress-8d",
    "GATHER_ND-stress-axis-past-65535",
    "GATHER_ND-stress-8d",
    "GATHER_ND1-stress-axis-past-65535",
    "GATHER_ND1-stress-8d",
    "SCATTER-stress-axis-past-65535",
    "SCATTER-stress-8d",
    "SCATTER-stress-64MiB",
    "SCATTER_ND-stress-axis-past-65535",
    "SCATTER_ND-stress-8d",
    "FILL_VALUE_CONSTANT-stress-axis-past-65535",
    "FILL_VALUE_CONSTANT-stress-8d",
    "FILL_VALUE_CONSTANT-stress-256MiB",
    "FILL_VALUE_SEQUENCE-stress-axis-past-65535",
    "FILL_VALUE_SEQUENCE-stress-8d-wrap",
    "FILL_VALUE_SEQUENCE-stress-64MiB-wrap",
    "DIAGONAL_MATRIX-stress-axis-past-65535",
    "DIAGONAL_MATRIX-stress-height-past-65535",
    "DIAGONAL_MATRIX1-stress-height-past-65535",
    "DIAGONAL_MATRIX1-stress-width-past-65535-no-input",
    "DIAGONAL_MATRIX1-stress-64MiB",
]
# The operators whose IndicesTensor's values decide what is open (an index out of range, a target written twice):
# their descriptors reach the entries; the recipe's indices must not.
VALUE_DECIDED = {
    "U-GATHER-1",
    "U-GELEM-1",
    "U-GND-1",
    "U-SCATTER-1",
    "U-SCATTER-2",
    "U-SCATND-1",
    "U-SCATND-2",
}
SMALL = 32 << 20  # bytes: the cases the tests may build


def by_id(case_id: str) -> StressCase:
    return next(c for c in stress_cases() if c.id == case_id)


def total_bytes(case: StressCase) -> int:
    return sum(oracle.tensor_bytes(case.descriptor).values())


def small_cases() -> list[StressCase]:
    return [c for c in stress_cases() if total_bytes(c) <= SMALL]


def outputs_of(case: StressCase) -> list[TensorDesc]:
    return list(case.descriptor.output_tensors)


def input_bytes(desc) -> int:
    return sum(math.prod(t.sizes) * t.data_type.numpy.itemsize for t in desc.input_tensors)


# --- the generator -------------------------------------------------------------------------------


def test_ids_are_stable_and_every_case_is_valid_and_fully_specified():
    cases = stress_cases()
    assert [c.id for c in cases] == STABLE_IDS
    assert [c.descriptor for c in stress_cases()] == [c.descriptor for c in cases]
    for c in cases:
        oracle.validate(c.descriptor, c.feature_level)  # raises with the clause if not
        # judged everywhere, never observed: no entry, or only ones the indices decide (test_indices_reach_no_entry)
        assert set(oracle.unspecified(c.descriptor)) <= VALUE_DECIDED, c.id
        assert c.operator == c.id.split("-")[0]


def index_input(case: StressCase) -> list[np.ndarray]:
    """The case's inputs as far as an open-element mask reads them: the IndicesTensor (input 1) built, the data
    left empty (so the large cases build only their indices)."""
    n = len(case.descriptor.input_tensors)
    return [make_input(case, 1) if j == 1 else np.empty(0) for j in range(n)]


@pytest.mark.parametrize("case", [c for c in stress_cases() if oracle.unspecified(c.descriptor)], ids=lambda c: c.id)
def test_indices_are_in_range_distinct_and_signed_both_ways(case):
    """GATHER*, SCATTER*: every index in range and no SCATTER target written twice, so no element is open (an
    out-of-range index: U-GATHER-1...; a repeated target: U-SCATTER-1, E-SCATTER-*); a signed index type holds
    indices counted from the end as well as from the start (GATHER.3, SCATTER.3...)."""
    xs = index_input(case)
    masks = oracle.unspecified_mask(case.descriptor, xs)
    assert [int(m.sum()) for m in masks] == [0], case.id
    indices = xs[1]
    assert indices.shape == case.descriptor.indices_tensor.sizes
    assert indices.dtype == case.descriptor.indices_tensor.data_type.numpy
    if indices.dtype.kind == "i":
        assert (indices < 0).any() and (indices > 0).any(), case.id


def test_scatter_targets_are_distinct_and_a_repeat_would_be_seen():
    """The recipe's SCATTER indices along each line are distinct; the same indices with one target repeated open
    elements (U-SCATTER-1): the mask the test above relies on does see a repeat."""
    case = by_id("SCATTER-stress-8d")
    xs = index_input(case)
    lines = np.moveaxis(xs[1], case.descriptor.axis, -1).reshape(-1, case.descriptor.indices_tensor.sizes[5])
    n = case.descriptor.input_tensor.sizes[5]
    assert all(len(set(int(v) % n for v in line)) == len(line) for line in lines)
    repeated = xs[1].copy()
    repeated[(0,) * 5 + (1,) + (0, 0)] = repeated[(0,) * 8]
    assert oracle.unspecified_mask(case.descriptor, [xs[0], repeated, xs[2]])[0].sum() == 1


def test_fills_and_diagonals_get_no_input_and_diagonal_matrix1_its_optional_one():
    for c in stress_cases():
        if c.operator in ("FILL_VALUE_CONSTANT", "FILL_VALUE_SEQUENCE", "DIAGONAL_MATRIX") or c.id.endswith("no-input"):
            assert make_inputs(c) == [], c.id
    (x,) = make_inputs(by_id("DIAGONAL_MATRIX1-stress-height-past-65535"))
    assert x.shape == (70001, 3) and x.dtype == np.uint8


def test_the_profile_reaches_directmls_limits():
    cases = stress_cases()
    for operator in oracle.OPERATORS:  # an axis past 65,535 (D3D12's thread groups per dimension) for each
        assert any(c.operator == operator and max(max(t.sizes) for t in outputs_of(c)) > 65535 for c in cases), operator
    out_bytes = [sum(math.prod(t.sizes) * t.data_type.numpy.itemsize for t in outputs_of(c)) for c in cases]
    assert max(out_bytes) > 2**32 and any(2**31 < b <= 2**32 for b in out_bytes)
    in_bytes = [input_bytes(c.descriptor) for c in cases]
    assert max(in_bytes) > 2**31
    # every axis > 1 in the data: the first input or the first output (ONE_HOT's indices have 1 along Axis, FILL_VALUE_*
    # has no input)
    eight_d = [
        c
        for c in cases
        if c.rank == 8
        and any(min(t.sizes) > 1 for t in (*c.descriptor.input_tensors[:1], *c.descriptor.output_tensors[:1]))
    ]
    eight_d_allowed = {op for op in oracle.OPERATORS if any(oracle.min_feature_level(op, t, 8) for t in DataType)}
    # not DEPTH_TO_SPACE* (4-D only: D2S.6, D2S1.7), DIAGONAL_MATRIX* (2-4: DIAG.5, DIAG1.6)
    assert {c.operator for c in eight_d} == eight_d_allowed
    assert not {"DEPTH_TO_SPACE", "DIAGONAL_MATRIX", "DIAGONAL_MATRIX1"} & eight_d_allowed
    assert max(len(outputs_of(c)) for c in cases) >= 256  # SPLIT into many outputs
    past_axis = {
        c.descriptor.padding_mode
        for c in cases
        if c.operator == "PADDING"
        and any(
            max(s, e) > n
            for n, s, e in zip(c.descriptor.input_tensor.sizes, c.descriptor.start_padding, c.descriptor.end_padding)
        )
    }
    assert {PaddingMode.REFLECTION, PaddingMode.SYMMETRIC, PaddingMode.EDGE} <= past_axis


def test_inputs_are_deterministic_and_not_periodic():
    case = by_id("SPLIT-stress-axis-past-65535")
    a, b = make_input(case), make_input(case)
    assert a.shape == case.descriptor.input_tensor.sizes and a.dtype == np.int32
    assert a.tobytes() == b.tobytes()
    other = make_input(dataclasses.replace(case, seed=1))
    assert a.tobytes() != other.tobytes()
    flat = a.reshape(-1)
    assert len(np.unique(flat[:65536])) > 30000  # a wrong read almost never gives the right bits


@pytest.mark.parametrize("case", small_cases(), ids=lambda c: c.id)
def test_chunks_along_axis_0_are_the_oracles_whole_outputs(case):
    xs = make_inputs(case)
    whole = oracle.compute(case.descriptor, xs)
    pieces: dict[int, list[tuple[int, np.ndarray]]] = {}
    out_bytes = sum(o.nbytes for o in whole)
    rows = case.descriptor.output_tensors[0].sizes[0]
    chunk = 1 if rows <= 4096 else out_bytes // 997  # one row per chunk; past 4,096 rows about a thousand chunks
    for j, row, part in expected_chunks(case.descriptor, xs, chunk_bytes=chunk):
        pieces.setdefault(j, []).append((row, part))
    assert sorted(pieces) == list(range(len(whole)))
    for j, out in enumerate(whole):
        rows = sorted(pieces[j], key=lambda p: p[0])
        assert [r for r, _ in rows] == sorted({r for r, _ in rows})
        assert np.concatenate([p for _, p in rows]).tobytes() == out.tobytes(), (case.id, j)


# The large cases' shapes made small (their cutters are otherwise checked only on the small cases above).
SMALL_LARGE = [
    ("GATHER-stress-embedding-64MiB", oracle.gather_desc(TensorDesc.of("FLOAT32", [13, 1, 1, 4]), [1, 1, 1, 9], 0, 1, "INT64")),
    ("SCATTER-stress-64MiB", oracle.scatter_desc(TensorDesc.of("FLOAT32", [6, 11]), [6, 4], 1, "UINT32")),
    ("FILL_VALUE_SEQUENCE-stress-64MiB-wrap", dataclasses.replace(by_id("FILL_VALUE_SEQUENCE-stress-64MiB-wrap").descriptor, output_tensor=TensorDesc.of("UINT32", [5, 1, 3, 7]))),
    ("DIAGONAL_MATRIX1-stress-64MiB", oracle.DiagonalMatrix1Desc(TensorDesc.of("FLOAT32", [3, 5, 6]), TensorDesc.of("FLOAT32", [3, 5, 6]), DataType.FLOAT32, 0.5, -1, 2)),
]  # fmt: skip


@pytest.mark.parametrize(("case_id", "desc"), SMALL_LARGE, ids=[i for i, _ in SMALL_LARGE])
def test_the_large_cases_cut_as_the_small_ones_do(case_id, desc):
    case = dataclasses.replace(by_id(case_id), descriptor=desc)
    xs = make_inputs(case)
    (whole,) = oracle.compute(desc, xs)
    assert cuttable(desc) and [int(m.sum()) for m in oracle.unspecified_mask(desc, xs)] == [0]
    rows = [(row, part) for _, row, part in expected_chunks(desc, xs, chunk_bytes=1)]
    assert [r for r, _ in rows] == list(range(desc.output_tensor.sizes[0]))  # one row per chunk
    assert np.concatenate([p for _, p in rows]).tobytes() == whole.tobytes()


def test_cases_list_shows_the_profile():
    proc = cli("cases", "list", "--profile", "stress")
    assert proc.returncode == 0, proc.stderr
    assert [line.split("\t")[0] for line in proc.stdout.splitlines()] == STABLE_IDS


# --- the size guard ------------------------------------------------------------------------------


def huge_case() -> StressCase:
    """2^40 UINT8 elements in, and out: a terabyte each."""
    t = TensorDesc.of("UINT8", [1024, 1024, 1024, 1024])
    desc = oracle.SliceDesc(t, t, (0, 0, 0, 0), t.sizes, (1, 1, 1, 1))
    return StressCase("SLICE-stress-test-2-40", desc, "2^40 elements")


def test_guard_refuses_2_to_the_40_elements_instantly_without_allocating(monkeypatch):
    monkeypatch.setattr(execute_module, "make_inputs", lambda case: pytest.fail("the input was built"))
    tracemalloc.start()
    started = time.perf_counter()
    record = execute(Work(0, huge_case()), AllLevels(), None, max_bytes=parse_bytes("8GiB"))
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert record.category is Category.UNSUPPORTED
    assert "2,199,023,255,552 bytes (2 TiB)" in record.reason  # needed: input + output, the oracle holds no copy
    assert "input_tensor UINT8 [1024,1024,1024,1024] = 1,099,511,627,776 bytes (1 TiB)" in record.reason
    assert "--max-bytes is 8,589,934,592 bytes (8 GiB)" in record.reason
    assert elapsed < 0.5 and peak < 1 << 20


def test_an_over_budget_case_is_unsupported_with_the_sizes_and_the_backends_copies(monkeypatch):
    monkeypatch.setattr(execute_module, "make_inputs", lambda case: pytest.fail("the input was built"))
    case = by_id("SPLIT-stress-many-outputs")  # 8 MiB in, 8 MiB out
    backend = AllLevels()
    backend.tensor_copies = 6.0
    record = execute(Work(3, case), backend, None, max_bytes=parse_bytes("100MiB"))
    assert record.category is Category.UNSUPPORTED, record.reason
    assert "needs 125,829,120 bytes (120 MiB)" in record.reason  # 16 MiB x 7 + the 8 MiB of expected output
    assert "x 7: the run's own and 6 held by all-levels (tensor_copies)" in record.reason
    assert "output_tensors[511] FLOAT32 [2,4,64,8] = 16,384 bytes (16 KiB)" in record.reason
    assert record.index == 3 and record.digests is None


def test_the_budget_counts_the_whole_output_where_the_oracle_cannot_cut_it():
    tile = by_id("TILE-stress-256MiB-from-4KiB")  # no cutter: the oracle's 256 MiB held at once
    fill = by_id("FILL_VALUE_CONSTANT-stress-256MiB")  # cut along axis 0: 64 MiB at a time
    assert not cuttable(tile.descriptor) and cuttable(fill.descriptor)
    assert "+ 268,435,456 bytes (256 MiB) of expected output" in large.over_budget(
        tile.descriptor, AllLevels(), 1, True
    )
    assert "+ 67,108,864 bytes (64 MiB) of expected output" in large.over_budget(fill.descriptor, AllLevels(), 1, True)


def test_the_guard_applies_to_ordinary_cases_too():
    case = load([CASES_DIR / "examples"]).cases[0]
    record = execute_case(Work(0, case), AllLevels(), None, max_bytes=8)
    assert record.category is Category.UNSUPPORTED
    assert "over the memory budget" in record.reason and "--max-bytes is 8 bytes" in record.reason
    assert execute_case(Work(0, case), AllLevels(), None, max_bytes=None).category is Category.PASS


def test_byte_counts_and_the_defaults_of_the_profile():
    assert parse_bytes("8GiB") == 8 * 2**30 and parse_bytes("512MiB") == 2**29 and parse_bytes("1000") == 1000
    for bad in ("", "lots", "8XB", "0"):
        with pytest.raises(ValueError):
            parse_bytes(bad)
    stress = RunConfig(profile="stress")
    assert stress.timeout_s == 900 and RunConfig(profile="quick").timeout_s == 60
    assert RunConfig(profile="stress", timeout=5, given=frozenset({"timeout"})).timeout_s == 5
    assert RunConfig(max_bytes=123).max_bytes_budget == 123
    assert 0 < RunConfig().max_bytes_budget == oracle.default_max_bytes(0.5)


# --- chunked comparison and digests --------------------------------------------------------------


class Planted(AllLevels):
    """The oracle's answer with one element changed at `where` in output `output`, or with extra elements."""

    name = "planted"

    def __init__(self, output: int = 0, where: tuple[int, ...] | None = None, grow: bool = False):
        self.output, self.where, self.grow = output, where, grow

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        outputs = [o.copy() for o in oracle.compute(descriptor, inputs)]
        if self.where is not None:
            bits = outputs[self.output].view(f"u{outputs[self.output].itemsize}")
            bits[self.where] ^= 0x41
        if self.grow:
            outputs[self.output] = np.concatenate([outputs[self.output].reshape(-1)] * 2)
        return RunResult.ok(outputs)


def sha(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def test_a_difference_in_a_late_chunk_is_found_with_its_whole_output_coordinate():
    case = by_id("SLICE1-stress-axis-past-65535")  # output [4,1,1,87380] FLOAT16
    x = make_input(case)
    expected = oracle.compute(case.descriptor, [x])[0]
    where = (3, 0, 0, 70001)  # in the last of four one-row chunks
    backend = Planted(where=where)
    actual = backend.run(case.descriptor, [x], case.feature_level).outputs[0]
    record = Record(case.id, case.operator, Category.INTERRUPTED)
    large.judge_chunked(case.descriptor, [x], [actual], record, chunk_bytes=1)
    assert record.category is Category.FAIL
    assert record.mismatch is not None and record.mismatch.count == 1
    first = record.mismatch.first[0]
    assert first.coordinate == list(where) and first.output == 0
    assert first.expected == repr(expected[where].item()) and first.actual == repr(actual[where].item())
    assert record.digests is not None and record.digests.chunks == 4
    assert record.digests.expected == [sha(expected)] and record.digests.actual == [sha(actual)]
    assert record.tensors is None  # a large record keeps digests, never the tensors


def test_a_passing_split_records_a_digest_per_output_and_no_tensors():
    case = by_id("SPLIT-stress-8d")
    record = execute(Work(0, case), AllLevels(), None, max_bytes=1 << 30)
    assert record.category is Category.PASS, record.reason
    whole = oracle.compute(case.descriptor, [make_input(case)])
    assert record.digests is not None
    assert record.digests.expected == record.digests.actual == [sha(o) for o in whole]
    assert record.tensors is None and record.mismatch is None


def test_a_difference_in_a_later_split_output_is_reported_there():
    case = by_id("SPLIT-stress-8d")
    record = execute(Work(0, case), Planted(output=2, where=(1, 2, 3, 4, 2, 6, 7, 8)), None, max_bytes=None)
    assert record.category is Category.FAIL
    assert record.mismatch.count == 1
    assert (record.mismatch.first[0].output, record.mismatch.first[0].coordinate) == (2, [1, 2, 3, 4, 2, 6, 7, 8])
    assert record.digests.expected[:2] == record.digests.actual[:2] != record.digests.expected[2:]


def test_a_result_larger_than_its_descriptor_is_refused_unread():
    case = by_id("SPLIT-stress-axis-past-65535")
    record = execute(Work(0, case), Planted(output=1, grow=True), None, max_bytes=None)
    assert record.category is Category.FAIL
    assert "output 1 is 2,080,048 bytes" in record.reason and "larger than the 1,040,024 bytes" in record.reason
    assert record.reason.endswith("not read") and record.digests is None and record.tensors is None
    small = load([CASES_DIR / "examples"]).cases[0]
    record = execute_case(Work(0, small), Planted(grow=True), None)
    assert record.category is Category.FAIL and "not read" in record.reason and record.tensors is None


# --- through the CLI and the worker processes ---------------------------------------------------


def test_a_stress_run_through_the_cli(tmp_path):
    out = tmp_path / "out"
    proc = cli(
        "run", "--backend", "dml_test_backends:AllLevels", "--profile", "stress", "--out", str(out),
        "--case", "SPLIT-stress-8d", "--case", "SPLIT-stress-many-outputs", "--max-bytes", "20MiB",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (results,) = out.glob("results-*.jsonl")
    header = lines(results)[0]
    assert header["profile"] == "stress" and header.get("jobs", 1) == 1 and header["timeout_s"] == 900
    assert header["max_bytes"] == 20 << 20
    records = {r["id"]: r for r in case_lines(results)}
    assert records["SPLIT-stress-8d"]["category"] == "pass"
    assert len(records["SPLIT-stress-8d"]["digests"]["expected"]) == 3
    many = records["SPLIT-stress-many-outputs"]  # 16 MiB x 2 + 8 MiB of expected > 20 MiB
    assert many["category"] == "unsupported" and "--max-bytes is 20,971,520 bytes (20 MiB)" in many["reason"]
    assert "--profile stress" in header["repro"]


def test_a_failing_stress_case_keeps_digests_and_first_differences_in_results_and_report(tmp_path):
    out = tmp_path / "out"
    case_id = "SLICE1-stress-8d-negative-strides"
    proc = cli(
        "run", "--backend", "dml_test_backends:BitFlip", "--profile", "stress", "--case", case_id, "--out", str(out)
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (results,) = out.glob("results-*.jsonl")
    (record,) = case_lines(results)
    assert record["category"] == "fail" and "tensors" not in record
    assert record["mismatch"]["count"] == 1 and record["mismatch"]["first"][0]["coordinate"] == [0] * 8
    (expected,), (actual,) = record["digests"]["expected"], record["digests"]["actual"]
    case = by_id(case_id)
    assert expected == sha(oracle.compute(case.descriptor, [make_input(case)])[0]) != actual
    (report,) = out.glob("report-*.html")
    html = report.read_text()
    assert expected in html and actual in html and "sha256 of each output" in html


def test_explain_names_a_stress_case_and_how_to_run_it():
    proc = cli("explain", "SPLIT-stress-8d")
    assert proc.returncode == 2
    assert "SPLIT-stress-8d is a stress case" in proc.stderr
    assert "dml-conformance run --profile stress --case SPLIT-stress-8d" in proc.stderr


def test_a_batching_backend_never_gets_an_over_budget_case():
    from dml_test_backends import Batching

    from conformance.run.execute import Unsupported, prefetch

    cases = load([CASES_DIR / "examples"]).cases  # ten, of several sizes
    works = [Work(i, c) for i, c in enumerate(cases)]
    tensors = [oracle.tensor_bytes(c.descriptor) for c in cases]
    # tensor_copies 0: the tensors, and the expected outputs
    needed = [2 * sum(t.values()) - input_bytes(c.descriptor) for t, c in zip(tensors, cases)]
    sizes = sorted(set(needed))
    budget = sizes[len(sizes) // 2]  # of the distinct sizes: some fit, some do not
    fits = {w.index for w, n in zip(works, needed) if n <= budget}
    answered = prefetch(works, Batching(), None, max_bytes=budget)
    # what run_many answered: the cases that fit; the others carry the budget's reason, found without the backend
    ran = {i for i, a in answered.items() if not isinstance(a, Unsupported)}
    assert ran == fits and 0 < len(fits) < len(works)
    assert all(isinstance(answered[w.index], Unsupported) for w in works if w.index not in fits)
    for w in works:
        record = execute(w, Batching(), None, prefetched=answered.get(w.index), max_bytes=budget)
        # a case that fits: what it gives with no budget (pass, or observed: SCATTER's example 1 writes a target twice)
        unbudgeted = execute(w, AllLevels(), None, max_bytes=None).category
        assert unbudgeted in (Category.PASS, Category.OBSERVED), w.unit.id
        assert record.category is (unbudgeted if w.index in fits else Category.UNSUPPORTED), record.reason

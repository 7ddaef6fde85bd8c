"""Output buffers judged byte by byte (conformance.judging.buffers, LAYOUT.4, U-LAYOUT-1).

A write past an output's TotalTensorSizeInBytes fails, naming the byte; a write into padding bytes
inside it is observed (DirectML's page permits it); a backend without tensor layouts is unsupported.
"""

from __future__ import annotations

from dml_test_backends import AllLevels, NoInvalidChecks, WritesPadding, WritesPastOutput

import oracle
from conformance.cases.corpus import CASES_DIR, load
from conformance.run.dispatch import execute
from conformance.run.record import Category
from conformance.run.units import Work

LAYOUT = {c.id: c for c in load([CASES_DIR / "curated" / "LAYOUT.json"]).cases}
EXAMPLES = load([CASES_DIR / "examples"]).cases


def run(backend, case):
    return execute(Work(0, case), backend, None)


def test_the_oracle_backend_passes_every_layout_case_through_buffers():
    for case in LAYOUT.values():
        record = run(AllLevels(), case)
        assert record.category in (Category.PASS, Category.OBSERVED), (case.id, record.reason)


def test_one_element_written_past_the_output_fails_naming_the_byte_offset():
    # SLICE-layout-padded-rows: output FLOAT32 [2, 2] packed, 16 bytes; the extra element lands at byte 16.
    record = run(WritesPastOutput(), LAYOUT["SLICE-layout-padded-rows"])
    assert record.category is Category.FAIL
    assert "byte 16" in record.reason and "past TotalTensorSizeInBytes=16" in record.reason
    # The same on a packed case of the pages (every output judged the same way when buffers come back).
    record = run(WritesPastOutput(), EXAMPLES[0])
    assert record.category is Category.FAIL and "past TotalTensorSizeInBytes" in record.reason


def test_a_write_into_padding_inside_the_buffer_is_observed_not_failed():
    # JOIN-layout-oversized-output: 4 INT8 elements in 64 bytes; byte 63 is padding.
    record = run(WritesPadding(), LAYOUT["JOIN-layout-oversized-output"])
    assert record.category is Category.OBSERVED
    assert "first at byte 63" in record.reason and "U-LAYOUT-1" in record.reason
    # SPLIT-layout-padded-and-permuted-outputs: output 0 is INT32 [2, 2] with Strides [3, 1]: elements at element
    # offsets 0, 1, 3, 4, so TotalTensorSizeInBytes is 20 and its padding is element 2 (bytes 8..11); the last
    # byte belongs to an element, so WritesPadding writes nothing there: a pass.
    record = run(WritesPadding(), LAYOUT["SPLIT-layout-padded-and-permuted-outputs"])
    assert record.category is Category.PASS, record.reason


def test_a_backend_without_tensor_layouts_reports_them_unsupported():
    record = run(NoInvalidChecks(), LAYOUT["SLICE-layout-padded-rows"])
    assert record.category is Category.UNSUPPORTED and "cannot express tensor layouts" in record.reason
    assert oracle.layout.has_layout(LAYOUT["SLICE-layout-padded-rows"].descriptor)


def test_records_carry_the_layout_and_the_report_maps_it(tmp_path):
    from runner_helpers import case_lines, cli

    proc = cli("run", "--backend", "oracle", "--operators", "SLICE1", "--generated", "150", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    records = case_lines(next(tmp_path.glob("results-*.jsonl")))
    kinds = {r.get("layout", "packed") for r in records if not r.get("hypothesis")}
    assert "packed" in kinds and len(kinds) >= 3, kinds  # one generated case in five states a layout
    assert {r.get("layout") for r in records if r["id"] == "SLICE1-layout-column-major-input"} == {"permuted"}
    html = next(tmp_path.glob("report-*.html")).read_text(encoding="utf-8")
    # The layout view is one grid (operators down, layouts across): `permuted` is one of its columns.
    layout_grid = html.split('data-key="layout"', 1)[1].split("</table>", 1)[0]
    assert 'data-value="permuted"><span>permuted</span></th>' in layout_grid


def test_compositions_run_on_backends_with_run_graph_and_are_unsupported_elsewhere(tmp_path):
    from runner_helpers import case_lines, cli

    proc = cli(
        "run",
        "--backend",
        "oracle",
        "--generated",
        "0",
        "--hypothesis-examples",
        "0",
        "-k",
        "graph",
        "--out",
        str(tmp_path / "a"),
    )
    assert proc.returncode == 0, proc.stderr
    records = case_lines(next((tmp_path / "a").glob("results-*.jsonl")))
    assert records and all(r["category"] == "pass" and ".graph-" in r["id"] for r in records)
    proc = cli(
        "run",
        "--backend",
        "dml_test_backends:NoGraphs",
        "--generated",
        "0",
        "--hypothesis-examples",
        "0",
        "-k",
        "graph",
        "--out",
        str(tmp_path / "b"),
    )
    records = case_lines(next((tmp_path / "b").glob("results-*.jsonl")))
    assert records and all(r["category"] == "unsupported" and "runs no DML graphs" in r["reason"] for r in records)


def test_a_one_node_composition_is_explained_by_its_operators_known_deviation():
    """The node alone deviates as its operator does (here DML_SLICE1's merged axes): the known issue applies."""
    from conformance.backends.base import RunResult
    from conformance.cases.compositions import compositions
    from conformance.judging import deviations
    from conformance.judging.expectations import known_issues

    class MergesAxes(AllLevels):
        def run_graph(self, graph, inputs, feature_level):
            return RunResult.ok(deviations.dml_slice1_merged_axes(graph.nodes[0], inputs[:1]))

    stored = load([CASES_DIR / "curated"]).cases
    unit = next(u for u in compositions(stored) if u.id == "SLICE1-output-shorter-than-full-window.graph-unused-input")
    record = run(MergesAxes(), unit)
    assert record.category is Category.FAIL and record.mismatch.explained_by == ["dml-slice1-merged-axes"]
    assert known_issues("directml").apply(record).category is Category.WAIVED


def test_a_composition_whose_graph_writes_past_an_output_fails_naming_the_byte():
    """A graph's output buffers are judged as a case's are: the guard after TotalTensorSizeInBytes is not the tensor's."""
    from conformance.backends.base import RunResult
    from conformance.cases.compositions import compositions

    class GraphWritesPastOutput(WritesPastOutput):
        def run_graph(self, graph, inputs, feature_level):
            result = super().run_graph(graph, inputs, feature_level)
            buffers = []
            for out, tensor in zip(result.outputs, graph.outputs):
                buffer = oracle.layout.pack(out, tensor, oracle.layout.output_buffer(tensor))
                self.touch(buffer, tensor)
                buffers.append(buffer)
            return RunResult.ok([], buffers=buffers)

    stored = load([CASES_DIR / "examples"]).cases
    unit = next(u for u in compositions(stored) if u.id == "SPLIT-example-1.graph-split-join")
    record = run(GraphWritesPastOutput(), unit)
    # The JOIN's output is the example's input, FLOAT32 [1, 1, 6, 2]: 48 bytes; the element written after it starts at byte 48.
    assert (
        record.category is Category.FAIL and "byte 48" in record.reason and "TotalTensorSizeInBytes=48" in record.reason
    )

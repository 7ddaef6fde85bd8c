"""What the report computes for comparing runs, from records made here: patterns of differences, regression pairs."""

from __future__ import annotations

from conformance.report.grid import comparison
from conformance.report.regression import apart, pairs
from conformance.run.record import FORMAT, FORMAT_VERSION, Category, Header, Record
from conformance.run.results import Results

LINUX = {"system": "Linux"}


def _run(backend: str, categories: dict[str, tuple[str, str]], versions: dict[str, str] | None = None) -> Results:
    """A run of `backend` (its identity made from `versions` by the reader, as for a file without one)."""
    header = Header(FORMAT, FORMAT_VERSION, backend=backend, backend_versions=versions or {}, platform=LINUX)
    records = [Record(i, i.split("-")[0], Category(c), reason) for i, (c, reason) in categories.items()]
    return Results(f"{backend}.jsonl", header, records)


def test_differences_are_grouped_by_categories_and_reason_with_counts_failing_first():
    level = "implements feature level 6.2, the case needs {}"  # after "directml ": the backend's name is dropped
    older = _run(
        "directml",
        {
            "SLICE-a": ("unsupported", "directml " + level.format("6.3")),
            "SLICE-b": ("unsupported", "directml " + level.format("6.3")),
            "SLICE-c": ("unsupported", "directml " + level.format("6.4")),
            "PADDING-a": ("fail", "3 element(s) differ; first at output 0 [0,1]: expected 1.0, got 2.0"),
            "PADDING-b": ("fail", "5 element(s) differ; first at output 0 [2,2]: expected 3.0, got 0.0"),
            "SPLIT-a": ("pass", "bit-exact"),
        },
        {"directml": "1.13.1"},
    )
    newer = _run("directml", {i: ("pass", "bit-exact") for i in [r.id for r in older.records]}, {"directml": "1.15.4"})
    found = comparison([older, newer])
    assert (found.cases, found.differing) == (6, 5)
    shown = [(p.categories, p.count, p.failing, p.reasons(), p.ids) for p in found.patterns]
    assert shown == [
        # Failing first though smaller; counts in the headline as N, the mismatch's detail (after ';') dropped.
        (("fail", "pass"), 2, True, [("1", "N element(s) differ")], ["PADDING-a", "PADDING-b"]),
        (("unsupported", "pass"), 2, False, [("1", level.format("6.3"))], ["SLICE-a", "SLICE-b"]),
        (("unsupported", "pass"), 1, False, [("1", level.format("6.4"))], ["SLICE-c"]),  # 6.3 and 6.4 stay apart
    ]


def test_a_case_one_run_lacks_is_absent_there_and_backends_agreeing_but_for_their_names_read_as_one():
    one = _run("onnxruntime-cpu", {"PADDING-a": ("unsupported", "onnxruntime-cpu cannot express padding mode WRAP")})
    two = _run("onnx-reference", {"PADDING-a": ("unsupported", "onnx-reference cannot express padding mode WRAP")})
    three = _run("oracle", {"PADDING-a": ("pass", "bit-exact"), "SLICE-z": ("fail", "1 element(s) differ")})
    four = _run("other", {"PADDING-a": ("unsupported", "onnx-reference cannot express padding mode WRAP")})
    patterns = comparison([one, two, three, four]).patterns
    assert [(p.categories, p.reasons()) for p in patterns] == [
        (("absent", "absent", "fail", "absent"), [("3", "1 element(s) differ")]),
        (
            ("unsupported", "unsupported", "pass", "unsupported"),
            [
                ("1, 2", "cannot express padding mode WRAP"),
                ("4", "onnx-reference cannot express padding mode WRAP"),  # another backend's name: kept
            ],
        ),
    ]


def test_regressions_pair_runs_of_one_identity_and_leave_other_identities_apart():
    cases = {"SLICE-a": ("pass", "bit-exact")}
    runs = [
        _run("directml", cases, {"directml": "1.15.4", "adapter": "GPU A"}),
        _run("directml", cases, {"directml": "1.13.1", "adapter": "GPU A"}),
        _run("onnxruntime-cpu", cases, {"onnxruntime": "1.32.0"}),
        _run("directml", cases, {"directml": "1.15.4", "adapter": "GPU A"}),  # a later run of the first
    ]
    assert pairs(runs) == [(0, 3)]
    assert [(a.before, a.after, a.fields) for a in apart(runs)] == [(0, 1, ("directml",))]


def test_a_gpu_and_an_npu_of_one_machine_are_compared_by_pattern_not_regressed():
    """Issue 33: one adapter name, two kinds (a Snapdragon X's GPU and NPU): two identities, and their differences
    grouped as two DirectML releases' are (the public report: DML_GATHER on a 3x3 input, one answer each)."""
    same = {"directml": "1.15.4.0", "adapter": "Qualcomm(R) Adreno(TM) X1-85 GPU"}
    gpu = _run(
        "directml", {"SLICE-a": ("pass", "bit-exact"), "SLICE-b": ("pass", "bit-exact")}, same | {"adapter_kind": "GPU"}
    )
    npu = _run(
        "directml",
        {"SLICE-a": ("pass", "bit-exact"), "SLICE-b": ("fail", "2 element(s) differ; first at output 0 [1,2]")},
        same | {"adapter_kind": "NPU"},
    )
    assert pairs([gpu, npu]) == []
    assert [(a.before, a.after, a.fields) for a in apart([gpu, npu])] == [(0, 1, ("adapter_kind",))]
    found = comparison([gpu, npu])
    assert [(p.categories, p.failing, p.ids) for p in found.patterns] == [(("pass", "fail"), True, ["SLICE-b"])]

"""Conditional waivers: a known deviation is waived only in the exact form observed.

The onnxruntime-cpu known-issues file waives FLOAT16 PADDING failures where only NaN bits
changed; a real value difference in the same kind of case must still fail.
"""

import dataclasses
import json

import numpy as np
import pytest

import oracle
from conformance.backends.base import Backend, Capabilities, RunResult
from conformance.cases.corpus import Case, Expected
from conformance.judging.expectations import ExpectationsError, known_issues, load_expectations
from conformance.run.execute import execute_case
from conformance.run.record import Category, Comparison, Record
from conformance.run.units import Work
from oracle import TensorDesc


def _half(bits):
    return np.array(bits, dtype="<u2").view("<f2")


def _padding_case(input_bits) -> Case:
    x = _half(input_bits).reshape(1, len(input_bits))
    desc = oracle.PaddingDesc(
        TensorDesc.of("FLOAT16", x.shape), TensorDesc.of("FLOAT16", (1, x.shape[1] + 1)), "EDGE", 0.0, (0, 0), (0, 1)
    )
    expected = oracle.compute(desc, [x])
    return Case(
        "PADDING-nan-payload", "PADDING", oracle.FeatureLevel.FL_5_0, desc, (x,), Expected("valid", tuple(expected))
    )


class _Replace(Backend):
    """Returns the oracle's output with element 0 replaced by given bits: a controlled deviation."""

    name = "replace"

    def __init__(self, bits: int):
        self.bits = bits

    def capabilities(self) -> Capabilities:
        return Capabilities()

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        out = oracle.compute(descriptor, inputs)[0].copy()
        out.view("<u2").reshape(-1)[0] = self.bits
        return RunResult.ok([out])


def test_shipped_onnxruntime_cpu_file_loads_and_is_conditional():
    exp = known_issues("onnxruntime-cpu")
    assert exp.waivers, "conformance/known_issues/onnxruntime-cpu.json is missing"
    assert all(w.when for w in exp.waivers), "a shipped waiver must be narrowed by `when`"
    assert known_issues("no-such-backend").waivers == []


def test_nan_payload_change_is_waived_value_change_is_not():
    exp = known_issues("onnxruntime-cpu")
    case = _padding_case([0x7E01, 0x3C00])  # a NaN with payload, then 1.0
    quieted = exp.apply(execute_case(Work(0, case), _Replace(0x7E00), None))
    assert quieted.category is Category.WAIVED and quieted.waived_category is Category.FAIL
    wrong_value = exp.apply(execute_case(Work(0, case), _Replace(0x3C00), None))  # NaN became 1.0: a real bug
    assert wrong_value.category is Category.FAIL


def test_when_fields_are_checked(tmp_path):
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"waivers": [{"prefix": "PADDING-", "reason": "r", "when": {"data_type": "FLOAT17"}}]}))
    with pytest.raises(ExpectationsError, match=r"\$\.waivers\[0\]\.when\.data_type"):
        load_expectations(path)
    path.write_text(json.dumps({"waivers": [{"prefix": "P", "reason": "r", "when": {"mismatch": "any"}}]}))
    with pytest.raises(ExpectationsError, match=r"when\.mismatch"):
        load_expectations(path)


def test_observed_results_are_never_flagged_as_stale_waivers():
    exp = known_issues("onnxruntime-cpu")
    record = Record(
        "PADDING-x",
        "PADDING",
        Category.OBSERVED,
        data_type="FLOAT16",
        mismatch=Comparison(False, nan_payload_only=True),
    )
    assert not exp.apply(record).waived_but_passed
    assert record.category is Category.OBSERVED


def _reflect_past_axis_case() -> tuple[oracle.PaddingDesc, np.ndarray, np.ndarray]:
    """[1, 2, 3] reflected by 5 on the left: one reflection reaches 2 elements, the other 3 it does not."""
    x = np.array([[1, 2, 3]], dtype=np.float32)
    desc = oracle.PaddingDesc(
        TensorDesc.of("FLOAT32", (1, 3)), TensorDesc.of("FLOAT32", (1, 8)), "REFLECTION", 0.0, (0, 5), (0, 0)
    )
    (y,) = oracle.compute(desc, [x], feature_level="6.4")
    return desc, x, y


def test_ort_reflect_past_axis_model_frees_exactly_what_one_reflection_does_not_reach():
    from conformance.judging.deviations import explain, ort_reflect_unwritten

    desc, x, y = _reflect_past_axis_case()
    assert y.tolist() == [[2, 1, 2, 3, 2, 1, 2, 3]]  # the pages fold periodically (PAD.3): ..3 2 | 1 2 3
    (free,) = ort_reflect_unwritten(desc)
    assert free.tolist() == [[True, True, True, False, False, False, False, False]]
    garbage = y.copy()
    garbage[0, :3] = [0, 1.5e30, np.nan]  # what ORT 1.24 left there: whatever the memory held
    assert "ort-cpu-reflect-past-axis" in explain(desc, [x], [garbage])
    garbage[0, 3] = 9  # wrong where one reflection reaches: not that deviation
    assert "ort-cpu-reflect-past-axis" not in explain(desc, [x], [garbage])


def test_a_crash_of_a_reflect_pad_past_its_axis_is_ort_124s_known_issue_and_no_other_crash_is():
    """ORT 1.24.4 reads outside the input for such a pad, which faults only when the read leaves mapped memory
    (PADDING1-32e35efc crashed the worker once in the Windows lane): that crash, on those cases and releases
    only, is the known issue; a crash anywhere else stays a crash."""
    reflect = {
        "input_tensor": {"data_type": "INT64", "sizes": [8, 4]},
        "output_tensor": {"data_type": "INT64", "sizes": [56, 4]},
        "padding_mode": "REFLECTION",
        "padding_value_data_type": "INT64",
        "padding_value": 0,
        "start_padding": [16, 0],
        "end_padding": [32, 0],
        "dimension_count": 2,
    }
    within = {
        **reflect,
        "output_tensor": {"data_type": "INT64", "sizes": [14, 4]},
        "start_padding": [3, 0],
        "end_padding": [3, 0],
    }

    def crash(descriptor: dict) -> Record:
        record = Record("PADDING1-x", "PADDING1", Category.CRASH, "the worker process exited: page fault")
        record.descriptor = descriptor
        return record

    old = known_issues("onnxruntime-cpu").for_versions({"onnxruntime": "1.24.4"})
    assert old.apply(crash(reflect)).category is Category.WAIVED
    assert old.apply(crash(within)).category is Category.CRASH  # one reflection reaches: no out-of-bounds read
    new = known_issues("onnxruntime-cpu").for_versions({"onnxruntime": "1.32.0"})
    assert new.apply(crash(reflect)).category is Category.CRASH  # 1.32 refuses these pads: no excuse there


def test_a_waiver_with_versions_applies_only_to_runs_of_those_versions(tmp_path):
    path = tmp_path / "e.json"
    path.write_text(
        json.dumps(
            {
                "waivers": [
                    {"prefix": "PADDING-", "versions": {"onnxruntime": "<1.32"}, "reason": "old ORT"},
                    {"prefix": "SPLIT-", "reason": "every version"},
                ]
            }
        )
    )
    loaded = load_expectations(path)
    old = loaded.for_versions({"onnxruntime": "1.24.4", "provider": "CPUExecutionProvider"})
    assert [w.reason for w in old.waivers] == ["old ORT", "every version"]
    assert [w.reason for w in loaded.for_versions({"onnxruntime": "1.32.0"}).waivers] == ["every version"]
    assert [w.reason for w in loaded.for_versions({"directml": "1.15.4.0"}).waivers] == ["every version"]  # unknown: no
    assert [w.reason for w in loaded.for_versions({"onnxruntime": "unknown"}).waivers] == ["every version"]


def test_a_bad_version_range_names_the_waiver(tmp_path):
    path = tmp_path / "e.json"
    path.write_text(json.dumps({"waivers": [{"prefix": "P", "versions": {"onnxruntime": "about 1.2"}, "reason": "r"}]}))
    with pytest.raises(
        ExpectationsError, match=r"\$\.waivers\[0\]\.versions\.onnxruntime: 'about 1.2' is not a version range"
    ):
        load_expectations(path)


def test_the_shipped_onnxruntime_known_issues_say_which_releases_they_hold_for():
    for waiver in known_issues("onnxruntime-cpu").waivers:
        assert waiver.versions.get("onnxruntime"), waiver.reason


def test_the_padding_wrap_model_accepts_only_a_sum_that_is_right_modulo_2_32_and_nothing_else_wrong():
    from conformance.judging.deviations import dml_padding_sizes_wrap

    def desc(start, end, out, mode="EDGE", data_type="FLOAT32"):
        return oracle.PaddingDesc(
            TensorDesc.of(data_type, (4,)), TensorDesc.of(data_type, (out,)), mode, 0.0, (start,), (end,)
        )

    level = oracle.FeatureLevel.parse("6.4")
    assert dml_padding_sizes_wrap(desc(2**32 - 1, 2, 5), level)  # 4 + (2^32 - 1) + 2 = 2^32 + 5
    assert not dml_padding_sizes_wrap(desc(1, 2, 8), level)  # 7 != 8: wrong, but not by a wrap
    assert not dml_padding_sizes_wrap(desc(1, 2, 7), level)  # valid: nothing to explain
    assert not dml_padding_sizes_wrap(desc(2**32 - 1, 2, 5, data_type="UINT64"), oracle.FeatureLevel.parse("3.1"))


def test_the_slice_grad_window_model_accepts_only_writes_inside_the_output_from_a_window_inside_it():
    """dml-slice-grad-unchecked-window, on the descriptors DirectML 1.15.4 and 1.12.0 accepted and refused."""
    from conformance.judging.deviations import dml_slice_grad_unchecked_window

    def desc(count, out, offset, size, stride, data_type="UINT16"):
        return oracle.SliceGradDesc(
            TensorDesc.of(data_type, (count,)), TensorDesc.of(data_type, (out,)), (offset,), (size,), (stride,)
        )

    level = oracle.FeatureLevel.parse("6.4")
    assert dml_slice_grad_unchecked_window(desc(3, 10, 4, 4, 2), level)  # writes 4, 6, 8: past the window (max 2)
    assert dml_slice_grad_unchecked_window(desc(1, 1, 0, 0, -3), level)  # an empty window, one write at 0
    assert not dml_slice_grad_unchecked_window(desc(2, 1, 0, 1, 1), level)  # the second write lands past the output
    assert not dml_slice_grad_unchecked_window(desc(1, 4, 2, 3, 1), level)  # the window itself is past the output
    assert not dml_slice_grad_unchecked_window(desc(2, 4, 0, 4, 2), level)  # valid: nothing to explain


def test_the_slice_grad_merged_axes_model_writes_the_merged_run_consecutively():
    """dml-slice-grad-merged-axes on SLICE_GRAD-fewer-than-the-window: DirectML 1.15.4 wrote 1, 3 at [0,0], [0,1]."""
    from conformance.judging.deviations import dml_slice_grad_merged_axes

    d = oracle.SliceGradDesc(TensorDesc.of("UINT8", (2, 1)), TensorDesc.of("UINT8", (2, 2)), (0, 0), (2, 2), (1, 1))
    (got,) = dml_slice_grad_merged_axes(d, [np.array([[1], [3]], np.uint8)])
    assert got.tolist() == [[1, 3], [0, 0]]
    stride_2 = oracle.SliceGradDesc(TensorDesc.of("UINT8", (1,)), TensorDesc.of("UINT8", (2,)), (0,), (2,), (2,))
    assert dml_slice_grad_merged_axes(stride_2, [np.array([1], np.uint8)]) is None


def _past_axis(lengths_type: str, length: int):
    """REVERSE_SUBSEQUENCES-length-past-the-axis (and the UINT64 one): {1, 2, 3} along its last axis."""
    desc = oracle.reverse_subsequences_desc(TensorDesc.of("FLOAT32", (1, 1, 1, 3)), 3, lengths_type)
    x = np.array([1, 2, 3], np.float32).reshape(1, 1, 1, 3)
    return desc, [x, np.array([length], lengths_type.lower()).reshape(1, 1, 1, 1)]


def test_the_reverse_subsequences_models_are_what_directml_returned_past_the_axis():
    """What DirectML 1.15.4 returned for the two smallest cases ({3, 3, 3}; {2, 1, 3}), and 1.12.0 ({0, 0, 3}: the
    first two read outside the subsequence), against the page's {3, 2, 1} (REVSEQ.3)."""
    from conformance.judging.deviations import dml_reverse_subsequences_outside, explain

    desc, xs = _past_axis("UINT32", 5)
    assert oracle.compute(desc, xs)[0].ravel().tolist() == [3, 2, 1]
    seen_1_15_4 = np.array([3, 3, 3], np.float32).reshape(1, 1, 1, 3)
    assert "dml-reverse-subsequences-lengths" in explain(desc, xs, [seen_1_15_4])
    seen_1_12_0 = np.array([0, 0, 3], np.float32).reshape(1, 1, 1, 3)
    assert explain(desc, xs, [seen_1_12_0]) == ["dml-reverse-subsequences-reads-outside"]
    assert dml_reverse_subsequences_outside(desc, xs)[0].ravel().tolist() == [True, True, False]
    wrong_inside = np.array([0, 0, 2], np.float32).reshape(1, 1, 1, 3)  # the one element read inside is wrong
    assert explain(desc, xs, [wrong_inside]) == []
    desc64, xs64 = _past_axis("UINT64", 2**32 + 2)  # read as 2: the first two swapped
    assert oracle.compute(desc64, xs64)[0].ravel().tolist() == [3, 2, 1]
    assert "dml-reverse-subsequences-lengths" in explain(
        desc64, xs64, [np.array([2, 1, 3], np.float32).reshape(xs[0].shape)]
    )


def test_the_ort_reverse_sequence_model_is_what_onnx_runtime_1_24_returned():
    """What ORT 1.24.4's CPU provider returned in the Windows lane for REVERSE_SUBSEQUENCES-883a4925 (FLOAT16 {1, 10},
    Axis 0, lengths 0 or 1): zeros in the columns of length 0, every other column right (REVSEQ.4: both copied)."""
    from conformance.judging.deviations import explain

    desc = oracle.reverse_subsequences_desc(TensorDesc.of("FLOAT16", (1, 10)), 0, "UINT64")
    bits = [0x7BFF, 0x7FFF, 0x7E01, 0xFFFF, 0xFC00, 0x4600, 0x3C00, 0x8400, 0xFE01, 0x4900]
    x = np.array(bits, np.uint16).view(np.float16).reshape(1, 10)
    lengths = np.array([0, 0, 0, 1, 1, 1, 1, 0, 1, 1], np.uint64).reshape(1, 10)
    seen = np.array([0, 0, 0, *bits[3:7], 0, *bits[8:]], np.uint16).view(np.float16).reshape(1, 10)
    assert explain(desc, [x, lengths], [seen]) == ["ort-cpu-reverse-sequence-unwritten"]
    wrong_written = seen.copy()
    wrong_written.view(np.uint16)[0, 4] ^= 1  # a column of length 1 wrong: not the model
    assert explain(desc, [x, lengths], [wrong_written]) == []


def test_the_one_hot_models_are_what_directml_returned():
    """What DirectML 1.15.4 returned for ONE_HOT-reach-indices-int64-FLOAT32 (INT64 indices 0, -1, 2^40, -3 along
    Axis 0 of 3: 2^40 read as 0, OnValue in row 0) and for a broadcast ValuesTensor {2,1}, Strides {0,1} (ONE_HOT-
    80a0ffee's: OnValue read at offset 1, past the tensor's one element: 0.0 there), against the page's answers."""
    from conformance.judging.deviations import explain

    desc = oracle.one_hot_desc(TensorDesc.of("INT64", (1, 4)), 3, 0, "FLOAT32")
    xs = [np.array([[0, -1, 2**40, -3]], np.int64), np.array([[1, 2]], np.float32)]
    assert oracle.compute(desc, xs)[0].tolist() == [[2, 1, 1, 2], [1, 1, 1, 1], [1, 2, 1, 1]]
    seen = np.array([[2, 1, 2, 2], [1, 1, 1, 1], [1, 2, 1, 1]], np.float32)
    assert explain(desc, xs, [seen]) == ["dml-one-hot-reads", "dml-graph-one-hot-reads"]
    seen[0, 0] = 1  # index 0 not OnValue: not the model
    assert explain(desc, xs, [seen]) == []

    broadcast = oracle.OneHotDesc(
        TensorDesc.of("UINT64", (2, 1)),
        TensorDesc(oracle.DataType.FLOAT32, (2, 1), strides=(0, 1)),
        TensorDesc.of("FLOAT32", (2, 2)),
        1,
    )
    xs = [np.array([[1], [5]], np.uint64), np.array([[2], [2]], np.float32)]
    assert oracle.compute(broadcast, xs)[0].tolist() == [[2, 2], [2, 2]]
    seen = np.array([[2, 0], [2, 2]], np.float32)  # OnValue from past the tensor; row 1's index is ignored
    assert explain(broadcast, xs, [seen]) == ["dml-one-hot-reads"]
    seen[1, 1] = 0  # an OffValue wrong: not the model
    assert explain(broadcast, xs, [seen]) == []


def test_directml_accepts_a_one_hot_values_tensor_of_another_dimension_count():
    """ONE_HOT-values-dimension-count: DirectML 1.15.4 accepted it; the model accepts only that rule broken."""
    from conformance.judging.deviations import explain_acceptance

    indices = TensorDesc.of("UINT32", (1, 1, 2, 1))
    out = TensorDesc.of("FLOAT32", (1, 1, 2, 4))
    assert explain_acceptance(
        oracle.OneHotDesc(indices, TensorDesc.of("FLOAT32", (1, 2)), out, 3), oracle.FeatureLevel.FL_4_1
    ) == ["dml-one-hot-values-rank"]
    one = TensorDesc.of("FLOAT32", (1,))  # one element as well: ONEHOT.5 broken too
    assert explain_acceptance(oracle.OneHotDesc(indices, one, out, 3), oracle.FeatureLevel.FL_4_1) == []


def test_the_gather_heap_corruption_is_exactly_index_dimensions_past_axis_plus_one():
    """What DirectML 1.12.0 to 1.15.4 did on every (DimensionCount, Axis, IndexDimensions) measured (both paths): the
    heap was damaged exactly where IndexDimensions > Axis + 1, where GATHER.5's right-aligned output crops a leading one
    of the indices' own dimensions; a crash elsewhere is not this known issue."""
    from conformance.judging.deviations import DEVIATIONS

    dies = DEVIATIONS["dml-gather-heap-corruption"].dies_on
    assert dies is not None

    def gather(rank, axis, index_dimensions):
        sizes = (1,) * rank
        return oracle.GatherDesc(
            TensorDesc.of("INT32", sizes),
            TensorDesc.of("UINT32", sizes),
            TensorDesc.of("INT32", sizes),
            axis,
            index_dimensions,
        )

    assert dies(gather(2, 0, 2))  # GATHER-index-dimensions-past-axis: damaged
    assert dies(gather(8, 1, 8)) and dies(gather(8, 6, 8))  # GATHER-index-dimensions-8 (axis 1)
    assert not dies(gather(8, 7, 8)) and not dies(gather(3, 1, 2)) and not dies(gather(4, 1, 1))  # right
    assert not dies(gather(2, 0, 1)) and not dies(gather(1, 0, 0))


def _scatter_nd(input_sizes, indices_sizes, updates_sizes, idc, ixdc, indices_strides=None, output_sizes=None):
    return oracle.ScatterNdDesc(
        TensorDesc.of("FLOAT32", input_sizes),
        dataclasses.replace(TensorDesc.of("UINT32", indices_sizes), strides=indices_strides),
        TensorDesc.of("FLOAT32", updates_sizes),
        TensorDesc.of("FLOAT32", output_sizes or input_sizes),
        idc,
        ixdc,
    )


def test_a_scatter_nd_crash_is_the_long_tuple_known_issue_only_where_directml_dies():
    """What DirectML 1.12.0 and 1.15.4 did with a tuple longer than InputDimensionCount (SCATND.2): the process died
    where IndicesDimensionCount - 1 + InputDimensionCount - tuple size >= 0, and refused the descriptor elsewhere."""
    from conformance.judging.deviations import dml_scatter_nd_dies_on_long_tuple as dies

    smallest = _scatter_nd((1, 3), (1, 2), (1, 1), 1, 2)  # SCATTER_ND-tuple-past-input-dimensions: 1 + 1 - 2 = 0
    assert dies(smallest)
    assert dies(_scatter_nd((1, 1, 1, 3), (1, 1, 1, 4), (1, 1, 1, 1), 1, 4))  # 3 + 1 - 4 = 0: died
    assert not dies(_scatter_nd((1, 1, 3), (1, 1, 3), (1, 1, 1), 1, 2))  # 1 + 1 - 3 < 0: refused
    assert not dies(_scatter_nd((1, 1, 3), (1, 1, 2), (1, 1, 1), 1, 1))  # 0 + 1 - 2 < 0: refused
    assert not dies(_scatter_nd((2, 2), (1, 2), (1, 1), 2, 2))  # valid: taken

    def crash(desc) -> Record:
        record = Record("SCATTER_ND-x", "SCATTER_ND", Category.CRASH, "the runner exited during run")
        record.descriptor = oracle.descriptor_to_json(desc)
        return record

    waivers = known_issues("directml").for_versions({"directml": "1.15.4.0"})
    assert waivers.apply(crash(smallest)).category is Category.WAIVED
    assert waivers.apply(crash(_scatter_nd((2, 2), (1, 2), (1, 1), 2, 2))).category is Category.CRASH


def test_the_scatter_nd_dimension_count_model_is_what_directml_accepted_and_refused():
    """dml-scatter-nd-other-dimension-counts on the descriptors DirectML 1.12.0 and 1.15.4 accepted and refused."""
    from conformance.judging.deviations import dml_scatter_nd_other_dimension_counts as accepts

    level = oracle.FeatureLevel.parse("3.0")
    assert accepts(_scatter_nd((8,), (4, 1), (4,), 1, 2), level)  # SCATTER_ND-example-ranks-as-printed
    assert accepts(_scatter_nd((1, 2, 3), (1,), (1, 1, 3), 2, 1), level)  # IndicesTensor of fewer dimensions
    assert accepts(_scatter_nd((2, 3), (1, 1), (3,), 2, 1), level)  # UpdatesTensor of fewer
    assert accepts(_scatter_nd((8,), (1, 4, 1), (1, 4), 1, 3), level)
    two_one = oracle.FeatureLevel.parse("2.1")  # SCATTER_ND-a4273f2c: 5-D indices beside a 4-D input at 2.1
    assert accepts(_scatter_nd((1, 1, 1, 4), (1, 1, 1, 1, 1), (1, 1, 1, 4), 2, 4), two_one)
    assert not accepts(_scatter_nd((8,), (4, 1), (3,), 1, 2), level)  # invalid with leading 1s too
    assert not accepts(_scatter_nd((8,), (1, 4, 1), (4,), 1, 3), level)  # the updates' 2 dimensions past its 1
    assert not accepts(_scatter_nd((8,), (1, 1, 2), (1, 1, 1), 2, 1), level)  # InputDimensionCount past its 1
    assert not accepts(_scatter_nd((1, 1, 8), (4, 1), (1, 1, 4), 1, 3), level)  # IndicesDimensionCount past its 2
    assert not accepts(_scatter_nd((2, 3), (1, 1), (1, 3), 2, 1, output_sizes=(1, 2, 3)), level)  # COMMON.1
    assert not accepts(_scatter_nd((2, 2), (1, 2), (1, 1), 2, 2), level)  # valid: nothing to explain


class _Refuse(Backend):
    name = "refuse"

    def capabilities(self) -> Capabilities:
        return Capabilities(tensor_layouts=True)

    def run(self, descriptor, inputs, feature_level) -> RunResult:
        return RunResult.rejected("IDMLDevice::CreateOperator returned 0x80070057 (E_INVALIDARG)")


def test_a_refused_scatter_nd_is_the_broadcast_indices_known_issue_only_with_a_zero_stride_on_a_dimension_past_1():
    """SCATTER_ND-broadcast-tuple: DirectML 1.12.0 and 1.15.4 refused IndicesTensor strides [2, 0] on {1, 2} in every
    index type, and took [1, 0] on {2, 1} and [1, 1] on {2, 2}."""
    waivers = known_issues("directml").for_versions({"directml": "1.12.0"})

    def refused(strides):
        desc = _scatter_nd((2, 2), (1, 2), (1, 1), 2, 2, strides)
        x, indices, updates = np.zeros((2, 2), np.float32), np.ones((1, 2), np.uint32), np.ones((1, 1), np.float32)
        expected = Expected("valid", tuple(oracle.compute(desc, [x, indices, updates])))
        case = Case("SCATTER_ND-b", "SCATTER_ND", oracle.FeatureLevel.FL_3_0, desc, (x, indices, updates), expected)
        return waivers.apply(execute_case(Work(0, case), _Refuse(), None)).category

    assert refused((2, 0)) is Category.WAIVED
    assert refused((1, 1)) is Category.REJECTED  # every element its own address: a refusal stays a failure
    assert refused(None) is Category.REJECTED

"""Shared by the backend tests: the backends under test and ORT's known, real disagreements."""

from __future__ import annotations

import re

import numpy as np

import oracle
from conformance.backends.onnx_reference import OnnxReferenceBackend
from conformance.backends.onnxruntime_backend import OnnxRuntimeCpuBackend
from conformance.judging.compare import compare_outputs
from oracle import DataType, Descriptor

BACKENDS = {"onnxruntime-cpu": OnnxRuntimeCpuBackend(), "onnx-reference": OnnxReferenceBackend()}

# Every reason a case may be unsupported for; any other reason fails the tests.
EXPECTED_UNSUPPORTED = {
    "onnx-reference": [
        r"no symmetric mode",
        r"U-SLICE-1",
        r"cannot express tensor layouts",
        r"has no ONNX form",  # SLICE_GRAD
        r"no one-node form of ScaleBias",  # ELEMENT_WISE_IDENTITY with a ScaleBias (U-IDENT-1)
        r"COLUMN_ROW_DEPTH has no one-node ONNX form",  # SPACE_TO_DEPTH1's CRD: ONNX SpaceToDepth is DCR only
        r"ONNX ReverseSequence",  # REVERSE_SUBSEQUENCES past ReverseSequence's shapes
        r"ONNX GatherND takes INT64 indices only",  # GATHER_ND(1) with other index types
        r"GatherND's (output starts|indices would need)",  # GATHER_ND(1) no reshape of the indices fits
        r"ONNX Gather",  # GATHER's IndexDimensions other than 1; out-of-range indices (GATHER*, an error in ONNX)
        r"ONNX EyeLike|without an input, ONNX has EyeLike only",  # DIAGONAL_MATRIX(1): one 2-D matrix of ones
        r"ONNX Trilu",  # DIAGONAL_MATRIX1 with an input: a band Trilu cannot zero
        r"ONNX Range",  # FILL_VALUE_SEQUENCE: 1-D, four types, start + i * delta, no wrap
        r"ONNX Scatter(Elements|ND)",  # SCATTER*: duplicate indices undefined, out-of-range ones an error in ONNX
        r"onnx.reference's OneHot computes hot \* \(on - off\) \+ off",  # ONE_HOT values that arithmetic changes
    ],
    "onnxruntime-cpu": [
        r"cannot express tensor layouts",  # ONNX tensors are dense: no strides or buffer sizes (LAYOUT.*)
        r"no symmetric mode",
        r"has no ONNX form",  # SLICE_GRAD
        r"no one-node form of ScaleBias",  # ELEMENT_WISE_IDENTITY with a ScaleBias (U-IDENT-1)
        r"COLUMN_ROW_DEPTH has no one-node ONNX form",  # SPACE_TO_DEPTH1's CRD: ONNX SpaceToDepth is DCR only
        r"ONNX ReverseSequence",  # REVERSE_SUBSEQUENCES past ReverseSequence's shapes
        r"ONNX GatherND takes INT64 indices only",  # GATHER_ND(1) with other index types
        r"GatherND's (output starts|indices would need)",  # GATHER_ND(1) no reshape of the indices fits
        r"ONNX Gather",  # GATHER's IndexDimensions other than 1; out-of-range indices (GATHER*, an error in ONNX)
        r"ONNX EyeLike|without an input, ONNX has EyeLike only",  # DIAGONAL_MATRIX(1): one 2-D matrix of ones
        r"ONNX Trilu",  # DIAGONAL_MATRIX1 with an input: a band Trilu cannot zero
        r"ONNX Range",  # FILL_VALUE_SEQUENCE: 1-D, four types, start + i * delta, no wrap
        r"ONNX Scatter(Elements|ND)",  # SCATTER*: duplicate indices undefined, out-of-range ones an error in ONNX
        r"U-SLICE-1",
        r"NOT_IMPLEMENTED : Could not find an implementation for (DepthToSpace|SpaceToDepth)\(13\)",  # some types
        r"NOT_IMPLEMENTED : Could not find an implementation for Pad\((13|19)\)",  # 19: Pad 'wrap' (WRAP)
        r"NOT_IMPLEMENTED : Could not find an implementation for (EyeLike\(9\)|OneHot\(11\))",  # some types
        r"Pad reflect: (pre|post)-pad \(\d+\) exceeds maximum allowed",
        r"Pad reflect requires axis length >= 2",
    ],
}


# The data types ONNX Runtime's CPU provider has no kernel for, per operator (its kernel registrations,
# measured on onnxruntime 1.32): DepthToSpace-13 and SpaceToDepth-13 take FLOAT32, FLOAT64, INT8 and UINT8 (FLOAT16 through
# the Casts ORT inserts), Pad no 16-bit integers. An older ORT may lack more: the test then names the case.
_NO_D2S_KERNEL = frozenset(
    {DataType.INT16, DataType.UINT16, DataType.INT32, DataType.UINT32, DataType.INT64, DataType.UINT64}
)
ORT_CPU_NO_KERNEL: dict[str, frozenset[DataType]] = {
    "DEPTH_TO_SPACE": _NO_D2S_KERNEL,
    "DEPTH_TO_SPACE1": _NO_D2S_KERNEL,
    "SPACE_TO_DEPTH": _NO_D2S_KERNEL,  # SpaceToDepth-13: the same four types (wt-s2d, measured on 1.32)
    "SPACE_TO_DEPTH1": _NO_D2S_KERNEL,
    "PADDING": frozenset({DataType.INT16, DataType.UINT16}),
    "PADDING1": frozenset({DataType.INT16, DataType.UINT16}),
    # EyeLike-9: FLOAT32, FLOAT64, INT32, INT64, UINT64 (FLOAT16 through inserted Casts); measured on 1.32
    "DIAGONAL_MATRIX": frozenset({DataType.INT8, DataType.UINT8, DataType.INT16, DataType.UINT16, DataType.UINT32}),
    # OneHot-11 with INT64 indices and depth (the lowering's): FLOAT32 and INT64 values (FLOAT16 through Casts), by
    # the output's (the values') type; measured on 1.32
    "ONE_HOT": frozenset(
        {
            DataType.FLOAT64,
            DataType.INT8,
            DataType.UINT8,
            DataType.INT16,
            DataType.UINT16,
            DataType.INT32,
            DataType.UINT32,
            DataType.UINT64,
        }
    ),
}

# Unsupported reasons that are facts of ONNX or ONNX Runtime, not of the lowering: the generated-corpus test
# leaves such cases out of an operator's share of passes (tensor layouts stay in it: every operator has them).
NOT_THE_LOWERINGS = re.compile(
    r"has no ONNX form|no symmetric mode|ONNX Runtime's reflect Pad needs"
    r"|COLUMN_ROW_DEPTH has no one-node ONNX form"  # ONNX SpaceToDepth is DCR only
    r"|ONNX ReverseSequence"  # its time and batch axes are 0 and 1, every other axis of size 1
    r"|ONNX Gather"  # Gather's output rank r + q - 1; an out-of-range index is an error (GATHER*)
    r"|ONNX EyeLike|ONNX has EyeLike only|ONNX Trilu"  # EyeLike: one 2-D matrix of ones; Trilu: a triangle
    r"|ONNX Range"  # a 1-D sequence of four types, start + i * delta
    r"|ONNX Scatter(Elements|ND)"  # duplicate indices undefined with reduction 'none', out-of-range ones an error
    r"|onnx.reference's OneHot computes"  # the reference evaluator's OneHot is arithmetic, not a select
)
# The depth-space family: ORT CPU runs FLOAT16 DepthToSpace and SpaceToDepth through float32 (known issues).
DEPTH_SPACE = ("DEPTH_TO_SPACE", "DEPTH_TO_SPACE1", "SPACE_TO_DEPTH", "SPACE_TO_DEPTH1")


def f16_nan_payloads_changed(expected: list[np.ndarray], actual: list[np.ndarray]) -> bool:
    """True iff every differing element is a FLOAT16 NaN that came back as a different NaN.

    ORT 1.32's CPU provider has no FLOAT16 Pad kernel and runs Pad between Casts to float32
    and back; the round trip sets the quiet bit of signalling NaNs (0x7d12 -> 0x7f12) and
    can drop payload bits (0x7e01 -> 0x7e00).  A real ORT behaviour (not a lowering bug)
    that breaks COMMON.3's bit-exact copy: it stays a visible failure in conformance runs;
    these tests check that it is exactly this and nothing else.
    """
    for e, a in zip(expected, actual):
        eb = e.view(np.uint16)
        ab = np.asarray(a).view(np.uint16)
        differ = eb != ab

        def nan(b):
            return ((b & 0x7C00) == 0x7C00) & ((b & 0x03FF) != 0)

        if (differ & ~(nan(eb) & nan(ab))).any():
            return False
    return True


def check(backend_name: str, descriptor: Descriptor, inputs, expected: list[np.ndarray], feature_level) -> str:
    """Run and judge: "pass", "unsupported", or "known: ..." ; fails the test on anything else."""
    __tracebackhide__ = True
    result = BACKENDS[backend_name].run(descriptor, list(inputs), feature_level)
    if result.status == "unsupported":
        assert result.reason, f"{backend_name}: unsupported without a reason"
        return "unsupported"
    assert result.status == "ok", f"{backend_name}: {result.status}: {result.reason}"
    # DML_CAST's open elements (U-CAST-1: NaN, out-of-range, inexact values) and GATHER_ND(1)'s (U-GND-1: an
    # out-of-range index, fed to ONNX as 0) are observed, as the run layer does; every other entry's elements stay
    # judged here, bit for bit.
    cast_open = bool({"U-CAST-1", "U-GND-1"} & set(oracle.unspecified(descriptor)))
    comparison = compare_outputs(
        list(expected), result.outputs, oracle.unspecified_mask(descriptor, list(inputs)) if cast_open else None
    )
    if comparison.equal or (cast_open and not comparison.fails):
        return "pass"
    if (
        backend_name == "onnxruntime-cpu"
        and descriptor.operator in ("PADDING", "PADDING1", "TILE", "ONE_HOT", *DEPTH_SPACE)  # known issues
        and descriptor.output_tensors[0].data_type is DataType.FLOAT16
        and not comparison.problems
        and f16_nan_payloads_changed(list(expected), result.outputs)
    ):
        return f"known: ORT CPU runs FLOAT16 {descriptor.operator} in float32 and changes NaN payloads"
    raise AssertionError(f"{backend_name} differs from the expected outputs: {comparison.summary()}")

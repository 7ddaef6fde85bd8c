"""The errata register: every place the pages contradict themselves or are silent, as data.

Each entry names the code that carries its decision (`decided_by`), so a reader can go
from the report's errata table to the exact branch.  `observed` entries mark behaviour
the spec leaves open: results there are recorded and shown, never failed.
Source: ../shared/spec/errata.md; past the seed pages, docs/spec/beyond-seeds.md (listed last).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Erratum:
    id: str
    kind: str  # "erratum" (contradiction or typo) or "unspecified"
    clauses: tuple[str, ...]
    summary: str
    policy: str
    decided_by: str  # the named piece of code that implements the policy
    observed: bool  # True: results in this area are observed, not judged
    # True where the pages leave open whether such a descriptor is valid at all: an implementation
    # that refuses it is observed (refusing is a legitimate reading), not failed as `rejected`.
    refusal_observed: bool = False


ERRATA: dict[str, Erratum] = {
    e.id: e
    for e in (
        Erratum(
            "E-SLICE1-1",
            "erratum",
            ("SLICE1.5",),
            "The struct declares InputWindowStrides as INT, the Members section as UINT.",
            "Signed: negative strides are the point of SLICE1 (examples, remarks).",
            "oracle.op_slice1.Slice1Desc.window_strides (validated as INT)",
            False,
        ),
        Erratum(
            "E-SLICE1-2",
            "erratum",
            ("SLICE1.2",),
            "Example 2 computes axis 2's start with InputWindowSizes[0] instead of InputWindowSizes[2].",
            "The pseudo-code (Sizes[i] of the same axis) is normative.",
            "oracle.op_slice1.copy_start",
            False,
        ),
        Erratum(
            "E-SLICE1-3",
            "erratum",
            ("SLICE1.4",),
            "MaxCopiedElements divides by the signed stride, which forbids example 2's own output.",
            "Divide by |stride|, integer division.",
            "oracle.op_slice1.max_copied_elements",
            False,
        ),
        Erratum(
            "E-PAD-1",
            "erratum",
            ("PAD.3",),
            "The printed example outputs miss the comma after their first row.",
            "Formatting only: the examples are typed in as data.",
            "cases/examples/PADDING-example-*.json",
            False,
        ),
        Erratum(
            "U-PAD-1",
            "unspecified",
            ("PAD.4",),
            "PaddingValue into integer types: only in-range truncation (10.6 -> 10) is documented.",
            "In-range values truncate toward zero (judged); negative into unsigned, out of range, "
            "NaN and infinities are observed (the oracle saturates and maps NaN to 0).",
            "oracle.padding_value.convert_padding_value",
            True,
        ),
        Erratum(
            "U-PAD-2",
            "unspecified",
            ("PAD.4",),
            "PaddingValue for FLOAT64: read literally it 'may be truncated'.",
            "FLOAT64 gets the float32 value exactly, widened; a fractional value is observed.",
            "oracle.padding_value.convert_padding_value",
            True,
        ),
        Erratum(
            "U-PAD-3",
            "unspecified",
            ("PAD.4",),
            "PaddingValue for FLOAT16: the rounding mode is not stated.",
            "Round to nearest even; values not exactly representable in FLOAT16 are observed.",
            "oracle.padding_value.convert_padding_value",
            True,
        ),
        Erratum(
            "U-PAD-4",
            "unspecified",
            ("PAD.3",),
            "REFLECTION on a dimension of size 1: the period 2*(size-1) is zero.",
            "The only element is repeated (numpy's 'reflect'); observed when padding is non-zero there.",
            "oracle.op_padding.fold_reflection",
            True,
        ),
        Erratum(
            "U-PAD-5",
            "unspecified",
            ("PAD.3",),
            "Periodic folding is stated for REFLECTION at padding >= size and SYMMETRIC at padding > size.",
            "Period 2*(size-1) for REFLECTION, 2*size for SYMMETRIC; SYMMETRIC at padding == size is the "
            "plain mirror.  Examples 3 and 4 confirm both: judged.",
            "oracle.op_padding.fold_reflection, oracle.op_padding.fold_symmetric",
            False,
        ),
        Erratum(
            "U-SLICE-1",
            "unspecified",
            ("SLICE.2",),
            "DML_SLICE Strides are UINT and the page does not forbid 0.",
            "The formula defines a result (stride 0 repeats one element); observed, and so is a refusal "
            "(whether 0 is allowed at all is what the page leaves open).",
            "oracle.op_slice.validate (stride 0 accepted); conformance.run.execute (refusal observed)",
            True,
            refusal_observed=True,
        ),
        Erratum(
            "U-SLICE-2",
            "unspecified",
            ("SLICE.2", "COMMON.2"),
            "DML_SLICE does not say whether Sizes may be 0.",
            "Invalid under COMMON.2.",
            "oracle.checks.check_sizes",
            False,
        ),
        Erratum(
            "U-SPLIT-1",
            "unspecified",
            ("SPLIT.3", "COMMON.2"),
            "An output of size 0 along Axis is not among the listed splits and contradicts COMMON.2.",
            "Invalid.",
            "oracle.checks.check_sizes",
            False,
        ),
        Erratum(
            "U-ALL-1",
            "unspecified",
            ("SLICE.7", "SLICE1.8", "PAD.6", "SPLIT.7"),
            "Feature levels between the rows of a support table.",
            "They inherit the row below (FL 3.0 PADDING still allows only 4-5 dims).",
            "oracle.tables.OperatorTables.row",
            False,
        ),
        Erratum(
            "U-ALL-2",
            "unspecified",
            ("COMMON.1",),
            "What an implementation does with an invalid descriptor cannot be observed through every backend.",
            "A backend that cannot express a descriptor reports it as unsupported, never as a pass.",
            "conformance.backends (unsupported outcome)",
            False,
        ),
        # Beyond the seed pages (docs/spec/beyond-seeds.md): DirectML's own pages and header.
        Erratum(
            "E-PAD1-1",
            "erratum",
            ("PAD1.3",),
            "DML_PADDING1's page prints its example outputs without the comma after their first row, as DML_PADDING's.",
            "Formatting only: the examples are typed in as data.",
            "cases/examples/PADDING1-example-*.json",
            False,
        ),
        Erratum(
            "U-WRAP-1",
            "unspecified",
            ("WRAP.2",),
            "DML_PADDING_MODE_WRAP is named by the mode page and DirectML.h, and no page says what it writes.",
            "Wrap-around, as ONNX's Pad 'wrap' and numpy's 'wrap': Output[k] = Input[(k - StartPadding) mod "
            "InputSizes]; the padding elements are observed, the interior judged (docs/spec/beyond-seeds.md).",
            "oracle.op_padding.fold",
            True,
        ),
        Erratum(
            "U-LAYOUT-1",
            "unspecified",
            ("LAYOUT.4",),
            "An output's padding bytes (inside TotalTensorSizeInBytes, addressed by no element): DirectML may write "
            "them, and no page says with what.",
            "Observed: the suite fills them before the run and shows the first byte written, never failing it; a "
            "write past TotalTensorSizeInBytes fails, naming the byte.",
            "conformance.judging.buffers.judge_buffers",
            True,
        ),
        Erratum(
            "U-LAYOUT-2",
            "unspecified",
            ("LAYOUT.1", "LAYOUT.2"),
            "Output strides that give two elements one address (a 0 stride on an output axis of size > 1): no page "
            "says whether such an output is valid or which element's value lands.",
            "Valid for the oracle; the elements sharing an address are open (observed), and refusing the descriptor "
            "is observed too.",
            "oracle.layout.open_elements",
            True,
            refusal_observed=True,
        ),
        Erratum(
            "U-LAYOUT-3",
            "unspecified",
            ("LAYOUT.3",),
            "DirectML's helper page says bound buffers' total size must be DWORD-aligned; the tensor desc page asks "
            "only that TotalTensorSizeInBytes be at least DMLCalcBufferTensorSize's minimum (itself a multiple of 4).",
            "Valid when at least the minimum; a TotalTensorSizeInBytes that is not a multiple of 4 may be refused "
            "(observed), and its outputs are judged when it runs.",
            "oracle.layout.check_tensor",
            True,
            refusal_observed=True,
        ),
        Erratum(
            "U-GRAPH-1",
            "unspecified",
            ("GRAPH.3",),
            "No page says whether a DML graph may have an input no edge uses, nor how such an input is bound.",
            "The suite binds it to nothing (DML_BINDING_TYPE_NONE), and the graph's outputs are judged. Observed on "
            "DirectML 1.15.4: CompileGraph accepts it, and binding a buffer to it removes the device (0x887a0005).",
            "conformance/backends/directml/native/dml_runner.cpp (Graph::uses_input)",
            False,
        ),
        Erratum(
            "U-IDENT-1",
            "unspecified",
            ("IDENT.3",),
            "DML_ELEMENT_WISE_IDENTITY's ScaleBias: the page gives g(x) = x * Scale + Bias and no arithmetic: not the "
            "precision, the rounding, whether it is fused, nor what an integer type does with a fraction or an "
            "out-of-range result; nor whether ScaleBias is allowed with integer types at all.",
            "Valid for every data type; with a ScaleBias every element is observed and shown (x * Scale + Bias in "
            "float32, float64 for FLOAT64, then converted), never failed; refusing the descriptor is observed too. "
            "Without ScaleBias the copy is judged bit for bit.",
            "oracle.op_element_wise_identity.unspecified",
            True,
            refusal_observed=True,
        ),
        Erratum(
            "E-CAST-1",
            "erratum",
            ("CAST.2",),
            "DML_CAST's page describes InputTensor as \"The tensor to write the results to\", its OutputTensor's text.",
            "InputTensor is the tensor read (the struct, the description and the constraints say so).",
            "oracle.op_cast.CastDesc.input_tensor",
            False,
        ),
        Erratum(
            "U-CAST-1",
            "unspecified",
            ("CAST.1",),
            "DML_CAST's page says only that each element is cast: not how NaN, infinities or out-of-range values "
            "convert into an integer type, how a fraction rounds, how a value a narrower float cannot hold rounds, "
            "nor whether NaN payloads survive.",
            "Judged where the value is exact in the output type; every other element observed and shown (truncated "
            "and saturated into integers, NaN as 0; round to nearest even between floats), never failed.",
            "oracle.op_cast.open_elements",
            True,
        ),
    )
}

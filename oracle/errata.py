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
        # Issue 31, the depth-space family (docs/spec/beyond-seeds.md).
        Erratum(
            "U-D2S-1",
            "unspecified",
            ("D2S.2", "D2S.3", "D2S1.2", "D2S1.3"),
            "The depth-to-space pages say neither that BlockSize is at least 1 nor that InputChannelCount is a "
            "multiple of BlockSize * BlockSize; their output-size formula divides by it.",
            "Both invalid (the formula is undefined otherwise); DirectML's refusal is expected.",
            "oracle.depth_space.check_block_size, oracle.depth_space.check_divides",
            False,
        ),
        Erratum(
            "E-D2S1-1",
            "erratum",
            ("D2S1.4",),
            "DML_DEPTH_TO_SPACE1's remarks name DML_DEPTH_TO_SPACE_OPERATOR_DESC but link to DEPTH_TO_SPACE1's "
            "own page.",
            "The name is meant: DEPTH_COLUMN_ROW equals DML_DEPTH_TO_SPACE (its example 1 is DEPTH_TO_SPACE's).",
            "oracle.op_depth_to_space.DepthToSpaceDesc (Order DEPTH_COLUMN_ROW, oracle.depth_space.BlockMover)",
            False,
        ),
        # DML_SPACE_TO_DEPTH(1) (docs/spec/beyond-seeds.md)
        Erratum(
            "E-S2D-1",
            "erratum",
            ("S2D.2", "S2D1.2"),
            "Both space-to-depth pages give the output's sizes as { Batch, Channels / (BlockSize * BlockSize), "
            "Height * BlockSize, Width * BlockSize }: the inverse operator's (DEPTH_TO_SPACE's) formula, against "
            "their own description (space moved to depth) and examples ({1, 2, 4, 6} to {1, 8, 2, 3}).",
            "{ Batch, Channels * BlockSize * BlockSize, Height / BlockSize, Width / BlockSize }, as the examples: "
            "judged; an output sized by the printed formula is invalid (a tagged curated case).",
            "oracle.depth_space.validate_to_depth",
            False,
        ),
        Erratum(
            "U-S2D-1",
            "unspecified",
            ("S2D.2", "S2D.3", "S2D1.2", "S2D1.3"),
            "The space-to-depth pages say neither that BlockSize is at least 1 nor that InputHeight and InputWidth "
            "are multiples of BlockSize (their blocks tile the space).",
            "Both invalid (the blocks are undefined otherwise); DirectML's refusal is expected.",
            "oracle.depth_space.check_block_size, oracle.depth_space.check_divides",
            False,
        ),
        Erratum(
            "E-SGRAD-1",
            "erratum",
            ("SGRAD.5",),
            "DML_SLICE_GRAD's page types InputWindowStrides as const UINT*; DirectML.h declares it const INT*.",
            "INT, as the header (the struct compiled against) and the page's own note that negative strides flip "
            "the window: a stride outside INT is invalid, a negative one valid.",
            "oracle.op_slice_grad.SliceGradDesc.window_strides (validated as INT)",
            False,
        ),
        Erratum(
            "E-SGRAD-2",
            "erratum",
            ("SGRAD.8",),
            "The page's table gives 4 to 5 dimensions at FL 3.0; the feature-level history says FL 3.1 raised "
            "SLICE_GRAD's maximum 'from 4 to 8'.",
            "The operator's page governs: 4 or 5 dimensions at FL 3.0 and 3.1's 1 to 8 (a 5-D case at FL 3.0 is "
            "valid); every pinned DirectML release is past FL 4.1, so no real run decides it.",
            "oracle.op_slice_grad.TABLES",
            False,
        ),
        Erratum(
            "U-SGRAD-1",
            "unspecified",
            ("SGRAD.4",),
            "The page says the tensors 'typically' have the sizes of SLICE1's output and input, and no more.",
            "They must (the page's transform is only defined for them): an InputGradientTensor larger than "
            "MaxCopiedElements along an axis, or a window past OutputGradientTensor, is invalid; a refusal of one is "
            "the expected answer, an acceptance fails.",
            "oracle.op_slice_grad.validate",
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
        # DML_TILE (docs/spec/beyond-seeds.md)
        Erratum(
            "E-TILE-1",
            "erratum",
            ("TILE.1",),
            "The page's example labels its output tensor 'InputTensor' (a second input of Sizes {1, 1, 6, 9}).",
            "It is the OutputTensor (TILE.2's sizes for the first tensor and Repeats); typed in as the output.",
            "cases/examples/TILE-example-1.json",
            False,
        ),
        Erratum(
            "E-TILE-2",
            "erratum",
            ("TILE.1",),
            "The description says each dimension's elements are 'repeated by a multiple', which also reads as "
            "repeating each element in place (numpy's repeat), against the example's whole copies.",
            "Whole copies (numpy's tile, ONNX Tile), as the operator's name and the example print it: judged.",
            "oracle.op_tile.source",
            False,
        ),
        # DML_REVERSE_SUBSEQUENCES (docs/spec/beyond-seeds.md)
        Erratum(
            "E-REVSEQ-1",
            "erratum",
            ("REVSEQ.2",),
            "The page's examples label the lengths tensor 'SequenceTensor'; the struct's field is "
            "SequenceLengthsTensor.",
            "It is SequenceLengthsTensor (its sizes are REVSEQ.2's for Axis); typed in as the struct's second input.",
            "cases/examples/REVERSE_SUBSEQUENCES-example-1.json, cases/examples/REVERSE_SUBSEQUENCES-example-2.json",
            False,
        ),
        Erratum(
            "E-REVSEQ-2",
            "erratum",
            ("REVSEQ.1",),
            "The page does not say where along Axis a subsequence starts, nor which elements 'the elements within "
            "the length' are.",
            "The first L along Axis (index 0 to L - 1), as both examples print: judged.",
            "oracle.op_reverse_subsequences.source",
            False,
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
        # DML_SCATTER, also DML_SCATTER_ELEMENTS (docs/spec/beyond-seeds.md)
        Erratum(
            "E-SCATTER-1",
            "erratum",
            ("SCATTER.10", "SCATTER.1"),
            "The page calls two updates to one output element invalid, yet its example 1 writes index 3 twice "
            "(indices [3,1,3,0]) and prints the last write (7) there.",
            "Repeated indices are valid (they are values, not the descriptor: nothing can refuse them before the "
            "run); the elements written more than once are open (U-SCATTER-1), the rest judged. The example is "
            "typed in as printed, its element 3 open.",
            "oracle.op_scatter.open_elements",
            False,
        ),
        Erratum(
            "E-SCATTER-2",
            "erratum",
            ("SCATTER.5",),
            "Example 2 states InputTensor Sizes {2,3} but prints three rows of three and an OutputTensor of {3,3}; "
            "the output must have the input's sizes.",
            "InputTensor is {3,3} (its printed values and the output's sizes): the example file holds that.",
            "cases/examples/SCATTER-example-2.json",
            False,
        ),
        Erratum(
            "E-SCATTER-3",
            "erratum",
            ("SCATTER.8",),
            "The page says the operator was introduced in DML_FEATURE_LEVEL_1_0 and gives a 1_0 support row; the "
            "feature-level history lists DML_OPERATOR_SCATTER under DML_FEATURE_LEVEL_2_0, and DirectML.h declares "
            "it inside `#if DML_TARGET_VERSION >= 0x2000`.",
            "Introduced in FL 2.0 (the history and the header agree): the page's 1_0 row is in force from 2.0; a "
            "case at FL 1.0 is invalid. Every pinned DirectML release is past FL 4.1, so no real run decides it.",
            "oracle.op_scatter.TABLES",
            False,
        ),
        Erratum(
            "U-SCATTER-1",
            "unspecified",
            ("SCATTER.10",),
            "Which of several updates to one output element lands: 'there's no guarantee of which last write wins'.",
            "The elements written more than once are open: observed and shown (the suite shows the last write in "
            "IndicesTensor's row-major order, as example 1 prints), never failed; the other elements are judged.",
            "oracle.op_scatter.open_elements",
            True,
        ),
        Erratum(
            "U-SCATTER-2",
            "unspecified",
            ("SCATTER.1", "SCATTER.3"),
            "The page does not say what an index outside the Axis dimension does (past its size, below minus its "
            "size, or negative before FL 3.0's signed types).",
            "Where its write lands is open: when any index lies outside the axis, every output element is open "
            "(observed and shown; the suite shows the write dropped), and the guard bytes around every buffer are "
            "judged as on every case. DirectML 1.15.4 writes it at the flat offset the index gives.",
            "oracle.op_scatter.open_elements",
            True,
        ),
        Erratum(
            "U-SCATTER-3",
            "unspecified",
            ("SCATTER.2",),
            "The page bounds IndicesTensor's sizes on every dimension but Axis, and says nothing of its size along "
            "Axis: whether more updates per line than the axis holds (every such line writes a target twice) is "
            "valid.",
            "Valid for the oracle (the pseudo-code defines it; its doubly written targets are U-SCATTER-1's); a "
            "refusal is observed, not failed. DirectML 1.15.4 refuses it (E_INVALIDARG).",
            "oracle.op_scatter.unspecified",
            True,
            refusal_observed=True,
        ),
        # DML_SCATTER_ND (docs/spec/beyond-seeds.md)
        Erratum(
            "E-SCATND-1",
            "erratum",
            ("SCATND.4",),
            "UpdatesTensor's size formula appends the input's last indexTupleSize sizes (Input [3,4,5,6,7], Indices "
            "[1,1,1,2,3]: [1,2,5,6,7]); its own example gives [1,1,2,6,7], dropping the first indexTupleSize "
            "meaningful input dimensions, as the pseudo-code (a tuple addresses a slice) needs.",
            "The example's reading: the tuples' batch, then the input's meaningful sizes past the tuple, "
            "right-aligned; an UpdatesTensor sized by the printed formula is invalid.",
            "oracle.op_scatter_nd.updates_sizes",
            False,
        ),
        Erratum(
            "E-SCATND-2",
            "erratum",
            ("SCATND.10",),
            "The page's example gives IndicesTensor DataType FLOAT32, which no support table allows (INT64, INT32, "
            "UINT64, UINT32).",
            "Typed in as UINT32 (the oldest row's type); FLOAT32 indices are invalid (SCATTER_ND-float-indices).",
            "cases/examples/SCATTER_ND-example-1.json",
            False,
        ),
        Erratum(
            "E-SCATND-3",
            "erratum",
            ("SCATND.6", "SCATND.7", "SCATND.8"),
            "The example's tensors have DimensionCounts 1, 2 and 1, against 'must have the same DimensionCount'; "
            "and InputDimensionCount and IndicesDimensionCount range '[1, DimensionCount)', which forbids every "
            "dimension meaningful (the example's 1-D input needs InputDimensionCount 1 = DimensionCount).",
            "The counts range [1, DimensionCount]; the example typed in at DimensionCount 2 (Input {1,8}, Indices "
            "{4,1}, Updates {1,4}, InputDimensionCount 1, IndicesDimensionCount 2), its values as printed.",
            "oracle.op_scatter_nd.validate",
            False,
        ),
        Erratum(
            "E-SCATND-4",
            "erratum",
            ("SCATND.1",),
            "The page's title names DML_SCATTER_ELEMENTS_OPERATOR_DESC, DML_SCATTER's alias, not this struct.",
            "DML_SCATTER_ND_OPERATOR_DESC is its own struct (DirectML.h): not an alias of SCATTER_ELEMENTS.",
            "oracle.op_scatter_nd.ScatterNdDesc",
            False,
        ),
        Erratum(
            "U-SCATND-1",
            "unspecified",
            ("SCATND.11",),
            "Which of several tuples writing one output element lands: 'no guarantee of which last write wins'.",
            "The elements written more than once are open: observed and shown (the suite shows the last tuple in "
            "row-major order), never failed; the other elements are judged.",
            "oracle.op_scatter_nd.open_elements",
            True,
        ),
        Erratum(
            "U-SCATND-2",
            "unspecified",
            ("SCATND.1", "SCATND.3"),
            "The page does not say what a tuple with a coordinate outside its dimension does.",
            "Where its writes land is open: when any coordinate lies outside, every output element is open "
            "(observed and shown; the suite shows the tuple's writes dropped); the guard bytes around every buffer "
            "are judged as on every case.",
            "oracle.op_scatter_nd.open_elements",
            True,
        ),
    )
}

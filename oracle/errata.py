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
    # True where the page still bounds an open element: each must be bit for bit one of the values the first
    # input's buffer holds (GATHER.4's reads clamped within the input's memory;
    # conformance.judging.drawn.values_outside_input judges it).
    values_from_input: bool = False


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
        # DML_FILL_VALUE_CONSTANT (docs/spec/beyond-seeds.md)
        Erratum(
            "E-FILLC-1",
            "erratum",
            ("FILLC.2",),
            "The page's example gives 'Value = 13.0' and no ValueDataType, which the struct requires.",
            "ValueDataType is FLOAT32, the example's OutputTensor.DataType (FILLC.2 requires it to match); typed in so.",
            "cases/examples/FILL_VALUE_CONSTANT-example-1.json",
            False,
        ),
        # DML_FILL_VALUE_SEQUENCE (docs/spec/beyond-seeds.md)
        Erratum(
            "E-FILLS-1",
            "erratum",
            ("FILLS.1", "FILLS.3"),
            "Example 2 is titled '2D ascending step' but steps by ValueDelta = -2, and on UINT8, which holds no -2.",
            "A descending sequence: the UINT8 union holds -2's low 8 bits, 254 (as `Value.UInt8 = -2` stores it), and "
            "the running sum wraps modulo 256 (FILLS.3), giving the printed 10, 8, 6, 4: typed in with "
            "value_delta 254 and judged.",
            "oracle.op_fill_value_sequence._integer_sequence; cases/examples/FILL_VALUE_SEQUENCE-example-2.json",
            False,
        ),
        Erratum(
            "E-FILLS-2",
            "erratum",
            ("FILLS.1",),
            "The pseudocode's 'for each coordinate in OutputTensor' does not say in which order the coordinates "
            "are visited, which decides every element after the first.",
            "Row-major over the logical coordinates (the last dimension fastest), as example 2 prints; strides "
            "place the elements, they do not reorder the sequence: judged.",
            "oracle.op_fill_value_sequence.compute_literal",
            False,
        ),
        Erratum(
            "E-FILLS-3",
            "erratum",
            ("FILLS.3",),
            "ValueDataType is described as 'The data type of *Value* field'; the struct has no Value field (its "
            "unions are ValueStart and ValueDelta), and the pseudocode's 'Delta' is ValueDelta.",
            "ValueDataType types both ValueStart and ValueDelta (their own texts say so) and must match the output's.",
            "oracle.op_fill_value_sequence.FillValueSequenceDesc",
            False,
        ),
        Erratum(
            "U-FILLS-1",
            "unspecified",
            ("FILLS.1",),
            "In a floating type the pseudocode's running sum rounds at every step, ValueStart + i * ValueDelta only "
            "once; the page says neither which an implementation computes nor in what precision the sum is kept.",
            "Judged where ValueStart + i * ValueDelta is exact along every way to compute it (its product and sum are "
            "values of the type, and the running sum reaches it); every other element observed and shown as the "
            "running sum in the type, never failed. Integer types are exact (FILLS.3): judged, wrap-around included.",
            "oracle.op_fill_value_sequence.open_elements",
            True,
        ),
        # DML_DIAGONAL_MATRIX (docs/spec/beyond-seeds.md)
        Erratum(
            "E-DIAG-1",
            "erratum",
            ("DIAG.1",),
            "OutputTensor's dimensions are given as { Batch1, Batch2, OutputHeight, OutputWidth }, but the table "
            "allows 2 to 4 dimensions from FL 4.0.",
            "The last two dimensions are the matrix (height, width), any leading ones a batch of identical matrices "
            "(the description's 'Any leading dimensions before the last two are treated as a batch count'): judged.",
            "oracle.op_diagonal_matrix.on_diagonal",
            False,
        ),
        Erratum(
            "U-DIAG-1",
            "unspecified",
            ("DIAG.2",),
            "Value is a FLOAT; the page says only that in a type other than FLOAT16 and FLOAT32 it 'might be "
            "truncated (for example, 10.6 will become 10)': not how FLOAT16 rounds, whether FLOAT64 truncates, nor "
            "what out-of-range values, infinities and NaN become in an integer type.",
            "DML_PADDING's PaddingValue policy (U-PAD-1..3: FLOAT32 exact; FLOAT16 judged when exact; FLOAT64 "
            "widened, judged for whole numbers; integers truncated toward zero, judged in range); where it observes, "
            "the diagonal's elements are open, observed and shown; every 0 is judged.",
            "oracle.op_diagonal_matrix.open_elements",
            True,
        ),
        # DML_DIAGONAL_MATRIX1 (docs/spec/beyond-seeds.md)
        Erratum(
            "E-DIAG1-1",
            "erratum",
            ("DIAG1.1",),
            "The first example ('Default identity matrix') sets Value 7 and prints ones on the diagonal.",
            "Value is written (DIAG1.1, and the second example's 7s with the same Value): the example file holds 7s, "
            "what the page should have printed; judged.",
            "cases/examples/DIAGONAL_MATRIX1-example-1.json",
            False,
        ),
        Erratum(
            "E-DIAG1-2",
            "erratum",
            ("DIAG1.5",),
            "The page requires the same DataType and DimensionCount of InputTensor and OutputTensor, not the same "
            "Sizes, though an element outside the band is the input's (the examples keep it in place).",
            "The same Sizes: an input of other sizes is invalid (DIAG1.5).",
            "oracle.op_diagonal_matrix1.validate",
            False,
        ),
        Erratum(
            "E-DIAG1-3",
            "erratum",
            ("DIAG1.1",),
            "OutputTensor's dimensions are given as { Batch1, Batch2, OutputHeight, OutputWidth }, but the table "
            "allows 2 to 4 dimensions, and the examples are 2-D.",
            "As DML_DIAGONAL_MATRIX (E-DIAG-1): the last two dimensions are the matrix, any leading ones a batch.",
            "oracle.op_diagonal_matrix1.filled",
            False,
        ),
        # DML_GATHER_ND and DML_GATHER_ND1 (docs/spec/beyond-seeds.md): one text on both pages, one entry for both
        Erratum(
            "E-GND-1",
            "erratum",
            ("GND.3", "GND1.3"),
            "The OutputTensor.Sizes formula takes the input's LAST indexTupleSize sizes (and, on GATHER_ND1's page, "
            "no batch): its own example ({3,4,5,6,7}, tuples of 3) says {6,7} and prints {1,1,2,6,7} where the "
            "formula gives {1,2,5,6,7}, and every worked example's output contradicts it too.",
            "The examples' sizes: the batches, the indices' meaningful sizes past them but the last, the input's "
            "meaningful sizes past the batches and the tuple, right-aligned with leading ones: judged.",
            "oracle.gather_nd.output_sizes",
            False,
        ),
        Erratum(
            "E-GND-2",
            "erratum",
            ("GND.2", "GND1.2"),
            "The tuple size (the indices' last size) 'cannot exceed InputTensor.DimensionCount', but a tuple "
            "indexes the meaningful dimensions (InputDimensionCount), past the batches on GATHER_ND1's page.",
            "At most InputDimensionCount - BatchDimensionCount; a larger one is an invalid descriptor.",
            "oracle.gather_nd.GatherNdFunctions.validate",
            False,
        ),
        Erratum(
            "E-GND-3",
            "erratum",
            ("GND.7", "GND1.7"),
            "OutputTensor's text says 'The DimensionCount and DataType of this tensor must match "
            "InputTensor.DimensionCount' (a DataType cannot match a count).",
            "DimensionCount equal to the input's and DataType equal to the input's, as the constraints say.",
            "oracle.gather_nd.GatherNdFunctions.validate",
            False,
        ),
        Erratum(
            "E-GND-4",
            "erratum",
            ("GND.8",),
            "GATHER_ND's example 1 uses 2-D tensors, which the FL 2.1 table (where the operator is introduced) "
            "does not allow: 4 dimensions only.",
            "Typed in at FL 3.0, the first level whose table allows 2 dimensions; its values as printed.",
            "cases/examples/GATHER_ND-example-1.json",
            False,
        ),
        Erratum(
            "U-GND-1",
            "unspecified",
            ("GND.1", "GND1.1"),
            "Neither page says what an index outside its dimension gives (after a negative one counts from the "
            "end), nor promises anything of the elements its tuple writes.",
            "The elements of an out-of-range tuple are open: observed and shown (as 0), never failed; every other "
            "element judged, and the guard bytes around every buffer judged on such cases too.",
            "oracle.gather_nd.open_elements",
            True,
        ),
        Erratum(
            "E-GND1-1",
            "erratum",
            ("GND1.10",),
            "BatchDimensionCount ranges in [0, DimensionCount) of each tensor, yet its own example and example 2 "
            "take the batches from the first MEANINGFUL dimensions (after the ignored leading ones); the page "
            "does not say the batch sizes of the input and the indices must agree.",
            "The batches are the first BatchDimensionCount of each tensor's meaningful dimensions, fewer than "
            "both counts, of equal sizes in the input and the indices (no broadcast); anything else invalid.",
            "oracle.gather_nd.GatherNdFunctions.validate",
            False,
        ),
        # DML_ONE_HOT (docs/spec/beyond-seeds.md)
        Erratum(
            "E-ONEHOT-1",
            "erratum",
            ("ONEHOT.2",),
            "The page ignores an index that 'exceeds the number of elements along the Axis dimension': an index "
            "equal to that number names no element either, and the page does not say so.",
            "An index >= the axis' size (after ONEHOT.3's adjustment of a negative one) is ignored: its whole "
            "sequence is OffValue, judged.",
            "oracle.op_one_hot.positions",
            False,
        ),
        Erratum(
            "E-ONEHOT-2",
            "erratum",
            ("ONEHOT.9", "ONEHOT.10"),
            "The feature-level history lists DML_OPERATOR_ONE_HOT under FL 4.0's extended data types and dimension "
            "counts, but the page's tables have no 4.0 row: 1-8 dimensions and 64-bit indices come at 3.0 there.",
            "The page's tables are the truth: an 8-D case with INT64 indices is valid at FL 3.0.",
            "oracle.op_one_hot.INDICES_TABLES",
            False,
        ),
        Erratum(
            "U-ONEHOT-1",
            "unspecified",
            ("ONEHOT.2", "ONEHOT.3"),
            "The page says a negative index counts from the sequence's end and that an index exceeding the axis is "
            "ignored, but not what a negative index before the sequence's start (below -size) does.",
            "Every element of such a sequence is open: observed and shown (the suite shows OffValue, as ONNX's "
            "OneHot defines), never failed; the guard bytes around the buffers are still judged.",
            "oracle.op_one_hot.open_elements",
            True,
        ),
        # DML_GATHER (docs/spec/beyond-seeds.md)
        Erratum(
            "E-GATHER-1",
            "erratum",
            ("GATHER.5", "GATHER.7"),
            "Example 3 states IndexDimensions 2, but its {1,2} indices, Axis 1 of a {3,2} input and its {3,2} "
            "output fit IndexDimensions 1 only (2 would give {3,1,2}, three relevant dimensions in two).",
            "IndexDimensions 1: the example is typed in with 1 and names this erratum; 2 is invalid (GATHER.5).",
            "cases/examples/GATHER-example-3.json",
            False,
        ),
        Erratum(
            "E-GATHER-2",
            "erratum",
            ("GATHER.5", "GATHER.7"),
            "IndexDimensions is worded two ways ('the number of actual index dimensions ... after ignoring any "
            "irrelevant leading ones', and the output's 'original rank + IndexDimensions - 1'), and the size "
            "formula's right-alignment does not say which leading ones go: GATHER on axis 1 of a 3x3 input is "
            "reported giving different answers on two devices.",
            "The suite's reading: IndexDimensions counts IndicesTensor's trailing dimensions (the ones before them "
            "must be 1); their sizes land at Axis in the output; the concatenation is right-aligned in the "
            "DimensionCount, only leading ones cropped (or added, for IndexDimensions 0), as examples 2, 4 and 5 "
            "print: judged.",
            "oracle.op_gather.output_sizes",
            False,
        ),
        Erratum(
            "E-GATHER-3",
            "erratum",
            ("GATHER.7",),
            "IndexDimensions is said to range [0, IndicesTensor.DimensionCount), yet example 1 sets 1 with 1-D "
            "indices.",
            "[0, DimensionCount]: every dimension of IndicesTensor may index (examples 1 and 2, ONNX's Gather).",
            "oracle.op_gather.validate",
            False,
        ),
        Erratum(
            "U-GATHER-1",
            "unspecified",
            ("GATHER.4",),
            "An index out of range (at least the axis' size, or below minus it) 'will yield incorrect outputs': "
            "which value is not said, only that no failure occurs and every read stays within the input "
            "tensor's memory.",
            "The elements such an index produces are open (observed and shown; the oracle shows the index clamped "
            "to the axis), but judged to be bit for bit one of the input buffer's values, and the case judged to "
            "run (no failure, no removed device); the guard bytes are judged as everywhere.",
            "oracle.op_gather.open_elements",
            True,
            values_from_input=True,
        ),
        # DML_GATHER_ELEMENTS (docs/spec/beyond-seeds.md)
        Erratum(
            "E-GELEM-1",
            "erratum",
            ("GELEM.4",),
            "The example's OutputTensor is UINT32 for a FLOAT32 InputTensor, though the page requires the output "
            "to have the input's DataType.",
            "FLOAT32: the example is typed in with a FLOAT32 output (its printed values are exact in it) and names "
            "this erratum; a UINT32 output is invalid (COMMON.1).",
            "cases/examples/GATHER_ELEMENTS-example-1.json",
            False,
        ),
        Erratum(
            "U-GELEM-1",
            "unspecified",
            ("GELEM.1",),
            "The page says nothing of an index out of range (at least the axis' size, or below minus it): neither "
            "its value nor that the read stays within the input (GATHER's page promises that; this one does not).",
            "The element such an index produces is open (observed and shown; the oracle shows the index clamped to "
            "the axis), never failed; the guard bytes are judged as everywhere.",
            "oracle.op_gather_elements.open_elements",
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

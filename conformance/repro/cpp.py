"""`repro --cpp DIR`: one C++ file on DirectML's API that runs one case and compares with the oracle.

The program cannot disagree with the suite about what was run: its descriptor is generated from the
request the `directml` backend sends its runner (conformance.backends.directml.wire.request), member by
member as DirectML.h declares the struct (STRUCTS; tests hold the table to the header), and its device code
is the runner's own dml_common.h, copied in when the file is written (the regions marked `repro: omit` left
out: the request protocol).  The fixed part that runs and compares is native/repro.cpp.in.  Beside it:
CMakeLists.txt, build.cmd (MSVC) and build-mingw.sh, their compiler flags those the suite builds its runner
with (toolchain.command).
"""

from __future__ import annotations

import datetime
import shlex
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import oracle
from oracle import FeatureLevel, TensorDesc, layout
from oracle.op_padding import MODE_INTRODUCED, PaddingMode
from oracle.version import VERSION

from ..backends.base import Backend, Capabilities
from ..backends.directml.hresults import DEVICE_LOST, HRESULTS
from ..backends.directml.toolchain import LIBS, NATIVE, Compiler, command
from ..backends.directml.wire import inexpressible, input_payload, request
from ..support.outputs import write_atomic
from . import ReproError
from .target import Target

SOURCE = "repro.cpp"
EXE = "repro.exe"
TEMPLATE = NATIVE / "repro.cpp.in"
SHARED = NATIVE / "dml_common.h"
OMIT_BEGIN, OMIT_END = "// repro: omit begin", "// repro: omit end"
FILES = (SOURCE, "CMakeLists.txt", "build.cmd", "build-mingw.sh")


# --- the operator structs, as DirectML.h declares them ------------------------------------------------------


@dataclass(frozen=True)
class Member:
    """One member of an operator struct and where its value comes from in the runner's request: a tensor
    (`input`, `output`), a tensor array (`inputs`, `outputs`) or a field of `fields`, read as `kind`."""

    name: str
    source: str
    kind: str  # tensor(s), optional_tensor, uint(s), int, ints, mode, float_bits, data_type, scalar_bits, scale_bias, depth_space_order


INPUT, OUTPUT = Member("InputTensor", "input", "tensor"), Member("OutputTensor", "output", "tensor")
DIMS = Member("DimensionCount", "dimension_count", "uint")
PADS = (Member("StartPadding", "start_padding", "uints"), Member("EndPadding", "end_padding", "uints"))
MODE = Member("PaddingMode", "padding_mode", "mode")
AXIS = Member("Axis", "axis", "uint")
INDICES = Member("IndicesTensor", "input:1", "tensor")
INPUT_COUNT = Member("InputDimensionCount", "input_dimension_count", "uint")
INDICES_COUNT = Member("IndicesDimensionCount", "indices_dimension_count", "uint")
BLOCK, ORDER = Member("BlockSize", "block_size", "uint"), Member("Order", "order", "depth_space_order")

# Every member of each struct, in DirectML.h's order (tests/directml/test_repro.py reads the header).
STRUCTS: dict[str, tuple[Member, ...]] = {
    "SLICE": (
        INPUT,
        OUTPUT,
        DIMS,
        Member("Offsets", "offsets", "uints"),
        Member("Sizes", "sizes", "uints"),
        Member("Strides", "strides", "uints"),
    ),
    "SLICE1": (
        INPUT,
        OUTPUT,
        DIMS,
        Member("InputWindowOffsets", "window_offsets", "uints"),
        Member("InputWindowSizes", "window_sizes", "uints"),
        Member("InputWindowStrides", "window_strides", "ints"),
    ),
    "PADDING": (INPUT, OUTPUT, MODE, Member("PaddingValue", "padding_value_bits", "float_bits"), DIMS, *PADS),
    "PADDING1": (
        INPUT,
        OUTPUT,
        MODE,
        Member("PaddingValueDataType", "padding_value_data_type", "data_type"),
        Member("PaddingValue", "padding_value_bits", "scalar_bits"),
        DIMS,
        *PADS,
    ),
    "SPLIT": (
        INPUT,
        Member("OutputCount", "output_count", "uint"),
        Member("OutputTensors", "outputs", "tensors"),
        AXIS,
    ),
    "JOIN": (Member("InputCount", "input_count", "uint"), Member("InputTensors", "inputs", "tensors"), OUTPUT, AXIS),
    "ELEMENT_WISE_IDENTITY": (INPUT, OUTPUT, Member("ScaleBias", "scale_bias_bits", "scale_bias")),
    "TILE": (INPUT, OUTPUT, Member("RepeatsCount", "repeats_count", "uint"), Member("Repeats", "repeats", "uints")),
    # issue 31, the depth-space family
    "DEPTH_TO_SPACE": (INPUT, OUTPUT, BLOCK),
    "DEPTH_TO_SPACE1": (INPUT, OUTPUT, BLOCK, ORDER),
    "SPACE_TO_DEPTH": (INPUT, OUTPUT, BLOCK),
    "SPACE_TO_DEPTH1": (INPUT, OUTPUT, BLOCK, ORDER),
    # its second input, of its own data type, is the request's inputs[1]
    "REVERSE_SUBSEQUENCES": (INPUT, Member("SequenceLengthsTensor", "input:1", "tensor"), OUTPUT, AXIS),
    # issue 32: IndicesTensor (its own index type) and ValuesTensor are the request's inputs[0] and inputs[1]
    "ONE_HOT": (
        Member("IndicesTensor", "input", "tensor"),
        Member("ValuesTensor", "input:1", "tensor"),
        OUTPUT,
        AXIS,
    ),
    # its indices (another data type) and updates are the request's inputs[1] and inputs[2]
    "SCATTER": (
        INPUT,
        Member("IndicesTensor", "input:1", "tensor"),
        Member("UpdatesTensor", "input:2", "tensor"),
        OUTPUT,
        AXIS,
    ),
    "SCATTER_ND": (
        INPUT,
        Member("IndicesTensor", "input:1", "tensor"),
        Member("UpdatesTensor", "input:2", "tensor"),
        OUTPUT,
        Member("InputDimensionCount", "input_dimension_count", "uint"),
        Member("IndicesDimensionCount", "indices_dimension_count", "uint"),
    ),
    "SLICE_GRAD": (
        Member("InputGradientTensor", "input", "tensor"),
        Member("OutputGradientTensor", "output", "tensor"),
        DIMS,
        Member("InputWindowOffsets", "window_offsets", "uints"),
        Member("InputWindowSizes", "window_sizes", "uints"),
        Member("InputWindowStrides", "window_strides", "ints"),
    ),
    "CAST": (INPUT, OUTPUT),
    # issue 32: no input tensor, typed DML_SCALAR_UNIONs
    "FILL_VALUE_CONSTANT": (
        OUTPUT,
        Member("ValueDataType", "value_data_type", "data_type"),
        Member("Value", "value_bits", "scalar_bits"),
    ),
    "FILL_VALUE_SEQUENCE": (
        OUTPUT,
        Member("ValueDataType", "value_data_type", "data_type"),
        Member("ValueStart", "value_start_bits", "scalar_bits"),
        Member("ValueDelta", "value_delta_bits", "scalar_bits"),
    ),
    "DIAGONAL_MATRIX": (OUTPUT, Member("Offset", "offset", "int"), Member("Value", "value_bits", "float_bits")),
    "DIAGONAL_MATRIX1": (
        Member("InputTensor", "input", "optional_tensor"),
        OUTPUT,
        Member("ValueDataType", "value_data_type", "data_type"),
        Member("Value", "value_bits", "scalar_bits"),
        Member("DiagonalFillBegin", "diagonal_fill_begin", "int"),
        Member("DiagonalFillEnd", "diagonal_fill_end", "int"),
    ),
    # issue 32: the indices, of their own data type, are the request's inputs[1]
    "GATHER_ND": (INPUT, INDICES, OUTPUT, INPUT_COUNT, INDICES_COUNT),
    "GATHER_ND1": (
        INPUT,
        INDICES,
        OUTPUT,
        INPUT_COUNT,
        INDICES_COUNT,
        Member("BatchDimensionCount", "batch_dimension_count", "uint"),
    ),
    # issue 32: the indices, of their own data type, are the request's inputs[1]
    "GATHER": (
        INPUT,
        Member("IndicesTensor", "input:1", "tensor"),
        OUTPUT,
        AXIS,
        Member("IndexDimensions", "index_dimensions", "uint"),
    ),
    "GATHER_ELEMENTS": (INPUT, Member("IndicesTensor", "input:1", "tensor"), OUTPUT, AXIS),
}
# Request fields no struct member holds: SPLIT's and JOIN's DimensionCount is their tensors' rank (the runner
# reads it for no other operator either).
NOT_MEMBERS: dict[str, frozenset[str]] = {
    "SPLIT": frozenset({"dimension_count"}),
    "JOIN": frozenset({"dimension_count"}),
}


# The enumerations a request names by their member's name, and their C prefix.
ENUM_PREFIXES = {
    "mode": "DML_PADDING_MODE_",
    "depth_space_order": "DML_DEPTH_SPACE_ORDER_",
    "data_type": "DML_TENSOR_DATA_TYPE_",
}


def struct_name(operator: str) -> str:
    return f"DML_{operator}_OPERATOR_DESC"


# --- C++ text ---------------------------------------------------------------------------------------------


def c_string(text: str) -> str:
    """A C++ string literal of `text` (UTF-8; anything but printable ASCII as octal escapes, which never run on)."""
    out = []
    for byte in text.encode():
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def comment(text: str, width: int = 110) -> list[str]:
    """`text` as // lines (ASCII: MSVC reads a source without a BOM in the local code page)."""
    import textwrap

    ascii_text = text.encode("ascii", "backslashreplace").decode()
    lines: list[str] = []
    for paragraph in ascii_text.splitlines() or [""]:
        lines += [
            f"// {line}".rstrip()
            for line in textwrap.wrap(paragraph, width - 3, break_long_words=False, break_on_hyphens=False) or [""]
        ]
    return lines


def numbers(values: Sequence[int], per_line: int, fmt: str = "{}", indent: str = "    ") -> str:
    """An initializer list's contents, `per_line` values a line."""
    items = [fmt.format(v) for v in values]
    rows = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return ("\n" + indent).join(f"{row}," for row in rows)


def camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(part.title() for part in rest)


# --- the case's section -----------------------------------------------------------------------------------


class Section:
    """The CaseOperator struct being written: member declarations and the constructor's statements."""

    def __init__(self) -> None:
        self.decls: list[str] = []
        self.body: list[str] = []

    def array(self, name: str, c_type: str, values: Sequence[int]) -> str:
        """Declare a member array; returns what a pointer member is set to (nullptr for an empty array, as the
        runner's empty std::vector gives)."""
        if not values:
            return "nullptr"
        self.decls.append(f"{c_type} {name}[{len(values)}] = {{{', '.join(str(v) for v in values)}}};")
        return name

    def tensor(self, name: str, t: dict) -> None:
        """One DML_BUFFER_TENSOR_DESC, every field from the request's tensor, as the runner's Tensor::init reads it."""
        sizes = self.array(f"{name}Sizes", "UINT", t["sizes"])
        strides = self.array(f"{name}Strides", "UINT", t["strides"]) if "strides" in t else "nullptr"
        flags = int(t.get("flags") or 0)
        flag_text = {0: "DML_TENSOR_FLAG_NONE", 1: "DML_TENSOR_FLAG_OWNED_BY_DML"}.get(
            flags, f"static_cast<DML_TENSOR_FLAGS>({flags})"
        )
        self.decls.append(f"DML_BUFFER_TENSOR_DESC {name}{{}};")
        self.body += [
            f"{name}.DataType = DML_TENSOR_DATA_TYPE_{t['data_type']};",
            f"{name}.Flags = {flag_text};",
            f"{name}.DimensionCount = {len(t['sizes'])};",
            f"{name}.Sizes = {sizes};",
            f"{name}.Strides = {strides};" + ("" if "strides" in t else "  // none stated: packed"),
            f"{name}.TotalTensorSizeInBytes = {int(t['total_size'])};",
            f"{name}.GuaranteedBaseOffsetAlignment = {int(t.get('alignment') or 0)};",
        ]

    def member(self, var: str, m: Member, fields: dict) -> None:
        target = f"{var}.{m.name}"
        if m.kind == "tensor":  # "input" -> &inputDescs[0]; "input:1" (a struct's second input) -> &inputDescs[1]
            base, _, index = m.source.partition(":")
            self.body.append(f"{target} = &{base}Descs[{index or 0}];")
        elif m.kind == "optional_tensor":  # _Maybenull_: &inputDescs[0], or nullptr when the request has none
            base = m.source
            self.body.append(f"{target} = {base}Descs ? &{base}Descs[0] : nullptr;")
        elif m.kind == "tensors":  # "inputs" -> inputDescs (nullptr when there are none)
            self.body.append(f"{target} = {m.source[:-1]}Descs;")
        elif m.kind in ("uint", "int"):
            self.body.append(f"{target} = {int(fields[m.source])};")
        elif m.kind in ("uints", "ints"):
            ctype = "UINT" if m.kind == "uints" else "INT"
            self.body.append(f"{target} = {self.array(camel(m.source), ctype, fields[m.source])};")
        elif m.kind in ENUM_PREFIXES:  # an enumeration member, by its name
            self.body.append(f"{target} = {ENUM_PREFIXES[m.kind]}{fields[m.source]};")
        elif m.kind == "float_bits":
            bits = int(fields[m.source])
            value = struct.unpack("<f", struct.pack("<I", bits))[0]
            self.body += [
                f"const uint32_t {camel(m.source)} = 0x{bits:08x};  // {value!r}: a FLOAT, copied bit for bit",
                f"std::memcpy(&{target}, &{camel(m.source)}, sizeof {camel(m.source)});",
            ]
        elif m.kind == "scalar_bits":
            bits = int(fields[m.source])
            self.body += [
                f"const uint64_t {camel(m.source)} = 0x{bits:016x};  // DML_SCALAR_UNION's bytes, little-endian",
                f"std::memcpy({target}.Bytes, &{camel(m.source)}, sizeof {camel(m.source)});",
            ]
        elif m.kind == "scale_bias":  # _Maybenull_ const DML_SCALE_BIAS*: null, or its two FLOATs' bits
            bits = fields[m.source]
            if bits is None:
                self.body.append(f"{target} = nullptr;")
            else:
                self.decls.append("DML_SCALE_BIAS scaleBias{};")
                self.body += [
                    f"const uint32_t scaleBiasBits[2] = {{0x{int(bits[0]):08x}, 0x{int(bits[1]):08x}}};  // FLOATs, bit for bit",
                    "std::memcpy(&scaleBias.Scale, &scaleBiasBits[0], sizeof scaleBias.Scale);",
                    "std::memcpy(&scaleBias.Bias, &scaleBiasBits[1], sizeof scaleBias.Bias);",
                    f"{target} = &scaleBias;",
                ]
        else:
            raise ReproError(f"internal: member {m.name} has unknown kind {m.kind!r}")


def operator_source(req: dict) -> str:
    """struct CaseOperator: the operator's DML_OPERATOR_DESC and everything it points to, every field from the
    runner's request `req` (backend.request), each set by its DirectML.h name."""
    op = req["operator"]
    if op not in STRUCTS:
        raise ReproError(f"the reproducer has no struct table for DML_{op}")
    members, fields = STRUCTS[op], req["fields"]
    unknown = set(fields) - {m.source for m in members} - NOT_MEMBERS.get(op, frozenset())
    if unknown:
        raise ReproError(
            f"the request for DML_{op} has field(s) {', '.join(sorted(unknown))} that {struct_name(op)} has no "
            "member for in conformance/repro/cpp.py STRUCTS: update the table with the runner"
        )
    s = Section()
    inputs, outputs = req["tensors"]["inputs"], req["tensors"]["outputs"]
    for kind, tensors in (("input", inputs), ("output", outputs)):
        for i, t in enumerate(tensors):
            s.body.append(f"// {kind} tensor {i}")
            s.tensor(f"{kind}{i}", t)
        if tensors:
            s.decls.append(f"DML_TENSOR_DESC {kind}Descs[{len(tensors)}]{{}};")
            s.body += [f"{kind}Descs[{i}] = {{DML_TENSOR_TYPE_BUFFER, &{kind}{i}}};" for i in range(len(tensors))]
        else:
            s.decls.append(f"DML_TENSOR_DESC* {kind}Descs = nullptr;")
    var = op.lower()
    s.decls.append(f"{struct_name(op)} {var}{{}};")
    s.body.append(f"// {struct_name(op)}: every member, in DirectML.h's order")
    for m in members:
        s.member(var, m, fields)
    s.decls.append("DML_OPERATOR_DESC desc{};")
    s.body.append(f"desc = {{DML_OPERATOR_{op}, &{var}}};")
    listing = {
        kind: ", ".join(f"&{kind}{i}" for i in range(len(tensors)))
        for kind, tensors in (("input", inputs), ("output", outputs))
    }
    lines = [
        "// The operator exactly as the case states it (its pointers point into this struct: not copyable).",
        "struct CaseOperator {",
        *(f"    {d}" for d in s.decls),
        "",
        "    CaseOperator() {",
        *(f"        {b}" if b else "" for b in s.body),
        "    }",
        "    CaseOperator(const CaseOperator&) = delete;",
        "    CaseOperator& operator=(const CaseOperator&) = delete;",
        f"    std::vector<const DML_BUFFER_TENSOR_DESC*> inputs() const {{ return {{{listing['input']}}}; }}",
        f"    std::vector<const DML_BUFFER_TENSOR_DESC*> outputs() const {{ return {{{listing['output']}}}; }}",
        "};",
    ]
    return "\n".join(lines)


WIDTH_TYPES = {1: "uint8_t", 2: "uint16_t", 4: "uint32_t", 8: "uint64_t"}


def data_source(target: Target) -> str:
    """The inputs' buffers as bound (each TotalTensorSizeInBytes, elements through the strides: what the suite
    sends its runner) and, per output, the oracle's elements as bits and the elements the spec leaves open."""
    case = target.case
    desc = case.descriptor
    lines: list[str] = []
    inputs, expected = [], []
    if case.valid:
        buffers = [layout.pack(x, t).tobytes() for x, t in zip(case.inputs, desc.input_tensors)]
        if b"".join(buffers) != input_payload(list(case.inputs), desc.input_tensors):
            raise ReproError("internal: the input buffers differ from the runner's payload")
        for i, (data, t) in enumerate(zip(buffers, desc.input_tensors)):
            lines += [
                f"// Input {i}'s buffer as bound: {len(data)} bytes ({t.data_type.value} {list(t.sizes)}"
                + (f", strides {list(t.strides)}" if t.strides is not None else "")
                + "; bytes no element occupies hold the suite's fill pattern).",
                f"const unsigned char kInput{i}[{len(data)}] = {{\n    {numbers(list(data), 16, '0x{:02x}')}\n}};",
            ]
            inputs.append(f"{{kInput{i}, {len(data)}}}")
        masks = oracle.unspecified_mask(desc, case.inputs) if case.unspecified else [None] * len(desc.output_tensors)
        for j, (out, t, mask) in enumerate(zip(case.expected.outputs, desc.output_tensors, masks)):
            lines += _expected_lines(j, out, t, mask)
            expected.append(
                f"{{kExpected{j}, {out.size}, {f'kOpen{j}' if mask is not None and mask.any() else 'nullptr'}}}"
            )
    lines.append(f"const std::vector<InputData> kInputs = {{{', '.join(inputs)}}};")
    lines.append(f"const std::vector<Expected> kExpected = {{{', '.join(expected)}}};")
    return "\n".join(lines)


def _expected_lines(j: int, out: np.ndarray, t: TensorDesc, mask: np.ndarray | None) -> list[str]:
    width = t.data_type.numpy.itemsize
    bits = np.ascontiguousarray(out, dtype=t.data_type.numpy).view(t.data_type.bits).ravel()
    lines = [
        f"// Output {j}: the oracle's {bits.size} element(s) of {t.data_type.value} {list(t.sizes)}, row-major, as bits.",
        f"const {WIDTH_TYPES[width]} kExpected{j}[{bits.size}] = {{\n"
        f"    {numbers([int(b) for b in bits], max(2, 16 // width), '0x{:0' + str(width * 2) + 'x}')}\n}};",
    ]
    if mask is not None and mask.any():
        packed = np.packbits(mask.ravel(), bitorder="little")
        lines += [
            f"// Output {j}: bit k set = element k is left open by the spec ({int(mask.sum())} element(s)): not judged.",
            f"const unsigned char kOpen{j}[{packed.size}] = {{\n    {numbers([int(b) for b in packed], 16, '0x{:02x}')}\n}};",
        ]
    return lines


def valid_at_levels(target: Target) -> list[FeatureLevel]:
    """For an invalid case: the levels above the case's at which the descriptor is valid (a device implementing
    one of them cannot judge it: DirectML validates against the level it implements)."""
    case = target.case
    found = []
    for level in FeatureLevel:
        if level <= case.feature_level:
            continue
        try:
            oracle.validate(case.descriptor, level)
        except oracle.InvalidDescriptor:
            continue
        found.append(level)
    return found


def header_level(target: Target) -> FeatureLevel:
    """The feature level DirectML.h must know for this file: the case's, the operator's and its padding mode's."""
    desc = target.case.descriptor
    levels = [target.case.feature_level, oracle.registry.operator_module(desc.operator).TABLES.introduced[0]]
    mode = getattr(desc, "padding_mode", None)
    if isinstance(mode, PaddingMode) and mode in MODE_INTRODUCED:
        levels.append(MODE_INTRODUCED[mode][0])
    return max(levels)


def case_source(target: Target, req: dict, adapter: str | None) -> str:
    case = target.case
    level = header_level(target)
    needed = f"0x{level.value[0]}{level.value[1]}00"
    clause = case.expected.clause or ""
    broken = f"{clause} ({oracle.CLAUSES.get(clause, '')})" if clause else ""
    open_validity = [u for u in case.unspecified if oracle.ERRATA[u].refusal_observed]
    summary = (
        f"{case.id} (DML_{case.operator}, {case.data_type.value}, rank {case.rank}, feature level "
        f"{case.feature_level}, {'valid' if case.valid else 'invalid: breaks ' + clause})"
    )
    hresults = ",\n    ".join(
        f"{{0x{value:08x}u, {c_string(name.split(' (')[0])}, {'true' if value in DEVICE_LOST else 'false'}}}"
        for value, name in HRESULTS.items()
    )
    lines = [
        f"#if DML_TARGET_VERSION < {needed}",
        f'#error "this case needs a DirectML.h that knows {level.dml_name} (DML_TARGET_VERSION {needed}): DirectX-Headers, '
        'or the Microsoft.AI.DirectML NuGet package; set DIRECTML_INCLUDE to its folder"',
        "#endif",
        "",
        "namespace {",
        "",
        f"const char kCaseSummary[] = {c_string(summary)};",
        f"const DML_FEATURE_LEVEL kFeatureLevel = {case.feature_level.dml_name};  // DMLCreateDevice1's minimum",
        f"const DML_TENSOR_DATA_TYPE kDataType = DML_TENSOR_DATA_TYPE_{case.data_type.value};  // the input's",
        f"const char kDataTypeName[] = {c_string(case.data_type.value)};",
        f"const bool kExpectRefusal = {'false' if case.valid else 'true'};  // an invalid descriptor: CreateOperator must refuse it",
        f"const char kBrokenClause[] = {c_string(broken)};",
        "const std::vector<DML_FEATURE_LEVEL> kValidAtLevels = {"
        + ", ".join(lv.dml_name for lv in ([] if case.valid else valid_at_levels(target)))
        + "};",
        f"const char kUnspecified[] = {c_string(', '.join(case.unspecified))};  // entries whose elements are open",
        f"const char kOpenValidity[] = {c_string(', '.join(open_validity))};  // entries that leave validity open",
        f"const char kDefaultAdapter[] = {c_string(adapter or '')};",
        "",
        "// HRESULTs with their names (conformance/backends/directml/hresults.py HRESULTS).",
        f"const HresultName kHresults[] = {{\n    {hresults},\n}};",
        "",
        operator_source(req),
        "",
        data_source(target),
        "",
        "}  // namespace",
    ]
    return "\n".join(lines)


# --- the banner -------------------------------------------------------------------------------------------


def banner(target: Target, command_line: str) -> str:
    case = target.case
    lines = [
        f"// {SOURCE}: a standalone reproducer of the dml-conformance case {case.id}.",
        f"// Written by dml-conformance {VERSION} on {datetime.date.today().isoformat()}: {command_line}",
        "//",
        *comment(
            f"DML_{case.operator}, {case.data_type.value}, rank {case.rank}, feature level {case.feature_level}; "
            f"clauses {', '.join(case.clauses) or '-'}."
        ),
    ]
    if case.description:
        lines += comment(case.description)
    if case.valid:
        expect = "DirectML accepts the descriptor and writes the oracle's outputs (part 2), bit for bit."
        if case.unspecified:
            expect += f" Elements the spec leaves open ({', '.join(case.unspecified)}) are not judged."
    else:
        clause = case.expected.clause or "?"
        expect = (
            f"IDMLDevice::CreateOperator refuses the descriptor: it breaks {clause} ({oracle.CLAUSES.get(clause, '')})."
        )
    lines += ["//", *comment(f"Expected: {expect}")]
    if target.record is not None:
        r = target.record
        said = f"The suite's result ({target.results_path}): {r.category.value.upper()}: {r.reason}"
        if r.waived_category is not None:
            said += f" (before the waiver: {r.waived_category.value}; this program ignores waivers)"
        lines += comment(said)
    lines += [
        "//",
        "// Build with nothing but a C++17 compiler, the Windows SDK and DirectML.h (DML_TARGET_VERSION as below):",
        "//   build.cmd        MSVC, from a Developer Command Prompt (DIRECTML_INCLUDE: a newer DirectML.h's folder)",
        "//   build-mingw.sh   mingw-w64 (Linux, or MSYS2), DirectML.h from DirectX-Headers (DIRECTML_INCLUDE)",
        "//   cmake -B build && cmake --build build   (-DDIRECTML_INCLUDE=...)",
        f"// Run: {EXE} [--dml-dll PATH] [--adapter INDEX|NAME]   (Linux: under Wine with vkd3d, as the suite does)",
        "// Exit status, the suite's verdict on the case (waivers ignored): 0 DirectML agrees with the oracle; 1 it",
        "// differs (the first wrong element is printed with its index and both values; a refused valid descriptor",
        "// or an accepted invalid one: the call and its HRESULT); 2 a bad command line; 3 not tested (no device or",
        "// DirectML.dll, or a data type or feature level the device lacks: the suite says unsupported).",
    ]
    return "\n".join(lines)


# --- the shared part --------------------------------------------------------------------------------------


def shared_source(path: Path = SHARED) -> str:
    """The runner's dml_common.h without its own heading, `#pragma once` and the regions marked `repro: omit`."""
    lines = path.read_text().splitlines()
    try:
        start = lines.index("#pragma once") + 1
    except ValueError:
        raise ReproError(f"{path}: no `#pragma once` line: not the runner's header") from None
    out, omitting = [], False
    for number, line in enumerate(lines[start:], start=start + 1):
        if line.startswith(OMIT_BEGIN) or line.startswith(OMIT_END):
            begin = line.startswith(OMIT_BEGIN)
            if begin == omitting:
                raise ReproError(
                    f"{path}:{number}: `{line.strip()}` where a region is {'open' if omitting else 'not open'}"
                )
            omitting = begin
            continue
        if not omitting:
            out.append(line)
    if omitting:
        raise ReproError(f"{path}: a `{OMIT_BEGIN}` region never ends")
    return "\n".join(out).strip("\n")


def source(target: Target, *, adapter: str | None = None, command_line: str = "") -> str:
    """The whole reproducer: banner, the runner's shared code, the case, and the fixed run-and-compare part."""
    case = target.case
    reason = inexpressible(case.descriptor)
    if reason:
        raise ReproError(f"{case.id} has no C form, so the directml backend reports it unsupported: {reason}")
    if case.valid:
        reason = Backend.unsupported_reason(_StaticCapabilities(), case.descriptor, case.feature_level)
        if reason:
            raise ReproError(f"{case.id}: the directml backend reports it unsupported: {reason}")
    req = request(case.descriptor, case.feature_level, check_only=not case.valid)
    parts = {
        "@BANNER@": banner(target, command_line),
        "@SHARED@": shared_source(),
        "@CASE@": case_source(target, req, adapter),
    }
    text = TEMPLATE.read_text()
    for key, value in parts.items():
        if text.count(key) != 1:
            raise ReproError(f"{TEMPLATE}: expected one {key} placeholder")
        text = text.replace(key, value)
    return text


class _StaticCapabilities(Backend):
    """The directml backend's capabilities that do not depend on the device (data types and the feature level
    do: the program checks those on the device, as the backend does)."""

    name = "directml"

    def capabilities(self) -> Capabilities:
        return Capabilities(
            data_types=frozenset(oracle.ALL_DATA_TYPES),
            feature_level=max(FeatureLevel),
            checks_invalid_descriptors=True,
            tensor_layouts=True,
        )

    def run(self, descriptor, inputs, feature_level):  # never run: it only answers unsupported_reason
        raise NotImplementedError


# --- the build files --------------------------------------------------------------------------------------


def mingw_script() -> str:
    """build-mingw.sh: the runner's mingw-w64 command line (toolchain.command), compiler and header folder
    from the environment."""
    cmd = command(Compiler("mingw", "$CXX", ""), Path("$DIRECTML_INCLUDE/DirectML.h"), Path(SOURCE), Path(EXE))
    quoted = " ".join(f'"{a}"' if a.startswith("$") else shlex.quote(a) for a in cmd)
    return "\n".join(
        [
            "#!/bin/sh",
            f"# Builds {EXE} with mingw-w64, as dml-conformance builds its DirectML runner (Linux: run it under Wine,",
            "# with vkd3d and a Vulkan driver; `dml-conformance repro ... --run` does both).",
            "#   CXX              the compiler (default x86_64-w64-mingw32-g++)",
            "#   DIRECTML_INCLUDE the folder of DirectML.h from Microsoft's DirectX-Headers (mingw-w64 has none);",
            "#                    its d3d12.h is not used: mingw's own comes first (-idirafter)",
            "set -e",
            'cd "$(dirname "$0")"',
            'CXX="${CXX:-x86_64-w64-mingw32-g++}"',
            'DIRECTML_INCLUDE="${DIRECTML_INCLUDE:-/usr/include/directx}"',
            'if [ ! -f "$DIRECTML_INCLUDE/DirectML.h" ]; then',
            '    echo "build-mingw.sh: no DirectML.h in $DIRECTML_INCLUDE: set DIRECTML_INCLUDE to its folder" >&2',
            "    exit 2",
            "fi",
            quoted,
            f'echo "built {EXE}: wine {EXE} --dml-dll PATH_TO_DirectML.dll (on Windows: {EXE})"',
            "",
        ]
    )


def msvc_script() -> str:
    """build.cmd: the runner's MSVC command line (toolchain.command); DirectML.h from the SDK unless DIRECTML_INCLUDE."""
    cmd = command(Compiler("msvc", "cl", ""), Path("%DIRECTML_INCLUDE%/DirectML.h"), Path(SOURCE), Path(EXE))
    line = " ".join(cmd).replace("/I%DIRECTML_INCLUDE%", '/I"%DIRECTML_INCLUDE%"')
    return "\r\n".join(
        [
            "@echo off",
            f"rem Builds {EXE} with MSVC (or clang-cl) from a Visual Studio Developer Command Prompt, as dml-conformance",
            "rem builds its DirectML runner.  DirectML.h: the Windows SDK's, or set DIRECTML_INCLUDE to the folder of a",
            "rem newer one (DirectX-Headers, or the Microsoft.AI.DirectML NuGet package's include folder).",
            "setlocal",
            'cd /d "%~dp0"',
            "if not defined DIRECTML_INCLUDE set DIRECTML_INCLUDE=.",
            f"{line} || exit /b 1",
            f"echo built {EXE}: {EXE} [--dml-dll PATH] [--adapter INDEX^|NAME]",
            "",
        ]
    )


def cmake_lists() -> str:
    libs = " ".join(lib for lib in LIBS if lib != "uuid")
    return "\n".join(
        [
            "# Builds repro.exe: MSVC, clang-cl or mingw-w64 (a toolchain file for x86_64-w64-mingw32 off Windows).",
            "cmake_minimum_required(VERSION 3.16)",
            "project(dml_conformance_repro LANGUAGES CXX)",
            "set(CMAKE_CXX_STANDARD 17)",
            "set(CMAKE_CXX_STANDARD_REQUIRED ON)",
            'set(DIRECTML_INCLUDE "" CACHE PATH "folder of a DirectML.h newer than the Windows SDK\'s (DirectX-Headers, or the Microsoft.AI.DirectML NuGet package)")',
            "add_executable(repro repro.cpp)",
            f"target_link_libraries(repro PRIVATE {libs})",
            "if(MSVC)",
            "  target_compile_options(repro PRIVATE /W3 /EHsc)",
            "  if(DIRECTML_INCLUDE)",
            "    target_include_directories(repro PRIVATE ${DIRECTML_INCLUDE})",
            "  endif()",
            "else()",
            "  # mingw-w64: wmain needs -municode; DirectML.h after mingw's own D3D12 headers (-idirafter).",
            "  target_compile_options(repro PRIVATE -municode -Wall -Wextra -Wno-cast-function-type -Wno-unknown-pragmas)",
            "  target_link_options(repro PRIVATE -municode -static -static-libgcc -static-libstdc++)",
            "  target_link_libraries(repro PRIVATE uuid)",
            "  if(DIRECTML_INCLUDE)",
            "    target_compile_options(repro PRIVATE -idirafter ${DIRECTML_INCLUDE})",
            "  endif()",
            "endif()",
            "",
        ]
    )


def write_cpp(target: Target, directory: Path, *, adapter: str | None = None, command_line: str = "") -> list[Path]:
    """Write the reproducer's folder; returns the files written.  Nothing is written when the case has no C form."""
    text = source(target, adapter=adapter, command_line=command_line)
    contents = {
        SOURCE: text,
        "CMakeLists.txt": cmake_lists(),
        "build.cmd": msvc_script(),
        "build-mingw.sh": mingw_script(),
    }
    # Each file whole (conformance.support.outputs); repro.cpp's banner is the folder's marker.
    return [
        write_atomic(directory / name, content.encode(), 0o755 if name.endswith(".sh") else 0o644)
        for name, content in contents.items()
    ]

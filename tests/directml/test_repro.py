"""`dml-conformance repro`: standalone reproducers, their descriptors, their comparison, and the suite's verdict.

The three C++ reproducers (a wrong answer, a refusal, a worked example that passes) are built with mingw-w64
and run under Wine on the real DirectML, each compiled once for the module, beside one suite run on the same
cases; that part needs `dml-conformance setup directml` (skipped with the reason elsewhere, failed in CI).
Everything else runs in-process or on ONNX Runtime's CPU provider in about a second a test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import onnx
import pytest
from directml_helpers import require_directml
from onnx import numpy_helper
from prerequisite import require

from conformance.backends.directml.build import header_candidates
from conformance.backends.directml.wire import request
from conformance.cli import main
from conformance.repro import ReproError, cpp
from conformance.repro.target import find_target
from conformance.run.record import Category, Record, standalone_command
from conformance.run.results import read_results
from oracle import OPERATORS

ROOT = Path(__file__).resolve().parents[2]
WRONG, REFUSED, PASSING = "SLICE1-output-shorter-than-full-window", "SLICE-zero-stride-size-1", "SLICE1-example-2"


def cli(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def source_of(case_id: str) -> str:
    return cpp.source(find_target(case_id))


# --- the descriptor: DirectML.h's structs, every field the request carries -----------------------------------


def header_structs() -> dict[str, list[str]]:
    """Each operator struct's members, in order, read from the DirectML.h the suite builds against."""
    found = [h for h in header_candidates() if h.is_file()]
    require(bool(found), "DirectML.h (DirectX-Headers) is not here: `dml-conformance setup directml` fetches it")
    text = found[0].read_text()
    out = {}
    for op in OPERATORS:
        body = re.search(rf"struct {cpp.struct_name(op)}\s*\{{(.*?)\}};", text, re.S)
        assert body, f"{cpp.struct_name(op)} is not in {found[0]}"
        out[op] = re.findall(r"(\w+)\s*;", body.group(1))
    return out


def test_every_operator_struct_is_set_member_by_member_as_directml_h_declares_it():
    assert set(cpp.STRUCTS) == set(OPERATORS)
    assert {op: [m.name for m in members] for op, members in cpp.STRUCTS.items()} == header_structs()


@pytest.mark.parametrize(
    "case_id",
    [
        "SLICE-example-1",
        WRONG,
        "PADDING-example-1",
        "PADDING1-example-1",
        "SPLIT-example-1",
        "JOIN-example-1",
        "ELEMENT_WISE_IDENTITY-float16-bits",
        "ELEMENT_WISE_IDENTITY-scale-bias-float32",
        "SPACE_TO_DEPTH1-example-2",  # BlockSize and Order (a DML_DEPTH_SPACE_ORDER member)
    ],
)
def test_every_field_of_the_runners_request_reaches_one_member(case_id):
    case = find_target(case_id).case
    req = request(case.descriptor, case.feature_level)
    members = cpp.STRUCTS[case.operator]
    fields = {m.source for m in members if m.kind not in ("tensor", "tensors")}
    assert set(req["fields"]) == fields | cpp.NOT_MEMBERS.get(case.operator, frozenset())
    source = source_of(case_id)
    for m in members:
        assert re.search(rf"(\b| &){case.operator.lower()}\.{m.name}\b", source), m.name  # set, or memcpy'd into


def test_the_tensor_descs_state_every_field_as_the_case_does():
    # cases/curated/LAYOUT.json: FLOAT16 [3] aligned to 256 and [5] aligned to 32, EDGE padding.
    source = source_of("PADDING1-layout-aligned-buffers")
    for line in (
        "UINT input0Sizes[1] = {3};",
        "input0.DataType = DML_TENSOR_DATA_TYPE_FLOAT16;",
        "input0.Flags = DML_TENSOR_FLAG_NONE;",
        "input0.DimensionCount = 1;",
        "input0.Strides = nullptr;",
        "input0.TotalTensorSizeInBytes = 8;",  # 6 bytes, rounded up to 4 (DMLCalcBufferTensorSize)
        "input0.GuaranteedBaseOffsetAlignment = 256;",
        "output0.TotalTensorSizeInBytes = 12;",
        "output0.GuaranteedBaseOffsetAlignment = 32;",
        "padding1.PaddingMode = DML_PADDING_MODE_EDGE;",
        "padding1.PaddingValueDataType = DML_TENSOR_DATA_TYPE_FLOAT16;",
        "desc = {DML_OPERATOR_PADDING1, &padding1};",
    ):
        assert line in source, line
    # The input buffer as bound: the elements, then two bytes of the suite's fill pattern (0x3b * k + 0x5a).
    assert "const unsigned char kInput0[8] = {\n    0x01, 0x7e, 0x00, 0x80, 0x00, 0x3c, 0xbc, 0xf7,\n};" in source
    assert "const uint16_t kExpected0[5] = {\n    0x7e01, 0x7e01, 0x8000, 0x3c00, 0x3c00,\n};" in source
    owned = source_of("SLICE1-layout-owned-by-dml-input")
    assert "input0.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;" in owned and "INT windowStrides[1] = {1};" in owned


def test_padding_values_travel_as_their_bits():
    assert "const uint32_t paddingValueBits = 0xc06ccccd;" in source_of("PADDING-negative-into-uint8")  # -3.7f
    assert "const uint64_t paddingValueBits = 0x0020000000000001;" in source_of("PADDING1-int64-past-2-53")  # 2^53+1


def test_open_elements_and_expected_refusals_are_baked_in():
    # U-PAD-1 leaves element 0 (the PaddingValue) open: bit 0 of the mask.
    source = source_of("PADDING-negative-into-uint8")
    assert "const unsigned char kOpen0[1] = {\n    0x01,\n};" in source and "{kExpected0, 3, kOpen0}" in source
    invalid = source_of("JOIN-int8-at-1.0")  # INT8 JOIN is invalid at 1.0 only: a 6.4 device cannot judge it
    assert "const bool kExpectRefusal = true;" in invalid and "const std::vector<InputData> kInputs = {};" in invalid
    levels = re.search(r"kValidAtLevels = \{(.*)\};", invalid)
    assert levels and "DML_FEATURE_LEVEL_6_4" in levels.group(1) and "DML_FEATURE_LEVEL_1_0" not in levels.group(1)


def test_the_shared_part_is_the_runners_header_without_the_protocol(tmp_path):
    shared = cpp.shared_source()
    assert "class Device {" in shared and "binding_properties(" in shared and "struct HrError" in shared
    assert "class JsonReader" not in shared and "void write_frame(" not in shared and "int serve(" not in shared
    broken = tmp_path / "dml_common.h"
    broken.write_text("#pragma once\nint a;\n// repro: omit begin (x)\nint b;\n")
    with pytest.raises(ReproError, match=r"dml_common.h: a `// repro: omit begin` region never ends"):
        cpp.shared_source(broken)


def test_the_build_scripts_use_the_runners_compiler_flags():
    script = cpp.mingw_script()
    assert (
        '"$CXX" -std=c++17 -O2 -municode' in script
        and '-idirafter "$DIRECTML_INCLUDE" repro.cpp -o repro.exe' in script
    )
    assert "-ld3d12 -ldxgi -ldxguid -luuid -lversion" in script
    cmd = cpp.msvc_script()
    assert '/I"%DIRECTML_INCLUDE%" repro.cpp /Ferepro.exe /link d3d12.lib dxgi.lib dxguid.lib version.lib' in cmd


# --- the command: errors --------------------------------------------------------------------------------------


def test_an_unknown_id_is_a_usage_error(tmp_path, capsys):
    examples = str(ROOT / "cases" / "examples")  # generating every id to be sure costs a minute: the stored ones
    assert main(["repro", "NOPE", "--cases", examples, "--cpp", str(tmp_path / "r")]) == 2
    assert f"no case 'NOPE' in {examples}" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_a_case_with_no_c_form_is_refused_with_the_backends_reason(tmp_path, capsys):
    assert main(["repro", "JOIN-input-count-mismatch", "--cpp", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "no C form, so the directml backend reports it unsupported: input_count=3 but InputTensors has 2" in err
    assert not (tmp_path / "r").exists()


def test_compositions_and_the_lowerings_gaps_are_refused(tmp_path, capsys):
    assert main(["repro", "JOIN-example-1.graph-unused-input", "--cpp", str(tmp_path / "g")]) == 2
    assert "a DML graph composition" in capsys.readouterr().err
    assert main(["repro", "PADDING-example-4", "--onnx", str(tmp_path / "s")]) == 2  # SYMMETRIC
    assert "the lowering cannot express PADDING-example-4: padding_mode=SYMMETRIC" in capsys.readouterr().err
    assert main(["repro", "JOIN-input-count-0", "--onnx", str(tmp_path / "i")]) == 2
    assert "an invalid descriptor: an ONNX model cannot state it" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_an_earlier_reproducer_is_never_overwritten_without_force(tmp_path, capsys):
    folder = tmp_path / "r"
    assert main(["repro", PASSING, "--cpp", str(folder)]) == 0
    (folder / "repro.cpp").write_text("// edited by hand")
    assert main(["repro", PASSING, "--cpp", str(folder)]) == 2
    assert "already holds repro.cpp, CMakeLists.txt, build.cmd, build-mingw.sh" in capsys.readouterr().err
    assert (folder / "repro.cpp").read_text() == "// edited by hand"
    assert main(["repro", PASSING, "--cpp", str(folder), "--force"]) == 0
    assert "DML_SLICE1_OPERATOR_DESC slice1{};" in (folder / "repro.cpp").read_text()


def test_a_live_example_comes_from_its_record_in_the_results_file(tmp_path, capsys):
    """A live Hypothesis example has no id to look up: its record carries the case, and the banner the verdict."""
    from conformance.cases.corpus import case_to_json
    from conformance.run.record import FORMAT, FORMAT_VERSION, Header

    case = find_target(PASSING).case
    record = Record("SLICE1-live-7", "SLICE1", Category.FAIL, "1 element(s) differ", hypothesis=True)
    record.case_json = case_to_json(case, compact=False)
    results = tmp_path / "results.jsonl"
    results.write_text(Header(FORMAT, FORMAT_VERSION, backend="directml").to_line() + "\n" + record.to_line() + "\n")
    assert main(["repro", "SLICE1-live-7", "--results", str(results), "--cpp", str(tmp_path / "r")]) == 0
    source = (tmp_path / "r" / "repro.cpp").read_text()
    assert "INT windowStrides[4] = {1, 1, -2, 2};" in source  # cases/examples/SLICE1-example-2.json
    banner = source.replace("\n// ", " ")  # the comment's lines wrapped back into one
    assert f"The suite's result ({results}): FAIL: 1 element(s) differ" in banner
    assert main(["repro", "SLICE1-other", "--results", str(results), "--cpp", str(tmp_path / "s")]) == 2
    assert "no case 'SLICE1-other' among its 1 record(s)" in capsys.readouterr().err


def test_results_files_are_checked(tmp_path, capsys):
    bad = tmp_path / "results.jsonl"
    bad.write_text("not json\n")
    assert main(["repro", PASSING, "--results", str(bad), "--cpp", str(tmp_path / "r")]) == 2
    assert str(bad) in capsys.readouterr().err


# --- the ONNX reproducer, on ONNX Runtime's CPU provider -------------------------------------------------------


def run_script(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(folder / "run_onnx.py"), *args], capture_output=True, text=True, timeout=120, check=False
    )


def save(folder: Path, name: str, array: np.ndarray) -> None:
    onnx.save_tensor(numpy_helper.from_array(array, name), str(folder / "test_data_set_0" / f"{name}.pb"))


def test_the_onnx_reproducer_holds_the_lowered_model_and_compares_bytes(tmp_path):
    folder = tmp_path / "o"
    assert main(["repro", PASSING, "--onnx", str(folder)]) == 0
    data = folder / "test_data_set_0"
    x = numpy_helper.to_array(onnx.load_tensor(str(data / "input_0.pb")))
    y = numpy_helper.to_array(onnx.load_tensor(str(data / "output_0.pb")))
    assert x.dtype == np.float32 and x.ravel().tolist() == list(range(1, 17))  # cases/examples/SLICE1-example-2.json
    assert y.shape == (1, 1, 2, 2) and y.ravel().tolist() == [14, 16, 6, 8]
    (node,) = onnx.load(str(folder / "model.onnx")).graph.node
    assert node.op_type == "Slice"
    done = run_script(folder, "--provider", "CPUExecutionProvider")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "kernels run: Slice (CPUExecutionProvider)" in done.stdout and "MATCH" in done.stdout
    wrong = y.copy()
    wrong[0, 0, 1, 0] = 7.5
    save(folder, "output_0", wrong)
    done = run_script(folder, "--provider", "CPUExecutionProvider")
    assert done.returncode == 1, done.stdout + done.stderr
    assert (
        "MISMATCH output 0 element [0,0,1,0] (element 2 in row-major order): expected 7.5 (0x40f00000), got 6.0 (0x40c00000)"
        in done.stdout
    )


def test_the_onnx_reproducer_masks_what_the_spec_leaves_open(tmp_path):
    folder = tmp_path / "o"
    assert main(["repro", "PADDING-negative-into-uint8", "--onnx", str(folder)]) == 0  # element 0 open (U-PAD-1)
    mask = numpy_helper.to_array(onnx.load_tensor(str(folder / "test_data_set_0" / "open_0.pb")))
    assert mask.tolist() == [True, False, False]
    save(folder, "output_0", np.array([99, 1, 2], dtype=np.uint8))
    done = run_script(folder, "--provider", "CPUExecutionProvider")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "output 0: 1 element(s) differ where the spec leaves them open: not judged" in done.stdout
    save(folder, "output_0", np.array([0, 1, 3], dtype=np.uint8))
    assert run_script(folder, "--provider", "CPUExecutionProvider").returncode == 1


def test_without_directmls_provider_the_onnx_reproducer_tests_nothing(tmp_path):
    import onnxruntime

    if "DmlExecutionProvider" in onnxruntime.get_available_providers():
        pytest.skip("ONNX Runtime's DirectML provider is installed here")
    assert main(["repro", PASSING, "--onnx", str(tmp_path / "o")]) == 0
    done = run_script(tmp_path / "o")
    assert done.returncode == 3 and "NOT TESTED: DmlExecutionProvider is not available here" in done.stdout


# --- the CLI's failure listing --------------------------------------------------------------------------------


def test_failures_are_offered_the_reproducer_of_their_backend():
    record = Record(WRONG, "SLICE1", Category.FAIL)
    assert (
        standalone_command("directml", record, "out/results.jsonl")
        == f"dml-conformance repro {WRONG} --results out/results.jsonl --cpp out/repro/{WRONG} --run"
    )
    assert (
        standalone_command("onnxruntime-directml", record, None)
        == f"dml-conformance repro {WRONG} --onnx repro/{WRONG}"
    )
    assert standalone_command("onnxruntime-cpu", record, "r.jsonl") is None
    assert (
        standalone_command("directml", Record("SPLIT-example-1.graph-split-join", "SPLIT", Category.FAIL), None) is None
    )
    live = Record("SLICE-hypothesis-1", "SLICE", Category.FAIL, hypothesis=True, case_json={"id": "SLICE-x"})
    assert standalone_command("directml", live, None) is None
    assert standalone_command("directml", live, "r.jsonl") is not None


# --- the C++ reproducers on the real DirectML, against the suite ----------------------------------------------


@pytest.fixture(scope="module")
def reproduced(tmp_path_factory) -> dict[str, tuple[subprocess.CompletedProcess, Record | None]]:
    """One suite run on the three cases, then at once: each one's `repro --results --cpp --run`, and the passing
    one's folder built alone by its build-mingw.sh (key "alone"), as a driver engineer would."""
    require_directml()
    out = tmp_path_factory.mktemp("repro")
    ids = [WRONG, REFUSED, PASSING]
    suite = cli("run", "--backend", "directml", *(a for i in ids for a in ("--case", i)), "-j", "1", "--out", str(out))
    assert suite.returncode == 0, suite.stdout + suite.stderr  # the two known deviations are waived
    (results,) = out.glob("results-*.jsonl")
    records = {r.id: r for r in read_results(results).records}
    assert set(records) == set(ids)
    alone = out / "alone"
    assert main(["repro", PASSING, "--cpp", str(alone)]) == 0
    header = next(h for h in header_candidates() if h.is_file())

    def job(name: str) -> subprocess.CompletedProcess:
        if name == "alone":
            env = {**os.environ, "DIRECTML_INCLUDE": str(header.parent)}
            return subprocess.run(
                ["sh", "build-mingw.sh"], cwd=alone, capture_output=True, text=True, env=env, timeout=900
            )
        return cli("repro", name, "--results", str(results), "--cpp", str(out / name), "--run")

    names = [*ids, "alone"]
    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        done = dict(zip(names, pool.map(job, names)))
    return {name: (done[name], records.get(name)) for name in names}


def suite_category(record: Record | None) -> Category | None:
    return None if record is None else record.waived_category or record.category


def test_a_wrong_answer_reproduces_with_its_first_wrong_element(reproduced):
    done, record = reproduced[WRONG]
    assert record is not None and suite_category(record) is Category.FAIL
    assert done.returncode == 1, done.stdout + done.stderr
    first = record.mismatch.first[0] if record.mismatch else None
    assert first is not None
    where = f"[{','.join(map(str, first.coordinate))}]"
    assert (
        f"MISMATCH output {first.output} element {where} (element 1 in row-major order, byte 1 of its buffer): "
        f"expected {first.expected} ({first.expected_hex}), got {first.actual} ({first.actual_hex})"
    ) in done.stdout
    assert "the same verdict" in done.stdout


def test_a_refusal_reproduces_with_the_call_and_its_hresult(reproduced):
    done, record = reproduced[REFUSED]
    assert record is not None and suite_category(record) is Category.REJECTED
    assert done.returncode == 1, done.stdout + done.stderr
    refused = re.search(r"REFUSED: (\S+ returned 0x[0-9a-f]{8} \(\w+\)) for a valid descriptor", done.stdout)
    assert refused, done.stdout
    assert refused.group(1) in record.reason  # "IDMLDevice::CreateOperator returned 0x80070057 (E_INVALIDARG)"
    assert "the same verdict" in done.stdout


def test_a_worked_example_reproduces_as_a_match(reproduced):
    done, record = reproduced[PASSING]
    assert record is not None and record.category is Category.PASS
    assert done.returncode == 0, done.stdout + done.stderr
    assert "MATCH: every output element equals the oracle's, bit for bit" in done.stdout
    assert "the same verdict" in done.stdout


def test_the_folder_alone_builds_with_build_mingw_sh(reproduced):
    """What a driver engineer gets: the four files, built by their script with only DIRECTML_INCLUDE set."""
    built, _ = reproduced["alone"]
    assert built.returncode == 0, built.stdout + built.stderr
    assert built.stderr == ""  # no compiler warning under -Wall -Wextra
    assert "built repro.exe" in built.stdout

"""One voice for both front ends: `dml-conformance run` and the pytest plugin print the same banner and summary
(conformance.run.summary), and the summary says why cases were unsupported."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from runner_helpers import EXAMPLES, env

from conformance.run.record import Category, Header, Record
from conformance.run.results import Results
from conformance.run.summary import unsupported_lines
from conformance.run.unsupported import REASONS, classify, group_unsupported

pytest_plugins = ["pytester"]

# PADDING1 and SLICE1 of the worked examples on ONNX Runtime: passes, a SYMMETRIC padding and reflect pads ONNX
# Runtime refuses (unsupported), and the onnxruntime-cpu known issues for DML_PADDING match none of them.


def _summary(lines: list[str], first: str) -> list[str]:
    """From the summary's first line to the verdict."""
    start = lines.index(first)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("verdict: "))
    return lines[start : end + 1]


def test_the_cli_and_the_plugin_print_the_same_banner_and_summary(pytester: pytest.Pytester, tmp_path: Path):
    waivers = {"waivers": [{"id": "SPLIT-inner-axis", "reason": "stale"}]}  # a case of the suite, not of this run
    cli_dir, plugin_dir = tmp_path / "cli", pytester.path
    cli_dir.mkdir()
    for folder in (cli_dir, plugin_dir):
        (folder / "w.json").write_text(json.dumps(waivers))
    common = [
        "--cases",
        str(EXAMPLES),
        "--keyword",
        "PADDING1 or SLICE1",
        "--expectations",
        "w.json",
        "--results",
        "r.jsonl",
        "--report",
        "rep.html",
        "--jobs",
        "1",
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "run", "--backend", "onnxruntime-cpu", *common],
        cwd=cli_dir,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # warnings go to stderr: one stream, in order
        text=True,
        env=env(PYTHONUNBUFFERED="1"),
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout
    plugin_args = [a.replace("--", "--dml-", 1) if a.startswith("--") else a for a in common]
    plugin = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--dml-backend", "onnxruntime-cpu", *plugin_args)
    assert plugin.ret == 0, plugin.stdout.str()
    cli_lines, plugin_lines = proc.stdout.splitlines(), plugin.stdout.lines

    banner = [line for line in plugin_lines if line.startswith("dml-conformance: ")]
    assert banner[0].startswith("dml-conformance: backend onnxruntime-cpu (onnxruntime ")
    assert [line for line in cli_lines if line.startswith("dml-conformance: ")] == banner

    section = plugin_lines.index(next(line for line in plugin_lines if " dml-conformance " in line and "===" in line))
    summary = _summary(plugin_lines, next(line for line in plugin_lines[section + 1 :] if line.strip()))
    assert _summary(cli_lines, summary[0]) == summary
    text = "\n".join(summary)
    assert re.search(r"^unsupported: \d+ case\(s\), by reason:$", text, re.M)
    assert "onnxruntime-cpu cannot express padding mode SYMMETRIC; the directml backend runs them" in text
    # The user's waiver that matches nothing warns, quoted; the suite's own known issues (DML_PADDING) do not.
    assert "warning: waiver 'SPLIT-inner-axis' (stale) matches no case of this run" in text
    assert "PADDING-" not in text and text.count("warning: waiver") == 1
    assert summary[-1].startswith("verdict: PASS")
    # The report groups them the same way.
    report = (cli_dir / "rep.html").read_text()
    assert "unsupported, by reason" in report and 'data-reason="padding-mode-SYMMETRIC"' in report
    assert "SPLIT-inner-axis" in report and "PADDING-*" not in report


def _record(reason: str, category: Category = Category.UNSUPPORTED) -> Record:
    return Record("X-1", "PADDING", category, reason, data_type="FLOAT32", rank=1)


@pytest.mark.parametrize(
    ("reason", "key"),
    [
        ("onnxruntime-cpu cannot express padding mode WRAP", "padding-mode-WRAP"),
        ("onnxruntime-directml: padding_mode=SYMMETRIC: ONNX Pad has no symmetric mode", "padding-mode-SYMMETRIC"),
        ("x cannot observe descriptor validation (U-ALL-2); the descriptor breaks SLICE.4", "invalid-unobservable"),
        ("x cannot express tensor layouts (LAYOUT.1-7); the descriptor breaks LAYOUT.3", "layout"),
        ("x does not implement DML_JOIN", "operator-JOIN"),
        ("x: no ONNX lowering for DML_TILE", "operator-TILE"),
        ("over the memory budget: needs 9 GiB (...)", "memory"),
        ("something nobody wrote down", "other"),
        (
            "the device's highest shader model is 5.1 (Int64ShaderOps yes, DoublePrecisionFloatShaderOps yes): "
            "DirectML's DML_CAST kernels with a FLOAT64, INT64 or UINT64 tensor are shader model 6 code (DXIL), "
            "which this device cannot compile (CompileOperator returns E_INVALIDARG)",
            "shader-model-5.1",
        ),
        ("onnxruntime-cpu: SLICE_GRAD has no ONNX form: ONNX defines no Slice gradient", "no-onnx-form-SLICE_GRAD"),
        (
            "onnx-reference: SPACE_TO_DEPTH1 with Order COLUMN_ROW_DEPTH has no one-node ONNX form: ONNX SpaceToDepth",
            "no-one-node-form-SPACE_TO_DEPTH1",
        ),
    ],
)
def test_a_reason_falls_under_a_stable_key(reason, key):
    row, detail = classify(reason)
    assert row.key.format(detail=detail) == key


def test_groups_count_unsupported_records_only_largest_first():
    records = [
        *(_record(f"b cannot express tensor layouts (LAYOUT.1-7); the descriptor breaks LAYOUT.{i}") for i in range(3)),
        _record("b cannot express padding mode SYMMETRIC"),
        _record("b cannot express padding mode WRAP"),
        _record("b cannot express padding mode WRAP"),
        _record("1 element(s) differ", Category.FAIL),
    ]
    groups = group_unsupported(records, "b")
    assert [(g.key, g.count) for g in groups] == [
        ("layout", 3),
        ("padding-mode-WRAP", 2),
        ("padding-mode-SYMMETRIC", 1),
    ]
    assert groups[0].label.startswith("b cannot express tensor layouts") and "directml" in groups[0].runs_them
    lines = unsupported_lines(Results("r.jsonl", Header("dml-conformance-results", 2, backend="b"), records))
    assert lines[0] == "unsupported: 6 case(s), by reason:"
    assert lines[1].split()[:2] == ["3", "b"]
    assert unsupported_lines(Results("r.jsonl", Header("dml-conformance-results", 2, backend="b"), records[-1:])) == []


def test_every_reason_key_is_distinct():
    keys = [row.key for row in REASONS]
    assert len(keys) == len(set(keys))

"""A run's identity (conformance.run.identity): a baseline applies only to the identity it was made on, and
--expect-adapter refuses any other adapter before a case runs (issue 23, item 1)."""

from __future__ import annotations

import json

from runner_helpers import EXAMPLES, cli

from conformance.run.identity import SOFTWARE_ADAPTER, identity, short
from conformance.run.results import read_results


def run(tmp_path, name, adapter, *extra):
    """dml_test_backends:WithOptions reports the --adapter it was given as its adapter."""
    out = tmp_path / name
    proc = cli(
        "run", "--backend", "dml_test_backends:WithOptions", "--adapter", adapter, "--cases", str(EXAMPLES),
        "--out", str(out), *extra,
    )  # fmt: skip
    return proc, out


def test_the_identity_has_a_stable_fingerprint_that_changes_with_any_field():
    a = identity(
        "directml", {"directml": "1.15.4.0", "adapter": "GPU A", "driver_version": "31.0"}, {"system": "Windows"}
    )
    b = identity(
        "directml", {"directml": "1.15.4.0", "adapter": "GPU A", "driver_version": "31.0"}, {"system": "Windows"}
    )
    c = identity(
        "directml", {"directml": "1.15.4.0", "adapter": "GPU A", "driver_version": "31.1"}, {"system": "Windows"}
    )
    assert a == b and len(a["fingerprint"]) == 12 and a["fingerprint"] != c["fingerprint"]
    assert "software_adapter" not in a
    # One machine's GPU and NPU may share a name: the kind is part of the identity and of its one line.
    gpu = identity("directml", {"adapter": "Adreno X1-85", "adapter_kind": "GPU"}, {"system": "Windows"})
    npu = identity("directml", {"adapter": "Adreno X1-85", "adapter_kind": "NPU"}, {"system": "Windows"})
    assert gpu["fingerprint"] != npu["fingerprint"] and "Adreno X1-85 (NPU)" in short(npu)
    for name in ("Microsoft Basic Render Driver", "llvmpipe (LLVM 15.0.6, 256 bits)", "Microsoft WARP"):
        assert SOFTWARE_ADAPTER.search(name)


def test_a_baseline_of_one_adapter_refuses_a_run_on_another(tmp_path):
    first, out = run(tmp_path, "a", "GPU A")
    assert first.returncode == 0, first.stderr
    assert "identity: with-options" in first.stderr and "GPU A" in first.stderr
    (results,) = out.glob("results-*.jsonl")
    made_on = read_results(results).header.identity
    assert made_on["adapter"] == "GPU A" and len(made_on["fingerprint"]) == 12
    expectations = tmp_path / "expectations.json"
    assert cli("baseline", str(results), "-o", str(expectations)).returncode == 0
    assert json.loads(expectations.read_text())["identities"] == {"with-options": made_on}

    same, _ = run(tmp_path, "same", "GPU A", "--expectations", str(expectations))
    assert same.returncode == 0, same.stderr
    other, out_b = run(tmp_path, "b", "GPU B", "--expectations", str(expectations))
    assert other.returncode == 2
    assert "adapter: 'GPU A' (expectations) vs 'GPU B' (this run)" in other.stderr
    assert made_on["fingerprint"] in other.stderr and "--allow-identity-mismatch" in other.stderr
    assert not out_b.exists() or not list(out_b.glob("results-*.jsonl"))  # nothing ran, nothing written

    allowed, out_c = run(tmp_path, "c", "GPU B", "--expectations", str(expectations), "--allow-identity-mismatch")
    assert allowed.returncode == 0, allowed.stderr
    (results_c,) = out_c.glob("results-*.jsonl")
    assert any(n.startswith("identity mismatch") for n in read_results(results_c).header.notes)
    (report,) = out_c.glob("report-*.html")
    assert 'class="identity-mismatch"' in report.read_text(encoding="utf-8")


def test_expect_adapter_refuses_another_adapter_before_any_case(tmp_path):
    proc, out = run(tmp_path, "x", "GPU A", "--expect-adapter", "NoSuchGPU")
    assert proc.returncode == 2
    assert "--expect-adapter 'NoSuchGPU': this run's adapter is 'GPU A'" in proc.stderr
    assert not out.exists() or not list(out.glob("results-*.jsonl"))
    proc, _ = run(tmp_path, "y", "GPU A", "--expect-adapter", "^GPU [AB]$")
    assert proc.returncode == 0, proc.stderr

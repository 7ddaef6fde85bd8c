"""DirectML versions side by side: `setup directml --directml-version V` and `run --directml-version V`.

The table (conformance/backends/directml/versions.py) maps each DirectML release to the onnxruntime-directml
wheel that ships it.  The tests without DirectML check the options and the refusals; the real ones fetch the
oldest release (skipped offline here, failed in CI), run worked examples and curated cases on it, and check
that the header records the version the DLL itself reports.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from directml_helpers import require_directml
from prerequisite import require

from conformance.backends.base import BackendUnavailable
from conformance.backends.directml import DirectMLBackend, setup, stack, versions
from conformance.backends.directml.backend import version_refusal
from conformance.cases.corpus import Case, load_file
from conformance.judging.expectations import known_issues
from conformance.run.config import RunConfig, UsageError
from conformance.run.execute import execute_case
from conformance.run.record import Category
from conformance.run.session import Session
from conformance.run.units import Work

ROOT = Path(__file__).resolve().parents[2]
OLDEST = versions.RELEASES[0]


def cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
    )


# --- without DirectML -----------------------------------------------------------------------------------------


def test_the_table_holds_the_pinned_default_and_each_release_once():
    default = versions.for_wheel(stack.pinned_wheel_version())
    assert default is not None, "pyproject.toml pins a wheel the versions table does not hold"
    assert default is versions.RELEASES[-1]  # oldest first: the pin is the newest release
    for column in ("directml", "wheel"):
        values = [getattr(r, column) for r in versions.RELEASES]
        assert len(set(values)) == len(values), column
    numbers = [tuple(map(int, r.directml.split("."))) for r in versions.RELEASES]
    assert numbers == sorted(numbers)


@pytest.mark.parametrize("command", [("setup", "directml"), ("run", "--backend", "directml")])
def test_an_unknown_version_is_exit_2_listing_the_known_ones(command):
    done = cli(*command, "--directml-version", "1.14.0")
    assert done.returncode == 2, done.stderr
    assert (
        "argument --directml-version: unknown DirectML version '1.14.0'; known: 1.12.0 (onnxruntime-directml 1.15.1)"
        in (done.stderr)
    )
    assert all(f"{r.directml} (onnxruntime-directml {r.wheel})" in done.stderr for r in versions.RELEASES)


def test_a_version_and_a_dll_together_are_a_usage_error_in_both_front_ends(tmp_path):
    done = cli("run", "--backend", "directml", "--directml-version", "1.13.1", "--dml-dll", str(tmp_path / "x.dll"))
    assert done.returncode == 2
    assert "error: --directml-version and --dml-dll cannot be given together: both name the DirectML.dll" in done.stderr
    values = {"backend": "directml", "directml_version": "1.13.1", "dml_dll": "x.dll", "out": str(tmp_path)}
    with pytest.raises(UsageError, match=r"^--dml-directml-version and --dml-dll cannot be given together"):
        Session(RunConfig.from_values(values), execute=False, write=False, plugin=True)


def test_the_version_is_part_of_the_run_configuration_and_its_repro_command():
    config = RunConfig.from_values({"backend": "directml", "directml_version": "1.12.0"})
    assert config.backend_kwargs == {"directml_version": "1.12.0"}
    assert config.identity()["backend_options"] == {"directml_version": "1.12.0"}
    assert "--directml-version 1.12.0" in config.repro()


def test_a_dll_of_another_version_than_asked_is_refused_naming_both(tmp_path):
    cached = stack.cache_dir() / "directml" / "onnxruntime-directml-1.17.3" / "DirectML.dll"
    reason = version_refusal("1.13.1", {"directml_version": "1.12.0.0"}, cached, "onnxruntime-directml 1.17.3 wheel")
    assert reason is not None
    assert f"--directml-version 1.13.1 asked for DirectML 1.13.1, but {cached}" in reason
    assert "is DirectML 1.12.0.0" in reason and "`dml-conformance setup directml --directml-version 1.13.1`" in reason
    assert version_refusal("1.13.1", {"directml_version": "1.13.1.0"}, cached, "") is None
    assert version_refusal(None, {"directml_version": "1.12.0.0"}, cached, "") is None
    assert version_refusal("1.13.1", {"directml_version": "1.13.10.0"}, cached, "")  # a prefix is not the version
    installed = tmp_path / "site-packages" / "onnxruntime" / "capi" / "DirectML.dll"  # never told to delete that
    assert "delete" not in (version_refusal("1.13.1", {"directml_version": "1.12.0.0"}, installed, "") or "")


def test_a_file_without_a_version_resource_has_no_version(tmp_path):
    (tmp_path / "a.dll").write_bytes(b"MZ" + b"\0" * 100)
    (tmp_path / "b.dll").write_bytes(b"not a DLL")
    assert versions.file_version(tmp_path / "a.dll") is None
    assert versions.file_version(tmp_path / "b.dll") is None
    assert versions.file_version(tmp_path / "missing.dll") is None


# --- real DirectML ------------------------------------------------------------------------------------------------


def fetched(release: versions.Release) -> Path:
    """The release's DirectML.dll, fetched as `setup directml --directml-version` does (pip download)."""
    require_directml()
    try:
        setup.step_version(release.directml)
    except setup.SetupError as e:
        require(False, f"DirectML {release.directml} cannot be fetched here (offline?): {e}")
    return stack.version_dll(release.directml)[0]


def test_the_oldest_version_set_up_then_run_records_that_version_and_passes(tmp_path):
    """CI's run of the oldest release (every other DirectML test runs the newest, the default): the worked
    examples and curated cases, with the graph compositions built on them."""
    dll = fetched(OLDEST)
    assert versions.file_version(dll) == f"{OLDEST.directml}.0"  # the DLL's own version resource
    done = cli(
        "run",
        "--backend",
        "directml",
        "--directml-version",
        OLDEST.directml,
        "--generated",
        "0",
        "--hypothesis-examples",
        "0",
        "-k",
        "example or curated",
        "--out",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = [json.loads(line) for line in next(tmp_path.glob("results-*.jsonl")).read_text().splitlines()]
    header, cases = lines[0], [r for r in lines if r.get("kind") == "case"]
    # What the runner read from the DLL it loaded (GetFileVersionInfoW), not the number asked for: the same as
    # this test's own reading of the file, and the feature level the table gives.
    loaded = header["backend_versions"]
    assert loaded["directml"] == versions.file_version(dll) == "1.12.0.0"
    assert loaded["dml_feature_level"] == OLDEST.feature_level == "6.1"
    assert loaded["directml_dll_path"] == str(dll) and "--directml-version 1.12.0" in loaded["directml_dll_origin"]
    assert header["config"]["backend_options"] == {"directml_version": "1.12.0"}
    assert header["identity"]["directml"] == "1.12.0.0"
    assert f"identity: directml, DirectML 1.12.0.0, {loaded['adapter']}" in done.stderr
    report = next(tmp_path.glob("report-*.html")).read_text()
    assert "DirectML 1.12.0.0" in report
    # Clean: nothing failing, the worked examples bit-exact, and what needs a later feature level than DirectML
    # 1.12's 6.1 is unsupported, saying so (WRAP came with 6.3 and 6.4).
    categories = {r["category"] for r in cases}
    assert categories <= {"pass", "observed", "unsupported", "waived"}, categories
    examples = {r["id"]: r["category"] for r in cases if "example" in r["tags"] and ".graph-" not in r["id"]}
    assert len(examples) == 56  # as test_real_directml counts them
    # SCATTER's example 1 writes index 3 twice: an open element (U-SCATTER-1), observed
    assert examples == {k: "observed" if k == "SCATTER-example-1" else "pass" for k in examples}
    by_id = {r["id"]: r for r in cases}
    assert by_id["PADDING-wrap"]["reason"] == "the case needs feature level 6.4; the run targets 6.1"
    assert by_id["PADDING-wrap-at-6.3"]["reason"] == "the case needs feature level 6.3; the run targets 6.1"
    assert sum(r["category"] == "pass" for r in cases) > 100


def test_a_dll_that_is_not_the_version_asked_for_is_refused_when_it_loads(monkeypatch):
    """The default DLL (DirectML 1.15.4) where the oldest release was asked for: refused after the runner reads it."""
    require_directml()
    default, _ = stack.default_dll()
    monkeypatch.setattr(stack, "version_dll", lambda version: (default, "a tampered cache (this test)"))
    with pytest.raises(BackendUnavailable) as refused:
        DirectMLBackend(directml_version=OLDEST.directml)
    assert f"--directml-version {OLDEST.directml} asked for DirectML {OLDEST.directml}, but {default}" in str(
        refused.value
    )
    assert f"is DirectML {versions.file_version(default)}" in str(refused.value)


SNAN = ["0x7d00", "0x3c00", "0xfc01", "0x7e01"]  # a signalling NaN, 1.0, a negative signalling NaN, a quiet NaN


def column_major_copies(path: Path) -> dict[str, Case]:
    """DML_SLICE and DML_SPLIT copying a 2x2 column-major FLOAT16 input holding signalling NaNs (COMMON.3)."""
    tensor = {"data_type": "FLOAT16", "sizes": [2, 2]}
    descriptors = {
        "SLICE": (
            "3.0",
            {
                "input_tensor": {**tensor, "strides": [1, 2]},
                "output_tensor": tensor,
                "offsets": [0, 0],
                "sizes": [2, 2],
                "strides": [1, 1],
            },
        ),
        "SPLIT": ("4.1", {"input_tensor": {**tensor, "strides": [1, 2]}, "output_tensors": [tensor], "axis": 0}),
    }
    values = [{"data_type": "FLOAT16", "shape": [2, 2], "values": SNAN}]
    cases = [
        {
            "id": f"{op}-snan-column-major",
            "operator": op,
            "feature_level": level,
            "description": "a strided copy",
            "clauses": ["COMMON.3", "LAYOUT.1"],
            "tags": [],
            "unspecified": [],
            "descriptor": descriptor,
            "inputs": values,
            "expected": {"outcome": "valid", "outputs": values},
        }
        for op, (level, descriptor) in descriptors.items()
    ]
    path.write_text(json.dumps({"schema_version": 1, "cases": cases}))
    loaded = load_file(path)
    assert not loaded.errors
    return {c.operator: c for c in loaded.cases}


def test_the_known_issues_hold_on_the_oldest_release_in_their_versions_ranges(tmp_path):
    """Under --dml-path graph every release measured quiets a FLOAT16 signalling NaN in a strided DML_SLICE node
    (waived on all), and DirectML 1.12 copies the strided DML_SPLIT bit for bit (its waiver is for >= 1.15 only)."""
    cases = column_major_copies(tmp_path / "cases.json")
    fetched(OLDEST)
    backend = DirectMLBackend(directml_version=OLDEST.directml, dml_path="graph")
    try:
        waivers = known_issues("directml").for_versions(backend.versions())
        sliced = execute_case(Work(0, cases["SLICE"]), backend, None)
        split = execute_case(Work(1, cases["SPLIT"]), backend, None)
    finally:
        backend.close()
    assert sliced.category is Category.FAIL and sliced.mismatch is not None
    assert {(m.expected_hex, m.actual_hex) for m in sliced.mismatch.first} == {
        ("0x7d00", "0x7f00"),
        ("0xfc01", "0xfe01"),
    }
    assert sliced.mismatch.explained_by == ["dml-graph-float16-snan-quieted"]
    assert waivers.apply(sliced).category is Category.WAIVED
    assert split.category is Category.PASS, split.reason
    assert not [w for w in waivers.waivers if w.prefix == "SPLIT-"]  # its range (>= 1.15) leaves DirectML 1.12 out
    assert [w.prefix for w in known_issues("directml").for_versions({"directml": "1.15.4.0"}).waivers].count(
        "SPLIT-"
    ) == 1

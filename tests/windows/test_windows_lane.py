"""The Windows lane: the suite as a Windows program, installed from its Windows wheel, as vendors run it.

A Windows CPython under Wine gets the suite's win_amd64 wheel and its dependencies with its own
pip (no compiler anywhere), and runs, inside that Windows Python: `setup directml`; `run` on
`directml` and on `onnxruntime-directml` with both hosts; the pytest plugin; a run whose runner and
then whose worker are killed mid-run; a run stopped with Ctrl-C and resumed.  Results files and
reports go to reports/windows/.  `tox -e windows` runs this module alone; the README's test command
runs it too (it needs `dml-conformance setup directml --install`: skipped outside CI without it,
failed in CI).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest
from prerequisite import require, require_directml
from processes import alive
from winlane import WindowsPython, install, wait_gone, windows_processes, winpath

pytestmark = pytest.mark.windows

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "reports" / "windows"
EXAMPLES = ROOT / "cases" / "examples"
CURATED = ROOT / "cases" / "curated"
FAILING = {"fail", "rejected", "error", "crash", "timeout"}
PROGRAMS = ("dml_runner.exe", "ort_worker.exe", "conformance.run.worker")
GENERATED = "250"  # with the worked examples, curated cases and the reach set: over 300 passes on every backend
# The lane checks the suite as a Windows program (its hosts, its plugin, what a kill or Ctrl-C leaves); the operators'
# breadth is the killed-runner run's here (every operator on DirectML, judged: a fail is exit 1) and the main job's,
# and the Linux lane's (the same DirectML.dll). The other runs take five operators: over 400 passes each (300 asked).
OPERATORS = "SLICE1,SPLIT,JOIN,TILE,CAST"


@pytest.fixture(scope="module")
def win(built_wheels, tmp_path_factory):
    require_directml()
    require(shutil.which("wine") is not None, "Wine runs the Windows lane (`dml-conformance setup directml --install`)")
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    python = install(built_wheels["windows"], tmp_path_factory.mktemp("windows lane"))
    yield python
    python.close()


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _run(win: WindowsPython, name: str, *args: str) -> tuple[list[dict], str]:
    """`dml-conformance run` through the installed script launcher; the results file's lines and the output."""
    results, report = OUT / f"{name}.jsonl", OUT / f"{name}.html"
    done = win.run(
        "run",
        *args,
        *("--results", winpath(results), "--report", winpath(report), "--label", f"windows lane: {name}"),
        script="dml-conformance",
    )
    output = done.out + done.err
    (OUT / f"{name}.log").write_text(f"{done.seconds:.1f} s\n{output}", encoding="utf-8")
    assert results.exists(), output[-3000:]
    return _records(results), output


def _judge(lines: list[dict], output: str, *, passes: int = 300) -> dict:
    header, footer = lines[0], lines[-1]
    assert header["platform"]["system"] == "Windows" and header["platform"].get("wine"), header["platform"]
    assert footer["kind"] == "footer", output[-3000:]
    counts = footer["counts"]
    assert counts.get("pass", 0) >= passes and not FAILING & set(counts), (counts, output[-3000:])
    return header


def test_setup_finds_everything_with_no_compiler(win):
    done = win.run("setup", "directml", script="dml-conformance")
    assert done.code == 0, done.out + done.err
    assert "DirectML.dll from the installed onnxruntime-directml" in done.out
    assert "\\bin\\dml_runner.exe" in done.out and "\\bin\\ort_worker.exe" in done.out  # the wheel's own
    assert "DML feature level 6.4" in done.out


def test_directml_runs_as_a_windows_program(win):
    lines, output = _run(win, "directml", "--backend", "directml", "--generated", GENERATED, "--operators", OPERATORS)
    header = _judge(lines, output)
    versions = header["backend_versions"]
    assert "shipped in the wheel" in versions["dml_runner"]
    assert versions["directml_dll_origin"] == "the installed onnxruntime-directml 1.24.4"
    assert "host:    Windows AMD64 (under Wine" in output


def test_the_main_job_passes_on_windows(win):
    """The README's first command as a Windows user types it: the default backend (onnxruntime-cpu, here the
    CPU provider of onnxruntime-directml 1.24.4) on the quick profile."""
    lines, output = _run(win, "main-job")
    # About 2,850 of 5,500 pass: ONNX cannot express tensor layouts (one generated case in five states one),
    # SYMMETRIC, DML_SLICE's zero strides or this ORT's missing kernels; those are unsupported, never passed.
    header = _judge(lines, output, passes=2500)
    assert header["backend"] == "onnxruntime-cpu" and header["backend_versions"]["onnxruntime"] == "1.24.4"
    waived = [r for r in lines if r.get("category") == "waived"]
    assert any("ort-cpu-reflect-past-axis" in (r["mismatch"] or {}).get("explained_by", []) for r in waived)


@pytest.mark.parametrize("host", ["worker", "python"])
def test_onnxruntime_directml_runs_on_both_hosts(win, host):
    lines, output = _run(
        win,
        f"onnxruntime-directml-{host}",
        "--backend",
        "onnxruntime-directml",
        "--ort-host",
        host,
        "--generated",
        GENERATED,
        "--operators",
        # The python host runs an ONNX Runtime session per batch in Python under Wine (and one per live example):
        # two operators and their stored, reach and generated cases show the host works.  And the CAST cases of a
        # 64-bit type: the host asks the device its shader model too (directml/device_caps.py, ctypes), so a 64-bit
        # DML_CAST below shader model 6 (vkd3d's 5.1) is unsupported there as on the worker host, not an error.
        *(
            (OPERATORS,)
            if host == "worker"
            else ("SLICE1,JOIN,CAST", "-k", "not CAST or INT64 or UINT64 or FLOAT64", "--hypothesis-examples", "0")
        ),
    )
    header = _judge(lines, output, passes=300 if host == "worker" else 150)
    versions = header["backend_versions"]
    assert versions["ort_host"] == host and versions["provider"] == "DmlExecutionProvider"
    # Both hosts record the device's shader caps, read from the device (vkd3d 1.6 on lavapipe: 5.1, both caps yes).
    assert versions["shader_model"] == "5.1", versions
    assert versions["shader_64_bit_ops"] == "Int64ShaderOps yes, DoublePrecisionFloatShaderOps yes", versions
    below = [r for r in lines if r.get("operator") == "CAST" and "shader model is 5.1" in (r.get("reason") or "")]
    assert below and all(r["category"] == "unsupported" for r in below), output[-3000:]


def test_the_pytest_plugin_runs_directml(win, tmp_path):
    results = OUT / "pytest-directml.jsonl"
    done = win.run(
        *("-m", "pytest", "-p", "no:cacheprovider", "--rootdir", winpath(tmp_path), winpath(tmp_path)),
        *("--dml-backend", "directml", "--dml-generated", GENERATED, "--dml-hypothesis-examples", "5"),
        *("--dml-operators", OPERATORS),
        *("--dml-results", winpath(results), "--dml-report", winpath(OUT / "pytest-directml.html")),
    )
    (OUT / "pytest-directml.log").write_text(done.out + done.err, encoding="utf-8")
    assert done.code == 0, (done.out + done.err)[-3000:]
    assert "dml-conformance: backend directml" in done.out and "verdict: PASS" in done.out
    _judge(_records(results), done.out)


def _wait_for_cases(results: Path, n: int, proc, limit: float = 300) -> None:
    deadline = time.monotonic() + limit
    while not (results.exists() and results.read_text(encoding="utf-8").count('"kind":"case"') >= n):
        assert proc.poll() is None and time.monotonic() < deadline, "the run ended or stalled before the kill"
        time.sleep(0.1)


def _running(name: str, proc, limit: float = 60) -> int:
    """The pid of a process whose command line names `name`, waited for while the run goes on: a runner
    killed in a batch is started again only by the next request (its cases rerun alone)."""
    deadline = time.monotonic() + limit
    while not (found := windows_processes(name)):
        assert proc.poll() is None and time.monotonic() < deadline, f"the run ended, or no {name} came, before the kill"
        time.sleep(0.05)
    return found[0][0]


def test_a_killed_runner_or_worker_costs_at_most_its_case_and_leaves_nothing_behind(win):
    results = OUT / "killed.jsonl"
    # Every operator with 1,500 generated cases (about 4,300 in all: batches make a run fast, and the run must
    # outlast both kills by seconds): with six operators the run ended before the second kill landed (once in the
    # clean-clone CI); fifteen operators with 3,000 generated were about 3,600 cases.
    proc = win.popen(
        *("run", "--backend", "directml", "--jobs", "1", "--generated", "1500", "--results", winpath(results)),
        *("--report", winpath(OUT / "killed.html"), "--label", "windows lane: killed runner, then worker"),
        script="dml-conformance",
    )
    _wait_for_cases(results, 60, proc)
    os.kill(_running("dml_runner.exe", proc), signal.SIGKILL)
    _wait_for_cases(results, 120, proc)
    worker = _running("conformance.run.worker", proc)
    runner = _running("dml_runner.exe", proc)
    os.kill(worker, signal.SIGKILL)  # its runner must go with it: the worker's Job Object
    deadline = time.monotonic() + 15
    while alive(runner) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(runner), "the runner outlived its killed worker"
    out, err = proc.communicate(timeout=600)
    (OUT / "killed.log").write_bytes(out + err)
    lines = _records(results)
    cases = [r for r in lines if r["kind"] == "case"]
    crashes = [r for r in cases if r["category"] == "crash"]
    # Each kill costs at most the case it was running: none when it landed in a batch (the batch's cases run again,
    # one by one, and only a case that ends its worker alone is a crash) or between two requests (Wine reports a
    # killed process's exit code as 0). Every case still has its one record.
    reasons = [r["reason"] for r in crashes]
    assert len(crashes) <= 2, reasons
    assert all("the worker process exited" in r or "runner exited" in r for r in reasons), reasons
    assert lines[-1]["kind"] == "footer" and lines[0]["case_count"] == len({r["id"] for r in cases})
    assert proc.returncode == (1 if crashes else 0)  # a crash fails the run
    assert not wait_gone(PROGRAMS), "a runner or worker was left behind"


def test_ctrl_c_leaves_a_partial_report_and_resume_finishes(win):
    folder = OUT / "interrupted é Ω"  # a results path the cp1252 pipe cannot show whole
    folder.mkdir()
    results = folder / "results.jsonl"
    # python.exe itself, not the script launcher: under Wine a Unix SIGINT reaches one process, as
    # CTRL_C_EVENT (on Windows Ctrl-C reaches every process of the console, the launcher's child too).
    proc = win.popen(
        *("-m", "conformance.cli", "run", "--backend", "directml", "--jobs", "1", "--generated", "200"),
        *("--operators", OPERATORS),
        *("--results", winpath(results), "--report", winpath(folder / "report.html")),
    )
    _wait_for_cases(results, 40, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    text = (out + err).decode("cp1252", "replace")
    (OUT / "interrupted.log").write_text(text, encoding="utf-8")
    assert proc.returncode == 1, text[-3000:]
    lines = _records(results)
    assert lines[-1]["kind"] == "footer" and lines[-1]["interrupted"] and lines[-1]["stopped"] == "SIGINT"
    assert "Traceback" not in text and "verdict: INCOMPLETE" in text
    assert "v-INCOMPLETE" in (folder / "report.html").read_text(encoding="utf-8")
    assert not wait_gone(PROGRAMS), "a runner or worker outlived the interrupted run"
    done = win.run("-m", "conformance.cli", "run", "--resume", winpath(results))
    assert done.code == 0, (done.out + done.err)[-3000:]
    resumed = _records(results)
    assert resumed[-1]["kind"] == "footer" and not resumed[-1].get("interrupted")
    assert "verdict: PASS" in done.out

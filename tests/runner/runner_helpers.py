"""Helpers for the runner tests: the CLI as a subprocess, with the broken test backends importable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conformance.cases.corpus import CASES_DIR, load

HERE = Path(__file__).resolve().parent
EXAMPLES = CASES_DIR / "examples"
CURATED = CASES_DIR / "curated"
TRACEBACK = "Traceback (most recent call last)"
# Every worked example passes on a correct backend but DML_SCATTER's first: the page's own example repeats an index,
# which its text calls invalid (E-SCATTER-1), so that element is open and the case observed.
OBSERVED_EXAMPLES = frozenset({"SCATTER-example-1"})


def example_category(case_id: str) -> str:
    """What a correct backend's record of a worked example says."""
    return "observed" if case_id in OBSERVED_EXAMPLES else "pass"


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(HERE), **extra}


def cli(*args: str, env_extra: dict | None = None, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", *args],
        capture_output=True,
        text=True,
        env=env(**(env_extra or {})),
        timeout=timeout,
        **kw,
    )


def _run(out: Path, backend: str, label: str) -> tuple[subprocess.CompletedProcess, Path]:
    proc = cli("run", "--backend", backend, "--cases", str(EXAMPLES), "--out", str(out), "--label", label)
    (results,) = out.glob("results-*.jsonl")
    return proc, results


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def case_lines(path: Path) -> list[dict]:
    return [r for r in lines(path) if r["kind"] == "case"]


def faults_file(tmp_path: Path, faults: dict[str, str], cases_dir: Path = EXAMPLES) -> Path:
    """A $DML_TEST_FAULTS file for dml_test_backends.Hostile: case id -> fault, keyed by descriptor."""
    from dml_test_backends import fault_key

    by_id = {c.id: c for c in load([cases_dir]).cases}
    path = tmp_path / "faults.json"
    path.write_text(json.dumps({fault_key(by_id[i].descriptor): f for i, f in faults.items()}))
    return path

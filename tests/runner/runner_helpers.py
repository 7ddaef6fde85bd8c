"""Helpers for the runner tests: the CLI as a subprocess, with the broken test backends importable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conformance.corpus import CASES_DIR

HERE = Path(__file__).resolve().parent
EXAMPLES = CASES_DIR / "examples"


def cli(*args: str, env_extra: dict | None = None, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(HERE), **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], capture_output=True, text=True, env=env,
                          timeout=120, **kw)


def _run(out: Path, backend: str, label: str) -> tuple[subprocess.CompletedProcess, Path]:
    proc = cli("run", "--backend", backend, "--cases", str(EXAMPLES), "--out", str(out), "--label", label)
    (results,) = out.glob("results-*.jsonl")
    return proc, results



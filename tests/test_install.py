"""The suite installed as users install it: the built wheels, not the source tree.

The pure wheel goes into a fresh virtual environment, where the pinned onnxruntime-directml
version must be read from the installed metadata (no pyproject.toml there), `setup directml`
must find everything, and the quick profile must run on real DirectML with no failure.  The
Windows wheel must carry both native programs, built from exactly the sources it ships.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import venv
import zipfile
from pathlib import Path

import pytest
from prerequisite import require_directml

ROOT = Path(__file__).resolve().parent.parent


def test_the_windows_wheel_carries_both_programs_built_from_its_own_sources(built_wheels):
    with zipfile.ZipFile(built_wheels["windows"]) as wheel:
        names = set(wheel.namelist())
        native = "conformance/backends/directml/native/"
        manifest = json.loads(wheel.read(native + "bin/manifest.json"))
        for program in ("dml_runner", "ort_worker"):
            exe = wheel.read(f"{native}bin/{program}.exe")
            assert exe[:2] == b"MZ" and b"PE\0\0" in exe[:1024]  # a Windows executable
            digest = hashlib.sha256()
            for name in [
                f"{native}{program}.cpp",
                *sorted(n for n in names if n.startswith(native) and n.endswith(".h")),
            ]:
                digest.update(Path(name).name.encode() + b"\0" + wheel.read(name))
            assert manifest["programs"][program]["source_sha256"] == digest.hexdigest()
        wheel_info = wheel.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
    # The test DXCore (tests/directml/native/test_dxcore.cpp) is Wine scaffolding: on Windows the real dxcore.dll.
    assert not [n for n in names if "dxcore" in n.lower()]
    assert "Tag: py3-none-win_amd64" in wheel_info and "Root-Is-Purelib: false" in wheel_info
    with zipfile.ZipFile(built_wheels["any"]) as wheel:
        assert not [n for n in wheel.namelist() if n.endswith(".exe")]  # the pure wheel builds them where it runs


@pytest.fixture(scope="module")
def fresh_venv(built_wheels, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fresh venv")
    venv.EnvBuilder(with_pip=True).create(folder)
    python = folder / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(built_wheels["any"])],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return folder


def _in_venv(folder: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{folder / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, check=False, env=env, cwd=folder)


def test_the_installed_wheel_reads_its_pin_from_its_metadata(fresh_venv):
    done = _in_venv(
        fresh_venv,
        str(fresh_venv / "bin" / "python"),
        "-c",
        "import conformance, importlib.metadata as m; from conformance.backends.directml import stack; "
        "print(conformance.__file__); print(stack.pinned_wheel_version()); "
        "print([r for r in m.requires('dml-conformance') if 'directml-dll' in r])",
    )
    assert done.returncode == 0, done.stderr
    where, version, requirement = done.stdout.splitlines()
    assert str(fresh_venv) in where  # the installed copy, not this checkout
    assert not (Path(where).parents[1] / "pyproject.toml").exists()
    tomllib = pytest.importorskip("tomllib")
    pins = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["directml-dll"]
    assert pins[0].split(";")[0] == f"onnxruntime-directml=={version}"
    assert "extra == 'directml-dll'" in requirement  # single quotes: the form that was misread


def test_the_installed_wheel_runs_the_quick_profile_on_real_directml(fresh_venv, tmp_path):
    require_directml()
    setup = _in_venv(fresh_venv, "dml-conformance", "setup", "directml")
    assert setup.returncode == 0, setup.stdout + setup.stderr
    # The quick profile's cases of three operators, one of each kind of input (a tensor, several, indices), on the
    # wheel's own install: the breadth is the Linux lane's (tests/directml), the same code.
    args = ("run", "--backend", "directml", "--operators", "SLICE1,JOIN,GATHER", "--out", str(tmp_path))
    done = _in_venv(fresh_venv, "dml-conformance", *args)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "verdict: PASS" in done.stdout
    (results,) = tmp_path.glob("results-directml-*.jsonl")
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert lines[0]["profile"] == "quick" and lines[0]["backend_versions"]["directml"].startswith("1.15")
    assert "built here" in lines[0]["backend_versions"]["dml_runner"]  # the pure wheel carries no program
    counts = lines[-1]["counts"]
    assert counts.get("pass", 0) > 500 and not {"fail", "rejected", "error", "crash", "timeout"} & set(counts)

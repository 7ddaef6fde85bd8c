"""Finding the DirectML stack: every missing piece is exit 2 with a message naming the fix.

These tests build a fake machine (a cache folder, a fake Wine, fake lavapipe libraries that
state a Mesa version) so they run anywhere, Wine or not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.backends.directml import stack
from conformance.support.cache import generated_cache_dir

ROOT = Path(__file__).resolve().parents[2]


def fake_lavapipe(folder: Path, mesa: str) -> Path:
    library = folder / "libvulkan_lvp.so"
    library.write_bytes(b"\x7fELF...padding..." + f"Mesa {mesa} (LLVM 15.0.6)".encode() + b"\0more")
    icd = folder / "lvp_icd.json"
    icd.write_text(json.dumps({"file_format_version": "1.0.0", "ICD": {"library_path": str(library)}}))
    return icd


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A set-up Linux machine in miniature: cache, prefix, DLL, Mesa 25 lavapipe, `wine` and `Xvfb` on PATH."""
    cache = tmp_path / "cache"
    (cache / "wine-prefix").mkdir(parents=True)
    (cache / "wine-prefix" / stack.PREFIX_READY).write_text("8.0\n")
    (tmp_path / "DirectML.dll").write_bytes(b"MZ not really")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for program in ("wine", "Xvfb"):
        (bin_dir / program).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / program).chmod(0o755)
    env = {
        "PATH": str(bin_dir),
        "HOME": str(tmp_path),
        "DML_CONFORMANCE_CACHE": str(cache),
        "DML_CONFORMANCE_VK_ICD": str(fake_lavapipe(tmp_path, "25.0.7-2~bpo12+1")),
    }
    # The run-time generated cases stay the machine's own (warm): the stack's message is what is tested here, and a
    # cold generation beside every command would cost seconds each.
    generated = generated_cache_dir()
    if generated is not None:
        env["DML_CONFORMANCE_GENERATED"] = str(generated)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("DISPLAY", raising=False)
    return tmp_path, env


def cli(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", "run", "--backend", "directml", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )


def test_the_fake_machine_is_complete(machine):
    tmp, _ = machine
    found = stack.discover(tmp / "DirectML.dll")
    assert found.wine == str(tmp / "bin" / "wine") and found.xvfb == str(tmp / "bin" / "Xvfb")
    assert found.lavapipe is not None and found.lavapipe.version == "25.0.7-2~bpo12+1"


def test_a_wrong_dml_dll_is_exit_2_naming_the_file(machine):
    tmp, env = machine
    done = cli(env, "--dml-dll", str(tmp / "nope" / "DirectML.dll"), "--out", str(tmp / "out"))
    assert done.returncode == 2, done.stderr
    assert f"--dml-dll {tmp / 'nope' / 'DirectML.dll'}: no such file" in done.stderr
    assert "Traceback" not in done.stderr


def test_no_wine_is_exit_2_naming_the_package(machine):
    tmp, env = machine
    (tmp / "bin" / "wine").unlink()
    done = cli(env, "--dml-dll", str(tmp / "DirectML.dll"), "--out", str(tmp / "out"))
    assert done.returncode == 2
    assert "`wine` is not installed: `apt-get install wine64 wine`" in done.stderr
    assert "dml-conformance setup directml --install" in done.stderr


def test_no_display_and_no_xvfb_is_exit_2_naming_xvfb(machine):
    tmp, env = machine
    (tmp / "bin" / "Xvfb").unlink()
    done = cli(env, "--dml-dll", str(tmp / "DirectML.dll"), "--out", str(tmp / "out"))
    assert done.returncode == 2
    assert "no X display (DISPLAY is unset) and Xvfb is not installed: `apt-get install xvfb`" in done.stderr


def test_an_existing_display_needs_no_xvfb(machine, monkeypatch):
    tmp, _ = machine
    (tmp / "bin" / "Xvfb").unlink()
    monkeypatch.setenv("DISPLAY", ":5")
    assert stack.discover(tmp / "DirectML.dll").display == ":5"


def test_lavapipe_too_old_is_exit_2_saying_why_and_how(machine):
    tmp, env = machine
    env = dict(env, DML_CONFORMANCE_VK_ICD=str(fake_lavapipe(tmp, "22.3.6")))
    done = cli(env, "--dml-dll", str(tmp / "DirectML.dll"), "--out", str(tmp / "out"))
    assert done.returncode == 2
    assert "lavapipe is too old: found Mesa 22.3.6" in done.stderr
    assert "needs Mesa >= 25.0" in done.stderr and "dml-conformance setup directml" in done.stderr


def test_a_prefix_never_set_up_is_exit_2_naming_setup(machine):
    tmp, env = machine
    (Path(env["DML_CONFORMANCE_CACHE"]) / "wine-prefix" / stack.PREFIX_READY).unlink()
    done = cli(env, "--dml-dll", str(tmp / "DirectML.dll"), "--out", str(tmp / "out"))
    assert done.returncode == 2 and "is not set up (Vulkan renderer): `dml-conformance setup directml`" in done.stderr


def test_the_default_dll_missing_from_the_cache_names_setup(machine):
    tmp, env = machine
    done = cli(env, "--out", str(tmp / "out"))
    assert done.returncode == 2
    assert "the default DirectML.dll (onnxruntime-directml 1.24.4 wheel, pinned in pyproject.toml)" in done.stderr


def test_the_pin_is_read_from_pyproject_metadata():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["directml-dll"]
    pinned = [r for r in extra if r.startswith("onnxruntime-directml==")]
    assert len(pinned) == 1
    assert pinned[0].split(";")[0].removeprefix("onnxruntime-directml==") == stack.pinned_wheel_version()


def test_mesa_version_is_read_from_the_library(tmp_path):
    icd = fake_lavapipe(tmp_path, "25.1.0")
    assert stack.mesa_version_of(tmp_path / "libvulkan_lvp.so") == "25.1.0"
    assert stack.version_tuple("25.0.7-2~bpo12+1") == (25, 0, 7)
    assert icd.is_file()


def test_wine_gets_its_variables_and_nobody_else(machine):
    tmp, _ = machine
    found = stack.discover(tmp / "DirectML.dll")
    env = found.environment(":9")
    assert env["DISPLAY"] == ":9" and env["WINEPREFIX"].endswith("wine-prefix") and env["WINEDEBUG"] == "-all"
    assert env["VK_ICD_FILENAMES"] == os.environ["DML_CONFORMANCE_VK_ICD"]
    assert "WINEPREFIX" not in os.environ  # set for the child alone
    assert found.command(Path("/c/runner.exe"), "1")[:2] == [found.wine, "/c/runner.exe"]
    assert stack.windows_path(Path("/tmp/x/DirectML.dll")) == "Z:\\tmp\\x\\DirectML.dll"


def test_a_directml_version_not_set_up_names_the_exact_setup_command(machine):
    tmp, env = machine
    done = cli(env, "--directml-version", "1.13.1", "--out", str(tmp / "out"))
    assert done.returncode == 2, done.stderr
    folder = Path(env["DML_CONFORMANCE_CACHE"]) / "directml" / "onnxruntime-directml-1.17.3"
    assert (
        f"DirectML 1.13.1 is not set up here ({folder / 'DirectML.dll'} is missing): "
        "`dml-conformance setup directml --directml-version 1.13.1` fetches it from onnxruntime-directml 1.17.3"
    ) in done.stderr
    assert "Traceback" not in done.stderr and not (tmp / "out").exists()


def test_a_directml_version_is_found_beside_the_default_dll(machine):
    """Each release has its own cache folder, named by the wheel: the default DLL's folder is never the one used."""
    tmp, env = machine
    folder = Path(env["DML_CONFORMANCE_CACHE"]) / "directml" / "onnxruntime-directml-1.15.1"
    folder.mkdir(parents=True)
    (folder / "DirectML.dll").write_bytes(b"MZ the 1.12.0 one")
    found = stack.discover(directml_version="1.12.0")
    assert found.dml_dll == folder / "DirectML.dll"
    assert found.dml_dll_origin == "onnxruntime-directml 1.15.1 wheel (--directml-version 1.12.0)"
    with pytest.raises(ValueError, match="not both"):
        stack.discover(tmp / "DirectML.dll", "1.12.0")

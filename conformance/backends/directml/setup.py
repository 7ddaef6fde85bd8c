"""`dml-conformance setup directml`: prepare a machine to run real DirectML, step by step.

Each step checks first and does only what is missing, so running it again is cheap.  On Linux:
the Debian packages (with --install, as root), a newer lavapipe and DirectML.h from the
distribution's backports when the system's are too old (unpacked into the cache with a private
apt configuration: the system is not touched), the pinned DirectML.dll (pip download of the
onnxruntime-directml win_amd64 wheel; with --directml-version, the DLL of each release asked for beside
it, checked against the versions table), the Wine prefix with the Vulkan renderer, the runner
built from source (dml_runner for `directml`, ort_worker for `onnxruntime-directml`: the wheel's
onnxruntime.dll on a shared DirectML device), and a check that each answers.  On Windows: the DLL,
the programs, the checks.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import build, stack, versions
from .stack import DEBIAN_PACKAGES, MIN_MESA, PREFIX_READY, SETUP_INSTALL, WHEEL, Missing

# What each Linux program comes from (checked by program, installed by package).
PROGRAMS = {"wine": "wine64 wine", "x86_64-w64-mingw32-g++": "mingw-w64", "Xvfb": "xvfb xauth"}
MESA_PACKAGES = ("mesa-vulkan-drivers", "libdrm2", "libdrm-amdgpu1")  # lavapipe and the libdrm it links
HEADER_PACKAGE = "directx-headers-dev"
PROGRAMS_BUILT = ("dml_runner", "ort_worker")  # native/*.cpp: the directml and onnxruntime-directml backends


class SetupError(RuntimeError):
    """A step failed; the message says what and how to fix it."""


@dataclass
class Step:
    name: str
    run: Callable[[], str]  # returns what it did ("already there" or what it made)


def _run(cmd: list[str], *, what: str, env: dict | None = None, cwd: Path | None = None, timeout: float = 1800) -> str:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SetupError(f"{what}: {' '.join(cmd)} failed: {e}") from e
    if done.returncode != 0:
        raise SetupError(f"{what}: `{' '.join(cmd)}` exited {done.returncode}:\n{(done.stderr or done.stdout)[-2000:]}")
    return done.stdout


# --- Debian packages ------------------------------------------------------------------------------------


def missing_programs() -> list[str]:
    missing = [name for name in PROGRAMS if shutil.which(name) is None]
    if not any(Path(d, "libvulkan.so.1").exists() for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib")):
        missing.append("libvulkan.so.1")
    return missing


def step_packages(install: bool) -> str:
    missing = missing_programs()
    if not missing:
        return "wine, mingw-w64, Xvfb and the Vulkan loader are installed"
    if not install:
        raise SetupError(
            f"missing: {', '.join(missing)}. Install them with `{SETUP_INSTALL}` as root, or "
            f"`apt-get install {' '.join(DEBIAN_PACKAGES)}`"
        )
    if shutil.which("apt-get") is None:
        raise SetupError(
            f"missing: {', '.join(missing)}, and this is not a Debian or Ubuntu system (no apt-get): "
            f"install Wine (64-bit), mingw-w64, Xvfb and Mesa's Vulkan drivers with its package manager"
        )
    if os.geteuid() != 0:
        raise SetupError(f"missing: {', '.join(missing)}; --install needs root: `sudo {SETUP_INSTALL}`")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    _run(["apt-get", "update", "-qq"], what="apt-get update", env=env)
    _run(["apt-get", "install", "-y", "-qq", *DEBIAN_PACKAGES], what="apt-get install", env=env)
    return f"installed {' '.join(DEBIAN_PACKAGES)}"


# --- backports into the cache, with a private apt configuration ---------------------------------------------


def os_codename() -> str:
    try:
        text = Path("/etc/os-release").read_text()
    except OSError as e:
        raise SetupError(f"cannot read /etc/os-release to find the distribution: {e}") from e
    match = re.search(r"^VERSION_CODENAME=\"?([\w-]+)", text, re.M)
    if not match:
        raise SetupError("/etc/os-release has no VERSION_CODENAME")
    return match.group(1)


def system_mirror(codename: str) -> tuple[str, str | None]:
    """(URI, keyring) of the system's apt source for `codename`'s main component: backports come from there."""
    entries: list[tuple[str, list[str], list[str], str | None]] = []
    sources = Path("/etc/apt/sources.list")
    files = ([sources] if sources.is_file() else []) + sorted(Path("/etc/apt/sources.list.d").glob("*.list"))
    for f in files:
        for line in f.read_text(errors="replace").splitlines():
            m = re.match(r"^\s*deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s+(.*)$", line)
            if m:
                key = re.search(r"signed-by=(\S+?)\]?(\s|$)", m.group(1) or "")
                entries.append((m.group(2), [m.group(3)], m.group(4).split(), key.group(1) if key else None))
    for f in sorted(Path("/etc/apt/sources.list.d").glob("*.sources")):
        for block in re.split(r"\n\s*\n", f.read_text(errors="replace")):
            fields = dict(re.findall(r"^([\w-]+):\s*(.*)$", block, re.M))
            if "deb" in fields.get("Types", "").split() and fields.get("URIs"):
                entries.append(
                    (
                        fields["URIs"].split()[0],
                        fields.get("Suites", "").split(),
                        fields.get("Components", "").split(),
                        fields.get("Signed-By"),
                    )
                )
    for uri, suites, components, keyring in entries:
        if codename in suites and "main" in components:
            return uri, keyring
    raise SetupError(
        f"no apt source for '{codename} main' in /etc/apt/sources.list*: cannot locate {codename}-backports"
    )


def fetch_backports(packages: tuple[str, ...], dest: Path) -> list[str]:
    """Download `packages` from <codename>-backports and unpack them under `dest`; returns the .deb names."""
    if shutil.which("apt-get") is None or shutil.which("dpkg") is None:
        raise SetupError("apt-get and dpkg are needed to fetch from backports (Debian or Ubuntu)")
    codename = os_codename()
    uri, keyring = system_mirror(codename)
    work = stack.cache_dir() / "apt"
    for sub in ("lists/partial", "cache/archives/partial", "debs"):
        (work / sub).mkdir(parents=True, exist_ok=True)
    signed = f"[signed-by={keyring}] " if keyring else ""
    (work / "sources.list").write_text(f"deb {signed}{uri} {codename}-backports main\n")
    options = [
        "-o",
        f"Dir::Etc::sourcelist={work / 'sources.list'}",
        "-o",
        "Dir::Etc::sourceparts=-",
        "-o",
        f"Dir::State::Lists={work / 'lists'}",
        "-o",
        f"Dir::Cache={work / 'cache'}",
        "-o",
        "Debug::NoLocking=1",
        "-o",
        "APT::Sandbox::User=root" if os.geteuid() == 0 else "quiet=1",
    ]
    _run(["apt-get", *options, "update"], what=f"apt-get update ({codename}-backports, private lists)")
    debs = work / "debs"
    for old in debs.glob("*.deb"):
        old.unlink()
    wanted = [f"{p}/{codename}-backports" for p in packages]
    _run(["apt-get", *options, "download", *wanted], what=f"apt-get download {' '.join(wanted)}", cwd=debs)
    names = sorted(d.name for d in debs.glob("*.deb"))
    tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f".{dest.name}-"))
    for deb in sorted(debs.glob("*.deb")):
        _run(["dpkg", "-x", str(deb), str(tmp)], what=f"dpkg -x {deb.name}")
    if dest.exists():
        shutil.rmtree(dest)
    tmp.rename(dest)
    return names


def step_mesa() -> str:
    try:
        found = stack.find_lavapipe()
        return f"Mesa {found.version} lavapipe ({found.icd})"
    except Missing:
        pass
    dest = stack.private_mesa_dir()
    dest.parent.mkdir(parents=True, exist_ok=True)
    root = dest / "root"
    root.mkdir(parents=True, exist_ok=True)
    debs = fetch_backports(MESA_PACKAGES, root)
    libraries = sorted(root.glob("usr/lib/*/libvulkan_lvp.so"))
    if not libraries:
        raise SetupError(f"the backports packages {', '.join(debs)} hold no libvulkan_lvp.so")
    icd = {"file_format_version": "1.0.0", "ICD": {"library_path": str(libraries[0]), "api_version": "1.3.0"}}
    (dest / "lvp_icd.json").write_text(json.dumps(icd, indent=1))
    found = stack.find_lavapipe()  # checks the version (Missing if backports is still too old)
    return f"Mesa {found.version} lavapipe unpacked into {dest} from {', '.join(debs)} (the system's is untouched)"


def step_headers() -> str:
    try:
        header = build.find_directml_h(build.find_compiler())
        return f"DirectML.h: {header or 'the compiler’s own (Windows SDK)'}"
    except Missing:
        pass
    dest = stack.cache_dir() / "directx-headers"
    dest.parent.mkdir(parents=True, exist_ok=True)
    debs = fetch_backports((HEADER_PACKAGE,), dest)
    header = build.find_directml_h(build.find_compiler())
    return f"DirectML.h unpacked to {header} from {', '.join(debs)}"


# --- the DLL, the prefix, the runner ----------------------------------------------------------------------------


def step_dll() -> str:
    """The default DirectML.dll: the one of the wheel pyproject.toml pins."""
    version = stack.pinned_wheel_version()
    release = versions.for_wheel(version)
    folder, origin = stack.pinned_dlls()
    if (folder / "DirectML.dll").is_file():
        return f"DirectML.dll from {origin}: {folder / 'DirectML.dll'}"
    return fetch_wheel_dlls(version, release.python if release else versions.DEFAULT_PYTHON, folder, release)


def step_version(directml_version: str) -> str:
    """`--directml-version`: a release of the versions table, its DLL beside the default one (never replacing it)."""
    release = versions.BY_VERSION[versions.parse(directml_version)]
    folder, origin = stack.wheel_dlls(release.wheel)
    dll = folder / "DirectML.dll"
    if not dll.is_file():
        return fetch_wheel_dlls(release.wheel, release.python, folder, release)
    found = versions.file_version(dll)
    if found is None or not versions.same(release.directml, found):
        raise SetupError(
            f"{dll} ({origin}) is DirectML {found or '(no version resource)'}, not {release.directml}: delete "
            f"{folder} and run this again"
        )
    return f"DirectML {found} from {origin}: {dll}"


def fetch_wheel_dlls(version: str, python: str, folder: Path, release: versions.Release | None) -> str:
    """pip download the onnxruntime-directml win_amd64 wheel and unpack its DLLs into `folder` (complete or
    not at all); with a `release` of the versions table, its DirectML.dll must be that version with that hash."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent) as tmp:
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--only-binary=:all:",
                "--platform",
                "win_amd64",
                "--python-version",
                python,
                "-d",
                tmp,
                f"{WHEEL}=={version}",
            ],
            what=f"pip download {WHEEL}=={version} (win_amd64, Python {python})",
        )
        wheels = sorted(Path(tmp).glob("*.whl"))
        if not wheels:
            raise SetupError(f"pip download {WHEEL}=={version} left no wheel in {tmp}")
        unpacked = Path(tmp) / "dlls"
        unpacked.mkdir()
        with zipfile.ZipFile(wheels[0]) as wheel:
            for name in wheel.namelist():
                if name.startswith("onnxruntime/capi/") and name.lower().endswith(".dll"):
                    (unpacked / Path(name).name).write_bytes(wheel.read(name))
        dll = unpacked / "DirectML.dll"
        if not dll.is_file():
            raise SetupError(f"{wheels[0].name} holds no onnxruntime/capi/DirectML.dll")
        found = versions.file_version(dll)
        if release is not None:
            digest = hashlib.sha256(dll.read_bytes()).hexdigest()
            if found is None or not versions.same(release.directml, found) or digest != release.sha256:
                raise SetupError(
                    f"{wheels[0].name}'s DirectML.dll is version {found or '(none)'} with SHA-256 {digest}; the "
                    f"versions table (conformance/backends/directml/versions.py) says DirectML {release.directml} "
                    f"with SHA-256 {release.sha256}: nothing was installed"
                )
        (unpacked / "SOURCE").write_text(f"{wheels[0].name}\n")
        if folder.exists():
            shutil.rmtree(folder)
        unpacked.rename(folder)
    return f"DirectML.dll {found or '(no version resource)'} from {WHEEL} {version} unpacked into {folder}"


def step_prefix() -> str:
    prefix = stack.wine_prefix()
    if (prefix / PREFIX_READY).is_file():
        return f"Wine prefix {prefix} (Vulkan renderer)"
    wine = stack.find_program("wine", PROGRAMS["wine"])
    from .xserver import XServer

    xserver = None
    display = os.environ.get("DISPLAY")
    if not display:
        xserver = XServer(stack.find_program("Xvfb", PROGRAMS["Xvfb"]))
        display = xserver.display
    env = dict(
        os.environ,
        WINEPREFIX=str(prefix),
        WINEARCH="win64",
        WINEDEBUG="-all",
        DISPLAY=display,
        WINEDLLOVERRIDES="winedbg.exe=d;mscoree=;mshtml=",
    )
    try:
        prefix.mkdir(parents=True, exist_ok=True)
        _run([wine, "wineboot", "-i"], what="wineboot -i", env=env, timeout=600)
        _run(
            [wine, "reg", "add", r"HKCU\Software\Wine\Direct3D", "/v", "renderer", "/d", "vulkan", "/f"],
            what="wine reg add (renderer = vulkan)",
            env=env,
            timeout=300,
        )
        wineserver = shutil.which("wineserver") or str(Path(wine).with_name("wineserver"))
        if Path(wineserver).exists():  # let the registry reach the disk before the marker says ready
            subprocess.run([wineserver, "-w"], env=env, timeout=120, check=False)
    finally:
        if xserver is not None:
            xserver.close()
    (prefix / PREFIX_READY).write_text(f"{stack.wine_version(wine)}\n")
    return f"Wine prefix created at {prefix} with the Vulkan renderer"


def step_runner() -> str:
    built = [build.program_executable(program) for program in PROGRAMS_BUILT]
    return "; ".join(str(exe) for exe in built)


def step_check(directml_version: str | None = None) -> str:
    from .backend import DirectMLBackend

    t0 = time.perf_counter()
    backend = DirectMLBackend(directml_version=directml_version)  # a DLL of another version is refused there
    try:
        v = backend.versions()
        caps = backend.capabilities()
        return (
            f"DirectML {v['directml']} on {v['adapter']} (driver {v['driver_version']}, D3D12 "
            f"{v['d3d12_feature_level']}, shader model {v['shader_model']}), DML feature level "
            f"{caps.feature_level}, {len(caps.data_types)} data types; first answer after "
            f"{time.perf_counter() - t0:.1f} s" + ("" if directml_version else adapter_lines(backend.info))
        )
    finally:
        backend.close()


def adapter_lines(info: dict) -> str:
    """Every adapter the runner found, one line each (index, name, kind, placement, hardware or software, driver,
    LUID), under how they were listed: `--adapter INDEX|NAME` and `--adapter-kind` choose among them."""
    note = f", {info['adapter_api_note']}" if info.get("adapter_api_note") else ""
    lines = [
        f"adapters through {info.get('adapter_api', '?')}{note} (--adapter INDEX|NAME, --adapter-kind gpu|npu|any):"
    ]
    for a in info.get("adapter_list", []):
        lines.append(
            f"  {a['index']}: {a['name']} ({a['kind']}, {a['placement']}, "
            f"{'hardware' if a['hardware'] else 'software'}, driver {a['driver_version']}, LUID {a['luid']}, "
            f"attributes {a['attributes']})" + ("  <- the default" if a["luid"] == info.get("luid") else "")
        )
    return "".join(f"\n{' ' * 28}{line}" for line in lines)


def step_ort() -> str:
    from ..onnxruntime_directml import OnnxRuntimeDirectMLBackend

    t0 = time.perf_counter()
    backend = OnnxRuntimeDirectMLBackend()
    try:
        v = backend.versions()
        return (
            f"ONNX Runtime {v['onnxruntime']} with DirectML {v['directml']} on {v['adapter']} "
            f"(the onnxruntime-directml backend); first answer after {time.perf_counter() - t0:.1f} s"
        )
    finally:
        backend.close()


def steps(install: bool, directml_versions: tuple[str, ...] = ()) -> list[Step]:
    fetch = [Step(f"DirectML {v}", functools.partial(step_version, v)) for v in directml_versions]
    check = [Step(f"device {v}", functools.partial(step_check, v)) for v in directml_versions]
    if sys.platform == "win32":
        return [
            Step("DirectML.dll", step_dll),
            *fetch,
            Step("programs", step_runner),
            Step("device", step_check),
            *check,
            Step("ONNX Runtime", step_ort),
        ]
    if sys.platform != "linux":
        raise SetupError(f"the directml backend runs on Windows, or on Linux under Wine; this is {sys.platform}")
    return [
        Step("packages", lambda: step_packages(install)),
        Step("lavapipe", step_mesa),
        Step("DirectML.h", step_headers),
        Step("DirectML.dll", step_dll),
        *fetch,
        Step("Wine prefix", step_prefix),
        Step("programs", step_runner),
        Step("device", step_check),
        *check,
        Step("ONNX Runtime", step_ort),
    ]


def run_setup(install: bool = False, out=print, directml_versions: tuple[str, ...] = ()) -> int:
    """Run every step, printing what each did and how long it took; 0 when the machine is ready.

    `directml_versions` (--directml-version): releases of the versions table fetched beside the default DLL."""
    out(f"dml-conformance setup directml (cache: {stack.cache_dir()}; minimum Mesa {'.'.join(map(str, MIN_MESA))})")
    total = time.perf_counter()
    for step in steps(install, directml_versions):
        t0 = time.perf_counter()
        try:
            what = step.run()
        except (SetupError, Missing) as e:
            out(f"  {step.name:<15} FAILED after {time.perf_counter() - t0:.1f} s: {e}")
            return 2
        out(f"  {step.name:<15} {time.perf_counter() - t0:6.1f} s  {what}")
    runs = [""] + [f" --directml-version {v}" for v in directml_versions]
    out(
        f"ready in {time.perf_counter() - total:.1f} s: "
        + ", ".join(f"`dml-conformance run --backend directml{r}`" for r in runs)
    )
    return 0

"""Where the DirectML backend's pieces are: found here, never fetched (setup.py fetches).

The pieces: the DirectML.dll under test (by default the one in the pinned `onnxruntime-directml`
wheel, unpacked into the cache by `dml-conformance setup directml`), Microsoft's DirectML.h to
build the runner against, and on Linux the translation stack: Wine (its d3d12.dll carries vkd3d),
a Wine prefix set to the Vulkan renderer, Mesa's lavapipe (25 or newer: older ones return S_OK
and garbage), and an X display (Xvfb when there is none).  A missing piece raises `Missing`,
whose message names the piece and the command that provides it.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ...support.cache import cache_dir
from ..base import BackendUnavailable

SETUP = "dml-conformance setup directml"
SETUP_INSTALL = "dml-conformance setup directml --install"  # as root: also the Debian packages
# The Debian packages the Linux route needs (the facts in ../shared/directml-on-linux.md).
DEBIAN_PACKAGES = ("wine64", "wine", "mingw-w64", "xvfb", "xauth", "mesa-vulkan-drivers", "libvulkan1")
# The oldest Mesa measured to work: lavapipe 22.3 lacks VK_EXT_descriptor_indexing, so vkd3d's
# descriptor tables fail and every DirectML call returns S_OK with garbage in the outputs.
MIN_MESA = (25, 0)
PIN_EXTRA = "directml-dll"  # pyproject.toml's extra that pins the wheel the default DirectML.dll comes from
WHEEL = "onnxruntime-directml"
PREFIX_READY = ".dml-conformance-ready"  # written into the Wine prefix once it is set up


class Missing(BackendUnavailable):
    """A piece of the DirectML stack is missing; the message names it and the fix."""


# --- the pinned wheel -------------------------------------------------------------------------------


def pinned_wheel_version() -> str:
    """The onnxruntime-directml version pinned by pyproject.toml's `directml-dll` extra.

    Read from the installed metadata (a wheel or an editable install writes the marker as
    `extra == 'directml-dll'`, with either quote), else from a source checkout's pyproject.toml.
    """
    requirement = re.compile(rf"^{WHEEL}\s*==\s*([\w.+-]+)")
    extra = re.compile(rf"""extra\s*==\s*["']{re.escape(PIN_EXTRA)}["']""")
    texts: list[str] = []
    try:
        from importlib.metadata import PackageNotFoundError, requires

        texts = [r for r in requires("dml-conformance") or [] if extra.search(r)]
    except PackageNotFoundError:
        pass
    if not texts:  # a source checkout that is not installed: read pyproject.toml itself
        pyproject = Path(__file__).resolve().parents[3] / "pyproject.toml"
        if pyproject.is_file():
            block = re.search(rf"^{re.escape(PIN_EXTRA)}\s*=\s*\[(.*?)\]", pyproject.read_text(), re.S | re.M)
            texts = re.findall(r'"([^"]+)"', block.group(1)) if block else []
    for text in texts:
        match = requirement.match(text.strip())
        if match:
            return match.group(1)
    raise Missing(
        f"the installed dml-conformance's metadata (extra {PIN_EXTRA!r}) does not pin {WHEEL}==VERSION; "
        "reinstall dml-conformance"
    )


def wheel_dir(version: str | None = None) -> Path:
    """Where setup unpacks the pinned wheel's DLLs (DirectML.dll, onnxruntime.dll, ...)."""
    return cache_dir() / "directml" / f"{WHEEL}-{version or pinned_wheel_version()}"


def installed_wheel_dir(version: str) -> Path | None:
    """Windows: the installed onnxruntime-directml's DLL folder (onnxruntime/capi), when it is the pinned
    version: on a vendor's machine `pip install dml-conformance[directml-dll]` put the DLLs there already."""
    if sys.platform != "win32":
        return None
    import importlib.metadata
    import importlib.util

    try:
        if importlib.metadata.version(WHEEL) != version:
            return None
        spec = importlib.util.find_spec("onnxruntime")  # found, not imported: no DLL is loaded here
    except (importlib.metadata.PackageNotFoundError, ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "capi"
    return folder if (folder / "DirectML.dll").is_file() else None


def wheel_dlls(version: str) -> tuple[Path, str]:
    """The folder of an onnxruntime-directml wheel's DLLs and where it comes from: the installed package
    (Windows, when it is that version), else the copy `setup directml` unpacked into the cache."""
    installed = installed_wheel_dir(version)
    if installed is not None:
        return installed, f"the installed {WHEEL} {version}"
    return wheel_dir(version), f"{WHEEL} {version} wheel"


def pinned_dlls() -> tuple[Path, str]:
    """The pinned wheel's DLL folder and where it comes from (wheel_dlls)."""
    return wheel_dlls(pinned_wheel_version())


# --- Linux: the translation stack ---------------------------------------------------------------------


@dataclass(frozen=True)
class Lavapipe:
    icd: Path  # the Vulkan ICD json the loader is pointed at
    library: Path
    version: str  # Mesa's, read from the library itself
    private: bool  # True: a copy in the cache, not the system's

    @property
    def library_dirs(self) -> list[str]:
        """LD_LIBRARY_PATH entries for a private copy (its newer libdrm sits beside it)."""
        return [str(self.library.parent)] if self.private else []


def mesa_version_of(library: Path) -> str | None:
    """Mesa's version as the library states it ("Mesa 25.0.7-2~bpo12+1"), or None."""
    try:
        data = library.read_bytes()
    except OSError:
        return None
    match = re.search(rb"Mesa (\d+\.\d+(?:\.\d+)?(?:-[\w.~+]+)?)", data)
    return match.group(1).decode() if match else None


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text.split("-")[0])[:3])


def private_mesa_dir() -> Path:
    return cache_dir() / "mesa"


def _icd_library(icd: Path) -> Path | None:
    try:
        path = Path(json.loads(icd.read_text())["ICD"]["library_path"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not path.is_absolute():  # a bare name: the loader searches the system library folders
        for folder in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"):
            if (Path(folder) / path).exists():
                return Path(folder) / path
    return path


def lavapipe_candidates() -> list[tuple[Path, bool]]:
    """ICD files to try, best first: DML_CONFORMANCE_VK_ICD, the cache's private copy, the system's."""
    if os.environ.get("DML_CONFORMANCE_VK_ICD"):
        return [(Path(os.environ["DML_CONFORMANCE_VK_ICD"]), True)]
    found = [(private_mesa_dir() / "lvp_icd.json", True)]
    for folder in ("/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"):
        found += [(p, False) for p in sorted(Path(folder).glob("lvp_icd*.json"))]
    return found


def find_lavapipe() -> Lavapipe:
    """The newest usable lavapipe, or Missing naming what was found and the fix."""
    seen = []
    for icd, private in lavapipe_candidates():
        library = _icd_library(icd) if icd.is_file() else None
        if library is None or not library.is_file():
            continue
        version = mesa_version_of(library) or "unknown"
        seen.append(f"Mesa {version} ({library})")
        if version != "unknown" and version_tuple(version) >= MIN_MESA:
            return Lavapipe(icd, library, version, private or os.environ.get("DML_CONFORMANCE_VK_ICD") is not None)
    need = ".".join(map(str, MIN_MESA))
    if not seen:
        raise Missing(
            f"no lavapipe Vulkan driver (Mesa's CPU driver) found: install mesa-vulkan-drivers, and "
            f"Mesa >= {need} with `{SETUP}` (`{SETUP_INSTALL}` as root installs the packages)"
        )
    raise Missing(
        f"lavapipe is too old: found {'; '.join(seen)}, DirectML under vkd3d needs Mesa >= {need} "
        f"(older lavapipe lacks VK_EXT_descriptor_indexing: every call returns S_OK and the outputs are "
        f"garbage). `{SETUP}` fetches a newer one into its cache without touching the system"
    )


def find_program(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise Missing(f"`{name}` is not installed: `apt-get install {package}` (or `{SETUP_INSTALL}` as root)")
    return path


@functools.lru_cache(maxsize=4)
def wine_version(wine: str) -> str:
    try:
        out = subprocess.run([wine, "--version"], capture_output=True, text=True, timeout=60, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    match = re.search(r"wine-(\S+)", out)
    return match.group(1) if match else "unknown"


@functools.lru_cache(maxsize=4)
def vkd3d_version(wine: str) -> str:
    """The vkd3d API level Wine's d3d12.dll was built with (Wine bundles vkd3d; it has no version call)."""
    roots = {Path(wine).resolve().parents[1] / "lib", Path("/usr/lib"), Path("/usr/lib64"), Path("/opt/wine/lib")}
    # Where distributions put it first (a search of all of /usr/lib costs most of a second), then anywhere.
    usual = ("x86_64-linux-gnu/wine/x86_64-windows/d3d12.dll", "wine/x86_64-windows/d3d12.dll")
    found = [root / path for root in sorted(roots) for path in usual if (root / path).is_file()]
    for dlls in [found[:1]] if found else (sorted(root.glob("**/x86_64-windows/d3d12.dll"))[:1] for root in roots):
        for dll in dlls:
            levels = re.findall(rb"VKD3D_API_VERSION_(\d+)_(\d+)", dll.read_bytes())
            if levels:
                major, minor = max((int(a), int(b)) for a, b in levels)
                return f"{major}.{minor} (API level in {dll})"
    return "unknown"


def wine_prefix() -> Path:
    return cache_dir() / "wine-prefix"


def windows_path(path: Path) -> str:
    """A Linux path as the runner sees it under Wine (drive Z: is the Linux root)."""
    return "Z:" + str(path.resolve()).replace("/", "\\")


# --- everything together --------------------------------------------------------------------------------


@dataclass
class Stack:
    """What a DirectML run uses; `describe()` goes into the run header and the report."""

    dml_dll: Path
    dml_dll_origin: str
    wine: str | None = None
    prefix: Path | None = None
    lavapipe: Lavapipe | None = None
    xvfb: str | None = None
    display: str | None = None  # an existing display; None: start Xvfb
    notes: list[str] = field(default_factory=list)

    @property
    def under_wine(self) -> bool:
        return self.wine is not None

    def describe(self) -> dict[str, str]:
        out = {"directml_dll_path": str(self.dml_dll), "directml_dll_origin": self.dml_dll_origin}
        if self.wine:
            out |= {"wine": wine_version(self.wine), "vkd3d": vkd3d_version(self.wine)}
        if self.lavapipe:
            out |= {"mesa": f"{self.lavapipe.version} (lavapipe, {self.lavapipe.library})"}
        return out

    def command(self, runner: Path, adapter: str | None, adapter_kind: str | None = None) -> list[str]:
        dll = windows_path(self.dml_dll) if self.wine else str(self.dml_dll)
        exe = str(runner)
        args = [exe, "--dml-dll", dll] + (["--adapter", adapter] if adapter else [])
        args += ["--adapter-kind", adapter_kind] if adapter_kind else []
        return [self.wine, *args] if self.wine else args

    def environment(self, display: str | None) -> dict[str, str]:
        """The child's environment: Wine and Vulkan variables set for it alone."""
        env = dict(os.environ)
        if not self.wine:
            return env
        assert self.prefix is not None and self.lavapipe is not None
        env["WINEPREFIX"] = str(self.prefix)
        env["WINEARCH"] = "win64"
        env.setdefault("WINEDEBUG", "-all")
        # A crashing process exits instead of waiting in Wine's debugger; no Mono/Gecko prompts.
        env["WINEDLLOVERRIDES"] = "winedbg.exe=d;mscoree=;mshtml="
        env["VK_ICD_FILENAMES"] = str(self.lavapipe.icd)
        env["VK_DRIVER_FILES"] = str(self.lavapipe.icd)
        if self.lavapipe.library_dirs:
            env["LD_LIBRARY_PATH"] = os.pathsep.join([*self.lavapipe.library_dirs, env.get("LD_LIBRARY_PATH", "")])
        if display:
            env["DISPLAY"] = display
        return env


def default_dll() -> tuple[Path, str]:
    folder, origin = pinned_dlls()
    dll = folder / "DirectML.dll"
    if not dll.is_file():
        raise Missing(
            f"the default DirectML.dll ({origin}, pinned in pyproject.toml) is not in the cache "
            f"({dll}): `{SETUP}` fetches it"
        )
    return dll, origin


def version_dll(directml_version: str) -> tuple[Path, str]:
    """The DirectML.dll of a release of the versions table (`--directml-version`), or Missing naming the exact
    setup command that fetches it."""
    from .versions import BY_VERSION, parse

    release = BY_VERSION[parse(directml_version)]
    folder, origin = wheel_dlls(release.wheel)
    dll = folder / "DirectML.dll"
    if not dll.is_file():
        raise Missing(
            f"DirectML {release.directml} is not set up here ({dll} is missing): "
            f"`{SETUP} --directml-version {release.directml}` fetches it from {WHEEL} {release.wheel}"
        )
    return dll, f"{origin} (--directml-version {release.directml})"


def discover(dml_dll: str | os.PathLike[str] | None = None, directml_version: str | None = None) -> Stack:
    """Find every piece, in the order a newcomer would fix them; Missing at the first gap.

    `dml_dll` (any file) and `directml_version` (a release of the versions table) both name the DLL under
    test: at most one of them."""
    if dml_dll is not None and directml_version is not None:
        raise ValueError("give dml_dll (--dml-dll) or directml_version (--directml-version), not both")
    if directml_version is not None:
        dll, origin = version_dll(directml_version)
    elif dml_dll is not None:
        dll = Path(dml_dll).expanduser()
        if not dll.is_file():
            raise Missing(
                f"--dml-dll {dll}: no such file (give the path of a DirectML.dll, or omit --dml-dll for the "
                f"pinned one that `{SETUP}` fetches)"
            )
        dll, origin = dll.resolve(), "--dml-dll"
    else:
        dll, origin = default_dll()
    if sys.platform == "win32":
        return Stack(dll, origin)
    if sys.platform != "linux":
        raise BackendUnavailable(
            f"the directml backend runs on Windows, or on Linux under Wine; this is {sys.platform}"
        )
    wine = find_program("wine", "wine64 wine")
    prefix = wine_prefix()
    if not (prefix / PREFIX_READY).is_file():
        raise Missing(f"the Wine prefix {prefix} is not set up (Vulkan renderer): `{SETUP}` creates it")
    lavapipe = find_lavapipe()
    display = os.environ.get("DISPLAY") or None
    xvfb = None if display else shutil.which("Xvfb")
    if not display and not xvfb:
        raise Missing(
            f"no X display (DISPLAY is unset) and Xvfb is not installed: `apt-get install xvfb` "
            f"(or `{SETUP_INSTALL}` as root)"
        )
    return Stack(dll, origin, wine=wine, prefix=prefix, lavapipe=lavapipe, xvfb=xvfb, display=display)

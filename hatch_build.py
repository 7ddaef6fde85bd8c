"""The wheel's build hook: with DML_CONFORMANCE_WHEEL=windows (`python -m build -C wheel=windows`), the
DirectML programs are cross-compiled from the package's own sources into the wheel, tagged win_amd64.

The compiling is conformance/backends/directml/toolchain.py's, loaded by path (this build environment
has none of the suite's dependencies), so the programs in the wheel are built exactly as the suite
builds them at run time, and their source hashes go into native/bin/manifest.json.  Where mingw-w64
or DirectML.h is missing the build fails, saying which and how to get it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

KINDS = ("any", "windows")


def _toolchain(root: Path):
    path = root / "conformance" / "backends" / "directml" / "toolchain.py"
    spec = importlib.util.spec_from_file_location("_dml_conformance_toolchain", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class NativeProgramsHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        kind = os.environ.get("DML_CONFORMANCE_WHEEL", "any").strip().lower() or "any"
        if kind not in KINDS:
            raise ValueError(f"DML_CONFORMANCE_WHEEL (or -C wheel=) is {kind!r}: say one of {', '.join(KINDS)}")
        if self.target_name != "wheel" or version == "editable" or kind == "any":
            return
        toolchain = _toolchain(Path(self.root))
        cache = Path(os.environ.get("DML_CONFORMANCE_CACHE") or Path.home() / ".cache" / "dml-conformance")
        self._tmp = tempfile.TemporaryDirectory(prefix="dml-conformance-native-")
        try:
            built = toolchain.build_shipped(
                Path(self._tmp.name),
                log=lambda line: self.app.display_info(line),
                extra_header_dirs=[cache / "directx-headers" / "usr" / "include" / "directx"],
            )
        except toolchain.ToolMissing as e:
            raise RuntimeError(
                f"the Windows wheel carries the DirectML programs, and they cannot be built here: {e}. "
                "(`dml-conformance setup directml --install` installs mingw-w64 and fetches DirectML.h; "
                "`python -m build` without `-C wheel=windows` makes the pure wheel)"
            ) from None
        for name, path in built.items():
            build_data["force_include"][str(path)] = f"conformance/backends/directml/native/bin/{name}"
        build_data["pure_python"] = False
        build_data["tag"] = "py3-none-win_amd64"

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        if getattr(self, "_tmp", None) is not None:
            self._tmp.cleanup()

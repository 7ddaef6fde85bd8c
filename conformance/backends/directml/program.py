"""A native program (native/dml_runner.cpp, native/ort_worker.cpp) as a child process: its stack found, its
executable built, a display given, restarted after it dies.  The frames it speaks are process.py's; the
requests the directml backend sends it are wire.py's."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from oracle import ALL_DATA_TYPES, DataType, FeatureLevel

from ..base import BackendUnavailable
from .build import program_executable
from .hresults import failure_text, hresult_text
from .process import RunnerDied, RunnerError, RunnerProcess, RunnerTimeout
from .stack import SETUP, Missing, Stack, discover, pinned_dlls, windows_path
from .toolchain import SHIPPED, source_hash
from .xserver import XServer

# vkd3d's own descriptor heap emulation for the native programs under Wine (the runner and ort_worker).  Its default on lavapipe, a Vulkan descriptor
# set per heap, costs 2-4 s and 1.5 GB of memory per heap, whatever its size; "virtual heaps" cost a millisecond
# and nothing, and gave the same bytes on every case of the quick profile (both --dml-path ways, measured).
VKD3D_CONFIG = "virtual_heaps"


class NativeProgram:
    """One native program (native/<program>.cpp) as a child process: its stack found, its executable built,
    an Xvfb started if there is no display, and the child restarted after it dies."""

    def __init__(
        self,
        program: str,
        *,
        dml_dll: str | os.PathLike[str] | None = None,
        directml_version: str | None = None,
        adapter: str | None = None,
        adapter_kind: str | None = None,
        ort_dll: str | os.PathLike[str] | None = None,
        extra: list[str] | None = None,
        log=None,
    ):
        self.program = program
        self.stack: Stack = discover(dml_dll, directml_version)
        self.adapter = adapter
        self.adapter_kind = adapter_kind
        self.extra: list[str] = []
        if program == "ort_worker":
            dll = Path(ort_dll) if ort_dll else pinned_dlls()[0] / "onnxruntime.dll"
            if not dll.is_file():
                raise Missing(f"onnxruntime.dll ({dll}) is missing: `{SETUP}` unpacks it with DirectML.dll")
            self.extra = ["--ort-dll", windows_path(dll) if self.stack.under_wine else str(dll), *(extra or [])]
            self.ort_dll = dll
        log = log or (lambda message: print(f"dml-conformance: {message}", file=sys.stderr))
        self.path = program_executable(program, log=log)
        self.xserver: XServer | None = None
        self.restarts = 0
        self.process: RunnerProcess | None = None
        self.info: dict = {}
        self.start()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.alive

    def start(self) -> None:
        display = self.stack.display
        if self.stack.under_wine and display is None:
            if self.xserver is None:
                assert self.stack.xvfb is not None
                self.xserver = XServer(self.stack.xvfb)
            display = self.xserver.display
        self.process = self._runner_process(display)
        try:
            ready = self.process.start()
        except RunnerError as e:
            self.close()
            raise BackendUnavailable(f"{self.program} did not start: {e}") from e
        if ready.get("status") != "ready":
            self.process.kill()  # its last stderr lines, for the message (Wine's own say why a device failed)
            message = self._startup_failure(ready, display, list(self.process.stderr_tail))
            self.close()
            raise BackendUnavailable(message)
        self.info, _ = self.process.request({"op": "info"}, timeout=120)
        if self.info.get("status") == "failed":
            self.close()
            raise BackendUnavailable(f"the DirectML device could not be queried: {failure_text(self.info)}")

    @property
    def on_vkd3d(self) -> bool:
        """The child's D3D12 is vkd3d: Wine started from Linux, or a Windows Python under Wine (the Windows lane)."""
        from ...support.host import wine_version

        return self.stack.under_wine or wine_version() is not None

    def _runner_process(self, display: str | None) -> RunnerProcess:
        """The child, not started yet (tests put a fake runner here)."""
        env = self.stack.environment(display)
        if self.on_vkd3d:
            env.setdefault("VKD3D_CONFIG", VKD3D_CONFIG)  # a VKD3D_CONFIG of the user's own wins, empty too
        return RunnerProcess([*self.stack.command(self.path, self.adapter, self.adapter_kind), *self.extra], env=env)

    def _startup_failure(self, frame: dict, display: str | None, stderr: list[str]) -> str:
        call, hr = frame.get("call", "?"), frame.get("hresult")
        text = f"{self.program} could not start: {call} returned {hresult_text(hr)}"
        if "DirectML.dll" in call or "DMLCreateDevice1" in call:
            return f"{text}: {self.stack.dml_dll} is not a usable DirectML.dll ({self.stack.dml_dll_origin})"
        if "onnxruntime" in call or "OrtGetApiBase" in call or call.startswith("Ort"):
            return f"{text}: {getattr(self, 'ort_dll', '?')} is not a usable onnxruntime.dll with DirectML"
        said = f" (its last stderr lines: {' | '.join(stderr[-5:])})" if stderr else ""
        if call == "CreateDXGIFactory1" or (hr and int(hr, 16) == 0x887A0004 and self.stack.under_wine):
            return (
                f"{text}: under Wine this means no usable X display or Vulkan driver "
                f"(DISPLAY={display}, "
                f"VK_ICD_FILENAMES={self.stack.lavapipe.icd if self.stack.lavapipe else '-'}){said}; "
                "see `dml-conformance setup directml`"
            )
        return text + said

    def ensure_running(self) -> RunnerProcess:
        if not self.alive:
            self.restarts += 1
            self.start()
        assert self.process is not None
        return self.process

    def request(
        self, header: dict, payload: bytes = b"", *, timeout: float, max_payload: int | None = None
    ) -> tuple[dict, bytes]:
        """One request; a child that dies or hangs raises (RunnerDied/RunnerTimeout) and is restarted next time."""
        process = self.ensure_running()
        try:
            return process.request(header, payload, timeout=timeout, max_payload=max_payload)
        except (RunnerDied, RunnerTimeout):
            self.process = None
            raise

    def send(self, header: dict, payload: bytes = b"") -> None:
        """The first half of a request answered by several frames (a batch); `receive` reads them."""
        process = self.ensure_running()
        try:
            process.send(header, payload)
        except (RunnerDied, RunnerTimeout):
            self.process = None
            raise

    def receive(self, *, timeout: float, what: str, max_payload: int | None = None) -> tuple[dict, bytes]:
        if self.process is None:
            raise RunnerDied("the runner is not running")
        try:
            return self.process.receive(timeout, what, max_payload)
        except (RunnerDied, RunnerTimeout):
            self.process = None
            raise

    def kill(self) -> None:
        """End the child now (its answers are out of step): the next request starts a fresh one."""
        if self.process is not None:
            self.process.kill()
            self.process = None

    def data_types(self) -> frozenset[DataType]:
        supported = self.info.get("data_types", {})
        return frozenset(d for d in ALL_DATA_TYPES if supported.get(d.value))

    def feature_level(self) -> FeatureLevel:
        try:
            return FeatureLevel.parse(self.info.get("max_feature_level"))
        except ValueError:  # newer than this suite knows: the newest it knows
            return max(FeatureLevel)

    def versions(self) -> dict[str, str]:
        """What produced the results: DirectML.dll, adapter, driver, D3D12, and the translation stack."""
        info = self.info
        placement = info.get("adapter_placement", "unknown")  # integrated or discrete, where DXCore says
        placement = "placement unknown" if placement == "unknown" else placement
        out = {
            "directml": info.get("directml_version", "unknown"),
            "adapter": info.get("adapter", "unknown"),
            # GPU or NPU; through DXCore or DXGI (and why not DXCore, or which dxcore.dll); the D3D12 level.
            "adapter_kind": info.get("adapter_kind", "unknown"),
            "adapter_enumeration": info.get("adapter_api", "unknown")
            + (f" ({info['adapter_api_note']})" if info.get("adapter_api_note") else ""),
            "adapter_details": f"{placement}, {'software' if info.get('software_adapter') else 'hardware'}, "
            f"attributes {info.get('adapter_attributes')}, LUID {info.get('luid')}",
            "d3d12_device_level": info.get("d3d12_create_level", "unknown")
            + (f" (refused: {info['d3d12_create_refused']})" if info.get("d3d12_create_refused") else ""),
            "adapter_ids": f"vendor {info.get('vendor_id')} device {info.get('device_id')} "
            f"subsys {info.get('subsys_id')} rev {info.get('revision')}",
            "driver_version": info.get("driver_version", "unknown"),
            "d3d12_feature_level": info.get("d3d12_feature_level", "unknown"),
            "shader_model": info.get("shader_model", "unknown"),
            # The 64-bit shader caps D3D12 reports (DirectML's 64-bit CAST kernels also need shader model 6).
            "shader_64_bit_ops": f"Int64ShaderOps {info.get('int64_shader_ops', 'unknown')}, "
            f"DoublePrecisionFloatShaderOps {info.get('double_shader_ops', 'unknown')}",
            "dml_feature_level": info.get("max_feature_level", "unknown"),
            self.program: (
                f"shipped in the wheel, built from native/{self.program}.cpp (source sha256 "
                f"{source_hash(self.program)[:16]})"
                if self.path.parent == SHIPPED
                else f"built here from native/{self.program}.cpp ({self.path.parent.name})"
            )
            + f"; DirectML.h {info.get('header_target_version')}",
        }
        out |= self.stack.describe()
        if self.on_vkd3d and self.process is not None and "VKD3D_CONFIG" in (self.process.env or {}):
            assert self.process.env is not None
            config = self.process.env["VKD3D_CONFIG"]
            heaps = "virtual" if "virtual_heaps" in config else "Vulkan descriptor sets"
            out["vkd3d"] = f"{out.get('vkd3d', 'vkd3d')}; VKD3D_CONFIG={config!r} (descriptor heaps: {heaps})"
        if not self.stack.under_wine:
            if sys.platform == "win32":  # a branch mypy checks only on Windows
                out["platform"] = f"Windows {sys.getwindowsversion().build}"
            else:
                out["platform"] = sys.platform
        return out

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
            self.process = None
        if self.xserver is not None:
            self.xserver.close()
            self.xserver = None

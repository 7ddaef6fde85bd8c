"""What a run's results are the results of: the backend, DirectML.dll, adapter, driver and OS, with a fingerprint.

A baseline made on one GPU and driver must not silently waive failures on another (deqp-runner's
`renderer_check`): the run header carries this identity, `baseline` writes it into the expectations
file, and a run of another identity refuses that file (exit 2, naming the field that differs) unless
`--allow-identity-mismatch`.  The fingerprint is the first 12 hex digits of the SHA-256 of the fields.
"""

from __future__ import annotations

import hashlib
import json
import re

# The fields, from the backend's reported versions (those it reports; a CPU backend has no adapter).
VERSION_FIELDS = (
    "directml",
    "adapter",
    "adapter_kind",  # GPU or NPU: one machine's two devices may share a name
    "adapter_ids",
    "driver_version",
    "dml_feature_level",
    "onnxruntime",
    "provider",
)
# Adapters that rasterise on the CPU: their results are real DirectML results, never a GPU's.
SOFTWARE_ADAPTER = re.compile(r"Microsoft Basic Render Driver|\bWARP\b|llvmpipe|lavapipe|SwiftShader", re.IGNORECASE)


def identity(backend: str, versions: dict[str, str], platform: dict[str, str]) -> dict[str, str]:
    """The identity fields of a run and their fingerprint."""
    out = {"backend": backend}
    out.update({name: str(versions[name]) for name in VERSION_FIELDS if versions.get(name)})
    system = platform.get("system", "")
    out["os"] = f"{system} (Wine {platform['wine']})" if platform.get("wine") else system
    if SOFTWARE_ADAPTER.search(out.get("adapter", "")):
        out["software_adapter"] = "yes"
    out["fingerprint"] = fingerprint(out)
    return out


def fingerprint(fields: dict[str, str]) -> str:
    body = {k: v for k, v in fields.items() if k != "fingerprint"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:12]


def short(fields: dict[str, str]) -> str:
    """One line: backend, DirectML version, adapter, driver, and the fingerprint."""
    parts = [fields.get("backend", "?")]
    if fields.get("directml"):
        parts.append(f"DirectML {fields['directml']}")
    if fields.get("onnxruntime"):
        parts.append(f"ONNX Runtime {fields['onnxruntime']}")
    if fields.get("adapter"):
        notes = [fields["adapter_kind"]] if fields.get("adapter_kind") else []
        notes += ["software adapter"] if fields.get("software_adapter") else []
        parts.append(fields["adapter"] + (f" ({', '.join(notes)})" if notes else ""))
    if fields.get("driver_version"):
        parts.append(f"driver {fields['driver_version']}")
    parts.append(fields.get("os", ""))
    return ", ".join(p for p in parts if p) + f" [{fields.get('fingerprint', '?')}]"


def differences(expected: dict[str, str], actual: dict[str, str]) -> list[str]:
    """The fields that differ, as `field: 'a' (expectations) vs 'b' (this run)`."""
    names = [n for n in dict.fromkeys([*expected, *actual]) if n != "fingerprint"]
    return [
        f"{n}: {expected.get(n, '(none)')!r} (expectations) vs {actual.get(n, '(none)')!r} (this run)"
        for n in names
        if expected.get(n) != actual.get(n)
    ]

"""The DirectML backend's own logic, run here with other providers substituted for DirectML.

What is DirectML-specific is only the provider choice and its checks, so these tests drive
exactly that code: selection fails at once where DirectML is absent; a session may use the
chosen provider alone (a node it will not take is refused, never run on the CPU); results
say which DirectML operator ORT would really reach.
"""

from __future__ import annotations

import numpy as np
import onnxruntime
import pytest

import oracle
from conformance.backends.base import BackendUnavailable
from conformance.backends.onnxruntime_backend import CPU, OnnxRuntimeDirectMLBackend
from conformance.backends.registry import load_backend
from conformance.compare import compare_outputs
from oracle import DEFAULT_FEATURE_LEVEL as FL

X = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)


def _slice_case():
    desc = oracle.SliceDesc(oracle.TensorDesc(oracle.DataType.FLOAT32, (1, 1, 4, 4)),
                            oracle.TensorDesc(oracle.DataType.FLOAT32, (1, 1, 3, 2)), (0, 0, 1, 2), (1, 1, 3, 2),
                            (1, 1, 1, 1))
    return desc, [X]


def test_selecting_it_off_windows_fails_at_once_saying_what_to_install():
    with pytest.raises(BackendUnavailable) as info:
        OnnxRuntimeDirectMLBackend(platform="linux")
    message = str(info.value)
    assert "needs Windows; this is linux" in message
    assert "pip install onnxruntime-directml" in message and "DirectX 12" in message
    assert "must not be installed together" in message


def test_selecting_it_without_the_provider_fails_at_once(monkeypatch):
    monkeypatch.setattr(onnxruntime, "get_available_providers", lambda: [CPU])
    with pytest.raises(BackendUnavailable, match=r"offers CPUExecutionProvider, not DmlExecutionProvider: .*"
                                                 r"pip install onnxruntime-directml"):
        OnnxRuntimeDirectMLBackend(platform="win32")


@pytest.mark.skipif("DmlExecutionProvider" in onnxruntime.get_available_providers(), reason="DirectML is here")
def test_registry_refuses_it_on_this_machine():
    with pytest.raises(BackendUnavailable, match="onnxruntime-directml"):
        load_backend("onnxruntime-directml")


def test_its_code_path_runs_bit_exact_with_the_cpu_provider_substituted():
    backend = OnnxRuntimeDirectMLBackend(provider=CPU, platform="win32")
    desc, inputs = _slice_case()
    result = backend.run(desc, inputs, FL)
    assert result.status == "ok"
    assert compare_outputs(oracle.compute(desc, inputs), result.outputs).equal
    assert result.reached_operator == "SLICE1"  # ORT runs every Slice as DML_SLICE1
    versions = backend.versions()
    assert versions["provider"] == CPU and versions["onnxruntime"] == onnxruntime.__version__
    assert "directml" in versions


def test_reached_operator_is_recorded_only_when_it_is_not_the_cases_own():
    backend = OnnxRuntimeDirectMLBackend(provider=CPU, platform="win32")
    x = np.arange(4, dtype=np.float32)
    t = oracle.TensorDesc(oracle.DataType.FLOAT32, (4,))
    slice1 = oracle.Slice1Desc(t, t, (0,), (4,), (-1,))
    pad = oracle.PaddingDesc(t, oracle.TensorDesc(oracle.DataType.FLOAT32, (6,)), oracle.PaddingMode.CONSTANT,
                             10.5, (1,), (1,))
    split = oracle.SplitDesc(t, (oracle.TensorDesc(oracle.DataType.FLOAT32, (1,)),
                                 oracle.TensorDesc(oracle.DataType.FLOAT32, (3,))), 0)
    assert backend.run(slice1, [x], FL).reached_operator is None
    padded = backend.run(pad, [x], FL)
    assert padded.reached_operator == "PADDING1"
    assert any("PaddingValue conversion is not exercised" in n for n in padded.notes)
    assert backend.run(split, [x], FL).reached_operator is None


@pytest.mark.skipif("AzureExecutionProvider" not in onnxruntime.get_available_providers(),
                    reason="needs a provider that takes no Slice node; AzureExecutionProvider is one")
def test_a_node_the_provider_will_not_take_is_unsupported_never_run_on_the_cpu():
    """AzureExecutionProvider, like DirectML for an unsupported node, takes no Slice: ORT would place it on
    the CPU, but CPU fallback is disabled, so session creation fails and the case is unsupported."""
    backend = OnnxRuntimeDirectMLBackend(provider="AzureExecutionProvider", platform="win32")
    desc, inputs = _slice_case()
    result = backend.run(desc, inputs, FL)
    assert result.status == "unsupported"
    assert "fallback to CPU EP has been explicitly disabled" in result.reason  # ORT's own message
    assert "never reported as a AzureExecutionProvider result" in result.reason
    assert result.outputs == []
    # the refusal is cached with the graph: a second case of the same signature does not retry
    assert backend.run(desc, inputs, FL).status == "unsupported"
    assert backend.stats["compiled"] == 0

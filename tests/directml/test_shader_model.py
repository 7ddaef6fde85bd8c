"""A kernel the device's shader model cannot run is `unsupported` with the device's caps, never an error.

DirectML 1.15.4's DML_CAST kernels for 64-bit types are shader model 6 code (DXIL); vkd3d 1.6 on lavapipe reports
shader model 5.1 with Int64ShaderOps and DoublePrecisionFloatShaderOps yes, cannot compile them, and
CompileOperator returns E_INVALIDARG.  The fake runner (test_batches.FakeNative) plays such a device
(FAKE_RUNNER_INFO), so the rule is checked without Wine.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_batches import FakeNative

import oracle
from conformance.backends.directml import DirectMLBackend
from conformance.run.unsupported import classify
from oracle import FeatureLevel, TensorDesc

TYPES = {t: True for t in ("FLOAT32", "FLOAT64", "INT32", "INT64", "UINT16", "UINT64")}
LEVEL = FeatureLevel.parse("6.4")


def device(monkeypatch, **info) -> DirectMLBackend:
    monkeypatch.setenv("FAKE_RUNNER_INFO", json.dumps({"data_types": TYPES, **info}))
    return DirectMLBackend(native=FakeNative(), case_timeout=30.0)


def cast(src: str, dst: str) -> tuple[oracle.CastDesc, list[np.ndarray]]:
    desc = oracle.CastDesc(TensorDesc.of(src, (2, 3)), TensorDesc.of(dst, (2, 3)))
    return desc, [np.arange(6, dtype=desc.input_tensor.data_type.numpy).reshape(2, 3)]


SM_51 = {"shader_model": "5.1", "int64_shader_ops": "yes", "double_shader_ops": "yes"}


@pytest.mark.parametrize(
    "pair", [("INT32", "INT64"), ("FLOAT64", "FLOAT32"), ("UINT64", "UINT64"), ("UINT16", "UINT64")]
)
def test_a_64_bit_cast_on_shader_model_5_1_is_unsupported_with_the_caps(monkeypatch, pair):
    dml = device(monkeypatch, **SM_51)
    try:
        desc, inputs = cast(*pair)
        result = dml.run(desc, inputs, LEVEL)
        assert result.status == "unsupported"
        assert "highest shader model is 5.1 (Int64ShaderOps yes, DoublePrecisionFloatShaderOps yes)" in result.reason
        assert "DML_CAST" in result.reason and "shader model 6 code" in result.reason
        (batched,) = dml.run_many([(desc, inputs, LEVEL)])
        assert isinstance(batched, type(result)) and batched.status == "unsupported"
        assert dml.stats["requests"] == 0 and dml.stats["batches"] == 0  # never sent to the runner
        row, detail = classify(result.reason)
        assert row.key.format(detail=detail) == "shader-model-5.1"
        versions = dml.versions()
        assert versions["shader_64_bit_ops"] == "Int64ShaderOps yes, DoublePrecisionFloatShaderOps yes"
    finally:
        dml.close()


def test_a_32_bit_cast_on_shader_model_5_1_runs(monkeypatch):
    dml = device(monkeypatch, **SM_51)
    try:
        desc, inputs = cast("INT32", "FLOAT32")
        assert dml.run(desc, inputs, LEVEL).status == "ok"
        # A 64-bit copy is no CAST kernel: it runs.
        identity = oracle.IdentityDesc(TensorDesc.of("INT64", (2, 3)), TensorDesc.of("INT64", (2, 3)))
        assert dml.run(identity, [np.arange(6, dtype=np.int64).reshape(2, 3)], LEVEL).status == "ok"
    finally:
        dml.close()


@pytest.mark.parametrize("model", ["6.0", "6.6", "unknown"])
def test_a_64_bit_cast_runs_where_shader_model_6_is_there_or_unknown(monkeypatch, model):
    dml = device(monkeypatch, shader_model=model)
    try:
        desc, inputs = cast("INT32", "INT64")
        assert dml.run(desc, inputs, LEVEL).status == "ok"
    finally:
        dml.close()


def test_the_output_type_is_checked_against_the_device_types(monkeypatch):
    """DML_CAST's output type is not its input's: a device without FLOAT64 cannot run a cast into it."""
    monkeypatch.setenv("FAKE_RUNNER_INFO", json.dumps({"data_types": {"FLOAT32": True, "INT32": True}}))
    dml = DirectMLBackend(native=FakeNative(), case_timeout=30.0)
    try:
        desc, inputs = cast("INT32", "FLOAT64")
        result = dml.run(desc, inputs, LEVEL)
        assert result.status == "unsupported" and "does not support data type FLOAT64" in result.reason
    finally:
        dml.close()

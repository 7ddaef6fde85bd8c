"""Reproduces one dml-conformance case on ONNX Runtime's DirectML execution provider, and compares bytes.

Written by `dml-conformance repro CASE_ID --onnx DIR` (CASE below says which case): model.onnx is the
one-node model the suite's lowering built for it; test_data_set_0/ holds its inputs and the oracle's outputs
as ONNX TensorProto files, as ONNX's node tests store them (input_0.pb, output_0.pb), and open_0.pb where the
spec leaves some output elements open (not judged).  Needs numpy, onnx and onnxruntime-directml (Windows):

    pip install onnxruntime-directml onnx numpy
    python run_onnx.py [--device-id N]

The session is made as the suite's `onnxruntime-directml` backend makes it: DmlExecutionProvider alone, CPU
fallback disabled (a node DirectML will not take fails the session instead of running on the CPU), memory
patterns off, sequential execution, and the run's graph optimization level and DML graph fusion.  ORT's
profiler then confirms that every kernel ran on the provider.  Exit 0: the outputs equal the oracle's bit
for bit; 1: they differ, or ONNX Runtime failed; 2: a bad command line; 3: not tested (no
DmlExecutionProvider here, or a limit of ONNX Runtime the suite reports unsupported).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile

CASE: dict = {}  # the case and the session settings: written in by dml-conformance


def load(path: str):
    import onnx
    from onnx import numpy_helper

    return numpy_helper.to_array(onnx.load_tensor(path))


def session(model: str, provider: str, device_id: int, profile_prefix: str):
    """An InferenceSession made as the suite makes it; raises ONNX Runtime's own exception."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.graph_optimization_level = ort.GraphOptimizationLevel(CASE["graph_optimization_level"])
    options.enable_profiling = True
    options.profile_file_prefix = profile_prefix
    providers: list = [provider]
    if provider != "CPUExecutionProvider":  # ORT refuses the entry when the CPU provider is the one asked for
        options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
        if not CASE["dml_graph_fusion"]:
            options.add_session_config_entry("ep.dml.disable_graph_fusion", "1")
        options.enable_mem_pattern = False
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        providers = [(provider, {"device_id": str(device_id)})]
    return ort.InferenceSession(model, options, providers=providers)


def kernels(profile: str) -> list[tuple[str, str]]:
    """(operator, provider) of every kernel ORT's profiler saw run."""
    with open(profile) as f:
        events = json.load(f)
    return [
        (e["args"].get("op_name", e.get("name", "?")), e["args"].get("provider", "?"))
        for e in events
        if e.get("cat") == "Node" and str(e.get("name", "")).endswith("_kernel_time") and "args" in e
    ]


def number(value) -> str:
    return repr(value.item())


def compare(j: int, expected, actual, open_mask) -> bool:
    """Print output `j`'s first differing element (where the spec fixes it); True when it differs there."""
    import numpy as np

    if actual.dtype != expected.dtype or actual.shape != expected.shape:
        print(
            f"MISMATCH output {j}: expected {expected.dtype} {list(expected.shape)}, got {actual.dtype} {list(actual.shape)}"
        )
        return True
    bits = np.dtype(f"u{expected.dtype.itemsize}")
    differ = np.ascontiguousarray(expected).view(bits) != np.ascontiguousarray(actual).view(bits)
    opened = differ & open_mask if open_mask is not None else np.zeros_like(differ)
    judged = differ & ~opened
    if opened.any():
        print(f"output {j}: {int(opened.sum())} element(s) differ where the spec leaves them open: not judged")
    if not judged.any():
        return False
    c = tuple(int(v) for v in np.argwhere(judged)[0])
    width = expected.dtype.itemsize * 2
    e, a = expected[c], actual[c]
    print(
        f"MISMATCH output {j} element [{','.join(map(str, c))}] (element {int(np.ravel_multi_index(c, expected.shape))} "
        f"in row-major order): expected {number(e)} (0x{int(e.view(bits)):0{width}x}), got {number(a)} "
        f"(0x{int(a.view(bits)):0{width}x})"
    )
    print(f"  {int(judged.sum())} of {expected.size} element(s) of output {j} differ where the spec fixes the value")
    return True


def failed(message: str, phase: str) -> int:
    """ONNX Runtime refused or failed: a known limit is `unsupported` for the suite (3), anything else 1."""
    for pattern, rule in CASE["known_limits"]:
        if re.search(pattern, message):
            print(f"UNSUPPORTED: {rule}: {message}\nexit 3: not tested (the suite reports this case unsupported)")
            return 3
    print(f"FAILED: ONNX Runtime failed to {phase} the model: {message}\nexit 1: ONNX Runtime failed")
    return 1


def run(provider: str, device_id: int, here: str) -> int:
    import onnxruntime as ort

    print(f"case: {CASE['summary']}")
    print(f"onnxruntime {ort.__version__}; providers here: {', '.join(ort.get_available_providers())}")
    if provider not in ort.get_available_providers():
        print(f"NOT TESTED: {provider} is not available here (install onnxruntime-directml, on Windows)\nexit 3")
        return 3
    data = os.path.join(here, "test_data_set_0")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            s = session(os.path.join(here, "model.onnx"), provider, device_id, os.path.join(tmp, "profile"))
        except Exception as e:  # ORT's refusal: its message is the evidence
            return failed(str(e).strip(), "create a session for")
        feeds = {name: load(os.path.join(data, f"input_{k}.pb")) for k, name in enumerate(CASE["inputs"])}
        try:
            outputs = s.run(None, feeds)
        except Exception as e:
            return failed(str(e).strip(), "run")
        ran = kernels(s.end_profiling())
    elsewhere = [f"{op} on {p}" for op, p in ran if p != provider]
    print(f"kernels run: {', '.join(f'{op} ({p})' for op, p in ran) or 'none reported'}")
    if elsewhere or not ran:
        print(f"FAILED: not every kernel ran on {provider} ({', '.join(elsewhere) or 'the profiler saw none'})\nexit 1")
        return 1
    differs = False
    for j, actual in enumerate(outputs):
        expected = load(os.path.join(data, f"output_{j}.pb"))
        mask_file = os.path.join(data, f"open_{j}.pb")
        differs |= compare(j, expected, actual, load(mask_file) if os.path.exists(mask_file) else None)
    if differs:
        print(f"exit 1: {provider}'s outputs differ from the oracle's")
        return 1
    print(f"MATCH: every output element equals the oracle's, bit for bit\nexit 0: {provider} agrees with the oracle")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device-id", type=int, default=CASE.get("device_id", 0), help="the adapter's index")
    parser.add_argument(
        "--provider",
        default="DmlExecutionProvider",
        help="another provider to compare with (CPUExecutionProvider: ONNX Runtime's CPU kernels). Default: %(default)s",
    )
    args = parser.parse_args(argv)
    return run(args.provider, args.device_id, os.path.dirname(os.path.abspath(__file__)))


if __name__ == "__main__":
    sys.exit(main())

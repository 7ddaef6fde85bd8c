"""Peer test vectors (../shared/peers) converted to DirectML descriptors.

The conversion rules are implemented here independently of the `dml_*` proposals the ONNX
files carry; test_peers.py compares the two.  A case DirectML cannot express (zero-size
tensors, negative pads, ONNX `wrap`) gets a reason instead of a descriptor, so it is
counted and listed, never dropped.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from oracle import DataType, Descriptor, Padding1Desc, PaddingDesc, Slice1Desc, SplitDesc, TensorDesc

PEERS = Path(__file__).resolve().parents[2].parent / "shared" / "peers"
ONNX_PAD_MODES = {"constant": "CONSTANT", "edge": "EDGE", "reflect": "REFLECTION"}
# Beyond the seed pages (docs/spec/beyond-seeds.md): ONNX Pad as DML_PADDING1 with its typed constant (PAD1.4),
# 'wrap' as DML_PADDING_MODE_WRAP (WRAP.1, valid from DML_FEATURE_LEVEL_6_4).
ONNX_PAD1_MODES = {**ONNX_PAD_MODES, "wrap": "WRAP"}
WEBNN_PAD_MODES = {"constant": "CONSTANT", "edge": "EDGE", "reflection": "REFLECTION", "symmetric": "SYMMETRIC"}


@dataclass
class PeerCase:
    name: str  # "onnx/test_slice_neg_steps" or "webnn-baseline/pad default#0"
    input: np.ndarray
    expected: list[np.ndarray]
    descriptor: Descriptor | None = None
    inexpressible: str | None = None  # why DirectML cannot express the case
    # What this module derived, in the proposal's field names, to compare with `proposal`.
    derived: dict = field(default_factory=dict)
    proposal: dict | None = None
    # The case as DML_PADDING1 (ONNX Pad only): judged at 6.4 apart from the seed pages' conversion.
    beyond_seeds: Descriptor | None = None


def _array(obj: dict, dtype: str | None = None) -> np.ndarray:
    """A peer tensor {"shape", "dtype", "data"} (NaN and infinities as strings), cast to `dtype`."""
    dtype = np.dtype(dtype or obj.get("dtype", "float32"))
    values = [float(v) if isinstance(v, str) else v for v in obj["data"]]
    return np.array(values, dtype=dtype).reshape(obj["shape"])


def _sizes_problem(shape) -> str | None:
    if any(n == 0 for n in shape):
        return f"zero-size tensor {list(shape)} (COMMON.2: DirectML sizes are >= 1)"
    return None


# --- ONNX ------------------------------------------------------------------------------------


def onnx_slice(case: dict, x: np.ndarray) -> tuple[Descriptor | None, str | None, dict]:
    """ONNX Slice -> SLICE1, by the rule in ../shared/peers/README.md."""
    p = case["params"]
    rank = x.ndim
    axes = [a + rank if a < 0 else a for a in (p["axes"] or range(len(p["starts"])))]
    steps = p["steps"] or [1] * len(axes)
    offsets, sizes, strides = [0] * rank, list(x.shape), [1] * rank
    for axis, start, end, step in zip(axes, p["starts"], p["ends"], steps):
        d = x.shape[axis]
        start, end = (start + d if start < 0 else start), (end + d if end < 0 else end)
        if step > 0:
            start, end = min(max(start, 0), d), min(max(end, 0), d)
            offsets[axis], sizes[axis] = start, end - start
        else:
            start, end = min(max(start, 0), d - 1), min(max(end, -1), d - 1)
            offsets[axis], sizes[axis] = end + 1, start - end
        strides[axis] = step
    out = [max(0, math.ceil(s / abs(k))) for s, k in zip(sizes, strides)]
    derived = {
        "InputWindowOffsets": offsets,
        "InputWindowSizes": sizes,
        "InputWindowStrides": strides,
        "OutputSizes": out,
    }
    problem = _sizes_problem(x.shape) or (
        f"empty window: InputWindowSizes={sizes} (SLICE1.3)" if min(sizes) <= 0 else None
    )
    derived["expressible"] = problem is None
    if problem:
        return None, problem, derived
    dt = TensorDesc.of(x.dtype, x.shape)
    return Slice1Desc(dt, TensorDesc.of(x.dtype, out), offsets, sizes, strides), None, derived


def onnx_pad(case: dict, x: np.ndarray) -> tuple[Descriptor | None, str | None, dict]:
    p = case["params"]
    rank = x.ndim
    axes = [a + rank if a < 0 else a for a in (p["axes"] or range(rank))]
    pads = p["pads"]
    start, end = [0] * rank, [0] * rank
    for i, axis in enumerate(axes):
        start[axis], end[axis] = pads[i], pads[i + len(axes)]
    value = float(p["constant_value"] or 0.0)
    mode = ONNX_PAD_MODES.get(p["mode"])
    derived = {"PaddingMode": mode, "PaddingValue": value, "StartPadding": start, "EndPadding": end}
    problem = _sizes_problem(x.shape)
    if mode is None:
        problem = (
            f"ONNX mode {p['mode']!r} has no DML_PADDING_MODE of the seed page (CONSTANT, EDGE, REFLECTION, "
            "SYMMETRIC); WRAP, from 6.4, is beyond it: checked as DML_PADDING1"
        )
    elif min(start + end) < 0:
        problem = f"negative pads {pads} (StartPadding/EndPadding are UINT, PAD.2)"
    derived["expressible"] = problem is None
    if problem:
        return None, problem, derived
    out = [n + s + e for n, s, e in zip(x.shape, start, end)]
    desc = PaddingDesc(TensorDesc.of(x.dtype, x.shape), TensorDesc.of(x.dtype, out), mode, value, start, end)
    return desc, None, derived


def onnx_pad1(case: dict, x: np.ndarray) -> Padding1Desc | None:
    """ONNX Pad -> DML_PADDING1: constant_value in the input's own type, as PAD1.4 reads it; None if inexpressible."""
    p = case["params"]
    rank = x.ndim
    axes = [a + rank if a < 0 else a for a in (p["axes"] or range(rank))]
    start, end = [0] * rank, [0] * rank
    for i, axis in enumerate(axes):
        start[axis], end[axis] = p["pads"][i], p["pads"][i + len(axes)]
    if _sizes_problem(x.shape) or min(start + end) < 0:
        return None
    data_type = DataType.parse(x.dtype.name.upper())
    value = np.asarray(p["constant_value"] or 0, dtype=x.dtype)[()]
    out = [n + s + e for n, s, e in zip(x.shape, start, end)]
    mode = ONNX_PAD1_MODES[p["mode"]]
    return Padding1Desc(
        TensorDesc.of(x.dtype, x.shape), TensorDesc.of(x.dtype, out), mode, data_type, value, start, end
    )


def onnx_split(case: dict, x: np.ndarray, n_outputs: int) -> tuple[Descriptor | None, str | None, dict]:
    p = case["params"]
    axis = p["axis"] + x.ndim if p["axis"] < 0 else p["axis"]
    d = x.shape[axis]
    if p["split"] is not None:
        sizes = list(p["split"])
    else:  # equal parts; with num_outputs (opset 18) the last chunk is the smaller one
        count = p["num_outputs"] or n_outputs
        chunk = math.ceil(d / count)
        sizes = [min(chunk, d - j * chunk) for j in range(count)]
    derived = {"Axis": axis, "OutputAxisSizes": sizes}
    problem = _sizes_problem(x.shape) or (
        f"zero-size output OutputAxisSizes={sizes} (U-SPLIT-1, COMMON.2)" if min(sizes) <= 0 else None
    )
    derived["expressible"] = problem is None
    if problem:
        return None, problem, derived
    outs = [TensorDesc.of(x.dtype, (*x.shape[:axis], s, *x.shape[axis + 1 :])) for s in sizes]
    return SplitDesc(TensorDesc.of(x.dtype, x.shape), outs, axis), None, derived


def load_onnx(path: Path) -> PeerCase:
    case = json.loads(path.read_text(encoding="utf-8"))
    x = _array(case["input"])
    expected = [_array(o, x.dtype) for o in case["outputs"]]
    op = case["op_type"]
    beyond: Descriptor | None = None
    if op == "Slice":
        desc, problem, derived = onnx_slice(case, x)
        proposal = case["dml_slice1"]
    elif op == "Pad":
        desc, problem, derived = onnx_pad(case, x)
        proposal = case["dml_padding"]
        beyond = onnx_pad1(case, x)
    elif op == "Split":
        desc, problem, derived = onnx_split(case, x, len(expected))
        proposal = case["dml_split"]
    else:
        raise ValueError(f"{path}: unknown op_type {op!r}")
    name = f"onnx/{path.stem}"
    return PeerCase(name, x, expected, desc, problem, derived, proposal, beyond)


# --- WebNN baseline ----------------------------------------------------------------------------


def webnn_case(op: str, case: dict) -> PeerCase:
    """WebNN pad / slice / split (float32 tensors) -> PADDING / SLICE1 / SPLIT."""
    x = _array({**case["input"], "dtype": "float32"})
    expected = [_array(e, x.dtype) for e in case["expected"]]
    args, options = case["args"], case["args"].get("options", {})
    name = f"webnn-baseline/{case['name']}"
    problem = _sizes_problem(x.shape)
    if problem:
        return PeerCase(name, x, expected, None, problem)
    in_desc = TensorDesc.of(x.dtype, x.shape)
    if op == "pad":
        start, end = args["beginningPadding"], args["endingPadding"]
        mode = WEBNN_PAD_MODES[options.get("mode", "constant")]
        out = [n + s + e for n, s, e in zip(x.shape, start, end)]
        desc = PaddingDesc(in_desc, TensorDesc.of(x.dtype, out), mode, float(options.get("value", 0.0)), start, end)
    elif op == "slice":
        strides = options.get("strides", [1] * x.ndim)
        out = [math.ceil(s / k) for s, k in zip(args["sizes"], strides)]
        desc = Slice1Desc(in_desc, TensorDesc.of(x.dtype, out), args["starts"], args["sizes"], strides)
    elif op == "split":
        axis = options.get("axis", 0)
        splits = args["splits"]
        sizes = [x.shape[axis] // splits] * splits if isinstance(splits, int) else list(splits)
        outs = [TensorDesc.of(x.dtype, (*x.shape[:axis], s, *x.shape[axis + 1 :])) for s in sizes]
        desc = SplitDesc(in_desc, outs, axis)
    else:
        raise ValueError(f"unknown WebNN op {op!r}")
    return PeerCase(name, x, expected, desc)


def load_all() -> list[PeerCase]:
    cases = [load_onnx(p) for p in sorted((PEERS / "onnx").glob("*.json"))]
    for path in sorted((PEERS / "webnn-baseline").glob("*.json")):
        obj = json.loads(path.read_text(encoding="utf-8"))
        cases.extend(webnn_case(obj["op"], c) for c in obj["cases"])
    return cases

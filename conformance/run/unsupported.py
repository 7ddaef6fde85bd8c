"""Why cases were unsupported, grouped: what the summary and the report say instead of one bare count.

A record's reason is free text with numbers and ids in it (`onnxruntime-cpu cannot express tensor layouts ...;
the descriptor breaks LAYOUT.3`), written by the run layer or by a backend.  REASONS maps that text to a stable
key, a label and what runs such cases instead, so that a run of thousands of unsupported cases reads as a few
lines.  Read from the records alone: results files written before this table are grouped too.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .record import Category, Record


@dataclass(frozen=True)
class UnsupportedReason:
    key: str  # stable: `{detail}` is filled from the pattern's `detail` group (a mode, a data type)
    pattern: re.Pattern[str]  # searched in a record's reason
    label: str  # `{backend}` and `{detail}` filled in
    runs_them: str  # what runs such cases: a backend (from the built-in backends' capabilities) or an option


def _p(text: str) -> re.Pattern[str]:
    return re.compile(text)


# First match wins.  The built-in backend that runs what ONNX cannot express is directml: its capabilities
# check invalid descriptors, bind tensor layouts and take every padding mode (backends/directml/backend.py).
REASONS: tuple[UnsupportedReason, ...] = (
    UnsupportedReason(
        "layout",
        _p(r"cannot express tensor layouts"),
        "{backend} cannot express tensor layouts (strides, sizes in bytes, alignment, flags: LAYOUT.1-7)",
        "the directml backend runs them",
    ),
    UnsupportedReason(
        "padding-mode-{detail}",
        _p(r"cannot express padding mode (?P<detail>[A-Z_]+)|padding_mode=(?P<detail2>[A-Z_]+): ONNX Pad has"),
        "{backend} cannot express padding mode {detail}",
        "the directml backend runs them",
    ),
    UnsupportedReason(
        "invalid-unobservable",
        _p(r"cannot observe descriptor validation"),
        "invalid descriptors are unobservable through {backend}: it never sees a DirectML descriptor (U-ALL-2)",
        "the directml backend runs them",
    ),
    UnsupportedReason(
        "slice-stride-0",
        _p(r"\(U-SLICE-1\); ONNX Slice does not allow a step of 0"),
        "{backend} cannot express a stride of 0 (ONNX Slice has no step 0, U-SLICE-1)",
        "the directml backend runs them",
    ),
    UnsupportedReason(
        "graphs",
        _p(r"runs no DML graphs"),
        "{backend} runs no DML graphs (GRAPH.1)",
        "a backend with run_graph() runs them",
    ),
    UnsupportedReason(
        "operator-{detail}",
        _p(r"does not implement DML_(?P<detail>\w+)|no ONNX lowering for DML_(?P<detail2>\w+)"),
        "{backend} does not implement DML_{detail}",
        "a backend that implements it runs them",
    ),
    UnsupportedReason(
        "data-type-{detail}",
        _p(r"does not support data type (?P<detail>\w+)"),
        "{backend} does not support data type {detail}",
        "a backend that supports it runs them",
    ),
    UnsupportedReason(
        "no-kernel",
        _p(r"ONNX Runtime has no kernel for this operator and data type"),
        "ONNX Runtime has no kernel for the operator and data type",
        "the directml backend runs them",
    ),
    UnsupportedReason(
        "ort-reflect",
        _p(r"ONNX Runtime's reflect Pad needs"),
        "ONNX Runtime's reflect Pad cannot pad past its axis or reflect a size-1 axis (PAD.3, U-PAD-4)",
        "the directml backend runs them",
    ),
    UnsupportedReason(
        "rank",
        _p(r"does not support rank"),
        "{backend} does not support the case's rank",
        "a backend that supports it runs them",
    ),
    UnsupportedReason(
        "feature-level",
        _p(r"the case needs feature level .*; the run targets|implements feature level .*, the case needs"),
        "the case needs a higher feature level than the run or the backend has",
        "a run at the case's feature level runs them",
    ),
    UnsupportedReason(
        "shader-model-{detail}",
        _p(r"the device's highest shader model is (?P<detail>[0-9.]+) .* are shader model 6 code"),
        "the device's highest shader model is {detail}: DirectML's kernels for them are shader model 6 code "
        "(DML_CAST with a 64-bit tensor)",
        "the directml backend on a device with shader model 6.0 runs them",
    ),
    UnsupportedReason(
        "memory",
        _p(r"over the memory budget"),
        "over the run's memory budget",
        "a larger --max-bytes runs them",
    ),
    UnsupportedReason(
        "cpu-fallback",
        _p(r"a node would run on the CPU"),
        "a node would run on the CPU, not on the provider under test",
        "",
    ),
    UnsupportedReason(
        "no-onnx-form-{detail}",
        _p(r"(?P<detail>[A-Z_0-9]+) has no ONNX form"),
        "DML_{detail} has no ONNX form (ONNX has no such operator): {backend} cannot run it",
        "the directml backend runs them",
    ),
    UnsupportedReason(  # SPACE_TO_DEPTH1's COLUMN_ROW_DEPTH: ONNX SpaceToDepth has no mode
        "no-one-node-form-{detail}",
        _p(r"(?P<detail>[A-Z_0-9]+) with [\w ]+ has no one-node ONNX form"),
        "DML_{detail} in a form no one ONNX node has (it takes a composition): {backend} cannot run it",
        "the directml backend runs them",
    ),
)
OTHER = UnsupportedReason("other", _p(""), "other reasons (the report lists each case's)", "")


@dataclass(frozen=True)
class UnsupportedGroup:
    key: str
    label: str
    runs_them: str
    count: int


def classify(reason: str) -> tuple[UnsupportedReason, str]:
    """The table row a reason falls under, and its detail ("" where the row has none)."""
    for row in REASONS:
        match = row.pattern.search(reason)
        if match:
            detail = next((v for v in match.groupdict().values() if v), "")
            return row, detail
    return OTHER, ""


def group_unsupported(records: Iterable[Record], backend: str) -> list[UnsupportedGroup]:
    """The unsupported records by reason, largest group first (then by key: the order is stable)."""
    counts: Counter[tuple[UnsupportedReason, str]] = Counter()
    # Each distinct reason classified once (a run's hundreds of unsupported cases give a few dozen reasons).
    for reason, n in Counter(r.reason for r in records if r.category is Category.UNSUPPORTED).items():
        counts[classify(reason)] += n
    groups = [
        UnsupportedGroup(
            row.key.format(detail=detail),
            row.label.format(backend=backend, detail=detail),
            row.runs_them,
            n,
        )
        for (row, detail), n in counts.items()
    ]
    return sorted(groups, key=lambda g: (-g.count, g.key))

"""The result record: what happened to one case, typed; the one place records are made and read.

Categories follow the Khronos CTS: a verdict per case, and only some fail a run.  A record
is a dataclass; `to_line`/`from_json` are the only ways it becomes a results-file line or
comes back from one (conformance.run.jsontypes checks every field against its type, and
cleans every string).  The header, footer and resume lines of a results file live here too.
"""

from __future__ import annotations

import enum
import json
import math
import re
import shlex
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import numpy as np
import orjson

import oracle

from ..judging.compare import Comparison
from ..support.outputs import RESULTS_FORMAT
from .jsontypes import from_json, safe_text, to_json

FORMAT = RESULTS_FORMAT
# 2: typed records without `start` lines, the `interrupted` category, crash details, shards,
# resume lines.  Version 1 files stay readable.
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
# Tensors with at most this many elements are stored in a record for the report's diff; larger ones are
# summarised by the mismatch list only (a 1M-element diff helps nobody and bloats the results file).
MAX_STORED_ELEMENTS = 1024


class Category(str, enum.Enum):
    PASS = "pass"
    FAIL = "fail"
    REJECTED = "rejected"
    ERROR = "error"
    CRASH = "crash"
    TIMEOUT = "timeout"
    UNSUPPORTED = "unsupported"
    OBSERVED = "observed"
    WAIVED = "waived"
    FLAKY = "flaky"  # failed, then passed on a retry (--retries): fails the run only with --flaky-fails
    INTERRUPTED = "interrupted"

    @property
    def failing(self) -> bool:
        return self in FAILING

    @property
    def executed(self) -> bool:
        """The case reached the implementation and was judged (or observed, or waived)."""
        return self not in (Category.UNSUPPORTED, Category.INTERRUPTED)

    def __str__(self) -> str:
        return self.value


CATEGORIES = tuple(Category)
# Only these make a run fail (exit code 1); waived ones were failures a vendor's expectations file excused.
FAILING = frozenset({Category.FAIL, Category.REJECTED, Category.ERROR, Category.CRASH, Category.TIMEOUT})
# What a waiver can excuse: the failing categories, and `flaky` (a known flake).
WAIVABLE = FAILING | {Category.FLAKY}


def fails_run(category: Category, flaky_fails: bool = False) -> bool:
    """Whether a case of this category makes the run fail: the failing ones, and `flaky` under --flaky-fails."""
    return category.failing or (flaky_fails and category is Category.FLAKY)


class Verdict(str, enum.Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    INCOMPLETE = "INCOMPLETE"  # stopped early, interrupted, or shards missing
    UNTESTED = "UNTESTED"  # finished, but no case executed: all unsupported or deselected

    def __str__(self) -> str:
        return self.value

    @property
    def exit_code(self) -> int:
        """The exit status of `run` and of `report` alike: 0 PASS, 1 FAIL or INCOMPLETE, 3 UNTESTED."""
        return VERDICT_EXIT[self]


VERDICT_EXIT = {Verdict.PASS: 0, Verdict.FAIL: 1, Verdict.INCOMPLETE: 1, Verdict.UNTESTED: 3}


# --- the parts of a case record ----------------------------------------------------------------


@dataclass
class TensorData:
    """A small tensor for the report's diff: values as numbers ('nan'/'inf' as text) and as hex bits."""

    data_type: str
    shape: list[int]
    size: int
    values: list[int | float | str] | None = None
    hex: list[str] | None = None
    truncated: bool = False

    @classmethod
    def of(cls, array: np.ndarray) -> TensorData:
        array = np.asarray(array)
        data_type = oracle.DataType.from_numpy(array.dtype)
        flat = np.ascontiguousarray(array, dtype=data_type.numpy).reshape(-1)
        out = cls(data_type.value, list(array.shape), int(flat.size))
        if flat.size > MAX_STORED_ELEMENTS:
            out.truncated = True
            return out
        width = data_type.numpy.itemsize * 2
        out.values = [repr(v) if isinstance(v, float) and not math.isfinite(v) else v for v in flat.tolist()]
        out.hex = [f"{int(b):0{width}x}" for b in flat.view(data_type.bits).tolist()]
        return out


@dataclass
class Tensors:
    input: TensorData | None = None
    expected: list[TensorData] = field(default_factory=list)
    actual: list[TensorData] = field(default_factory=list)
    more_inputs: list[TensorData] = field(default_factory=list)  # JOIN's inputs after the first


@dataclass
class Observed:
    matches_policy: bool
    open_elements: int | None = None  # how many output elements the entries leave open
    refused: bool = False  # the backend refused a descriptor whose validity the pages leave open


@dataclass
class Digests:
    """sha256 of each output's raw bytes (C order), expected and actual: a large tensor's record, not the tensor."""

    expected: list[str] = field(default_factory=list)
    actual: list[str] = field(default_factory=list)
    chunks: int = 0  # how many pieces the comparison went through


@dataclass
class Crash:
    """How a worker process ended while the case ran: exit code or signal, and its last stderr lines."""

    exit_code: int | None = None
    signal: int | None = None
    signal_name: str | None = None
    stderr: list[str] = field(default_factory=list)


@dataclass
class Attempt:
    """One earlier try of a retried case (--retries): what it gave, and why."""

    category: Category
    reason: str = ""


@dataclass
class Record:
    """One case's result.  Everything about the case itself is copied in, so a report needs no corpus."""

    id: str
    operator: str
    category: Category
    reason: str = ""
    data_type: str = ""  # "*" for a live-Hypothesis summary
    rank: int = 0
    # The tensors' layout (oracle.layout.desc_kind): packed, padded, permuted, broadcast, oversized, overlapping;
    # "" in files written before layouts existed, which were all packed.
    layout: str = ""
    feature_level: str = ""
    outcome: str = ""  # "valid" or "invalid" (the case's expected outcome)
    clauses: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    unspecified: list[str] = field(default_factory=list)
    source: str = ""
    index: int | None = None  # position in the run's full selection: a stable order across workers and shards
    descriptor: dict[str, Any] | None = None
    reached_operator: str | None = None
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    mismatch: Comparison | None = None
    tensors: Tensors | None = None
    digests: Digests | None = None  # large outputs (the stress profile): their digests instead of the tensors
    observed: Observed | None = None
    expected_clause: str | None = None
    clause_matched: bool | None = None
    crash: Crash | None = None
    hypothesis: bool = False
    case_json: dict[str, Any] | None = None  # a live-Hypothesis case (shrunk failure, or the one in flight)
    waiver: dict[str, Any] | None = None
    waived_category: Category | None = None
    waived_but_passed: bool = False
    synthesized: bool = False  # made by the reader of a version-1 file for a case that never finished
    attempts: list[Attempt] = field(default_factory=list)  # earlier tries of a retried case, first first

    @property
    def beyond_seed_pages(self) -> bool:
        """The case tests what lies past the four seed pages (DML_PADDING1, WRAP, DML_JOIN): its verdict is apart."""
        return oracle.beyond_seed_pages(self.operator, self.clauses)

    def set(self, category: Category, reason: str) -> Record:
        self.category = category
        self.reason = safe_text(reason)
        return self

    def waive(self, waiver: dict[str, Any], reason: str) -> Record:
        """Apply a matching waiver (its JSON, and why): a failing or flaky record becomes WAIVED; a passing one
        notes that its waiver is stale; an observed one is left alone (never judged, so never stale)."""
        if self.category is Category.WAIVED:
            return self
        self.waiver = waiver
        if self.category in WAIVABLE:
            self.waived_category = self.category
            self.set(Category.WAIVED, f"waived ({reason}): {self.reason}")
        elif self.category is Category.PASS:
            self.waived_but_passed = True
        return self

    def to_line(self) -> str:
        return dumps({"kind": "case", **to_json(self)})


def repro_command(template: str, record: Record) -> str | None:
    """The command that runs `record`'s case again, from its run's template (RunConfig.repro, `{id}` for the
    case id; `{` elsewhere in it is literal); None where no id brings the case back (a live Hypothesis
    example: its case file is kept instead, `case_json`)."""
    if not template or record.hypothesis or record.case_json:
        return None
    return template.replace("{id}", record.id)


# The standalone reproducer (`dml-conformance repro`, conformance/repro) a backend's failures are offered: the C++
# program on DirectML's API for `directml`, and for a vendor's own backend, which drives DirectML; the ONNX model and
# script for ONNX Runtime's DirectML provider; none for the backends that are not DirectML.
STANDALONE: dict[str, str | None] = {
    "directml": "--cpp",
    "onnxruntime-directml": "--onnx",
    "oracle": None,
    "onnxruntime-cpu": None,
    "onnx-reference": None,
}


def standalone_command(backend: str, record: Record, results_path: str | None) -> str | None:
    """`dml-conformance repro ID --results FILE --cpp DIR/repro/ID --run` (or `--onnx ...`) for a record of a run of
    `backend` written to `results_path`; None where no reproducer applies (a backend that is not DirectML, a DML graph
    composition, a stress case, a live example without its results file)."""
    kind = STANDALONE.get(backend, "--cpp")
    if kind is None or record.synthesized or ".graph-" in record.id or "stress" in record.tags:
        return None
    if (record.hypothesis or record.case_json) and not (record.case_json and results_path):
        return None
    if kind == "--onnx" and record.outcome == "invalid":
        return None  # an ONNX model cannot state an invalid descriptor
    name = re.sub(r"[^\w.-]", "_", record.id)
    folder = (
        str(PurePath(results_path).parent / "repro" / name) if results_path else f"repro/{name}"
    )  # beside the results
    parts = [
        "dml-conformance",
        "repro",
        record.id,
        *(["--results", results_path] if results_path else []),
        kind,
        folder,
    ]
    return shlex.join([*parts, "--run"] if kind == "--cpp" else parts)


def dumps(obj: dict) -> str:
    """One results-file line (no NaN: JSON has none; the codec wrote non-finite floats as text).

    orjson: a record's line in a fifth of json's time (the parent writes thousands a second); UTF-8 as it is
    rather than \\u escapes, floats in their shortest form.  It writes a NaN as null, so a line holding a null
    is made by json, whose allow_nan=False refuses it as before; so is one orjson cannot make (an integer past
    64 bits, a key that is not a string).
    """
    try:
        line = orjson.dumps(obj)
    except (orjson.JSONEncodeError, TypeError):
        line = b"null"
    if b"null" in line:
        return json.dumps(obj, separators=(",", ":"), allow_nan=False)
    return line.decode()


# --- header, footer, resume ------------------------------------------------------------------------


@dataclass
class Shard:
    index: int  # 1-based
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


@dataclass
class Header:
    """Line 1: what the run was, so the file alone reproduces and reports it."""

    format: str
    format_version: int
    suite_version: str = ""
    started: str = ""
    run_id: str = ""
    platform: dict[str, str] = field(default_factory=dict)
    backend: str = "?"
    backend_spec: str = ""
    backend_options: dict[str, str] = field(default_factory=dict)
    backend_versions: dict[str, str] = field(default_factory=dict)
    # What the results are the results of, with its fingerprint (conformance.run.identity).
    identity: dict[str, str] = field(default_factory=dict)
    label: str | None = None
    feature_level: str = ""
    profile: str = ""
    seed: int = 0
    hypothesis_examples: int = 0
    generated: int = 0
    filters: dict[str, list[str]] = field(default_factory=dict)
    case_paths: list[str] = field(default_factory=list)
    case_count: int = 0  # the cases this file is for (this shard's)
    shard: Shard | None = None
    config: dict[str, Any] = field(default_factory=dict)  # the run configuration: what --resume and merging compare
    expectations: dict[str, Any] = field(default_factory=dict)
    repro: str = ""
    notes: list[str] = field(default_factory=list)
    input_errors: list[str] = field(default_factory=list)  # malformed case files: the run's input needs fixing
    jobs: int = 1
    timeout_s: float = 0.0
    selection: dict[str, Any] = field(default_factory=dict)  # -k, --exclude and the count selected
    retries: int = 0
    flaky_fails: bool = False
    max_bytes: int | None = None  # each case's memory budget (--max-bytes or the machine's share)
    tables: dict[str, Any] = field(default_factory=dict)

    def to_line(self) -> str:
        return dumps({"kind": "header", **to_json(self)})


@dataclass
class Footer:
    finished: str = ""
    duration_s: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    interrupted: bool = False
    stopped: str | None = None  # why the run stopped before its last case (signal, -x, disk full, backend lost)
    not_run: int = 0
    unmatched_waivers: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    exitstatus: int | None = None

    def to_line(self) -> str:
        return dumps({"kind": "footer", **to_json(self)})


@dataclass
class Resume:
    """A `--resume` continued the file from here; an earlier footer no longer ends the run."""

    started: str = ""
    run_id: str = ""

    def to_line(self) -> str:
        return dumps({"kind": "resume", **to_json(self)})


KINDS: dict[str, type] = {"header": Header, "case": Record, "footer": Footer, "resume": Resume}


def parse_line(obj: Any, where: str) -> Header | Record | Footer | Resume:
    """One parsed results-file line as its typed object (JsonTypeError names the wrong field)."""
    from .jsontypes import JsonTypeError

    if not isinstance(obj, dict):
        raise JsonTypeError(f"{where}: expected an object, got {type(obj).__name__}")
    kind = obj.get("kind")
    if kind not in KINDS:
        raise JsonTypeError(f"{where}.kind: expected one of {', '.join(KINDS)}, got {kind!r}")
    return from_json(KINDS[kind], {k: v for k, v in obj.items() if k != "kind"}, where)

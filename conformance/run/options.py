"""The run's options, declared once: the CLI's `run` arguments and the pytest plugin's `--dml-*` options.

Each `Option` names its RunConfig field, its CLI flag and its plugin flag (either may be
absent), a `type=` callable that validates the text and says what was expected, its help,
whether it is part of the run configuration (`identity`: what --resume and report merging
compare), whether it is a keyword argument of the backend's constructor
(`backend_kwarg`: passed only when given), and the options it cannot be given with
(`excludes`: a usage error, exit 2).  Defaults live in RunConfig, so a value of None
here means "not given".
"""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import oracle
from oracle import DataType, FeatureLevel

from ..support.text import SHOWN_LIMIT, shown
from .record import Shard

DEFAULT_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Profile:
    """What a profile runs, and the defaults it brings (an option given on the command line wins)."""

    name: str
    stored: tuple[str, ...]  # folders of cases/ it loads ("" for all of cases/)
    reach: bool  # the reach set (conformance.cases.generation.reach)
    generated: int  # cases generated at run time from --seed, on top of the stored ones
    hypothesis_examples: int  # live Hypothesis examples per operator
    stress: bool = False  # the stress profile's cases (conformance.cases.stress), made from recipes
    timeout_s: float = DEFAULT_TIMEOUT_S
    jobs: int | None = None  # None: the machine's cores


PROFILE_TABLE: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("quick", ("examples", "curated"), reach=True, generated=5000, hypothesis_examples=20),
        Profile("full", ("",), reach=True, generated=20000, hypothesis_examples=500),
        # Cases of gigabytes: one at a time, minutes each on a slow stack.
        Profile("stress", (), reach=False, generated=0, hypothesis_examples=0, stress=True, timeout_s=900.0, jobs=1),
    )
}
PROFILES = tuple(PROFILE_TABLE)
# The largest generation any profile makes: where `explain` and `--case` look a generated id up.
MAX_GENERATED = max(p.generated for p in PROFILE_TABLE.values())
# The default --max-bytes: this fraction of the machine's memory (oracle.default_max_bytes).
MAX_BYTES_FRACTION = 0.5
DEFAULT_BACKEND = "onnxruntime-cpu"
MAX_SEED = 2**64 - 1  # numpy's PCG64 takes a non-negative seed; bounded so it prints and round-trips


# --- value types: each raises ArgumentTypeError with what was expected ---------------------------


def _typed(name: str, parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def convert(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as e:  # argparse shows an ArgumentTypeError's text, not a ValueError's
            raise argparse.ArgumentTypeError(str(e)) from e

    convert.__name__ = name  # argparse names the type in its error message
    return convert


def csv(parse: Callable[[str], Any], what: str) -> Callable[[str], tuple]:
    def convert(text: str) -> tuple:
        items = [t.strip() for t in text.split(",") if t.strip()]
        if not items:
            raise ValueError(f"expected a comma-separated list of {what}")
        return tuple(parse(t) for t in items)

    return _typed(what, convert)


def parse_operator(text: str) -> str:
    name = oracle.registry.canonical(text.upper().removeprefix("DML_").removesuffix("_OPERATOR_DESC"))
    if name not in oracle.OPERATORS:
        raise ValueError(f"{shown(text)} is not one of {', '.join(oracle.OPERATORS)}")
    return name


def _profile(text: str) -> str:
    if text not in PROFILES:
        raise ValueError(f"{shown(text)} is not one of {', '.join(PROFILES)}")
    return text


ORT_HOSTS = ("worker", "python")
ADAPTER_KINDS = ("gpu", "npu", "any")
ORT_PERFORMANCE_PREFERENCES = (
    "default",
    "high_performance",
    "minimum_power",
)  # ORT's OrtDmlPerformancePreference  # --adapter-kind: the native programs' Device takes these names


def _choice(*allowed: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in allowed:
            raise ValueError(f"{shown(text)} is not one of {', '.join(allowed)}")
        return text

    return parse


_dml_path = _choice("operator", "graph", "both")


def _ort_host(text: str) -> str:
    if text not in ORT_HOSTS:
        raise ValueError(f"{shown(text)} is not one of {', '.join(ORT_HOSTS)}")
    return text


def _int_in(low: int, high: int | None, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{shown(text)} is not an integer ({what})") from None
        if value < low or (high is not None and value > high):
            raise ValueError(f"{value if len(text) <= SHOWN_LIMIT else shown(text)} is out of range: expected {what}")
        return value

    return parse


def _timeout(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{shown(text)} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{shown(text)}: expected a finite number of seconds > 0, or 0 for no limit")
    return value


BYTE_UNITS = {
    "": 1,
    "b": 1,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
}
BYTE_COUNT = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?(?:e[0-9]+)?)\s*([a-z]*)\s*$", re.IGNORECASE)


def parse_bytes(text: str) -> int:
    """A byte count: 8589934592, 8GiB, 512MiB, 1.5GB."""
    match = BYTE_COUNT.match(text)
    unit = match.group(2).lower() if match else ""
    if not match or unit not in BYTE_UNITS:
        raise ValueError(f"{shown(text)} is not a byte count (e.g. 8589934592, 8GiB, 512MiB)")
    value = float(match.group(1)) * BYTE_UNITS[unit]
    if not math.isfinite(value) or value < 1:
        raise ValueError(f"{shown(text)}: expected a byte count >= 1")
    return int(value)


def _shard(text: str) -> Shard:
    index, sep, count = text.partition("/")
    try:
        shard = Shard(int(index), int(count))
    except ValueError:
        shard = None
    if not sep or shard is None or not 1 <= shard.index <= shard.count:
        raise ValueError(f"{shown(text)}: expected I/N with 1 <= I <= N, e.g. 2/3")
    return shard


def _keyword(text: str) -> str:
    from .keyword import parse_keyword

    parse_keyword(text)  # a ValueError says where the expression is wrong
    return text


def _directml_version(text: str) -> str:
    from ..backends.directml.versions import parse  # the table, in one place; imported when the option is given

    return parse(text)


def parse_path(text: str) -> str:
    """A path this system can name (it need not exist): not empty, no NUL byte, no name past the system's limit.

    Checked where the option is read, so a path no system call can take is a usage error naming the option,
    not an OSError from deep inside the run."""
    if not text:
        raise ValueError("expected a path, not an empty value")
    if "\0" in text:
        raise ValueError(f"{shown(text)}: a path cannot hold a NUL byte")
    try:
        os.stat(text)
    except (FileNotFoundError, NotADirectoryError, PermissionError):  # may not exist yet: checked where used
        pass
    except OSError as e:  # too long, a symbolic-link loop
        raise ValueError(f"{shown(text)}: not a usable path: {e.strerror or e}") from None
    return text


def _nonempty(text: str) -> str:
    if not text.strip():
        raise ValueError("expected a non-empty value")
    return text


OPERATORS_TYPE = csv(parse_operator, "operators")
DATA_TYPES_TYPE = csv(DataType.parse, "data types")
FEATURE_LEVEL_TYPE = _typed("feature level", FeatureLevel.parse)
SEED_TYPE = _typed("seed", _int_in(0, MAX_SEED, f"0..{MAX_SEED}"))
COUNT_TYPE = _typed("count", _int_in(0, None, "an integer >= 0"))
POSITIVE_COUNT_TYPE = _typed("count", _int_in(1, None, "a count >= 1"))
KEYWORD_TYPE = _typed("expression", _keyword)
DIRECTML_VERSION_TYPE = _typed("DirectML version", _directml_version)
PATH_TYPE = _typed("path", parse_path)
TIMEOUT_TYPE = _typed("timeout", _timeout)


# The values RunConfig's options default to where that is a value (not a choice made later, None there): its
# fields and the options' help read them here, so the two cannot differ (tests/runner/test_option_defaults.py).
DEFAULTS: dict[str, Any] = {
    "backend": DEFAULT_BACKEND,
    "profile": "quick",
    "seed": 0,
    "timeout": DEFAULT_TIMEOUT_S,
    "out": "reports",
    "retries": 0,
}


def show_default(value: Any) -> str:
    """A default as the help shows it: text quoted ('quick'), a number as it is typed (60, not 60.0)."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@dataclass(frozen=True)
class Option:
    name: str  # the RunConfig field
    cli: str | None  # the `dml-conformance run` flag; None: plugin only
    plugin: str | None  # the pytest flag; None: CLI only
    help: str
    type: Callable[[str], Any] | None = None
    metavar: str | None = None
    action: str = "store"  # "store", "append" or "store_true"
    short: str | None = None
    identity: bool = False
    backend_kwarg: str | None = None
    excludes: tuple[str, ...] = ()  # options that cannot be given with this one (a usage error)
    excludes_why: str = ""
    # What "not given" means where RunConfig's default is None (chosen later: by the backend, the profile, the
    # machine).  Where RunConfig's default is a value, the help shows that value: one source.
    default: str | None = None
    # Whether it can change a case's verdict (which case an id names, how it is run or judged): then the
    # reproduce line printed under a failure carries it (RunConfig.repro). A backend's options always do.
    verdict: bool = False

    def help_text(self) -> str:
        """The help, ending in "Default: ...": the value RunConfig defaults to, or this option's `default` text."""
        value = DEFAULTS.get(self.name)
        shown = self.default if value is None or value is False else show_default(value)
        return f"{self.help}. Default: {shown}" if shown is not None else self.help


OPTIONS: tuple[Option, ...] = (
    Option(
        "backend",
        "--backend",
        "--dml-backend",
        "a registered name (entry point of 'dml_conformance.backends') or module:Class (the plugin is inert "
        "without it)",
        _typed("backend", _nonempty),
        "NAME|module:Class",
        identity=True,
    ),
    Option(
        "dml_dll",
        "--dml-dll",
        "--dml-dll",
        "the DirectML.dll to test, for backends that take one (passed to "
        "the backend as dml_dll=). directml: default the pinned onnxruntime-directml wheel's, fetched by "
        "`dml-conformance setup directml`",
        type=PATH_TYPE,
        metavar="PATH",
        identity=True,
        backend_kwarg="dml_dll",
    ),
    Option(
        "directml_version",
        "--directml-version",
        "--dml-directml-version",
        "directml: test this DirectML release by number (e.g. 1.13.1; passed to the backend as directml_version=): "
        "the DirectML.dll of the onnxruntime-directml wheel that ships it, fetched beside the default by "
        "`dml-conformance setup directml --directml-version VERSION` (the table: conformance/backends/directml/"
        "versions.py; an unknown version lists them). The header records the version the DLL itself reports, and a "
        "DLL of another version is refused. Not with --dml-dll (which tests any file)",
        DIRECTML_VERSION_TYPE,
        "VERSION",
        identity=True,
        backend_kwarg="directml_version",
        excludes=("dml_dll",),
        excludes_why="both name the DirectML.dll under test (the version: a DirectML release of the suite's table, "
        "fetched by `dml-conformance setup directml`; the DLL: any DirectML.dll file)",
    ),
    Option(
        "adapter",
        "--adapter",
        "--dml-adapter",
        "the adapter (GPU or NPU), by index or part of its name, for backends that take one (passed to the backend "
        "as adapter=); `dml-conformance setup directml` lists them. directml: default the first of --adapter-kind",
        metavar="INDEX|NAME",
        identity=True,
        backend_kwarg="adapter",
    ),
    Option(
        "adapter_kind",
        "--adapter-kind",
        "--dml-adapter-kind",
        "directml, onnxruntime-directml: the kind of adapter to run on (passed to the backends as adapter_kind=): "
        "gpu (an adapter with D3D12 graphics), npu (a compute-only adapter: DXCore's GENERIC_ML or CORE_COMPUTE "
        "without graphics, as ONNX Runtime's DirectML device filter decides it) or any. Adapters are listed through "
        "DXCore, or DXGI (GPUs only) where dxcore.dll is missing; with --adapter, the named adapter must be of this "
        "kind",
        _typed("adapter kind", _choice(*ADAPTER_KINDS)),
        "gpu|npu|any",
        identity=True,
        backend_kwarg="adapter_kind",
        default="gpu, or whatever --adapter names",
    ),
    Option(
        "allow_software_adapter",
        "--allow-software-adapter",
        "--dml-allow-software-adapter",
        "directml: run on a Windows software adapter (WARP, the Microsoft Basic Render Driver) that was not asked "
        "for by name, instead of refusing it (passed to the backend as allow_software_adapter=)",
        action="store_true",
        identity=True,
        backend_kwarg="allow_software_adapter",
    ),
    Option(
        "ort_performance_preference",
        "--ort-performance-preference",
        "--dml-ort-performance-preference",
        "onnxruntime-directml: ONNX Runtime's performance preference for its own device selection (passed to the "
        "backend as ort_performance_preference=): default, high_performance or minimum_power (NPUs first where GPUs "
        "and NPUs are both allowed). With --adapter-kind it goes with ORT's device filter: the python host's provider "
        "options, the worker's probe of OrtDmlDeviceOptions (recorded in the header)",
        _typed("performance preference", _choice(*ORT_PERFORMANCE_PREFERENCES)),
        "|".join(ORT_PERFORMANCE_PREFERENCES),
        identity=True,
        backend_kwarg="ort_performance_preference",
    ),
    Option(
        "ort_host",
        "--ort-host",
        "--dml-ort-host",
        "onnxruntime-directml: where its sessions run (passed to the backend as ort_host=): worker, the native "
        "ort_worker on ONNX Runtime's C API; python, the installed `onnxruntime` module (Windows)",
        _typed("ORT host", _ort_host),
        "worker|python",
        identity=True,
        backend_kwarg="ort_host",
        default="the worker where it can start, else the module",
    ),
    Option(
        "dml_path",
        "--dml-path",
        "--dml-path",
        "directml: how each case is compiled (passed to the backend as dml_path=): operator, "
        "IDMLDevice::CompileOperator; graph, a one-node DML graph through IDMLDevice1::CompileGraph, as ONNX "
        "Runtime reaches DirectML; both, the two, which must agree byte for byte",
        _typed("DML path", _dml_path),
        "operator|graph|both",
        identity=True,
        backend_kwarg="dml_path",
        default="operator",
    ),
    Option(
        "one_by_one",
        "--one-by-one",
        "--dml-one-by-one",
        "directml: one runner request and one fence wait per case, as before batches (passed to the backend as "
        "one_by_one=): slower, for comparison and debugging",
        action="store_true",
        identity=True,
        backend_kwarg="one_by_one",
        default="cases in batches",
    ),
    Option(
        "ort_graph_optimization",
        "--ort-graph-optimization",
        "--dml-ort-graph-optimization",
        "onnxruntime-directml: ONNX Runtime's graph optimization level (passed to the backend as "
        "graph_optimization=): disabled, basic, extended or all",
        _typed("graph optimization", _choice("disabled", "basic", "extended", "all")),
        "disabled|basic|extended|all",
        identity=True,
        backend_kwarg="graph_optimization",
        default="all, ORT's own default, as applications run",
    ),
    Option(
        "ort_dml_graph_fusion",
        "--ort-dml-graph-fusion",
        "--dml-ort-dml-graph-fusion",
        "onnxruntime-directml: whether ORT compiles each DirectML partition into one DML graph (passed to the "
        "backend as dml_graph_fusion=): on, as applications run; off (ep.dml.disable_graph_fusion), each node its "
        "own DirectML operator",
        _typed("DML graph fusion", _choice("on", "off")),
        "on|off",
        identity=True,
        backend_kwarg="dml_graph_fusion",
        default="on",
    ),
    Option(
        "profile",
        "--profile",
        "--dml-profile",
        "quick: examples, curated and a bounded generated set; full: "
        "everything, incl. the frozen corpus, and many more Hypothesis examples; stress: about 20 cases at "
        "DirectML's limits (axes past 65,535, tensors past 2 and 4 GiB, 8-D), one job and 900 s per case "
        "by default",
        _typed("profile", _profile),
        "quick|full|stress",
        identity=True,
        verdict=True,
    ),
    Option(
        "feature_level",
        "--feature-level",
        "--dml-feature-level",
        "the level the run targets; cases needing more are unsupported",
        FEATURE_LEVEL_TYPE,
        "X.Y",
        identity=True,
        default="the backend's own level",
        verdict=True,
    ),
    Option(
        "operators",
        "--operators",
        "--dml-operators",
        f"only these operators ({', '.join(oracle.OPERATORS)}; also "
        f"{', '.join(f'{a} for {n}' for a, n in oracle.registry.ALIASES.items())})",
        OPERATORS_TYPE,
        "OP,...",
        identity=True,
        default="all",
    ),
    Option(
        "data_types",
        "--data-types",
        "--dml-data-types",
        "only these data types (FLOAT32, UINT8, ...)",
        DATA_TYPES_TYPE,
        "T,...",
        identity=True,
        default="all",
    ),
    Option(
        "case",
        "--case",
        "--dml-case",
        "only this case id (repeatable; 'PREFIX*' for a prefix)",
        _typed("case id", _nonempty),
        "ID",
        "append",
        identity=True,
    ),
    Option(
        "exclude",
        "--exclude",
        "--dml-exclude",
        "leave out this case id (repeatable; 'PREFIX*' for a prefix)",
        _typed("case id", _nonempty),
        "ID",
        "append",
        identity=True,
    ),
    Option(
        "keyword",
        "--keyword",
        "--dml-keyword",
        "only cases matching this expression, as pytest's -k: words matched as substrings of the id, "
        "operator, data type and tags, combined with and, or, not and parentheses (e.g. 'PADDING and not FLOAT16')",
        KEYWORD_TYPE,
        "EXPR",
        short="-k",
        identity=True,
    ),
    Option(
        "cases",
        "--cases",
        "--dml-cases",
        "case files or folders to run instead of the packaged corpus (repeatable)",
        type=PATH_TYPE,
        metavar="PATH",
        action="append",
        identity=True,
        verdict=True,
    ),
    Option(
        "seed",
        "--seed",
        "--dml-seed",
        f"seed for generation and Hypothesis, 0..{MAX_SEED}",
        SEED_TYPE,
        "N",
        identity=True,
        verdict=True,
    ),
    Option(
        "generated",
        "--generated",
        "--dml-generated",
        "cases generated at run time from the seed (over all operators, then filtered)",
        COUNT_TYPE,
        "N",
        identity=True,
        default=", ".join(f"{p.generated} ({p.name})" for p in PROFILE_TABLE.values()),
        verdict=True,
    ),
    Option(
        "hypothesis_examples",
        "--hypothesis-examples",
        "--dml-hypothesis-examples",
        "live Hypothesis examples per operator, 0 to skip",
        COUNT_TYPE,
        "N",
        identity=True,
        default=", ".join(f"{p.hypothesis_examples} ({p.name})" for p in PROFILE_TABLE.values()),
    ),
    Option(
        "expectations",
        "--expectations",
        "--dml-expectations",
        "a JSON expectations file of waivers (README: 'An expectations file')",
        type=PATH_TYPE,
        metavar="FILE",
        identity=True,
        verdict=True,
    ),
    Option(
        "no_known_issues",
        "--no-known-issues",
        "--dml-no-known-issues",
        "do not apply the backend's shipped known-issues waivers (conformance/known_issues/)",
        action="store_true",
        identity=True,
        verdict=True,
    ),
    Option(
        "expect_adapter",
        "--expect-adapter",
        "--dml-expect-adapter",
        "refuse to run (exit 2, before any case) unless the backend's adapter name matches this regular "
        "expression: the run is on the device you meant",
        metavar="REGEX",
    ),
    Option(
        "allow_identity_mismatch",
        "--allow-identity-mismatch",
        "--dml-allow-identity-mismatch",
        "apply an expectations file made on another identity (backend, DirectML.dll, adapter, driver, OS) "
        "instead of refusing it; the header and report say so, in red",
        action="store_true",
        verdict=True,
    ),
    Option(
        "update_expectations",
        "--update-expectations",
        "--dml-update-expectations",
        "after the run, write the --expectations file to FILE without the waivers this run proves stale (every "
        "case it names passed); nothing is added; the diff is printed",
        type=PATH_TYPE,
        metavar="FILE",
    ),
    Option(
        "label",
        "--label",
        "--dml-label",
        "a name for this run in comparison grids (e.g. a driver build)",
        metavar="TEXT",
        identity=True,
    ),
    Option(
        "jobs",
        "--jobs",
        "--dml-jobs",
        "worker processes running cases, each with its own backend; at most the backend's max_jobs",
        _typed("jobs", _int_in(1, 1024, "1..1024")),
        "N",
        short="-j",
        default="the number of cores (1 per pytest-xdist worker)",
    ),
    Option(
        "timeout",
        "--timeout",
        "--dml-timeout",
        "per-case limit in seconds (backend construction has its own, at least 120 s); 0: no limit",
        TIMEOUT_TYPE,
        "SECONDS",
        verdict=True,
    ),
    Option(
        "max_bytes",
        "--max-bytes",
        "--dml-max-bytes",
        "memory budget per case (8GiB, 512MiB or bytes): the input, outputs, the backend's copies of them "
        "and the expected outputs; a case over it is unsupported, before its input is built",
        _typed("byte count", parse_bytes),
        "BYTES",
        default=f"{MAX_BYTES_FRACTION:g} of this machine's memory (or its cgroup limit)",
        verdict=True,
    ),
    Option(
        "shard",
        "--shard",
        "--dml-shard",
        "run the I-th of N deterministic shares of the cases (merge the shards' results with `dml-conformance report`)",
        _typed("shard", _shard),
        "I/N",
    ),
    Option(
        "resume",
        "--resume",
        "--dml-resume",
        "continue this results file: run only the cases of its run "
        "configuration that have no finished record, and append to it",
        type=PATH_TYPE,
        metavar="RESULTS.jsonl",
    ),
    Option("out", "--out", None, "folder for the results and report", type=PATH_TYPE, metavar="DIR"),
    Option(
        "results",
        "--results",
        "--dml-results",
        "the results file (never overwritten)",
        type=PATH_TYPE,
        metavar="FILE",
        default="<out>/results-<backend>-<time>.jsonl",
    ),
    Option(
        "report",
        "--report",
        "--dml-report",
        "the HTML report ('none' to skip)",
        type=PATH_TYPE,
        metavar="FILE",
        default="the results file's name with report- and .html",
    ),
    Option(
        "exitfirst",
        "--exitfirst",
        None,
        "stop at the first failing case: it is the run's only failure; cases that ran beside it (its batch, "
        "other workers) are recorded interrupted",
        action="store_true",
        short="-x",
    ),
    Option(
        "retries",
        "--retries",
        "--dml-retries",
        "run a failing case again, up to N times, each in a fresh worker; one that passes on a retry is "
        "'flaky' (it does not fail the run unless --flaky-fails)",
        COUNT_TYPE,
        "N",
        verdict=True,
    ),
    Option(
        "flaky_fails",
        "--flaky-fails",
        "--dml-flaky-fails",
        "a flaky case (failed, then passed on a retry) fails the run",
        action="store_true",
    ),
    Option(
        "junit_xml",
        "--junit-xml",
        None,
        "also write the results as JUnit XML (one testcase per case) for CI systems",
        type=PATH_TYPE,
        metavar="FILE",
    ),
)
BY_NAME = {o.name: o for o in OPTIONS}
BACKEND_KWARGS = tuple(o for o in OPTIONS if o.backend_kwarg)


def conflicts(given: frozenset[str] | set[str], plugin: bool = False) -> list[str]:
    """What is wrong with giving these options together (each Option's `excludes`), one message each."""
    return [
        f"{flag(o.name, plugin)} and {flag(other, plugin)} cannot be given together: {o.excludes_why}"
        for o in OPTIONS
        if o.name in given
        for other in o.excludes
        if other in given
    ]


# What `cases list` takes from the table: the options that choose cases (a selection previewed).
SELECTION_OPTIONS = ("profile", "cases", "operators", "data_types", "case", "exclude", "keyword", "seed", "generated")


def add_cli_options(parser: argparse.ArgumentParser, only: tuple[str, ...] | None = None) -> None:
    """The table's options as `dml-conformance` arguments (`only`: those named, for a command that takes fewer)."""
    for o in OPTIONS:
        if o.cli and (only is None or o.name in only):
            flags = [o.short, o.cli] if o.short else [o.cli]
            kw: dict[str, Any] = {"dest": o.name, "help": o.help_text(), "default": None}
            if o.action == "store_true":
                kw.update(action="store_true", default=False)
            else:
                kw.update(action=o.action, type=o.type, metavar=o.metavar)
            parser.add_argument(*flags, **kw)


def add_plugin_options(group) -> None:
    """`group`: a pytest OptionGroup (`parser.getgroup(...)`)."""
    for o in OPTIONS:
        if o.plugin:
            kw: dict[str, Any] = {"dest": plugin_dest(o), "help": o.help_text(), "default": None}
            if o.action == "store_true":
                kw.update(action="store_true", default=False)
            else:
                kw.update(action=o.action, type=o.type, metavar=o.metavar)
            group.addoption(o.plugin, **kw)


def plugin_dest(option: Option) -> str:
    return "dml_" + option.name.removeprefix("dml_")


def flag(name: str, plugin: bool = False) -> str:
    """How the user spells option `name` in the front end at hand (for messages)."""
    o = BY_NAME[name]
    return (o.plugin if plugin else o.cli) or o.cli or o.plugin or name

"""A run's configuration: the options' values with their defaults, and what identifies the run.

Front ends parse their flags with the one option table (conformance.run.options) and call
`RunConfig.from_values`; everything after that reads this object.  `identity()` is the part
that decides which cases a run has and how they are judged (backend, options passed to it,
profile, seed, filters, case paths, expectations, label): `--resume` continues only a file of
the same identity, and `dml-conformance report` merges shard files only when it matches.
"""

from __future__ import annotations

import dataclasses
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle import DataType, FeatureLevel

from ..support.errors import UsageError  # re-exported: the name every caller imports
from .options import (
    BACKEND_KWARGS,
    BY_NAME,
    DEFAULT_BACKEND,
    DEFAULT_TIMEOUT_S,
    DEFAULTS,
    MAX_BYTES_FRACTION,
    MAX_GENERATED,
    OPTIONS,
    PROFILE_TABLE,
    Profile,
    flag,
)
from .record import Shard


@dataclass(frozen=True)
class RunConfig:
    backend: str = DEFAULTS["backend"]
    dml_dll: str | None = None
    directml_version: str | None = None
    adapter: str | None = None
    adapter_kind: str | None = None  # gpu, npu or any (--adapter-kind); None: the backend's default (gpu)
    ort_host: str | None = None
    ort_performance_preference: str | None = None  # ORT's OrtDmlPerformancePreference (--ort-performance-preference)
    dml_path: str | None = None
    allow_software_adapter: bool | None = None  # None: not given (then not passed to the backend)
    one_by_one: bool | None = None
    ort_graph_optimization: str | None = None
    ort_dml_graph_fusion: str | None = None
    profile: str = DEFAULTS["profile"]
    feature_level: FeatureLevel | None = None
    operators: tuple[str, ...] | None = None
    data_types: tuple[DataType, ...] | None = None
    case: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None
    keyword: str | None = None
    cases: tuple[str, ...] | None = None
    seed: int = DEFAULTS["seed"]
    generated: int | None = None  # None: the profile's count
    hypothesis_examples: int | None = None  # None: the profile's count
    expectations: str | None = None
    no_known_issues: bool = False
    expect_adapter: str | None = None
    allow_identity_mismatch: bool = False
    update_expectations: str | None = None  # after the run: the expectations file without its stale waivers
    label: str | None = None
    jobs: int | None = None  # None: the number of cores
    timeout: float = DEFAULTS["timeout"]
    max_bytes: int | None = None  # None: MAX_BYTES_FRACTION of the machine's memory
    shard: Shard | None = None
    resume: str | None = None
    out: str = DEFAULTS["out"]
    results: str | None = None
    report: str | None = None
    exitfirst: bool = False
    retries: int = DEFAULTS["retries"]
    flaky_fails: bool = False
    junit_xml: str | None = None
    given: frozenset[str] = frozenset()  # the options the user gave

    @classmethod
    def from_values(cls, values: dict[str, Any]) -> RunConfig:
        """From parsed option values (None or False: not given)."""
        given = {k for k, v in values.items() if k in BY_NAME and v is not None and v is not False}
        kwargs: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items() if k in given}
        return cls(**kwargs, given=frozenset(given))

    # --- derived values ------------------------------------------------------------------------
    @property
    def profile_data(self) -> Profile:
        return PROFILE_TABLE[self.profile]

    @property
    def generated_count(self) -> int:
        return self.profile_data.generated if self.generated is None else self.generated

    @property
    def hypothesis_count(self) -> int:
        return self.profile_data.hypothesis_examples if self.hypothesis_examples is None else self.hypothesis_examples

    @property
    def timeout_s(self) -> float | None:
        if "timeout" not in self.given and self.timeout == DEFAULT_TIMEOUT_S:  # not chosen: the profile's
            return self.profile_data.timeout_s or None
        return self.timeout or None

    @property
    def max_bytes_budget(self) -> int:
        """Each case's memory budget in bytes (conformance.run.large): --max-bytes, or a share of the machine's."""
        from oracle import default_max_bytes

        return self.max_bytes or default_max_bytes(MAX_BYTES_FRACTION)

    @property
    def backend_kwargs(self) -> dict[str, str]:
        """Keyword arguments for the backend's constructor: only the ones the user gave."""
        return {
            o.backend_kwarg: getattr(self, o.name)
            for o in BACKEND_KWARGS
            if o.backend_kwarg is not None and getattr(self, o.name) is not None
        }

    @property
    def report_off(self) -> bool:
        return self.report == "none"

    # --- identity ------------------------------------------------------------------------------
    def identity(self) -> dict[str, Any]:
        """What makes two runs the same run: the same cases, judged the same way."""
        return {
            "backend": self.backend,
            "backend_options": self.backend_kwargs,
            "label": self.label,
            "profile": self.profile,
            "seed": self.seed,
            "feature_level": str(self.feature_level) if self.feature_level else None,
            "operators": list(self.operators or ()),
            "data_types": [d.value for d in self.data_types or ()],
            "case": list(self.case or ()),
            **({"exclude": list(self.exclude)} if self.exclude else {}),
            **({"keyword": self.keyword} if self.keyword else {}),
            "cases": [str(Path(p).resolve()) for p in self.cases or ()],
            "generated": self.generated_count,
            "hypothesis_examples": self.hypothesis_count,
            "expectations": str(Path(self.expectations).resolve()) if self.expectations else None,
            "no_known_issues": self.no_known_issues,
        }

    def with_identity(self, identity: dict[str, Any], where: str) -> RunConfig:
        """This configuration continuing a run of `identity` (a results header's `config`).

        The run-configuration options come from the file; giving one with another value is a
        UsageError naming it.  The rest (jobs, timeout, report...) stay as given now.
        """
        theirs = _from_identity(identity)
        mine = self.identity()
        differ = [
            name
            for name in self.given
            if BY_NAME[name].identity
            and _identity_key(name) in mine
            and mine[_identity_key(name)] != identity.get(_identity_key(name))
        ]
        if differ:
            details = ", ".join(
                f"{flag(n)} {_show(mine[_identity_key(n)])} (the file has {_show(identity.get(_identity_key(n)))})"
                for n in sorted(differ)
            )
            raise UsageError(
                f"--resume {where}: another run configuration: {details}; resume with the file's "
                "options (or leave them out)"
            )
        return dataclasses.replace(
            theirs,
            **{
                f.name: getattr(self, f.name)
                for f in dataclasses.fields(self)
                if not (f.name in BY_NAME and BY_NAME[f.name].identity)
            },
        )

    def repro(self) -> str:
        """The command that runs one case of this run again (`{id}` stands for the case id).

        It carries every option that can change a case's verdict (the table's `verdict` and backend options)
        whose value is not the default: without --no-known-issues, say, the failure it reproduces is waived."""
        parts = ["dml-conformance", "run", "--backend", self.backend]
        defaults = RunConfig()
        for o in OPTIONS:
            if not (o.verdict or o.backend_kwarg) or o.cli is None:
                continue
            value = getattr(self, o.name)
            if value is None or value is False or value == getattr(defaults, o.name):
                continue
            if o.name == "generated" and value <= MAX_GENERATED:
                continue  # `--case ID` finds an id generated by any profile without it
            if o.action == "store_true":
                parts.append(o.cli)
            elif o.action == "append":
                for item in value:
                    parts += [o.cli, str(item)]
            else:
                parts += [o.cli, _text(value)]
        return " ".join(shlex.quote(p) for p in parts) + " --case {id}"


def _text(value: Any) -> str:
    """An option's value as the command line spells it."""
    if isinstance(value, tuple):  # a list option (--data-types)
        return ",".join(_text(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return value.value if isinstance(value, DataType) else str(value)  # a FeatureLevel prints as X.Y


def _identity_key(name: str) -> str:
    return "backend_options" if BY_NAME[name].backend_kwarg else name


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value)) or "(none)"
    return repr(value) if value is not None else "(not given)"


def _from_identity(identity: dict[str, Any]) -> RunConfig:
    """The run configuration a results header recorded (`Header.config`)."""
    get = identity.get
    options = get("backend_options") or {}
    kw_names = {o.backend_kwarg: o.name for o in BACKEND_KWARGS}
    return RunConfig(
        backend=get("backend") or DEFAULT_BACKEND,
        profile=get("profile") or "quick",
        seed=get("seed") or 0,
        label=get("label"),
        feature_level=FeatureLevel.parse(get("feature_level")) if get("feature_level") else None,
        operators=tuple(get("operators") or ()) or None,
        data_types=tuple(DataType.parse(d) for d in get("data_types") or ()) or None,
        case=tuple(get("case") or ()) or None,
        exclude=tuple(get("exclude") or ()) or None,
        keyword=get("keyword"),
        cases=tuple(get("cases") or ()) or None,
        generated=get("generated"),
        hypothesis_examples=get("hypothesis_examples"),
        expectations=get("expectations"),
        no_known_issues=bool(get("no_known_issues")),
        **{kw_names[k]: v for k, v in options.items() if k in kw_names},
    )

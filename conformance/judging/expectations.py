"""A vendor's expectations file: known failures waived, each with a reason and a tracker link.

Format (JSON; specified by conformance/schemas/expectations.schema.json, which the loader validates against):

    {"schema_version": 1,
     "waivers": [
       {"id": "PADDING-3f9a2c01", "reason": "driver bug 1234", "tracker": "https://bugs.example/1234"},
       {"prefix": "SLICE-", "reason": "DML_SLICE is not exposed by our runtime yet"},
       {"prefix": "PADDING-", "when": {"data_type": "FLOAT16", "mismatch": "nan-payload-only"},
        "reason": "our FLOAT16 Pad quiets signalling NaNs"}
     ]}

`when` narrows a waiver to failures with these properties: `operator` and `data_type` (a name
or a list), `category` (the failing category it excuses, a name or a list: a waived `rejected`
that becomes a `fail` is not waived), `mismatch`: "nan-payload-only" (every differing element is
a NaN on both sides, so only NaN bits changed) or the name of a deviation model in
conformance/judging/deviations.py (the outputs equal that model's prediction bit for bit; an accepted invalid
or a refused valid descriptor, only where that model accepts or refuses it; a crash, only where that model says
the implementation reads outside its input or dies on the descriptor), and
`descriptor_contains: {"strides": 0}` (each named descriptor array holds that value) and
`reached_operator` (what the backend says it ran, e.g. "SPLIT (graph)" under --dml-path graph).  A
failure outside the conditions is not waived.

`backend` restricts a waiver to runs of that backend (its registered name, or the spec given to
--backend); `versions` to runs whose backend reports versions inside these PEP 440 ranges
(`{"onnxruntime": "<1.32"}`: a deviation seen in some releases only; a version the run does not
report, or cannot be read as one, and the waiver does not apply); `label` says which run it was
taken from (informational: a nightly's label changes); `expires` (YYYY-MM-DD) the day it stops
waiving; `flaky_rate` ({"failed": F, "attempts": N}) how often a known flake failed when it was baselined.
`dml-conformance baseline` writes such a file from a run's failures (conformance.report.baseline).

A waiver turns a failing category (fail, rejected, error, crash, timeout) into `waived` and
keeps the original in `waived_category`; a `flaky` case (failed, then passed on a retry) is
waived only by a waiver whose `when.category` names "flaky" (a known flake).  A passing case
that an exact-id waiver names (whatever its `when`), or a prefix waiver applies to, stays `pass`
and is flagged `waived_but_passed` (the waiver is stale).  Waivers matching no case in the run
are reported.
"""

from __future__ import annotations

import bisect
import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ..support import formats
from ..support.formats import FormatError
from ..support.jsonfile import JsonFileError, read_json
from .deviations import DEVIATIONS


class Mismatch(Protocol):
    """What a waiver's `when.mismatch` reads of a failure's comparison (conformance.judging.compare.Comparison)."""

    nan_payload_only: bool
    explained_by: list[str]


class Waivable(Protocol):
    """What a waiver reads of a result and does to it: a run's record (conformance.run.record.Record) has
    these.  Stated here, so that this layer needs nothing from the run layer above it."""

    id: str
    operator: str
    hypothesis: bool
    case_json: dict | None
    descriptor: dict | None

    @property
    def category(self) -> Any: ...  # a Category: str() gives its name, .value too

    @property
    def data_type(self) -> Any: ...

    @property
    def mismatch(self) -> Mismatch | None: ...

    def waive(self, waiver: dict[str, Any], reason: str) -> Any: ...


R = TypeVar("R", bound=Waivable)

KNOWN_ISSUES_DIR = Path(__file__).resolve().parents[1] / "known_issues"  # conformance/known_issues/
SCHEMA_VERSION = 1
INTERNAL_WAIVER_FIELDS = ("source", "index")  # Waiver fields the loader fills in, never written in a file
WHEN_FIELDS = {"operator", "data_type", "category", "mismatch", "descriptor_contains", "reached_operator"}
MISMATCH_KINDS = {"nan-payload-only", *DEVIATIONS}


class ExpectationsError(FormatError):
    """A malformed expectations file; the message names the file and the field."""


@dataclass
class Waiver:
    reason: str
    id: str | None = None
    prefix: str | None = None
    tracker: str | None = None
    when: dict = field(default_factory=dict)
    source: str = ""  # the file it came from (a vendor's expectations or a backend's known issues)
    backend: str | None = None  # only runs of this backend
    versions: dict[str, str] = field(default_factory=dict)  # only runs whose backend versions are in these ranges
    label: str | None = None  # the run it was taken from (informational)
    expires: str | None = None  # YYYY-MM-DD: from that day it no longer waives (the run lists it)
    # A known flake's rate as seen: {"failed": F, "attempts": N} over the --retries runs `baseline` read.
    flaky_rate: dict[str, int] = field(default_factory=dict)
    index: int = -1  # its place in `source`'s waivers: what a message names ($.waivers[index]), whatever came before

    def expired(self, today: str | None = None) -> bool:
        return self.expires is not None and (today or datetime.date.today().isoformat()) >= self.expires

    @property
    def pattern(self) -> str:
        return self.id if self.id is not None else f"{self.prefix}*"

    def matches(self, case_id: str) -> bool:
        return case_id == self.id if self.id is not None else case_id.startswith(self.prefix or "")

    def applies(self, record: Waivable) -> bool:
        """The id matches and the record has every property `when` asks for.

        A live Hypothesis failure is its shrunk case: a waiver naming that case's id (or prefix) applies.
        """
        # The id first: the parent asks every waiver of every record, and most match none.
        if not self.matches(record.id) and not (
            record.hypothesis and record.case_json and self.matches(str(record.case_json.get("id")))
        ):
            return False
        if self.expired():
            return False
        for key in ("operator", "data_type", "category", "reached_operator"):
            wanted = self.when.get(key)
            if wanted is not None and str(getattr(record, key)) not in _names(wanted):
                return False
        descriptor = record.descriptor or {}
        for name, value in self.when.get("descriptor_contains", {}).items():
            if value not in (descriptor.get(name) or ()):
                return False
        if str(record.category) == "flaky" and "flaky" not in _names(self.when.get("category")):
            return False  # a flake is excused only by a waiver that says it is a known flake
        mismatch = self.when.get("mismatch")
        if mismatch is not None and str(record.category) == "crash":
            return _crash_in_domain(mismatch, record)
        if mismatch == "nan-payload-only":
            return record.mismatch is not None and record.mismatch.nan_payload_only
        if mismatch is not None:
            return record.mismatch is not None and mismatch in record.mismatch.explained_by
        return True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id} if self.id is not None else {"prefix": self.prefix}
        if self.when:
            out["when"] = self.when
        out["reason"] = self.reason
        if self.tracker:
            out["tracker"] = self.tracker
        for key in ("backend", "label", "expires"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.versions:
            out["versions"] = dict(self.versions)
        if self.flaky_rate:
            out["flaky_rate"] = dict(self.flaky_rate)
        if self.source:
            out["source"] = self.source
        return out


@dataclass
class Expectations:
    path: str = ""
    waivers: list[Waiver] = field(default_factory=list)
    # Per backend, the identity of the run a baseline was made from (conformance.run.identity), and the file
    # that says so: a run of that backend with another identity refuses these waivers unless told otherwise.
    identities: dict[str, dict[str, str]] = field(default_factory=dict)
    identity_source: str = ""

    def find(self, record: Waivable) -> Waiver | None:
        """The exact-id waiver that applies if any, else the applying one with the longest prefix."""
        best: Waiver | None = None
        for w in self.waivers:
            if w.applies(record):
                if w.id is not None:
                    return w
                if best is None or len(w.prefix or "") > len(best.prefix or ""):
                    best = w
        return best

    def extend(self, other: Expectations) -> Expectations:
        """Both files' waivers (a backend's known issues, then a vendor's expectations)."""
        paths = [p for p in (self.path, other.path) if p]
        made_on = (
            (other.identities, other.identity_source) if other.identities else (self.identities, self.identity_source)
        )
        return Expectations(" + ".join(paths), self.waivers + other.waivers, *made_on)

    def for_backend(self, *names: str) -> Expectations:
        """The waivers that apply to a run of a backend known by `names` (its name, its --backend spec)."""
        kept = [w for w in self.waivers if w.backend is None or w.backend in names]
        return Expectations(self.path, kept, self.identities, self.identity_source)

    def for_versions(self, versions: dict[str, str]) -> Expectations:
        """The waivers whose `versions` ranges the backend's reported versions fall in (all without ranges)."""
        kept = [w for w in self.waivers if _in_ranges(w.versions, versions)]
        return Expectations(self.path, kept, self.identities, self.identity_source)

    def unmatched(self, case_ids: list[str]) -> list[Waiver]:
        """The waivers that match none of `case_ids` (the run's cases): stale entries, warned about.

        Looked up in the sorted ids (an id in a set, a prefix by bisection: the ids starting with it, if any, begin
        where it would be inserted), not by trying every waiver on every case: a run's end waits for this."""
        ids = sorted(case_ids)
        exact = set(ids)

        def matched(waiver: Waiver) -> bool:
            if waiver.id is not None:
                return waiver.id in exact
            prefix = waiver.prefix or ""
            at = bisect.bisect_left(ids, prefix)
            return at < len(ids) and ids[at].startswith(prefix)

        return [w for w in self.waivers if not matched(w)]

    def apply(self, record: R) -> R:
        """Waive a failing record in place (returns it); what waiving does is the record's (Record.waive).
        A passing case is matched by its exact id whatever `when` says (a fixed failure in any category:
        the waiver is stale), else as any other record."""
        waiver = self._exact(record.id) if record.category.value == "pass" else None
        waiver = waiver or self.find(record)
        if waiver is not None:
            record.waive(waiver.to_json(), waiver.reason)
        return record

    def _exact(self, case_id: str) -> Waiver | None:
        return next((w for w in self.waivers if w.id is not None and w.id == case_id), None)


def load_expectations(path: str | Path, *, checked: bool = True) -> Expectations:
    """Validate against the expectations schema, then build the waivers.  `checked=False` only for a file shipped
    in the package (`known_issues`), which tests/test_schemas.py checks in full: compiling the schema costs
    every process that loads one about 30 ms."""
    path = Path(path)
    try:
        obj = read_json(path)
    except JsonFileError as e:
        raise ExpectationsError(e.where, "", e.detail) from None
    found = formats.violation("expectations", obj) if checked else None
    if found:
        raise ExpectationsError(path, *found)
    # The schema's waiver fields are the Waiver dataclass's (conformance.schema_build): a new field needs no code here.
    waivers = [
        Waiver(**{**entry, "when": dict(entry.get("when", {})), "source": str(path), "index": i})
        for i, entry in enumerate(obj["waivers"])
    ]
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    for i, w in enumerate(waivers if checked else ()):
        for name, wanted in w.versions.items():
            try:
                SpecifierSet(wanted)
            except InvalidSpecifier:
                raise ExpectationsError(
                    path,
                    f"$.waivers[{i}].versions.{name}",
                    f"{wanted!r} is not a version range (e.g. '<1.32', '>=1.24,<2')",
                ) from None
    made_on = {
        str(b): {str(k): str(v) for k, v in fields.items()} for b, fields in (obj.get("identities") or {}).items()
    }
    return Expectations(str(path), waivers, made_on, str(path) if made_on else "")


def _in_ranges(ranges: dict[str, str], versions: dict[str, str]) -> bool:
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    for name, wanted in ranges.items():
        try:
            if not SpecifierSet(wanted).contains(Version(versions[name].split()[0]), prereleases=True):
                return False
        except (KeyError, IndexError, InvalidSpecifier, InvalidVersion):
            return False
    return True


def _crash_in_domain(mismatch: str, record: Waivable) -> bool:
    """A crash is the deviation `mismatch` names only where that model says the implementation reads outside its
    input (the read faults when it leaves mapped memory, so the same case crashes in some runs, not in others) or
    dies on the descriptor (`dies_on`)."""
    import oracle

    deviation = DEVIATIONS.get(mismatch)
    domain = None if deviation is None else deviation.reads_out_of_bounds or deviation.dies_on
    if domain is None or not record.descriptor:
        return False
    try:
        descriptor = oracle.descriptor_from_json(record.operator, record.descriptor)
    except (ValueError, KeyError, TypeError):
        return False
    return domain(descriptor)


def _names(value: str | list[str] | None) -> list[str]:
    return [] if value is None else [value] if isinstance(value, str) else list(value)


def is_known_issue(source: str) -> bool:
    """Whether a waiver's `source` is a backend's shipped known-issues file, on whichever machine the run was:
    judged by the file's place in the package (conformance/known_issues/<backend>.json), not the absolute path."""
    return Path(source).parts[-3:-1] == (KNOWN_ISSUES_DIR.parent.name, KNOWN_ISSUES_DIR.name)


def known_issues(backend_name: str) -> Expectations:
    """The waivers a built-in backend ships for its implementation's known deviations (none if no file)."""
    path = KNOWN_ISSUES_DIR / f"{backend_name}.json"
    return load_expectations(path, checked=False) if path.is_file() else Expectations()


def ends_the_process(backend_name: str) -> Callable[[Any], bool]:
    """Whether a known issue of `backend_name` says its process dies on a descriptor whatever the values: a crash
    waiver naming a deviation with `dies_on` (DML_GATHER's heap damage).  The run layer runs such a case alone,
    outside a batch: in one, it would end the batch, whose every case then runs again alone.  Only the time
    differs (a batch and one request per case answer alike: tests/directml), so the waiver's version range and
    whether the case is waived are not asked."""
    predicates = [
        deviation.dies_on
        for waiver in known_issues(backend_name).waivers
        if "crash" in _names(waiver.when.get("category"))
        for name in _names(waiver.when.get("mismatch"))
        if (deviation := DEVIATIONS.get(name)) is not None and deviation.dies_on is not None
    ]
    return lambda descriptor: any(dies(descriptor) for dies in predicates)

"""`dml-conformance verify`: check a conformance package offline, and make its statement.

`verify` checks what a hand edit or a partial run would break, each problem naming the member:
the manifest; the run configuration (the full profile, no selection filter, the profile's own
generated and Hypothesis counts: anything else is stamped "not valid for conformance"); the
suite version; the hashes; exactly one record for every case of that profile and seed (the ids
computed from the installed suite, conformance.run.selection.all_units, each in its shard's
file); the run finished; one identity in every shard; every waiver the run applied has a tracker
(conformance.run.lint.needs_tracker) and comes from the packaged expectations files.  It proves
that the package is what the suite made, not who made it: anyone who re-runs every check's
arithmetic by hand can forge one, as with any unsigned manifest.  What a package holds and how
the suite's hashes are taken: package_format.py.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

import oracle
from oracle.version import VERSION

from ..judging.expectations import KNOWN_ISSUES_DIR, ExpectationsError, Waiver, is_known_issue, load_expectations
from ..run.config import RunConfig, UsageError
from ..run.identity import fingerprint
from ..run.identity import short as identity_short
from ..run.lint import needs_tracker
from ..run.options import PROFILE_TABLE, flag
from ..run.record import CATEGORIES, Header, Record
from ..run.results import Results, ResultsFileError, merge_shards, read_results
from .package_format import (
    EXPECTATIONS_DIR,
    FORMAT,
    MANIFEST,
    NOT_VALID,
    PACKAGE,
    RESULTS_DIR,
    SUITE_PARTS,
    PackageError,
    parse_json,
    read_manifest,
    safe_name,
    suite_hashes,
)
from .render import render_page

CONFORMANCE_PROFILE = "full"
MAX_LISTED = 20  # missing or extra cases named per results file; the rest counted
MAX_REASON = 100  # a waiver's reason on the terminal (the HTML statement has it whole): one page


# --- what makes a run valid for conformance ------------------------------------------------------------


def not_valid_reasons(header: Header) -> list[str]:
    """Why this run is not valid for conformance ([] when it is): a profile other than full, a selection
    filter, other generated or Hypothesis counts than the profile's (read from the run configuration)."""
    config = header.config
    if not config:
        return ["its header records no run configuration (written by an older dml-conformance)"]
    reasons = []
    profile = str(config.get("profile") or header.profile)
    if profile != CONFORMANCE_PROFILE:
        reasons.append(f"profile {profile} (a conformance run is the {CONFORMANCE_PROFILE} profile)")
    for name in ("operators", "data_types", "case", "exclude", "keyword", "cases"):
        value = config.get(name)
        if value:
            shown = ",".join(map(str, value)) if isinstance(value, list) else str(value)
            reasons.append(f"filtered with {flag(name)} {shown}")
    full = PROFILE_TABLE[CONFORMANCE_PROFILE]
    for name, wanted in (("generated", full.generated), ("hypothesis_examples", full.hypothesis_examples)):
        if profile == CONFORMANCE_PROFILE and config.get(name) != wanted:
            reasons.append(f"{flag(name)} {config.get(name)} (the {CONFORMANCE_PROFILE} profile has {wanted})")
    for key, what in (("case", "--case"), ("exclude", "--exclude"), ("keyword", "-k")):
        if header.selection.get(key) and not config.get(key):  # the header's two records of it disagree
            reasons.append(f"selected with {what} {header.selection[key]}")
    return reasons


# --- the statement ---------------------------------------------------------------------------------


@dataclass
class WaiverLine:
    pattern: str
    reason: str
    tracker: str  # "" when it has none
    member: str  # the packaged expectations file it comes from
    known_issue: bool
    waived: int  # cases it waived in this run


@dataclass
class Statement:
    """What `verify` prints and statement.html shows: one page."""

    package: str
    created: str = ""
    suite_version: str = ""
    hashes: dict[str, str] = field(default_factory=dict)
    identity: dict[str, str] = field(default_factory=dict)
    run: list[tuple[str, str]] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    by_operator: list[tuple[str, list[int], int]] = field(default_factory=list)
    waivers: list[WaiverLine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    verdict: str = "?"
    problems: list[str] = field(default_factory=list)
    not_valid: list[str] = field(default_factory=list)  # the run configuration's reasons (also in problems)

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def identity_line(self) -> str:
        return identity_short(self.identity) if self.identity else "(none recorded)"

    @property
    def conclusion(self) -> str:
        if self.valid:
            return f"VALID: a conformance package of dml-conformance {self.suite_version}; the run's verdict is {self.verdict}"
        stamp = f"{NOT_VALID.upper()}: " + "; ".join(self.not_valid) if self.not_valid else "INVALID"
        return f"{stamp} ({len(self.problems)} problem(s))"

    def text(self) -> str:
        width = max((len(c) for c in self.categories), default=0)
        lines = [
            "DirectML data-movement conformance statement",
            f"package   {self.package}" + (f", made {self.created}" if self.created else ""),
            f"identity  {self.identity_line}",
            "          " + "; ".join(f"{k}={v}" for k, v in self.identity.items() if k != "fingerprint"),
            f"suite     dml-conformance {self.suite_version}; SHA-256 "
            + ", ".join(f"{part} {digest[:16]}" for part, digest in self.hashes.items()),
            *(f"{label:<9} {value}" for label, value in self.run),
            "results   " + (", ".join(f"{c} {n}" for c, n in zip(self.categories, self.totals)) or "no records"),
        ]
        if self.by_operator:
            cell = max(width, 6)
            lines.append("  " + f"{'operator':<10}" + "".join(f"{c:>{cell + 1}}" for c in [*self.categories, "total"]))
            lines += [
                "  " + f"{op:<10}" + "".join(f"{n:>{cell + 1}}" for n in [*counts, total])
                for op, counts, total in self.by_operator
            ]
        lines.append("waivers   " + ("none" if not self.waivers else f"{len(self.waivers)}"))
        lines += [
            f"  {w.pattern}: {w.waived} case(s) waived; tracker "
            + (w.tracker or ("none needed (the suite's shipped known issues)" if w.known_issue else "NONE"))
            + f"; {w.member}: {_brief(w.reason)}"
            for w in self.waivers
        ]
        lines += [f"note      {n}" for n in self.notes]
        lines.append(f"verdict   {self.verdict}")
        lines.append(f"package   {self.conclusion}")
        return "\n".join(lines)

    def html(self) -> str:
        return render_page("statement.html.j2", s=self, not_valid=NOT_VALID)


def _brief(text: str) -> str:
    return text if len(text) <= MAX_REASON else text[: MAX_REASON - 3] + "..."


# --- examining a package's members -------------------------------------------------------------------


@dataclass(frozen=True)
class _Line:
    """What the duplicate check reads of one `case` line (the whole record is never kept: 26,000 of them
    held at once cost the garbage collector more than the parsing)."""

    number: int
    id: str
    category: object
    reason: object
    attempt: object  # the last of its `attempts`, or None


def _case_lines(path: Path) -> Iterator[_Line]:
    """The raw `case` lines of a results file, with their line numbers: what `read_results` folds into one
    record per case, read before folding so that a second record of a case is seen."""
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if number == 1:
            continue  # the header
        try:
            obj = json.loads(line)
        except ValueError:
            continue  # read_results names a line that is not JSON; a torn last line it repairs
        if isinstance(obj, dict) and obj.get("kind") == "case" and isinstance(obj.get("id"), str):
            attempts = obj.get("attempts")
            last = attempts[-1] if isinstance(attempts, list) and attempts else None
            yield _Line(number, obj["id"], obj.get("category"), obj.get("reason", ""), last)


def _continues(earlier: _Line, later: _Line) -> bool:
    """Whether `later` may follow `earlier` for one case: a resumed run re-runs an interrupted case; a retry's
    record lists the attempt before it."""
    if earlier.category == "interrupted":
        return True
    last = later.attempt
    return isinstance(last, dict) and (last.get("category"), last.get("reason", "")) == (
        earlier.category,
        earlier.reason,
    )


@cache
def expected_cases(config_json: str) -> dict[str, int]:
    """Case id -> its index in the full selection of a run configuration (a results header's `config`),
    computed from the installed suite: what every complete run of it holds, one record each."""
    config = RunConfig().with_identity(json.loads(config_json), "the results header")
    units, errors = _all_units(config)
    if errors:
        raise UsageError("the installed case corpus has unreadable files: " + "; ".join(map(str, errors[:3])))
    return {u.id: i for i, u in enumerate(units)}


def _all_units(config: RunConfig):
    from ..run.selection import all_units

    return all_units(config)


def _completeness(shards: dict[str, Results], tree: Path, header: Header) -> list[str]:
    """Exactly one record for every case of the run's profile and seed, each in the file of its shard."""
    try:
        expected = expected_cases(json.dumps(header.config, sort_keys=True))
    except (UsageError, TypeError, ValueError, KeyError) as e:
        return [f"{next(iter(shards))}: the cases its run should hold cannot be computed here: {e}"]
    problems: list[str] = []
    seen: dict[str, str] = {}  # case id -> the member holding it
    by_shard = {r.header.shard.index: m for m, r in shards.items() if r.header.shard}
    count = next((r.header.shard.count for r in shards.values() if r.header.shard), None)
    for member, run in shards.items():
        ids = _record_ids(member, tree / member, problems)
        extra: list[str] = []
        for case_id in ids:
            if case_id in seen and seen[case_id] != member:
                problems.append(f"{member}: case {case_id} has a record in {seen[case_id]} too")
            seen.setdefault(case_id, member)
            if case_id not in expected:
                extra.append(case_id)
            elif count and run.header.shard and expected[case_id] % count != run.header.shard.index - 1:
                problems.append(
                    f"{member}: case {case_id} belongs to shard {expected[case_id] % count + 1}/{count}, not "
                    f"this file's {run.header.shard}"
                )
        problems += _listed(member, extra, f"not a case of this suite's {header.profile} profile (seed {header.seed})")
    missing: dict[str, list[str]] = {}
    for case_id, index in expected.items():
        if case_id not in seen:
            holder = by_shard.get(index % count + 1) if count else next(iter(shards))
            if holder is not None:  # an absent shard is named once, not its thousands of cases
                missing.setdefault(holder, []).append(case_id)
    for member, ids in missing.items():
        problems += _listed(member, ids, f"no record (a case of the {header.profile} profile, seed {header.seed})")
    return problems


def _record_ids(member: str, path: Path, problems: list[str]) -> list[str]:
    """The ids of a results file's records, in order, each once; a second record of a case that is neither
    a resumed run's nor a retry's is a problem."""
    last: dict[str, _Line] = {}
    for line in _case_lines(path):
        earlier = last.get(line.id)
        if earlier is not None and not _continues(earlier, line):
            problems.append(
                f"{member}:{line.number}: a second record of case {line.id} (the first is line {earlier.number}); a "
                "case has one (a resumed or retried case's earlier record is interrupted, or listed in its attempts)"
            )
        last[line.id] = line
    return list(last)


def _listed(member: str, ids: list[str], what: str) -> list[str]:
    problems = [f"{member}: case {i}: {what}" for i in ids[:MAX_LISTED]]
    if len(ids) > MAX_LISTED:
        problems.append(f"{member}: ... and {len(ids) - MAX_LISTED} more case(s): {what}")
    return problems


def _finished(shards: dict[str, Results]) -> list[str]:
    """Every shard ran to its end: a footer, not interrupted or stopped, no case left interrupted, and the
    footer's counts are its records' (a record removed or re-categorised after the run shows here too)."""
    problems = []
    for member, run in shards.items():
        footer = run.footer
        if footer is None:
            problems.append(f"{member}: no footer: the run did not finish")
            continue
        if footer.interrupted or footer.stopped:
            problems.append(
                f"{member}: the run was {'stopped: ' + footer.stopped if footer.stopped else 'interrupted'}"
            )
        interrupted = sum(1 for r in run.records if r.category.value == "interrupted")
        if interrupted:
            problems.append(f"{member}: {interrupted} case(s) interrupted, never run to a result")
        counts = dict(Counter(r.category.value for r in run.records))
        if footer.counts and counts != footer.counts:
            problems.append(
                f"{member}: its records ({_counts(counts)}) are not the ones its footer counted "
                f"({_counts(footer.counts)})"
            )
        problems += [f"{member}: a case file could not be read: {e}" for e in run.header.input_errors]
    return problems


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))


def _identities(shards: dict[str, Results], package: dict) -> list[str]:
    problems = []
    first = next(iter(shards.values())).header.identity
    for member, run in shards.items():
        identity = run.header.identity
        if not identity:
            problems.append(f"{member}: its header records no identity (written by an older dml-conformance)")
        elif fingerprint(identity) != identity.get("fingerprint"):
            problems.append(f"{member}: the identity's fingerprint is not the one of its fields (edited)")
        elif identity != first:
            problems.append(
                f"{member}: ran on {identity_short(identity)}, another shard on {identity_short(first)}: one "
                "run, one identity"
            )
    if package.get("identity") != first:
        problems.append(f"{PACKAGE}: its identity is not the results header's")
    return problems


def _waiver_key(waiver: dict) -> str:
    return json.dumps({k: v for k, v in waiver.items() if k != "source"}, sort_keys=True)


def _source_key(waiver: dict) -> str:
    return json.dumps(waiver, sort_keys=True)


def expectation_problems(member: str, path: Path, source: str, header: Header) -> list[str]:
    """The expectations file at `path` (packaged as `member`) gives exactly the waivers the run applied from
    `source`, filtered as the run filtered them (its backend, its versions: conformance.run.session)."""
    try:
        loaded = load_expectations(path)
    except ExpectationsError as e:
        return [f"{member}: {e.json_path + ': ' if e.json_path else ''}{e.message}"]
    if not is_known_issue(source):
        loaded = loaded.for_backend(header.backend, header.backend_spec)
    loaded = loaded.for_versions(header.backend_versions)
    given = [_waiver_key(w.to_json()) for w in loaded.waivers]
    applied = [_waiver_key(w) for w in header.expectations.get("waivers") or () if w.get("source") == source]
    if given == applied:
        return []
    differ = next((i for i, (a, b) in enumerate(zip(given, applied)) if a != b), min(len(given), len(applied)))
    return [
        f"{member}: not the waivers the run applied from {source} (the results header lists {len(applied)}, "
        f"this file gives {len(given)} for this run; they first differ at waiver {differ})"
    ]


def _waivers(shards: dict[str, Results], tree: Path, package: dict, header: Header) -> tuple[list[str], list]:
    """Every waiver the run applied has a tracker and comes from a packaged expectations file that gives
    exactly it; a known-issues file is the installed suite's own; records are waived only by those."""
    problems: list[str] = []
    entries = [e for e in package.get("expectations") or () if isinstance(e, dict)]
    members = {str(e.get("source")): str(e.get("member")) for e in entries}
    sources = [s for s in str(header.expectations.get("path") or "").split(" + ") if s]
    for source in sources:
        member = members.get(source)
        if member is None or not safe_name(member) or not (tree / member).is_file():
            problems.append(
                f"{EXPECTATIONS_DIR}/: the expectations file {source} the run applied is not in the package"
            )
            continue
        problems += expectation_problems(member, tree / member, source, header)
        installed = KNOWN_ISSUES_DIR / PurePosixPath(member).name
        if is_known_issue(source) and VERSION == header.suite_version:
            if not installed.is_file() or installed.read_bytes() != (tree / member).read_bytes():
                problems.append(
                    f"{member}: given as the suite's shipped known issues, but it is not the installed suite's "
                    f"conformance/known_issues/{installed.name}"
                )
    header_waivers = [w for w in header.expectations.get("waivers") or () if isinstance(w, dict)]
    waived = Counter(
        _source_key(r.waiver) for run in shards.values() for r in run.records if r.waiver and r.waived_category
    )
    lines = []
    fields = {f.name for f in dataclasses.fields(Waiver)}
    for w in header_waivers:
        waiver = Waiver(**{k: v for k, v in w.items() if k in fields})
        member = members.get(waiver.source, f"(not packaged: {waiver.source})")
        if waiver.source not in sources:
            problems.append(f"{member}: waiver {waiver.pattern} comes from {waiver.source}, not a file the run applied")
        if needs_tracker(waiver):
            problems.append(
                f"{member}: waiver {waiver.pattern} ({waiver.reason}) has no tracker link: every waiver of a "
                "conformance submission names its bug"
            )
        lines.append(
            WaiverLine(
                waiver.pattern,
                waiver.reason,
                waiver.tracker or "",
                member,
                is_known_issue(waiver.source),
                waived.get(_source_key(w), 0),
            )
        )
    known = {_source_key(w) for w in header_waivers}
    for member, run in shards.items():
        strays = [r.id for r in run.records if r.waiver and _source_key(r.waiver) not in known]
        problems += _listed(member, strays, "waived by a waiver the results header does not list")
    return problems, lines


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _suite(package: dict, header: Header) -> list[str]:
    """The installed suite is the one the run and the package were made with, file for file."""
    made = {str(v) for v in (header.suite_version, package.get("suite_version")) if v}
    if made != {VERSION}:
        shown = " and ".join(sorted(made)) or "(none recorded)"
        return [
            f"{PACKAGE}: made with dml-conformance {shown}, but {VERSION} is installed: verify it with "
            f"`pip install dml-conformance=={sorted(made)[0] if made else '?'}` (the checks that need the suite's "
            "cases and hashes were not made)"
        ]
    problems = []
    recorded = _mapping(package.get("hashes"))
    for part, installed in suite_hashes().items():
        theirs = _mapping(recorded.get(part))
        if theirs.get("sha256") == installed["sha256"]:
            continue
        files = _mapping(theirs.get("files"))
        mine = installed["files"]
        differ = sorted(n for n in set(files) | set(mine) if files.get(n) != mine.get(n))
        shown = ", ".join(
            f"{n} ({'not installed' if n not in mine else 'not in the package' if n not in files else 'differs'})"
            for n in differ[:MAX_LISTED]
        )
        more = f" and {len(differ) - MAX_LISTED} more" if len(differ) > MAX_LISTED else ""
        problems.append(
            f"{PACKAGE}: the {part} hash (SHA-256 of {SUITE_PARTS[part]}) is not the installed suite's: "
            f"{shown or 'the recorded hash alone differs'}{more}"
        )
    return problems


def examine(name: str, tree: Path, package: dict, shards: dict[str, Results], problems: list[str]) -> Statement:
    """Check a package's members (unpacked in `tree`; `shards` its results files, read) and make the
    statement; `problems` are the ones found before (the manifest's, unreadable members), kept first."""
    statement = Statement(name, str(package.get("created", "")), str(package.get("suite_version", "")))
    statement.problems = problems
    runs = merge_shards(list(shards.values()))
    if not runs:
        problems.append(f"{RESULTS_DIR}/: no results file")
        return statement
    if len(runs) > 1:
        problems.append(
            f"{RESULTS_DIR}/: {len(runs)} runs ({', '.join(r.path for r in runs)}); a package holds one run"
        )
        return statement
    run = runs[0]
    header = run.header
    names = {r.path: m for m, r in shards.items()}
    problems += [f"{RESULTS_DIR}/: shard {s} of the run is absent" for s in run.missing_shards]
    first = next(iter(shards))
    statement.not_valid = not_valid_reasons(header)
    problems += [f"{first}: {NOT_VALID}: {reason}" for reason in statement.not_valid]
    suite = _suite(package, header)
    problems += suite
    if not suite:
        problems += _completeness(shards, tree, header)
    problems += _finished(shards)
    problems += _identities(shards, package)
    waiver_problems, statement.waivers = _waivers(shards, tree, package, header)
    problems += waiver_problems
    statement.suite_version = header.suite_version
    statement.hashes = {
        part: str(h.get("sha256", "")) for part, h in (package.get("hashes") or {}).items() if isinstance(h, dict)
    }
    statement.identity = dict(header.identity)
    statement.run = _run_lines(run, header, [names.get(p, p) for p in run.path.split(" + ")])
    _counts_into(statement, run.records)
    statement.notes = [*header.notes, *(f"{m}: {n}" for m, s in shards.items() for n in s.notes)]
    statement.verdict = run.verdict().value
    return statement


def _run_lines(run: Results, header: Header, members: list[str]) -> list[tuple[str, str]]:
    options = ", ".join(f"{k}={v}" for k, v in header.backend_options.items())
    level = header.feature_level + (" (chosen with --feature-level)" if header.config.get("feature_level") else "")
    shards = f"{len(members)} shard files" if len(members) > 1 else "one results file"
    return [
        (
            "run",
            f"backend {header.backend_spec or header.backend}"
            + (f" ({options})" if options else "")
            + (f", label {header.label}" if header.label else "")
            + f"; profile {header.profile}, seed {header.seed}, feature level {level}",
        ),
        (
            "",
            f"{len(run.records)} cases in {shards}; started {header.started}"
            + (f", finished {run.footer.finished}" if run.footer else ", not finished")
            + (f"; retries {header.retries}" if header.retries else ""),
        ),
    ]


def _counts_into(statement: Statement, records: list[Record]) -> None:
    by_op: dict[str, Counter[str]] = {}
    for r in records:
        by_op.setdefault(r.operator, Counter())[r.category.value] += 1
    totals = Counter(r.category.value for r in records)
    statement.categories = [c.value for c in CATEGORIES if totals[c.value]]
    statement.totals = [totals[c] for c in statement.categories]
    order = [*oracle.OPERATORS, *sorted(set(by_op) - set(oracle.OPERATORS))]
    statement.by_operator = [
        (op, [by_op[op][c] for c in statement.categories], sum(by_op[op].values())) for op in order if op in by_op
    ]


# --- verify ---------------------------------------------------------------------------------------


def _unpack(archive: zipfile.ZipFile, manifest: dict[str, str], tree: Path) -> list[str]:
    """Every member hashed against the manifest and unpacked into `tree`; the problems, each naming one."""
    problems = []
    names = [i.filename for i in archive.infolist() if not i.is_dir()]
    for name, n in Counter(names).items():
        if n > 1:
            problems.append(f"{name}: {n} members of this name in the zip")
    for name in sorted(set(names) - {MANIFEST}):
        if not safe_name(name):
            problems.append(f"{name}: not a name a package member has (absolute, or outside the package)")
            continue
        if name not in manifest:
            problems.append(f"{name}: in the package but not in {MANIFEST} (added after packaging)")
        target = tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256()
        try:
            with archive.open(name) as source, target.open("wb") as out:
                while chunk := source.read(1 << 20):
                    digest.update(chunk)
                    out.write(chunk)
        except (zipfile.BadZipFile, OSError, EOFError) as e:
            problems.append(f"{name}: cannot be read from the zip: {e}")
            continue
        if name in manifest and digest.hexdigest() != manifest[name]:
            problems.append(f"{name}: its SHA-256 is not the manifest's: changed after packaging")
    problems += [
        f"{name}: listed in {MANIFEST} but not in the package (removed after packaging)"
        for name in sorted(set(manifest) - set(names))
    ]
    return problems


def _read_members(tree: Path, members: Iterable[str], problems: list[str]) -> dict[str, Results]:
    shards = {}
    for member in members:
        try:
            shards[member] = read_results(tree / member)
        except ResultsFileError as e:
            problems.append(str(e).replace(str(tree) + os.sep, "").replace(str(tree) + "/", ""))
    return shards


def verify(path: str | Path) -> Statement:
    """Check the package at `path` against its manifest and the installed suite (offline: nothing else is
    read); the statement lists every problem.  PackageError when it cannot be read as a package at all."""
    path = Path(path)
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as e:
        raise PackageError(f"{path}: not a readable zip file: {getattr(e, 'strerror', None) or e}") from None
    with archive, tempfile.TemporaryDirectory(prefix="dml-conformance-verify-") as tmp:
        manifest = read_manifest(archive, str(path))
        tree = Path(tmp)
        problems = _unpack(archive, manifest, tree)
        try:
            package = parse_json((tree / PACKAGE).read_bytes(), PACKAGE) if (tree / PACKAGE).is_file() else None
        except PackageError as e:
            problems.append(str(e))
            package = None
        if not isinstance(package, dict) or package.get("format") != FORMAT:
            problems.append(f"{PACKAGE}: missing, or not a {FORMAT} description")
            return Statement(path.name, problems=problems)
        members = sorted(str(p.relative_to(tree).as_posix()) for p in (tree / RESULTS_DIR).glob("*") if p.is_file())
        listed = package.get("results")
        if isinstance(listed, list) and sorted(map(str, listed)) != members:
            problems.append(f"{PACKAGE}: lists the results files {listed}, the package holds {members}")
        shards = _read_members(tree, members, problems)
        return examine(path.name, tree, package, shards, problems)

"""A run's input checks, each done before a file is created or a case runs, each raising UsageError that names the
option or file (the plugin's --dml-* flags with `plugin`): the backend spec and the options given to it, the
expectations file and its waivers, --resume, where results, report and updated expectations go, and the
identity a run must have."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from ..backends.registry import BackendFactory, BackendNotFound, resolve_backend
from ..judging.expectations import Expectations, ExpectationsError, known_issues, load_expectations
from ..support.outputs import EXPECTATIONS, JUNIT, REPORT, RESULTS, Output, being_written, check_folder, check_outputs
from .config import RunConfig, UsageError
from .identity import differences as identity_differences
from .identity import short as identity_short
from .options import BACKEND_KWARGS, conflicts, flag
from .record import Category
from .results import Results, ResultsFileError, read_results, report_path_for
from .selection import Selection


def resume_config(config: RunConfig, plugin: bool) -> tuple[RunConfig, set[str], Results]:
    """--resume: the run configuration its results file's header records, the ids of its cases that have a
    result, and the file read."""
    where = flag("resume", plugin)
    if being_written(str(config.resume)):  # two writers would interleave their lines
        raise UsageError(f"{where}: {config.resume} is still being written by a run; resume it once that run ends")
    try:
        previous = read_results(config.resume)  # type: ignore[arg-type]
    except ResultsFileError as e:
        raise UsageError(f"{where}: {e}") from None
    if not previous.header.config:
        raise UsageError(
            f"{where}: {config.resume} was written by an older dml-conformance (format version "
            f"{previous.header.format_version}) and names no run configuration to resume"
        )
    try:
        resumed = config.with_identity(previous.header.config, str(config.resume))
    except (TypeError, ValueError, KeyError) as e:
        raise UsageError(f"{where}: {config.resume}: the header's run configuration is malformed: {e}") from None
    if config.shard and previous.header.shard and str(config.shard) != str(previous.header.shard):
        raise UsageError(f"{where}: {config.resume} is shard {previous.header.shard}, not {config.shard}")
    resumed = dataclasses.replace(resumed, shard=previous.header.shard)
    finished = {r.id for r in previous.records if r.category is not Category.INTERRUPTED and not r.synthesized}
    return resumed, finished, previous


def backend_factory(config: RunConfig, plugin: bool) -> BackendFactory:
    """The backend the spec names, with every option given to it one it takes."""
    for problem in conflicts(config.given, plugin):
        raise UsageError(problem)
    try:
        factory = resolve_backend(config.backend)
    except BackendNotFound as e:
        raise UsageError(f"{flag('backend', plugin)}: cannot load backend {config.backend!r}: {e}") from None
    for o in BACKEND_KWARGS:
        if getattr(config, o.name) is not None and factory.accepts(o.backend_kwarg or "") is False:
            raise UsageError(
                f"{flag(o.name, plugin)}: backend {config.backend} does not take this option "
                f"(its constructor has no {o.backend_kwarg} parameter)"
            )
    return factory


def run_expectations(config: RunConfig, factory: BackendFactory, plugin: bool) -> Expectations:
    """The waivers the run applies: the backend's known issues (unless --no-known-issues), then the user's file."""
    # A built-in backend's known deviations (conformance/known_issues/<name>.json) are waived
    # by default, visibly: every such case reports `waived` with the reason, never `pass`.
    try:
        expectations = Expectations() if config.no_known_issues else known_issues(factory.name)
        if config.expectations:
            vendor = load_expectations(config.expectations)
            expectations = expectations.extend(vendor.for_backend(factory.name, config.backend))
    except ExpectationsError as e:
        raise UsageError(f"{flag('expectations', plugin)}: {e}") from None
    return expectations


def output_paths(config: RunConfig, plugin: bool) -> tuple[Path | None, Path | None]:
    """Where results and report go, checked before anything runs (conformance.support.outputs: no output
    replaces an input, another output, or a file that is not its own kind made by this suite); the results
    file is created in `start`.  A new run never writes into an existing file, even a results file this
    suite made: that file is another run's record (only --resume continues it, appending)."""
    c = config
    outputs: list[Output] = []
    results: Path | None
    if c.resume:
        results = Path(c.resume)
        folder = results.parent
    elif c.results:
        results = Path(c.results)
        if results.exists() or results.is_symlink():
            raise UsageError(
                f"{flag('results', plugin)}: {results} exists; results files are never overwritten "
                f"(continue it with {flag('resume', plugin)}, or choose another name)"
            )
        outputs.append(Output(flag("results", plugin), results, RESULTS))
        folder = results.parent
    else:
        results, folder = None, Path(c.out)
        check_folder(folder, flag("out", plugin))
    report = None if c.report_off else Path(c.report) if c.report else None
    if report is None and results is not None and not c.report_off:
        report = report_path_for(results)
    if report is not None:
        outputs.append(Output(flag("report", plugin), report, REPORT))
    if c.junit_xml:
        outputs.append(Output(flag("junit_xml", plugin), Path(c.junit_xml), JUNIT))
    if c.update_expectations:  # in place (the file it was given) or a new name
        update = Path(c.update_expectations)
        keep = Path(c.expectations) if c.expectations else None
        outputs.append(Output(flag("update_expectations", plugin), update, EXPECTATIONS, keep=keep))
    inputs = [(flag("expectations", plugin), Path(c.expectations))] if c.expectations else []
    inputs += [(flag("resume", plugin), Path(c.resume))] if c.resume else []
    inputs += [(flag("cases", plugin), Path(p)) for p in c.cases or ()]
    check_outputs(outputs, inputs)
    if report is None and results is None and not c.report_off:
        check_folder(folder, flag("out", plugin))
    return results, report


def check_vendor_waivers(config: RunConfig, expectations: Expectations, selection: Selection, plugin: bool) -> None:
    """A vendor's waiver that names no case of the suite (a typo, a case since renamed) would waive nothing,
    silently: refuse the file, naming the entry (`dml-conformance expectations lint` says the same)."""
    if not config.expectations:
        return
    from .lint import case_keys, load_problems

    source = str(config.expectations)
    problems = load_problems(expectations, source, case_keys(w.unit for w in selection.works))
    if problems:
        raise UsageError(
            f"{flag('expectations', plugin)}: {source}: " + "; ".join(problems) + " (`dml-conformance expectations "
            "lint` checks a file without running)"
        )


def check_update_target(config: RunConfig, plugin: bool) -> None:
    """--update-expectations needs --expectations (its target is checked with the other outputs)."""
    if config.update_expectations and not config.expectations:
        raise UsageError(
            f"{flag('update_expectations', plugin)} needs {flag('expectations', plugin)}: it writes that file "
            "without its stale waivers"
        )


def check_identity(config: RunConfig, expectations: Expectations, identity: dict[str, str], plugin: bool) -> str | None:
    """--expect-adapter, and the identity an expectations file was made on (exit 2 before any case); the
    difference's text when --allow-identity-mismatch applies the file anyway (the report says so)."""
    c = config
    adapter = identity.get("adapter", "")
    if c.expect_adapter and not re.search(c.expect_adapter, adapter):
        raise UsageError(
            f"{flag('expect_adapter', plugin)} {c.expect_adapter!r}: this run's adapter is "
            f"{adapter or '(none: the backend reports no adapter)'!r}; nothing was run"
        )
    made_on = expectations.identities.get(identity.get("backend", ""))
    if made_on and made_on.get("fingerprint") != identity.get("fingerprint"):
        differ = identity_differences(made_on, identity)
        text = (
            f"{expectations.identity_source} was made on {identity_short(made_on)}, this run is "
            f"{identity_short(identity)}; they differ in " + "; ".join(differ)
        )
        if not c.allow_identity_mismatch:
            raise UsageError(f"{text}. Give {flag('allow_identity_mismatch', plugin)} to apply it anyway")
        return text
    return None

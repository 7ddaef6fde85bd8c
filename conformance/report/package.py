"""`dml-conformance package`: one run as a zip a third party can check, offline.

The members, the manifest and the suite's hashes are package_format.py's; the statement a package
carries (statement.html, and its stamp in package.json) is made by verify.py's checks, the same ones
`verify` runs on it later.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from oracle.version import VERSION

from ..judging.expectations import KNOWN_ISSUES_DIR, is_known_issue
from ..run.config import UsageError
from ..run.outputs import ReportError
from ..run.record import Header
from ..run.results import Results, merge_shards, read_results
from ..support.outputs import PACKAGE as PACKAGE_KIND
from ..support.outputs import check_output, write_atomic
from .html import write_report
from .package_format import (
    EXPECTATIONS_DIR,
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    NOT_VALID,
    PACKAGE,
    REPORT,
    RESULTS_DIR,
    STATEMENT,
    PackageError,
    sha256_hex,
    suite_hashes,
)
from .render import write_page
from .verify import Statement, examine, expectation_problems

# --- package -----------------------------------------------------------------------------------------


def _member(directory: str, name: str, taken: Iterable[str]) -> str:
    """`directory/name`, or `directory/N-name` when that is taken (two shards named alike in two folders)."""
    taken = set(taken)
    candidate, n = f"{directory}/{name}", 1
    while candidate in taken:
        n += 1
        candidate = f"{directory}/{n}-{name}"
    return candidate


def _check_output(output: Path, results: list[Path], expectations: Path | None, force: bool) -> None:
    """The rule of conformance.support.outputs: an existing file only if it is a package, and only with --force."""
    inputs = [("RESULTS", p) for p in results] + ([("--expectations", expectations)] if expectations else [])
    try:
        check_output("-o", output, PACKAGE_KIND, inputs=inputs, force=force)
    except UsageError as e:
        raise PackageError(str(e)) from None


def _expectation_sources(header: Header, moved: Path | None) -> list[tuple[str, Path]]:
    """Each expectations file the run applied (the header's `path`), and where it is now: a backend's known
    issues where the run read them or in the installed suite; a vendor's file where the run read it, or
    `moved` (--expectations: a CI job that merges shards has it at another path)."""
    out = []
    sources = [s for s in str(header.expectations.get("path") or "").split(" + ") if s]
    if moved is not None and all(is_known_issue(s) for s in sources):
        raise PackageError(f"--expectations {moved}: the run applied no expectations file of its own")
    for source in sources:
        candidates = [Path(source)]
        if is_known_issue(source):
            candidates.append(KNOWN_ISSUES_DIR / Path(source).name)
        elif moved is not None:
            candidates = [moved]
        elif header.config.get("expectations"):
            candidates.insert(0, Path(str(header.config["expectations"])))
        found = next((p for p in candidates if p.is_file()), None)
        if found is None:
            raise PackageError(
                f"{candidates[0]}: the expectations file this run applied is not there; it must be packaged "
                "(--expectations FILE: where it is now)"
            )
        out.append((source, found))
    return out


def build_package(
    results: list[str | Path], output: str | Path, *, expectations: str | Path | None = None, force: bool = False
) -> tuple[Path, Statement]:
    """Write the package of one run (every shard's results file) to `output`; its statement.

    PackageError (naming the file) for what cannot be packaged: a file that is not a results file, results
    of several runs, a missing shard, results of another suite version, an expectations file that is gone
    or has changed since the run, an output that is a results file or not a package."""
    output = Path(output)
    paths = [Path(p) for p in results]
    _check_output(output, paths, Path(expectations) if expectations else None, force)
    shards = [read_results(p) for p in paths]  # ResultsFileError names the file
    runs = merge_shards(shards)
    if len(runs) != 1:
        raise PackageError(
            f"these are {len(runs)} runs ({'; '.join(r.path for r in runs)}): a package holds one run (its shards)"
        )
    run = runs[0]
    if run.missing_shards:
        raise PackageError(
            f"{run.path}: shard {', '.join(map(str, run.missing_shards))} of this run is missing: give every "
            "shard's results file"
        )
    header = run.header
    if header.suite_version != VERSION:
        raise PackageError(
            f"{run.path}: made by dml-conformance {header.suite_version}, this is {VERSION}: package it with "
            f"the suite that ran it (pip install dml-conformance=={header.suite_version})"
        )
    sources = _expectation_sources(header, Path(expectations) if expectations else None)
    with tempfile.TemporaryDirectory(prefix="dml-conformance-package-") as tmp:
        tree = Path(tmp)
        members: dict[str, Results] = {}
        for path, shard in zip(paths, shards):
            member = _member(RESULTS_DIR, path.name, members)
            (tree / RESULTS_DIR).mkdir(exist_ok=True)
            shutil.copyfile(path, tree / member)
            members[member] = shard
        applied: list[dict[str, Any]] = []
        for source, path in sources:
            member = _member(EXPECTATIONS_DIR, path.name, [e["member"] for e in applied])
            (tree / EXPECTATIONS_DIR).mkdir(exist_ok=True)
            shutil.copyfile(path, tree / member)
            problems = expectation_problems(str(path), tree / member, source, header)
            if problems:
                raise PackageError(problems[0] + "; it has changed since the run: package the file the run applied")
            applied.append({"member": member, "source": source, "known_issues": is_known_issue(source)})
        try:
            write_report([run], tree / REPORT)
        except ReportError as e:
            raise PackageError(str(e)) from None
        package: dict[str, Any] = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "suite_version": VERSION,
            "identity": header.identity,
            "run": {
                "backend": header.backend,
                "label": header.label,
                "profile": header.profile,
                "seed": header.seed,
                "run_ids": [s.header.run_id for s in shards],
            },
            "results": list(members),
            "expectations": applied,
            "report": REPORT,
            "statement": STATEMENT,
            "hashes": suite_hashes(),
        }
        (tree / PACKAGE).write_text(json.dumps(package, indent=1) + "\n", encoding="utf-8")
        statement = examine(output.name, tree, package, members, [])
        # The stamp, in the package as in the statement: a quick, stress or filtered run is never taken for one.
        package["conformance"] = {
            "valid": statement.valid,
            "stamp": "" if statement.valid else NOT_VALID,
            "problems": statement.problems,
        }
        (tree / PACKAGE).write_text(json.dumps(package, indent=1) + "\n", encoding="utf-8")
        try:
            write_page(statement.html(), tree / STATEMENT, "the statement")
        except ReportError as e:
            raise PackageError(str(e)) from None
        _write_zip(tree, output)
    return output, statement


def _write_zip(tree: Path, output: Path) -> None:
    """The members and their manifest, written atomically (a temporary file next to `output`, renamed)."""
    names = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file())
    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "algorithm": "sha256",
        "files": {n: sha256_hex((tree / n).read_bytes()) for n in names},
    }

    def write(f) -> None:
        with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(MANIFEST, json.dumps(manifest, indent=1) + "\n")
            for name in names:
                archive.write(tree / name, name)

    try:
        write_atomic(output, write)
    except OSError as e:
        raise PackageError(f"-o: cannot write {output}: {e.strerror or e}") from None

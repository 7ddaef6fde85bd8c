"""A conformance package's format, shared by `package` (package.py) and `verify` (verify.py).

Why: a results file and a report do not say which suite, oracle and profile made them, nor that
nothing was left out (Khronos' conformance submissions, OpenCL-CTS and SYCL-CTS ship a package
and a verifier for this).  A package holds

    manifest.json       the SHA-256 of every other file (and nothing else)
    package.json        what the package is: suite version, the run's identity, the hashes below,
                        which member is which, and the stamp made when it was packaged
    results/*.jsonl     the run's results files as written (every shard)
    expectations/*.json the expectations files the run applied (its header records them)
    report.html         the report of the run (conformance.report.html)
    statement.html      the conformance statement (templates/statement.html.j2)

The suite's hashes (SUITE_PARTS) are taken from the installed suite when packaging and again when
verifying: `corpus` is every stored case file (`*.json` under the corpus folder, `cases/` in a
checkout, `conformance/_cases/` in a wheel, named `cases/...`) and the code that loads and makes
cases (`conformance/cases/**/*.py`: run-time generation, the reach set, compositions, stress
recipes); `oracle` is `oracle/**/*.py`; `judging` is `conformance/judging/**/*.py` (comparison,
deviation models, waivers) and `conformance/known_issues/*.json`.  A part's hash is the SHA-256 of
its `sha256sum`-style listing (`<file sha256>  <name>\\n` per file, sorted by name), and each
file's own hash is kept, so a difference names the file.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

import oracle

from ..cases.corpus import CASES_DIR
from ..judging.expectations import KNOWN_ISSUES_DIR
from ..support.outputs import PACKAGE_FORMAT, PACKAGE_MANIFEST

FORMAT = PACKAGE_FORMAT  # the package kind's marker (conformance.support.outputs)
FORMAT_VERSION = 1
MANIFEST = PACKAGE_MANIFEST
PACKAGE = "package.json"
REPORT = "report.html"
STATEMENT = "statement.html"
RESULTS_DIR = "results"
EXPECTATIONS_DIR = "expectations"
NOT_VALID = "not valid for conformance"

_CONFORMANCE = Path(__file__).resolve().parents[1]  # conformance/
_ORACLE = Path(oracle.__file__).resolve().parent
# What each hashed part is, in the words the statement prints.
SUITE_PARTS = {
    "corpus": "the stored case files and the code that loads and makes cases",
    "oracle": "the oracle's code",
    "judging": "the comparison and waiver code and the shipped known issues",
}


class PackageError(Exception):
    """Input that cannot be packaged, or a package that cannot be read at all (exit 2); names the file."""


# --- the suite's hashes -----------------------------------------------------------------------------


def _tree(root: Path, pattern: str, prefix: str) -> dict[str, Path]:
    return {f"{prefix}/{p.relative_to(root).as_posix()}": p for p in root.rglob(pattern) if p.is_file()}


def suite_files() -> dict[str, dict[str, Path]]:
    """Each hashed part's files, by the name they have in every installation (checkout or wheel)."""
    return {
        "corpus": {**_tree(CASES_DIR, "*.json", "cases"), **_tree(_CONFORMANCE / "cases", "*.py", "conformance/cases")},
        "oracle": _tree(_ORACLE, "*.py", "oracle"),
        "judging": {
            **_tree(_CONFORMANCE / "judging", "*.py", "conformance/judging"),
            **_tree(KNOWN_ISSUES_DIR, "*.json", "conformance/known_issues"),
        },
    }


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def part_digest(files: dict[str, str]) -> str:
    """A part's hash from its files' hashes: the SHA-256 of the sorted `sha256sum` listing."""
    return sha256_hex("".join(f"{files[name]}  {name}\n" for name in sorted(files)).encode())


@cache
def suite_hashes() -> dict[str, dict[str, Any]]:
    """The installed suite's hashes (once per process: the installed files do not change under it)."""
    out: dict[str, dict[str, Any]] = {}
    for part, files in suite_files().items():
        hashes = {name: sha256_hex(path.read_bytes()) for name, path in sorted(files.items())}
        out[part] = {"sha256": part_digest(hashes), "what": SUITE_PARTS[part], "files": hashes}
    return out


def parse_json(data: bytes, where: str) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise PackageError(f"{where}: not a JSON file: {e}") from None


def safe_name(name: str) -> bool:
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts and "\\" not in name and ":" not in name


def read_manifest(archive: zipfile.ZipFile, where: str) -> dict[str, str]:
    """The manifest's file -> SHA-256; PackageError when the zip has none that can be read."""
    try:
        data = archive.read(MANIFEST)
    except KeyError:
        raise PackageError(f"{where}: no {MANIFEST}: not a dml-conformance package") from None
    manifest = parse_json(data, f"{where}: {MANIFEST}")
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or not isinstance(files, dict):
        raise PackageError(f"{where}: {MANIFEST} is not a {FORMAT} manifest (format, files)")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise PackageError(
            f"{where}: {MANIFEST}: format_version {manifest.get('format_version')!r}; this dml-conformance reads "
            f"{FORMAT_VERSION}"
        )
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        raise PackageError(f"{where}: {MANIFEST}: files must map each name to its SHA-256 (text)")
    return files

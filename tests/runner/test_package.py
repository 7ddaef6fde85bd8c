"""`dml-conformance package` and `verify` (issue 23, item 3): a run a third party can check, offline.

One real full-profile run (the oracle backend, the fastest: two shards side by side) and one quick run
per module; every other package here is one of theirs edited by hand, as a forger would, with the
manifest recomputed or not.  `package` and `verify` run in this process (`conformance.cli.main`), so the
installed suite's expected cases and hashes are computed once.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import subprocess
import sys
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from runner_helpers import env

from conformance.cli import main
from conformance.report.package_format import part_digest
from conformance.report.verify import not_valid_reasons
from conformance.run.config import RunConfig
from conformance.run.record import FORMAT, FORMAT_VERSION, Header
from oracle import DataType

TRACKER = "https://bugs.example/7"
WAIVED_ID = "SLICE-example-1"
UNTRACKED_REASON = "no bug filed <script>alert(1)</script>"  # text from a vendor's file: never markup


def dml(*args: str) -> tuple[int, str, str]:
    """The CLI in this process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def _start(out: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "run", "--backend", "oracle", "--out", str(out), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env(),
    )


def _expectations(folder: Path, name: str, waiver: dict) -> Path:
    path = folder / name
    path.write_text(json.dumps({"schema_version": 1, "waivers": [waiver]}))
    return path


@pytest.fixture(scope="module")
def full_shards(tmp_path_factory) -> list[Path]:
    """The full profile on the oracle, as two shards run side by side, with a tracked (stale) waiver."""
    from conformance.run.options import PROFILE_TABLE
    from conformance.run.selection import generated_cases

    generated_cases(0, PROFILE_TABLE["full"].generated)  # once, into the session's cache, not in both shards
    out = tmp_path_factory.mktemp("full")
    tracked = _expectations(out, "tracked.json", {"id": WAIVED_ID, "reason": "seen on build 7", "tracker": TRACKER})
    procs = [
        _start(out / str(i), "--profile", "full", "--shard", f"{i}/2", "--jobs", "1", "--expectations", str(tracked))
        for i in (1, 2)
    ]
    for proc in procs:
        output, _ = proc.communicate(timeout=1800)
        assert proc.returncode == 0, output
    return [next((out / str(i)).glob("results-*.jsonl")) for i in (1, 2)]


@pytest.fixture(scope="module")
def full_package(full_shards, tmp_path_factory) -> tuple[Path, int, str, str]:
    path = tmp_path_factory.mktemp("package") / "acme.zip"
    return (path, *dml("package", *map(str, full_shards), "-o", str(path)))


@pytest.fixture(scope="module")
def quick_package(tmp_path_factory) -> tuple[Path, int, str, str]:
    """A quick run (the default profile), with a waiver that names no tracker."""
    out = tmp_path_factory.mktemp("quick")
    untracked = _expectations(out, "untracked.json", {"id": WAIVED_ID, "reason": UNTRACKED_REASON})
    proc = _start(out, "--expectations", str(untracked))
    output, _ = proc.communicate(timeout=900)
    assert proc.returncode == 0, output
    path = out / "quick.zip"
    return (path, *dml("package", str(next(out.glob("results-*.jsonl"))), "-o", str(path)))


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _rewrite(src: Path, dst: Path, edit: Callable[[dict[str, bytes]], None], *, manifest: bool) -> Path:
    """`src` with its members edited; with `manifest`, the manifest recomputed too (so the hashes match)."""
    files = _members(src)
    edit(files)
    if manifest:
        listing = json.loads(files["manifest.json"])
        listing["files"] = {n: hashlib.sha256(b).hexdigest() for n, b in files.items() if n != "manifest.json"}
        files["manifest.json"] = json.dumps(listing).encode()
    with zipfile.ZipFile(dst, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return dst


def _shard_member(files: dict[str, bytes], shard: int) -> str:
    return next(n for n in files if n.startswith("results/") and f'"shard":{{"index":{shard}'.encode() in files[n])


def _case_line(data: bytes, category: str = "pass") -> tuple[bytes, str]:
    line = next(x for x in data.splitlines() if b'"kind":"case"' in x and f'"category":"{category}"'.encode() in x)
    return line, json.loads(line)["id"]


# --- a full run: packaged, then verified ------------------------------------------------------------


def test_a_full_run_packages_and_verifies_with_its_statement(full_shards, full_package):
    path, code, out, err = full_package
    assert code == 0, out + err
    assert "VALID" in out and "not valid" not in (out + err).lower()
    files = _members(path)
    # Two shards started in the same second share a file name: the second is packaged as 2-<name>
    first, second = full_shards
    names = [f"results/{first.name}", f"results/{'2-' if second.name == first.name else ''}{second.name}"]
    assert set(files) == {
        "manifest.json",
        "package.json",
        "report.html",
        "statement.html",
        "expectations/tracked.json",
        *names,
    }
    for shard, name in zip(full_shards, names):
        assert files[name] == shard.read_bytes()  # as written, byte for byte
    manifest = json.loads(files["manifest.json"])
    assert manifest["files"] == {n: hashlib.sha256(b).hexdigest() for n, b in files.items() if n != "manifest.json"}

    code, out, err = dml("verify", str(path))
    assert code == 0, out + err
    header = json.loads(full_shards[0].read_text().split("\n", 1)[0])
    assert f"[{header['identity']['fingerprint']}]" in out and "backend=oracle" in out
    last = {}  # each case's last record, read from the files themselves
    for shard in full_shards:
        for line in shard.read_text().splitlines():
            obj = json.loads(line)
            if obj["kind"] == "case":
                last[obj["id"]] = obj["category"]
    counts = Counter(last.values())
    assert set(counts) == {"pass", "observed"}  # the oracle agrees with itself; unspecified cases are observed
    assert f"results   pass {counts['pass']}, observed {counts['observed']}" in out
    assert f"{len(last)} cases in 2 shard files" in out and "profile full, seed 0" in out
    assert f"{WAIVED_ID}: 0 case(s) waived; tracker {TRACKER}; expectations/tracked.json" in out
    assert "verdict   PASS" in out and "problem:" not in out
    statement = files["statement.html"].decode()
    assert (
        "DirectML data-movement conformance statement" in statement and header["identity"]["fingerprint"] in statement
    )
    assert TRACKER in statement and "VALID: a conformance package" in statement


def test_one_record_removed_with_the_manifest_recomputed_is_named(full_package, tmp_path):
    path = full_package[0]
    removed = {}

    def drop(files):
        member = _shard_member(files, 2)
        line, removed[member] = _case_line(files[member])
        files[member] = files[member].replace(line + b"\n", b"")

    edited = _rewrite(path, tmp_path / "removed.zip", drop, manifest=True)
    code, out, _ = dml("verify", str(edited))
    ((member, case_id),) = removed.items()
    assert code == 1
    assert f"problem: {member}: case {case_id}: no record (a case of the full profile, seed 0)" in out
    assert "SHA-256" not in out.split("DirectML data-movement")[0]  # the hashes match: completeness caught it
    assert "NOT VALID" not in out and "INVALID" in out


def test_one_records_category_edited_fails_the_hash_check_naming_the_file(full_package, tmp_path):
    path = full_package[0]
    names = []

    def flip(files):
        member = _shard_member(files, 1)
        line, _ = _case_line(files[member])
        files[member] = files[member].replace(line, line.replace(b'"category":"pass"', b'"category":"fail"'))
        names.append(member)

    edited = _rewrite(path, tmp_path / "edited.zip", flip, manifest=False)
    code, out, _ = dml("verify", str(edited))
    assert code == 1
    assert f"problem: {names[0]}: its SHA-256 is not the manifest's: changed after packaging" in out
    assert "verdict   FAIL" in out  # the statement shows what the file now says, and that it is not to be believed


def test_a_duplicated_record_and_an_absent_shard_are_named(full_package, tmp_path):
    path = full_package[0]
    seen = {}

    def duplicate(files):
        member = _shard_member(files, 1)
        line, seen["id"] = _case_line(files[member])
        files[member] = files[member].replace(line, line + b"\n" + line.replace(b'"pass"', b'"fail"'))
        seen["member"] = member

    code, out, _ = dml("verify", str(_rewrite(path, tmp_path / "dup.zip", duplicate, manifest=True)))
    assert code == 1
    assert f"problem: {seen['member']}:" in out and f"a second record of case {seen['id']}" in out

    def drop_shard(files):
        member = _shard_member(files, 2)
        del files[member]
        package = json.loads(files["package.json"])
        package["results"].remove(member)
        files["package.json"] = json.dumps(package).encode()

    code, out, _ = dml("verify", str(_rewrite(path, tmp_path / "half.zip", drop_shard, manifest=True)))
    assert code == 1 and "problem: results/: shard 2/2 of the run is absent" in out


def test_package_refuses_a_missing_shard_a_file_that_is_not_results_and_an_output_that_is_one(
    full_shards, full_package, tmp_path
):
    code, _, err = dml("package", str(full_shards[0]), "-o", str(tmp_path / "half.zip"))
    assert code == 2 and "shard 2/2 of this run is missing" in err and str(full_shards[0]) in err
    tracked = full_shards[0].parent.parent / "tracked.json"
    code, _, err = dml("package", str(tracked), "-o", str(tmp_path / "x.zip"))
    assert code == 2 and str(tracked) in err and "header" in err
    code, _, err = dml("package", *map(str, full_shards), "-o", str(full_shards[1]))
    assert code == 2 and f"{full_shards[1]} is an input of this command (RESULTS)" in err
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    code, _, err = dml("package", *map(str, full_shards), "-o", str(other))
    assert code == 2 and "is not a dml-conformance package; it is never overwritten" in err
    assert other.read_text() == "mine" and not (tmp_path / "half.zip").exists()
    code, _, err = dml("package", *map(str, full_shards), "-o", str(full_package[0]))
    assert code == 2 and "exists (a dml-conformance package); give --force to replace it" in err


# --- a quick run: packaged, stamped, refused ----------------------------------------------------------


def test_a_quick_run_is_stamped_not_valid_for_conformance(quick_package):
    path, code, out, err = quick_package
    assert code == 0 and "is stamped 'not valid for conformance'" in err
    files = _members(path)
    assert json.loads(files["package.json"])["conformance"]["stamp"] == "not valid for conformance"
    assert "NOT VALID FOR CONFORMANCE" in files["statement.html"].decode()
    code, out, _ = dml("verify", str(path))
    member = next(n for n in files if n.startswith("results/"))
    assert code == 1
    assert f"problem: {member}: not valid for conformance: profile quick (a conformance run is the full profile)" in out
    assert "package   NOT VALID FOR CONFORMANCE: profile quick" in out
    assert "(2 problem(s))" in out  # this and the untracked waiver: the quick profile's cases are all there


def test_a_waiver_without_a_tracker_is_named_with_its_file(quick_package):
    code, out, _ = dml("verify", str(quick_package[0]))
    assert code == 1
    assert f"problem: expectations/untracked.json: waiver {WAIVED_ID} ({UNTRACKED_REASON}) has no tracker link" in out
    assert f"{WAIVED_ID}: 0 case(s) waived; tracker NONE" in out
    statement = _members(quick_package[0])["statement.html"].decode()
    assert "no bug filed &lt;script&gt;alert(1)&lt;/script&gt;" in statement and "<script>alert" not in statement


def test_the_expectations_file_must_be_the_one_the_run_applied(quick_package, tmp_path):
    """Moved (a CI job that merges shards has it elsewhere): found with --expectations; changed: refused."""
    results = str(next(quick_package[0].parent.glob("results-*.jsonl")))
    applied = quick_package[0].parent / "untracked.json"
    moved = tmp_path / "moved.json"
    applied.rename(moved)
    try:
        code, _, err = dml("package", results, "-o", str(tmp_path / "a.zip"))
        assert code == 2 and f"{applied}: the expectations file this run applied is not there" in err
        code, _, err = dml("package", results, "-o", str(tmp_path / "b.zip"), "--expectations", str(moved))
        assert code == 0, err
        assert json.loads(_members(tmp_path / "b.zip")["expectations/moved.json"]) == json.loads(moved.read_text())
        waivers = json.loads(moved.read_text())
        waivers["waivers"][0]["tracker"] = TRACKER  # added after the run: not what the run applied
        moved.write_text(json.dumps(waivers))
        code, _, err = dml("package", results, "-o", str(tmp_path / "c.zip"), "--expectations", str(moved))
        assert code == 2 and f"{moved}: not the waivers the run applied" in err and "changed since the run" in err
    finally:
        moved.rename(applied)


def test_an_added_and_a_removed_member_are_named(quick_package, tmp_path):
    def edit(files):
        files["notes.txt"] = b"added"
        del files["report.html"]

    code, out, _ = dml("verify", str(_rewrite(quick_package[0], tmp_path / "e.zip", edit, manifest=False)))
    assert code == 1
    assert "problem: notes.txt: in the package but not in manifest.json (added after packaging)" in out
    assert "problem: report.html: listed in manifest.json but not in the package (removed after packaging)" in out


def test_another_suite_version_says_which_to_install(quick_package, tmp_path):
    def edit(files):
        for name in files:
            if name.startswith("results/") or name == "package.json":
                files[name] = files[name].replace(b'"suite_version":"0.1.0"', b'"suite_version":"0.0.9"')
                files[name] = files[name].replace(b'"suite_version": "0.1.0"', b'"suite_version": "0.0.9"')

    code, out, _ = dml("verify", str(_rewrite(quick_package[0], tmp_path / "v.zip", edit, manifest=True)))
    assert code == 1
    assert "made with dml-conformance 0.0.9" in out and "pip install dml-conformance==0.0.9" in out


def test_a_corpus_file_that_differs_from_the_installed_one_is_named(quick_package, tmp_path):
    def edit(files):
        package = json.loads(files["package.json"])
        package["hashes"]["corpus"]["files"]["cases/curated/SLICE.json"] = "0" * 64
        package["hashes"]["corpus"]["sha256"] = "0" * 64
        files["package.json"] = json.dumps(package).encode()

    code, out, _ = dml("verify", str(_rewrite(quick_package[0], tmp_path / "h.zip", edit, manifest=True)))
    assert code == 1
    assert "the corpus hash (SHA-256 of the stored case files" in out and "cases/curated/SLICE.json (differs)" in out
    assert "the oracle hash" not in out


def test_what_is_not_a_package_is_an_input_error(tmp_path):
    text = tmp_path / "x.zip"
    text.write_text("not a zip")
    code, _, err = dml("verify", str(text))
    assert code == 2 and f"{text}: not a readable zip file" in err
    bare = tmp_path / "bare.zip"
    with zipfile.ZipFile(bare, "w") as archive:
        archive.writestr("results/r.jsonl", "{}")
    code, _, err = dml("verify", str(bare))
    assert code == 2 and "no manifest.json: not a dml-conformance package" in err
    code, _, err = dml("verify", str(tmp_path / "absent.zip"))
    assert code == 2 and "absent.zip" in err


# --- the rules, alone ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({}, None),
        ({"feature_level": None, "no_known_issues": True, "label": "nightly"}, None),
        ({"profile": "quick"}, "profile quick (a conformance run is the full profile)"),
        ({"profile": "stress"}, "profile stress (a conformance run is the full profile)"),
        ({"operators": ("SLICE", "PADDING")}, "filtered with --operators SLICE,PADDING"),
        ({"data_types": (DataType.FLOAT16,)}, "filtered with --data-types FLOAT16"),
        ({"case": ("SLICE-*",)}, "filtered with --case SLICE-*"),
        ({"exclude": ("JOIN-*",)}, "filtered with --exclude JOIN-*"),
        ({"keyword": "not FLOAT16"}, "filtered with --keyword not FLOAT16"),
        ({"generated": 100}, "--generated 100 (the full profile has 20000)"),
        ({"hypothesis_examples": 0}, "--hypothesis-examples 0 (the full profile has 500)"),
    ],
)
def test_which_runs_are_valid_for_conformance(options, reason):
    config = RunConfig(**{"profile": "full", **options})
    header = Header(FORMAT, FORMAT_VERSION, profile=config.profile, config=config.identity())
    reasons = not_valid_reasons(header)
    assert reasons == ([] if reason is None else [reason]), reasons


def test_a_custom_corpus_is_not_valid(tmp_path):
    header = Header(
        FORMAT, FORMAT_VERSION, profile="full", config=RunConfig(profile="full", cases=("mine",)).identity()
    )
    assert not_valid_reasons(header) == [f"filtered with --cases {Path('mine').resolve()}"]


def test_a_part_hash_is_the_sha256_of_its_sha256sum_listing():
    listing = b"22  a/x.json\n11  b.py\n"  # sorted by name, two spaces, as sha256sum prints
    assert part_digest({"b.py": "11", "a/x.json": "22"}) == hashlib.sha256(listing).hexdigest()

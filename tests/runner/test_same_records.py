"""Nothing a run says changes when its path gets faster (issue 30): the quick profile on every backend available here
gives, record for record, the id, category, reason and content (tensors, digests, mismatch: the output bytes a record
keeps) that the code before the speed work gave (its commit is in the stored set).

The stored set (data/records-before-speed.json.gz) was made by that commit's code from one quick run per backend:
`python tests/runner/test_same_records.py COMMIT RESULTS.jsonl...` writes it (the backend from each file's header).
A change that means to change what a run says (new cases, a new verdict) makes it again, from its own parent.
Per record: its category, its reason and a short digest of everything else it says, timings excluded (they
are the only part that changes from run to run).  A pass keeps no outputs: "bit-exact" says they are the
expected bytes, which the oracle made, and the digest covers the expected values stored where a record holds any.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import sys
from pathlib import Path

import pytest
from runner_helpers import cli

STORED = Path(__file__).resolve().parent / "data" / "records-before-speed.json.gz"
# What may differ between two runs of the same code: how long things took, and where the suite is installed (a
# stored case's `source`, a waiver's known-issues file: kept from their cases/ or known_issues/ folder on).
VOLATILE = ("timings",)
# A crash's reason quotes the dead process's last stderr lines: where DirectML faulted (its FILL_VALUE_SEQUENCE graph
# node reads uninitialised memory: 0x38 one run, 0xFFFFFFFFFFFFFFFF the next) and Wine's thread number.  What a run
# says of the crash is the rest: the category, the waiver, how the runner ended.
STDERR = re.compile(r"(--- last stderr lines ---\n).*?(?= at conformance/|$)", re.S)
# The suite's own frame a raised exception is named at (conformance.run.execute.describe_exception) keeps its file,
# not its line number: an edit above the raise moves it and changes nothing a run says.
FRAME = re.compile(r"( at conformance/[\w/.]+\.py):\d+")
INSTALLED = re.compile(r'"[^"]*?[/\\](?:conformance[/\\])?_?(cases|known_issues)[/\\]')
DIRECTML = ("directml", "onnxruntime-directml")
# Which write lands on a target written more than once (U-SCATTER-1, U-SCATND-1) varies from run to run on DirectML
# over lavapipe: SCATTER-1d4b8fcf run alone 60 times gave one output 57 times and two others 3 times (2026-11-27).
# What such a record says of its open elements (the oracle's policy matched or not, their values) is that race; on
# the DirectML backends only its category is compared.
RACING = {"U-SCATTER-1", "U-SCATND-1"}
# Live Hypothesis units are left out: the stored set's code drew them with the literal constants Hypothesis mined
# from the modules loaded from outside site-packages, so they changed with any constant added to the suite's code
# and between a checkout and an install (conformance.run.live now draws without them: tests/runner/test_live.py
# holds a unit's record the same replayed or drawn).  Their examples go through the per-case path compared here.
LIVE = "hypothesis"  # the records' flag


def record_set(path: Path) -> tuple[str, dict[str, list[str]]]:
    """A results file's backend and, per case id, [category, reason, digest of the rest]."""
    backend, out = "", {}
    for line in path.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        if obj["kind"] == "header":
            backend = obj["backend_spec"]
        if obj["kind"] != "case" or obj.get(LIVE):
            continue  # a live unit: see LIVE
        rest = {k: v for k, v in obj.items() if k not in (*VOLATILE, "id", "category", "reason")}
        text = INSTALLED.sub(r'"\1/', json.dumps(rest, sort_keys=True, separators=(",", ":")))
        digest = hashlib.sha256(text.encode()).hexdigest()[:8]
        out[obj["id"]] = [obj["category"], STDERR.sub(r"\1...", obj["reason"]), digest]
    return backend, out


def _operator(case_id: str) -> str:
    """The operator (or composition kind) a case id starts with: `SLICE1-example-2` -> `SLICE1`."""
    return case_id.split("-", 1)[0]


def _racing(path: Path) -> set[str]:
    """The ids of a results file's cases that reach an open element RACING names."""
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        if obj["kind"] == "case" and RACING & set(obj.get("unspecified") or ()):
            out.add(obj["id"])
    return out


def _unmoved(record: list[str]) -> list[str]:
    """[category, reason, digest] with the reason's frame line numbers left out (FRAME)."""
    return [record[0], FRAME.sub(r"\1", record[1]), record[2]]


def _stored() -> dict[str, dict[str, list[str]]]:
    return json.loads(gzip.decompress(STORED.read_bytes()))["backends"]


@pytest.mark.parametrize("backend", ["oracle", "onnxruntime-cpu", "onnx-reference", *DIRECTML])
def test_quick_profile_says_what_the_code_before_said(backend: str, tmp_path: Path) -> None:
    if backend in DIRECTML:
        from prerequisite import require_directml

        require_directml()
    proc = cli("run", "--backend", backend, "--out", str(tmp_path), "--report", "none", timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (results,) = tmp_path.glob("results-*.jsonl")
    _, now = record_set(results)
    before = _stored()[backend]
    # An operator added since the stored set was made brings cases of its own (its id prefix is new); every case
    # of the operators the stored set knows must still be there, and no other.
    known = {_operator(i) for i in before}
    now = {i: r for i, r in now.items() if _operator(i) in known}
    assert sorted(now) == sorted(before), (
        f"ids: {len(set(now) - set(before))} new, {len(set(before) - set(now))} gone, "
        f"e.g. {sorted(set(now) ^ set(before))[:3]}"
    )
    racing = _racing(results) if backend in DIRECTML else set()
    changed = {
        i: (before[i], now[i])
        for i in before
        if (now[i][0] != before[i][0] if i in racing else _unmoved(now[i]) != _unmoved(before[i]))
    }
    assert not changed, f"{len(changed)} records differ, e.g. " + "; ".join(
        f"{i}: {b} -> {n}" for i, (b, n) in list(changed.items())[:3]
    )


def test_record_set_sees_a_changed_record(tmp_path: Path) -> None:
    """The digest is of the record's content: a changed tensor value or note is a different record."""
    header = {"kind": "header", "backend_spec": "oracle"}
    case = {"kind": "case", "id": "A", "category": "pass", "reason": "bit-exact", "notes": [], "timings": {"x": 1}}
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(json.dumps(o) for o in (header, case)))
    _, first = record_set(path)
    path.write_text("\n".join(json.dumps(o) for o in (header, {**case, "timings": {"x": 2}})))
    assert record_set(path)[1] == first  # timings are not what a run says
    path.write_text("\n".join(json.dumps(o) for o in (header, {**case, "notes": ["n"]})))
    assert record_set(path)[1]["A"][2] != first["A"][2]


def main(commit: str, paths: list[str]) -> None:
    """Write the stored set from results files of `commit`'s quick profile, one per backend."""
    sets = dict(record_set(Path(p)) for p in paths)
    stored = {"commit": commit, "backends": sets}
    STORED.write_bytes(gzip.compress(json.dumps(stored, sort_keys=True, separators=(",", ":")).encode(), mtime=0))
    print(f"{STORED.name} ({commit}): {', '.join(f'{b} {len(s)}' for b, s in sets.items())}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])

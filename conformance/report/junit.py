"""JUnit XML from results files, so Azure DevOps, GitHub Actions, GitLab and Jenkins show the cases natively.

The format is the Apache Ant one as the Windy Road JUnit.xsd describes it (what those CI
systems read): a `testsuites` root, one `testsuite` per run (its label), one `testcase` per
case with classname = operator and name = case id.  A case's category maps to JUnit as:

- `fail`, `rejected` (and `flaky` under --flaky-fails): <failure>, the reason and the command
  that reproduces the case;
- `error`, `crash`, `timeout`, `interrupted`: <error>, likewise;
- `unsupported`: <skipped> with the reason; `waived`: <skipped> with the waiver's reason;
- `pass`, `observed`, `flaky`: a passing testcase.

Like the report, this reads results files only.
"""

from __future__ import annotations

import re
import socket
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from ..run.record import Category, Record, fails_run, repro_command
from ..run.results import Results
from ..support.outputs import GENERATOR, write_atomic

ERROR_CATEGORIES = frozenset({Category.ERROR, Category.CRASH, Category.TIMEOUT, Category.INTERRUPTED})
SKIPPED_CATEGORIES = frozenset({Category.UNSUPPORTED, Category.WAIVED})
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml(text: str) -> str:
    """Text XML 1.0 can hold (results strings are cleaned already; older files may not be)."""
    return _NOT_XML.sub("\ufffd", text)


def _kind(record: Record, flaky_fails: bool) -> str | None:
    """'error' (the case did not finish), 'failure' (any other category that fails the run: fail, rejected,
    flaky under --flaky-fails), 'skipped' or None (passed)."""
    if record.category in ERROR_CATEGORIES:
        return "error"
    if fails_run(record.category, flaky_fails):
        return "failure"
    if record.category in SKIPPED_CATEGORIES:
        return "skipped"
    return None


def _timestamp(started: str) -> str:
    """The schema's timestamp has no zone: the header's `started` without its offset."""
    try:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.strptime(started[:19], "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return time.strftime("%Y-%m-%dT%H:%M:%S")


def _text(record: Record, repro: str) -> str:
    lines = [f"{record.category.value}: {record.reason}"]
    for attempt in record.attempts:
        lines.append(f"earlier attempt: {attempt.category.value}: {attempt.reason}")
    command = repro_command(repro, record)
    if command:
        lines.append("reproduce: " + command)
    return "\n".join(lines)


def _suite(run: Results, index: int) -> ET.Element:
    header = run.header
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    suite = ET.Element("testsuite")
    props = ET.SubElement(suite, "properties")
    for name, value in (
        ("backend", header.backend),
        ("label", header.label or ""),
        ("profile", header.profile),
        ("seed", str(header.seed)),
        ("feature_level", header.feature_level),
        ("verdict", run.verdict().value),
        *((f"version.{k}", v) for k, v in sorted(header.backend_versions.items())),
    ):
        ET.SubElement(props, "property", name=name, value=value)
    total = 0.0
    for record in run.records:
        seconds = float(record.timings.get("total_s", 0.0))
        total += seconds
        case = ET.SubElement(suite, "testcase", classname=record.operator, name=record.id, time=f"{seconds:.6f}")
        counts["tests"] += 1
        kind = _kind(record, header.flaky_fails)
        if kind is None:
            continue
        counts[kind if kind == "skipped" else kind + "s"] += 1
        reason = _xml(record.reason[:1000])
        child = ET.SubElement(case, kind, message=reason)
        if kind != "skipped":
            child.set("type", record.category.value)
            child.text = _xml(_text(record, header.repro))
    ET.SubElement(suite, "system-out").text = "\n".join(run.notes)
    ET.SubElement(suite, "system-err").text = ""
    suite.attrib.update(
        {
            "name": f"dml-conformance {run.label}",
            "package": GENERATOR,  # the marker: a file this suite may replace (conformance.support.outputs)
            "id": str(index),
            "timestamp": _timestamp(header.started),
            "hostname": header.platform.get("node") or socket.gethostname() or "localhost",
            **{k: str(v) for k, v in counts.items()},
            "time": f"{run.footer.duration_s if run.footer else total:.3f}",
        }
    )
    return suite


def junit_xml(runs: list[Results]) -> bytes:
    """The JUnit XML document for `runs` (one testsuite each)."""
    root = ET.Element("testsuites")  # each testsuite's package="dml-conformance" marks a file this suite may replace
    for index, run in enumerate(runs):
        root.append(_suite(run, index))
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def write_junit(runs: list[Results], path: str | Path) -> Path:
    """Write the JUnit XML file whole (OSError if it cannot be written; the file is then as it was)."""
    return write_atomic(path, junit_xml(runs))

"""The report's markup is made by autoescaped templates only: no section passes text through as markup."""

from __future__ import annotations

import re
from pathlib import Path

import conformance.report as report_package

REPORT = Path(report_package.__file__).parent
TEMPLATES = REPORT / "templates"
# What makes the report: its page, its sections, the macros it shares, and the modules computing their data.
OURS = [TEMPLATES / "report.html.j2", TEMPLATES / "macros.html.j2", *sorted((TEMPLATES / "report").glob("*.j2"))]
MODULES = [REPORT / f"{name}.py" for name in ("html", "heatmap", "grid", "regression", "failures")]
UNESCAPED = re.compile(r"\|\s*safe\b|autoescape\s+false|\bMarkup\b|\bescape\.py\b|\besc\(")


def test_no_report_template_or_module_lets_text_through_as_markup():
    assert len(OURS) > 10 and all(p.is_file() for p in OURS + MODULES)  # the report's files are where we look
    found = [
        f"{p.relative_to(REPORT)}:{n}: {line.strip()}"
        for p in OURS + MODULES
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if UNESCAPED.search(line)
    ]
    assert found == []


def test_the_check_finds_what_it_forbids():
    for line in ("<p>{{ r.reason | safe }}</p>", "{% autoescape false %}", "sections=[Markup(s)]", "esc(value)"):
        assert UNESCAPED.search(line), line
    assert not UNESCAPED.search("<p>{{ r.reason }}</p>")

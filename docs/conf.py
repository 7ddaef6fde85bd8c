"""Sphinx configuration of the documentation site: MyST Markdown pages, the furo theme.

`tox -e docs` builds it into docs/_build/html with warnings as errors (-W --keep-going) and nitpicky
references (-n); tests/test_docs.py builds it the same way.  Links between pages are MyST links
(`[text](page.md#heading)`): one that names no page or heading is a `myst.xref_missing` warning, so an
error.  Nothing is fetched: no intersphinx, no remote images.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "dml-conformance"
author = "the dml-conformance authors"
copyright = "2026, the dml-conformance authors"  # noqa: A001 (Sphinx's name)

extensions = [
    "myst_parser",
    "sphinxarg.ext",  # the CLI reference, from conformance.cli:build_parser
    "generated",  # docs/_ext/generated.py: the tables and counts, written from the suite's own data
]

source_suffix = {".md": "markdown"}
root_doc = "index"
# _generated/ holds includes, not pages; ci/ holds the CI recipes the pages include.
exclude_patterns = ["_build", "_generated", "_ext", "ci", ".venv"]

myst_enable_extensions = ["colon_fence", "deflist", "substitution"]
# Every heading down to ####  is a link target, `[text](page.md#its-slug)`, checked at build time.
myst_heading_anchors = 4
myst_substitutions: dict[str, str] = {}  # filled by the `generated` extension (case counts)

nitpicky = True
# `text` in the parser's help (rst, through sphinx-argparse) is code, as it is in the terminal.
default_role = "literal"

html_theme = "furo"
html_title = "dml-conformance"
html_static_path = ["_static"]
html_css_files = ["annotated.css"]  # the numbered markers over the report's screenshot
# Option names and quotes stay as typed: `--dml-dll`, not an en dash; 'PREFIX*', not curly quotes.
smartquotes = False

# Where MyST looks up `[text](#target)`: the standard domain (headings, labels, documents) only;
# sphinx-argparse's own domain cannot answer such a lookup and says so for every link.
myst_ref_domains = ["std"]

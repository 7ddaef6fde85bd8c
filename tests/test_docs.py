"""The documentation site builds with warnings as errors (`tox -e docs`), and what it generates is the code's.

One build into a temporary folder, as `tox -e docs` builds it (`-W --keep-going -n`): a broken link
between pages, a missing heading, a page in no table of contents or a bad directive fails it.  Then
the generated parts are held to their sources: every subcommand of the parser, every pytest option of
the option table, every clause id, and the case counts a page quotes equal what the command it names
prints now.  Needs the `docs` packages (in the `test` extra): skipped without them, failed in CI.
"""

from __future__ import annotations

import html
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from prerequisite import require

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DOCS_PACKAGES = ("sphinx", "myst_parser", "furo", "sphinxarg")
# `dml-conformance` as this interpreter runs it (the installed script may belong to another environment).
CLI = (sys.executable, "-c", "import sys; from conformance.cli import main; sys.exit(main())")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = [p for p in DOCS_PACKAGES if importlib.util.find_spec(p) is None]
    require(not missing, f"the docs packages are not installed ({', '.join(missing)}): pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("html")
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html", str(DOCS), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert build.returncode == 0, f"sphinx-build failed:\n{build.stdout}\n{build.stderr}"
    return out


def _text(page: Path) -> str:
    """A built page's text, tags dropped and entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def _cases_listed(*args: str) -> int:
    """How many cases `dml-conformance cases list ARGS` prints (one per line)."""
    done = subprocess.run(
        [*CLI, "cases", "list", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return sum(1 for line in done.stdout.splitlines() if line.strip())


def test_every_page_is_built(site: Path) -> None:
    """Every Markdown page under docs/ is in the site (Sphinx fails on a page in no toctree; this checks the set)."""
    pages = {
        p.relative_to(DOCS).with_suffix(".html")
        for p in DOCS.rglob("*.md")
        if not p.relative_to(DOCS).parts[0].startswith(("_", "."))
    }
    assert pages and all((site / p).is_file() for p in pages), sorted(str(p) for p in pages if not (site / p).is_file())


def test_cli_reference_has_every_subcommand(site: Path) -> None:
    """The command line page is the parser's: every subcommand and every `run` option appears."""
    from conformance.cli import build_parser
    from conformance.run.options import OPTIONS

    text = _text(site / "reference" / "cli.html")
    subparsers = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    for name in subparsers.choices or ():
        assert name in text, name
    for option in OPTIONS:
        if option.cli:
            assert option.cli in text, option.cli


def test_pytest_options_page_has_every_plugin_option(site: Path) -> None:
    from conformance.run.options import OPTIONS

    text = _text(site / "reference" / "pytest.html")
    plugin = [o.plugin for o in OPTIONS if o.plugin]
    assert plugin and all(flag in text for flag in plugin), [f for f in plugin if f not in text]


def test_operator_pages_have_every_clause(site: Path) -> None:
    """Each clause id appears on the site's operator pages, generated from oracle.CLAUSES."""
    import oracle

    text = "".join(_text(p) for p in (site / "operators").glob("*.html"))
    assert [c for c in oracle.CLAUSES if c not in text] == []


@pytest.mark.parametrize(
    ("page", "sentence", "args"),
    [
        ("operators/join.html", r"`?-k JOIN`? selects ([0-9,]+) cases", ("-k", "JOIN")),
        ("operators/padding1.html", r"selects ([0-9,]+) cases", ("-k", "PADDING1 or wrap")),
        ("running.html", r"its ([0-9,]+) stored and generated cases", ()),
        ("running.html", r"only the ([0-9,]+) cases of", ("--profile", "stress")),
    ],
)
def test_case_counts_are_what_the_command_prints(site: Path, page: str, sentence: str, args: tuple[str, ...]) -> None:
    """A count a page quotes is the one its command prints today (cases are added all the time)."""
    found = re.search(sentence, _text(site / page))
    assert found, f"{page}: no match for {sentence!r}"
    assert int(found.group(1).replace(",", "")) == _cases_listed(*args)


def test_readme_is_a_front_door() -> None:
    """At most 200 lines; the two commands exactly as .ci/run and the Windows lane use them; six operators."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    assert "pip install -e . && dml-conformance run\n" in readme
    assert 'pip install -e ".[test]" && python -m pytest\n' in readme
    assert "four operators" not in readme
    for verdict in ("PASS", "FAIL", "INCOMPLETE", "UNTESTED"):
        assert f"**{verdict}**" in readme, verdict
    for link in re.findall(r"\]\(([^)#]+)", readme):
        assert (ROOT / link).exists(), link

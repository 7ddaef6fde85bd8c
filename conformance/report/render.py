"""Pages from Jinja2 templates (conformance/report/templates), autoescaped, written atomically.

Every page the suite writes (the report, the history, the conformance statement) extends
base.html.j2: one stylesheet (report.css, inlined), no external resource, so a page stays one
self-contained file.  Autoescaping is on for every template: text from a results file (a vendor
backend's error message, a version string) can never become markup; what is markup on purpose
is built in a template; Python hands templates plain data (tests/runner/test_report_templates.py
guards that no report template passes text through as markup).
"""

from __future__ import annotations

import contextlib
from functools import cache
from pathlib import Path

import jinja2

from ..run.outputs import GENERATOR, ReportError
from ..support.cache import generated_cache_dir
from ..support.outputs import write_atomic

TEMPLATES = Path(__file__).with_name("templates")


class _CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Templates compiled once and kept (keyed by their source and Python's version): compiling them was about
    a third of a quick run's report.  A folder that cannot be read or written is only slower."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().load_bytecode(bucket)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def _compiled_templates() -> jinja2.BytecodeCache | None:
    folder = generated_cache_dir()  # beside the generated cases: the tests' private cache, `none` turns it off
    if folder is None:
        return None
    with contextlib.suppress(OSError):
        (folder / "templates").mkdir(parents=True, exist_ok=True)
        return _CompiledTemplates(str(folder / "templates"))
    return None


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        bytecode_cache=_compiled_templates(),
        autoescape=True,  # every template, whatever its name ends in
        undefined=jinja2.StrictUndefined,  # a misspelt variable is an error, not an empty cell
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["generator"] = GENERATOR
    env.globals["stylesheet"] = (TEMPLATES / "report.css").read_text(encoding="utf-8")
    return env


def render_page(template: str, **context: object) -> str:
    """The page `template` renders with `context` (names the template uses, StrictUndefined)."""
    return environment().get_template(template).render(**context)


def write_page(text: str, path: str | Path, what: str = "the report") -> Path:
    """Write atomically: a unique temporary file next to `path`, then a rename; ReportError if it cannot."""
    path = Path(path)
    try:  # the records' text is clean; "replace" is a second guard
        return write_atomic(path, text.encode("utf-8", "replace"))
    except OSError as e:
        raise ReportError(e.errno, f"cannot write {what} {path}: {e.strerror or e}") from None

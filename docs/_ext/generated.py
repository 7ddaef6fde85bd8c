"""The site's generated parts: written from the suite's own tables at build time, never committed.

Everything a page would otherwise retype (the pytest options, the file formats, the clause ids,
the support tables, the errata register, the shipped known issues, case counts) is written here as
MyST Markdown into docs/_generated/ (git-ignored) when the build starts; the pages include it.
Case counts become MyST substitutions (`{{ quick_cases }}`), each taken from the command the page
names (`dml-conformance cases list ...`), so a page's number is what that command prints today.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config

ROOT = Path(__file__).resolve().parents[2]
OUT_NAME = "_generated"

# The operators' pages: the operator, its clause prefixes (the clause ids that are its own), and
# whether its restated spec is the seed pages' or DirectML's own (docs/spec/beyond-seeds.md).
# A new operator adds a row here and a page docs/operators/<name>.md shaped like the others.
OPERATOR_PAGES: dict[str, tuple[str, ...]] = {
    "SLICE": ("SLICE.",),
    "SLICE1": ("SLICE1.",),
    "PADDING": ("PAD.", "WRAP."),
    "PADDING1": ("PAD1.", "WRAP."),
    "SPLIT": ("SPLIT.",),
    "JOIN": ("JOIN.",),
    "ELEMENT_WISE_IDENTITY": ("IDENT.",),
    "TILE": ("TILE.",),
    # issue 31, the depth-space family
    "SPACE_TO_DEPTH": ("S2D.",),
    "SPACE_TO_DEPTH1": ("S2D1.",),
    "DEPTH_TO_SPACE": ("D2S.",),
    "DEPTH_TO_SPACE1": ("D2S1.",),
    "REVERSE_SUBSEQUENCES": ("REVSEQ.",),
    "SLICE_GRAD": ("SGRAD.",),
    "CAST": ("CAST.",),
    # issue 32, no input tensor
    "FILL_VALUE_CONSTANT": ("FILLC.",),
    "FILL_VALUE_SEQUENCE": ("FILLS.",),
    "DIAGONAL_MATRIX": ("DIAG.",),
    "DIAGONAL_MATRIX1": ("DIAG1.",),
    # issue 32
    "GATHER_ND": ("GND.",),
    "GATHER_ND1": ("GND1.",),
    # issue 32
    "ONE_HOT": ("ONEHOT.",),
    # issue 32
    "GATHER": ("GATHER.",),
    "GATHER_ELEMENTS": ("GELEM.",),
    # issue 32
    "SCATTER": ("SCATTER.",),
    "SCATTER_ND": ("SCATND.",),
}
# Clauses every operator shares (a page of their own).
SHARED_PREFIXES = ("COMMON.", "LAYOUT.", "GRAPH.")

# Counts a page quotes: substitution name -> the `dml-conformance` arguments that print the cases.
CASE_COUNTS: dict[str, tuple[str, ...]] = {
    "quick_cases": ("cases", "list"),
    "join_cases": ("cases", "list", "-k", "JOIN"),
    "tile_cases": ("cases", "list", "-k", "TILE"),
    "space_to_depth_cases": ("cases", "list", "--operators", "SPACE_TO_DEPTH"),
    "space_to_depth1_cases": ("cases", "list", "--operators", "SPACE_TO_DEPTH1"),
    "depth_to_space_cases": ("cases", "list", "--operators", "DEPTH_TO_SPACE"),
    "depth_to_space1_cases": ("cases", "list", "--operators", "DEPTH_TO_SPACE1"),
    "reverse_subsequences_cases": ("cases", "list", "--operators", "REVERSE_SUBSEQUENCES"),
    "slice_grad_cases": ("cases", "list", "--operators", "SLICE_GRAD"),
    "fill_value_constant_cases": ("cases", "list", "--operators", "FILL_VALUE_CONSTANT"),
    "fill_value_sequence_cases": ("cases", "list", "--operators", "FILL_VALUE_SEQUENCE"),
    "diagonal_matrix_cases": ("cases", "list", "--operators", "DIAGONAL_MATRIX"),
    "diagonal_matrix1_cases": ("cases", "list", "--operators", "DIAGONAL_MATRIX1"),
    "gather_nd_cases": ("cases", "list", "--operators", "GATHER_ND"),
    "gather_nd1_cases": ("cases", "list", "--operators", "GATHER_ND1"),
    "one_hot_cases": ("cases", "list", "--operators", "ONE_HOT"),
    "gather_cases": ("cases", "list", "--operators", "GATHER"),
    "gather_elements_cases": ("cases", "list", "--operators", "GATHER_ELEMENTS"),
    "scatter_cases": ("cases", "list", "--operators", "SCATTER"),
    "scatter_nd_cases": ("cases", "list", "--operators", "SCATTER_ND"),
    "padding1_wrap_cases": ("cases", "list", "-k", "PADDING1 or wrap"),
    "layout_cases": ("cases", "list", "-k", "layout"),
    "reach_cases": ("cases", "list", "-k", "reach"),
    "stress_cases": ("cases", "list", "--profile", "stress"),
}


def _cell(text: object) -> str:
    """Text for one cell of a Markdown table: pipes escaped, emphasis and HTML markers literal."""
    out = str(text).replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("<", "\\<")
    return " ".join(out.split())


def _table(head: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    head = list(head)
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# --- the pytest plugin's options, from the same table the CLI's `run` options come from -------------


class _Group:
    """Stands in for a pytest OptionGroup: records what add_plugin_options adds."""

    def __init__(self) -> None:
        self.added: list[tuple[tuple[str, ...], dict[str, Any]]] = []

    def addoption(self, *names: str, **kw: Any) -> None:
        self.added.append((names, kw))


def pytest_options() -> str:
    from conformance.run.options import OPTIONS, add_plugin_options

    group = _Group()
    add_plugin_options(group)
    cli = {o.plugin: o.cli for o in OPTIONS if o.plugin}
    rows = []
    for names, kw in group.added:
        flag = names[-1]
        value = "" if kw.get("action") == "store_true" else f" {kw.get('metavar') or kw.get('dest', '').upper()}"
        rows.append((f"`{flag}{value}`", f"`{cli[flag]}`" if cli.get(flag) else "(plugin only)", kw.get("help", "")))
    return _table(("pytest option", "`dml-conformance run`", "what"), rows)


# --- the file formats, from their JSON Schemas -------------------------------------------------------


def _type_of(schema: dict[str, Any], anchor: str) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{anchor}-{name.lower()})"
    if "enum" in schema:
        return "one of " + ", ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return " or ".join(_type_of(s, anchor) for s in schema[key])
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array" and isinstance(schema.get("items"), dict):
        return f"array of {_type_of(schema['items'], anchor)}"
    return f"{kind}"


def _object(title: str, target: str, schema: dict[str, Any], anchor: str, level: str) -> list[str]:
    lines = [f"({target})=", f"{level} {title}", ""]
    if schema.get("description"):
        lines += [schema["description"], ""]
    props = schema.get("properties", {})
    if props:
        required = set(schema.get("required", ()))
        rows = [
            (f"`{name}`", _type_of(p, anchor), "yes" if name in required else "", p.get("description", ""))
            for name, p in props.items()
        ]
        lines.append(_table(("field", "type", "required", "what"), rows))
    elif "type" in schema or "enum" in schema:
        lines += [f"Type: {_type_of(schema, anchor)}.", ""]
    return lines


def schema_page(path: Path) -> str:
    schema = json.loads(path.read_text(encoding="utf-8"))
    stem = path.name.removesuffix(".schema.json")
    anchor = f"schema-{stem}"
    lines = [
        f"`dml-conformance schema {stem}` prints this schema (`conformance/schemas/{path.name}`, JSON Schema "
        f"draft-07); `dml-conformance schema {stem} --validate FILE...` checks files against it.",
        "",
    ]
    lines += _object(schema.get("title", stem), anchor, schema, anchor, "###")
    for name, sub in schema.get("definitions", {}).items():
        lines += _object(f"`{name}`", f"{anchor}-{name.lower()}", sub, anchor, "####")
    return "\n".join(lines) + "\n"


# --- the oracle's tables: clauses, support, errata; the shipped known issues -------------------------


def clauses(prefixes: tuple[str, ...]) -> str:
    import oracle

    rows = [(f"`{cid}`", text) for cid, text in oracle.CLAUSES.items() if cid.startswith(prefixes)]
    return _table(("clause", "what it says"), rows)


def support(operator: str) -> str:
    from oracle.registry import SUPPORT

    rows = []
    for row in SUPPORT[operator]:
        ranks = f"{row.ranks[0]}-{row.ranks[-1]}" if len(row.ranks) > 1 else str(row.ranks[0])
        rows.append((f"FL {row.level}+", ranks, ", ".join(t.name for t in row.data_types)))
    return _table(("feature level", "dims", "data types"), rows)


def errata(prefixes: tuple[str, ...]) -> str:
    import oracle

    rows = [
        (f"`{e.id}`", ", ".join(e.clauses), e.summary, e.policy, "observed" if e.observed else "judged")
        for e in oracle.ERRATA.values()
        if any(c.startswith(prefixes) for c in e.clauses)
    ]
    if not rows:
        return "No erratum names this operator's clauses.\n"
    return _table(("entry", "clauses", "what the pages say or leave open", "the suite's policy", "results"), rows)


def _waiver_operator(waiver: dict[str, Any]) -> str | None:
    when = waiver.get("when", {})
    if when.get("operator"):
        return str(when["operator"])
    prefix = waiver.get("prefix") or waiver.get("id", "")
    return str(prefix).split("-", 1)[0] or None


def known_issues(operator: str) -> str:
    rows = []
    for path in sorted((ROOT / "conformance" / "known_issues").glob("*.json")):
        backend = path.stem
        for waiver in json.loads(path.read_text(encoding="utf-8"))["waivers"]:
            if _waiver_operator(waiver) != operator:
                continue
            when = waiver.get("when", {})
            narrowing = ", ".join(f"{k} {v}" for k, v in when.items() if k != "operator") or "every failure"
            versions = ", ".join(f"{k} {v}" for k, v in waiver.get("versions", {}).items()) or "every release"
            rows.append((f"`{backend}`", narrowing, versions, waiver["reason"]))
    if not rows:
        return "The built-in backends ship no known issue for this operator.\n"
    return _table(("backend", "waived when", "releases", "why"), rows)


def directml_releases() -> str:
    from conformance.backends.directml.versions import RELEASES

    rows = [(r.directml, f"onnxruntime-directml {r.wheel}", r.feature_level, f"`{r.sha256[:16]}…`") for r in RELEASES]
    return _table(("DirectML", "fetched from the wheel", "feature level", "DirectML.dll SHA-256"), rows)


def layers() -> str:
    """The layers, from the table tests/test_structure.py holds the code to (its LAYERS and ALLOWED)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_docs_structure", ROOT / "tests" / "test_structure.py")
    assert spec is not None and spec.loader is not None
    structure = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(structure)
    order = list(structure.LAYERS)
    rows = [
        (
            layer,
            ", ".join(f"`{p}`" for p in packages),
            ", ".join(sorted(structure.ALLOWED[layer], key=order.index)) or "nothing of the suite",
        )
        for layer, packages in structure.LAYERS.items()
    ]
    return _table(("layer", "packages and modules", "may import"), rows)


# --- case counts, from the command the page names ------------------------------------------------------


def case_count(args: tuple[str, ...]) -> int:
    """The number of cases `dml-conformance ARGS` lists (one per line), run in this process."""
    from conformance import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            status = cli.main(list(args))
        except SystemExit as e:
            status = e.code
    if status not in (0, None):
        raise RuntimeError(f"`dml-conformance {' '.join(args)}` exited {status}")
    return sum(1 for line in out.getvalue().splitlines() if line.strip())


# --- writing ------------------------------------------------------------------------------------------


def _write(path: Path, text: str) -> None:
    """Write only what changed, so an unchanged include does not make Sphinx re-read its pages."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app: Sphinx, config: Config) -> None:
    out = Path(app.srcdir) / OUT_NAME
    _write(out / "pytest-options.md", pytest_options())
    for path in sorted((ROOT / "conformance" / "schemas").glob("*.schema.json")):
        _write(out / f"schema-{path.name.removesuffix('.schema.json')}.md", schema_page(path))
    _write(out / "clauses-shared.md", clauses(SHARED_PREFIXES))
    _write(out / "errata-shared.md", errata(SHARED_PREFIXES))
    for operator, prefixes in OPERATOR_PAGES.items():
        _write(out / f"{operator}-clauses.md", clauses(prefixes))
        _write(out / f"{operator}-support.md", support(operator))
        _write(out / f"{operator}-errata.md", errata(prefixes))
        _write(out / f"{operator}-known-issues.md", known_issues(operator))
    _write(out / "directml-releases.md", directml_releases())
    _write(out / "layers.md", layers())
    counts = {name: f"{case_count(args):,}" for name, args in CASE_COUNTS.items()}
    config.myst_substitutions = {**config.myst_substitutions, **counts}


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("config-inited", generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}

"""The suite's file formats, checked against their JSON Schemas (conformance/schemas/*.schema.json).

Why schemas: each format (case files, results files, expectations files) is specified once, in
a file anyone can validate against in any language; the loaders here validate first, then
build, so a vendor's tool and this suite agree on what a valid file is.  The schemas are
generated from the code's own definitions by conformance.schema_build.

Validation is compiled (fastjsonschema: about 0.1 s for the packaged corpus, where jsonschema
takes seconds), and
every violation becomes one FormatError naming the file, the JSON path and what was
expected, in the suite's words (`cases/x.json: $.cases[3].descriptor.offsets[0]: expected an
integer, got 'a'`).
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import fastjsonschema

from .jsonfile import JsonFileError, loads, read_text

SCHEMAS_DIR = Path(__file__).resolve().parents[1] / "schemas"  # conformance/schemas/
FORMATS = ("case", "results", "expectations")
DRAFT = "http://json-schema.org/draft-07/schema#"


class FormatError(ValueError):
    """A file that breaks its format: `path[:line]: json_path: message` (json_path empty for the whole file)."""

    def __init__(self, path: str | Path, json_path: str, message: str, line: int | None = None):
        self.path = str(path)
        self.line = line
        self.json_path = json_path
        self.message = message
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {json_path}: {message}" if json_path else f"{where}: {message}")


@functools.cache
def schema(name: str) -> dict[str, Any]:
    """The shipped schema of a format ("case", "results" or "expectations")."""
    if name not in FORMATS:
        raise ValueError(f"no format {name!r}; expected one of {', '.join(FORMATS)}")
    with (SCHEMAS_DIR / f"{name}.schema.json").open(encoding="utf-8") as f:
        loaded: dict[str, Any] = json.load(f)
    return loaded


# What the loaders check apart, cut from the schema they compile: a case list's cases (each case
# is validated alone, so one bad case never hides the good ones) and the per-operator descriptor
# (validated by its operator's definition: if/then branches that fail cost an exception each).
_CUTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "case": (("case_list", "properties", "cases", "items"), ("case", "allOf")),
}


@functools.cache
def _validator(name: str, definition: str | None, cut: bool) -> Any:
    """A compiled validator of the whole format, or of one of its definitions (`cut`: see _CUTS)."""
    document = schema(name)
    if cut:
        document = copy.deepcopy(document)
        for *parents, key in _CUTS.get(name, ()):
            node = document["definitions"]
            for part in parents:
                node = node[part]
            del node[key]
    if definition is not None:
        document = {"$schema": DRAFT, "definitions": document["definitions"], "$ref": f"#/definitions/{definition}"}
    return fastjsonschema.compile(document, use_default=False)  # validate only: never fill data in


def violation(
    name: str, value: Any, *, definition: str | None = None, where: str = "$", cut: bool = False
) -> tuple[str, str] | None:
    """(JSON path, message) of the first violation of format `name` (or its `definition`), else None."""
    try:
        _validator(name, definition, cut)(value)
    except fastjsonschema.JsonSchemaValueException as e:
        return _locate(e, where), _message(e)
    return None


# --- the one check of one item, for the loaders and `schema --validate` alike -------------------


def case_violation(obj: Any, where: str = "$") -> tuple[str, str] | None:
    """One case object: the case schema, then its descriptor by its operator's definition (the clearer message)."""
    found = violation("case", obj, definition="case", where=where, cut=True)
    if found or not isinstance(obj, dict):
        return found
    return violation("case", obj["descriptor"], definition=f"{obj['operator']}_descriptor", where=f"{where}.descriptor")


def results_line_violation(obj: Any, *, first: bool = False) -> tuple[str, str] | None:
    """One line of a results file: the first is a header (format 1 headers may lack `kind`), the others by kind."""
    if first:
        return violation("results", obj, definition="header")
    kind = obj.get("kind") if isinstance(obj, dict) else None
    kinds = schema("results")["definitions"]
    return violation("results", obj, definition=kind if isinstance(kind, str) and kind in kinds else None)


def validate_file(name: str, path: str | Path) -> list[FormatError]:
    """Every violation of format `name` in a file: per case of a case list, per line of a results file."""
    path = Path(path)
    try:
        text = read_text(path)
        if name == "results":
            return _validate_lines(path, text)
        obj = loads(text, str(path))
    except JsonFileError as e:
        return [FormatError(e.where, "", e.detail)]
    if name == "case":
        if isinstance(obj, dict) and "cases" in obj:
            found = violation(name, obj, definition="case_list", cut=True)
            if found:
                return [FormatError(path, *found)]
            cases = [case_violation(c, f"$.cases[{i}]") for i, c in enumerate(obj["cases"])]
            return [FormatError(path, *found) for found in cases if found]
        found = case_violation(obj)
        return [FormatError(path, *found)] if found else []
    found = violation(name, obj)
    return [FormatError(path, *found)] if found else []


def _validate_lines(path: Path, text: str) -> list[FormatError]:
    """A results file: line 1 a header, every other non-blank line a results line."""
    errors = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = loads(line, f"{path}:{number}")
        except JsonFileError as e:
            errors.append(FormatError(path, "", e.detail, line=number))
            continue
        found = results_line_violation(obj, first=number == 1)
        if found:
            errors.append(FormatError(path, *found, line=number))
    if not text.strip():
        errors.append(FormatError(path, "", "empty file, not a results file"))
    return errors


def _locate(e: fastjsonschema.JsonSchemaValueException, where: str) -> str:
    name = e.name or "data"
    return where + name[len("data") :] if name.startswith("data") else where


# --- messages in the suite's words --------------------------------------------------------------

_TYPE_NAMES = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _got(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _message(e: fastjsonschema.JsonSchemaValueException) -> str:
    """What was expected and what was found; a schema's `description` says it when the keyword cannot."""
    rule, definition, value = e.rule, e.definition if isinstance(e.definition, dict) else {}, e.value
    described = definition.get("description")
    if rule == "type":
        types = definition.get("type")
        names = [_TYPE_NAMES.get(str(t), str(t)) for t in (types if isinstance(types, list) else [types])]
        return f"expected {definition.get('title') or _or(names)}, got {_got(value)}"
    if rule == "required":
        missing = [f"{n!r}" for n in definition.get("required", []) if isinstance(value, dict) and n not in value]
        return f"missing field{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
    if rule == "additionalProperties":
        known = list(definition.get("properties", {}))
        unknown = sorted(set(value) - set(known)) if isinstance(value, dict) else []
        return f"unknown field(s) {', '.join(unknown)}; expected {', '.join(known)}"
    if rule in ("enum", "const"):
        allowed = definition.get("enum", [definition.get("const")])
        if described or len(allowed) > 12:
            return f"expected {described or 'one of ' + str(len(allowed)) + ' names'}, got {_got(value)}"
        return f"expected one of {', '.join(map(str, allowed))}, got {_got(value)}"
    if described:
        return f"expected {described}, got {_got(value)}"
    if rule == "minLength":
        return f"expected a non-empty string, got {_got(value)}"
    if rule == "minimum":
        return f"expected at least {definition.get('minimum')}, got {_got(value)}"
    if rule == "minItems":
        return f"expected at least {definition.get('minItems')} item(s), got {_got(value)}"
    text = e.message
    head = e.name or "data"
    return text[len(head) :].strip() if text.startswith(head) else text

"""Build the JSON Schemas of the suite's file formats from the code's own definitions.

`python -m conformance.schema_build` writes conformance/schemas/{case,results,expectations}.schema.json.
Why generated: the descriptor dataclasses and data types (oracle/), the run record, header and
footer (conformance/run/record.py), the categories and the expectations' fields are the truth;
a schema copied by hand would drift.  tests/test_schemas.py fails when a shipped schema differs
from what this builder makes, so a changed record or descriptor without a rebuilt schema fails CI.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any

import numpy as np

import oracle

from .cases import corpus
from .judging import expectations
from .run import record
from .support.formats import DRAFT, FORMATS, SCHEMAS_DIR

Schema = dict[str, Any]
_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def ref(name: str) -> Schema:
    return {"$ref": f"#/definitions/{name}"}


def when_is(field: str, value: str, then: Schema) -> Schema:
    """`then` applies when `field` is present and equals `value` (a present `field` is part of the condition)."""
    return {"if": {"required": [field], "properties": {field: {"const": value}}}, "then": then}


class TypeSchemas:
    """Type hints to schemas, the types conformance.run.jsontypes reads: the same hints give both.

    Dataclasses become definitions (named by `names`, else by class name); `closed`: unknown
    fields are errors (case files), or ignored so a newer writer's field reads (results);
    `overrides`: a schema for a class's field where its hint says too little; `fixed`: a schema
    for a type wherever it appears.
    """

    def __init__(
        self,
        *,
        closed: bool,
        names: dict[type, str] | None = None,
        overrides: dict[tuple[type, str], Schema] | None = None,
        float_schema: Schema | None = None,
        fixed: dict[Any, Schema] | None = None,
    ):
        self.closed = closed
        self.fixed = fixed or {}
        self.names = names or {}
        self.overrides = overrides or {}
        self.float_schema = float_schema or {"type": "number"}
        self.definitions: dict[str, Schema] = {}

    def of(self, tp: Any) -> Schema:
        if tp is Any:
            return {}
        if tp in self.fixed:
            return dict(self.fixed[tp])
        if tp is float or _float_like(tp):
            return dict(self.float_schema)
        if tp in _SCALARS:
            return {"type": _SCALARS[tp]}
        origin = typing.get_origin(tp)
        if origin in (typing.Union, types.UnionType):
            return self._union(typing.get_args(tp))
        if origin in (list, tuple):
            return {"type": "array", "items": self.of(typing.get_args(tp)[0])}
        if origin is dict:
            return {"type": "object", "additionalProperties": self.of(typing.get_args(tp)[1])}
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return {"enum": [m.value for m in tp]}
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            # The type lives at the use, not in the definition, so `X | None` adds null without anyOf.
            name = self.define(tp)
            return {"type": "object", "title": self.definitions[name]["title"], "allOf": [ref(name)]}
        raise TypeError(f"no schema for {tp!r}")

    def _union(self, options: tuple[Any, ...]) -> Schema:
        nullable = type(None) in options
        rest = [o for o in options if o is not type(None)]
        if all(o in _SCALARS for o in rest):
            names = [_SCALARS[o] for o in rest] + (["null"] if nullable else [])
            return {"type": names[0] if len(names) == 1 else names}
        if len(rest) != 1:
            raise TypeError(f"no schema for a union of {rest!r}: JSON readers could not tell them apart")
        inner = self.of(rest[0])
        if not nullable:
            return inner
        if "enum" in inner:
            return {"enum": [*inner["enum"], None]}
        if inner.get("type") in ("object", "array"):
            # Not anyOf: a wrong field inside the object is reported at its own path.
            return {**inner, "type": [inner["type"], "null"], "title": inner.get("title", "a value") + " or null"}
        raise TypeError(f"no schema for {options!r}")

    def define(self, cls: type) -> str:
        name = self.names.get(cls, cls.__name__)
        if name in self.definitions:
            return name
        self.definitions[name] = {}  # reserved: a recursive reference finds it
        hints = typing.get_type_hints(cls)
        properties: dict[str, Schema] = {}
        required = []
        for f in dataclasses.fields(cls):
            properties[f.name] = self.overrides.get((cls, f.name)) or self.of(hints[f.name])
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                required.append(f.name)
        title = f"a {name} object" if name[0].isupper() else f"a {name.replace('_', ' ')}"
        body: Schema = {"title": title, "required": required, "properties": properties}
        if self.closed:
            body["additionalProperties"] = False
        self.definitions[name] = body
        return name


def _float_like(tp: Any) -> bool:
    """`float | np.float32`: a C FLOAT held as numpy's float32 (its bits kept) is one JSON number."""
    options = set(typing.get_args(tp)) if typing.get_origin(tp) in (typing.Union, types.UnionType) else set()
    return bool(options) and options <= {float, np.float32}


def _names_or_list(names: list[str], what: str) -> Schema:
    """A name among `names`, or a list of them (an expectations `when` condition)."""
    one = {"enum": names, "description": f"{what} ({', '.join(names)})"}
    return {"type": ["string", "array"], "items": one, "if": {"type": "string"}, "then": one}


# --- case files -----------------------------------------------------------------------------------

FLOAT32_JSON: Schema = {
    "type": ["number", "string"],
    "pattern": "^(nan|inf|-inf|\\+inf|0x[0-9a-fA-F]{1,8})$",
    "description": "a number, or 'nan', 'inf', '-inf' or the float32's bits '0x7fc00001'",
}
SCALAR_JSON: Schema = {
    "type": ["number", "string"],
    "pattern": "^(nan|inf|-inf|\\+inf|0x[0-9a-fA-F]{1,16})$",
    "description": "a DML_SCALAR_UNION (PADDING1's, FILL_VALUE_*'s) as its data type field: an integer exactly, a "
    "float number, "
    "or for a float type 'nan', 'inf', '-inf' or its bits in the type's width '0x7ff8000000000001'",
}
ELEMENT_JSON: Schema = {
    "type": ["number", "string"],
    "pattern": "^\\s*(0[xX][0-9a-fA-F]+|[nN][aA][nN]|[+-]?[iI][nN][fF]|-0\\.0)\\s*$",
    "description": "a number, or 'nan', 'inf', '-inf', '-0.0' or the element's raw bits '0x...'",
}


def _fields(schema: Schema, expected: set[str], what: str) -> Schema:
    """`schema` with properties exactly `expected` (the code's field set): a drifted builder fails loudly."""
    if set(schema["properties"]) != expected:
        raise AssertionError(f"{what}: schema fields {sorted(schema['properties'])} != code's {sorted(expected)}")
    return schema


def case_schema() -> Schema:
    """Case files: one case object, or a list file {"schema_version", "generator", "cases"}."""
    hints = TypeSchemas(
        closed=True,
        names={oracle.TensorDesc: "tensor_desc"},
        float_schema=FLOAT32_JSON,
        fixed={oracle.DataType: ref("data_type")},
        overrides={
            (oracle.Padding1Desc, "padding_value"): SCALAR_JSON,
            (oracle.FillValueConstantDesc, "value"): SCALAR_JSON,
            (oracle.FillValueSequenceDesc, "value_start"): SCALAR_JSON,
            (oracle.FillValueSequenceDesc, "value_delta"): SCALAR_JSON,
        },
    )
    for operator, cls in oracle.DESCRIPTOR_TYPES.items():
        hints.names[cls] = f"{operator}_descriptor"
        hints.define(cls)
        hints.definitions[f"{operator}_descriptor"]["title"] = f"a {operator} descriptor"
    levels = [str(level) for level in oracle.FeatureLevel] + [level.dml_name for level in oracle.FeatureLevel]
    clause = {
        "enum": list(oracle.CLAUSES),
        "description": "a clause id of the spec (operators.md; past the seed pages docs/spec/beyond-seeds.md)",
    }
    names = [t.value for t in oracle.DataType]
    data_type = {"enum": names, "description": f"a data type name ({', '.join(names)})"}
    tensor_fields: Schema = {
        "required": ["data_type", "shape"],
        "properties": {
            "data_type": ref("data_type"),
            "shape": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "values": {"type": "array", "items": ELEMENT_JSON, "description": "the elements, row-major"},
            "data_b64": {"type": "string", "description": "the raw little-endian bytes, base64"},
        },
        "additionalProperties": False,
    }
    # Exactly one of values/data_b64 as a property count, not oneOf: compiled validators pay for
    # every branch that fails (an exception), and every case has tensors.
    tensor = {
        "type": "object",
        "title": "a tensor object",
        "allOf": [
            _fields(tensor_fields, corpus.TENSOR_FIELDS, "tensor"),
            {"description": "exactly one of 'values' or 'data_b64'", "minProperties": 3, "maxProperties": 3},
        ],
    }
    # The same for the outcome: a valid case has outputs, an invalid one its clause, never both.
    expected = {
        "type": "object",
        "title": "an expected object",
        "allOf": [
            {
                "required": ["outcome"],
                "properties": {
                    "outcome": {"enum": ["valid", "invalid"]},
                    "outputs": {"type": "array", "minItems": 1, "items": ref("tensor")},
                    "clause": clause,
                },
                "additionalProperties": False,
                "dependencies": {
                    "outputs": {"properties": {"outcome": {"const": "valid"}}},
                    "clause": {"properties": {"outcome": {"const": "invalid"}}},
                },
            },
            {
                "description": "'outputs' (a valid case's output tensors) or 'clause' (the clause an invalid case breaks)",
                "minProperties": 2,
                "maxProperties": 2,
            },
        ],
    }
    case_fields = {
        "schema_version": {"type": "integer", "enum": [corpus.SCHEMA_VERSION]},
        "id": {
            "type": "string",
            "pattern": corpus.NAMED_ID.pattern,
            "description": "OPERATOR-name, e.g. PADDING-3f9a2c01 (OPERATOR-<8 hex digits> is a content hash)",
        },
        "operator": {"enum": list(oracle.OPERATORS)},
        "description": {"type": "string"},
        "source": {"type": "string"},
        "feature_level": {
            "enum": levels,
            "description": f"a feature level, {levels[0]} to {max(oracle.FeatureLevel)!s} (or DML_FEATURE_LEVEL_x_y)",
        },
        "clauses": {"type": "array", "items": clause},
        "tags": {"type": "array", "items": {"type": "string"}},
        "unspecified": {
            "type": "array",
            "items": {
                "enum": list(oracle.ERRATA),
                "description": "an id of the errata register (errata.md; docs/spec/beyond-seeds.md)",
            },
        },
        "descriptor": {"type": "object", "title": "a descriptor object"},
        "inputs": {"type": "array", "items": ref("tensor")},
        "expected": ref("expected"),
    }
    case = {
        "type": "object",
        "title": "a case object",
        "required": sorted(corpus.REQUIRED_FIELDS),
        "properties": case_fields,
        "additionalProperties": False,
        "allOf": [
            when_is("operator", op, {"properties": {"descriptor": ref(f"{op}_descriptor")}})
            for op in oracle.DESCRIPTOR_TYPES
        ],
    }
    case_list = {
        "type": "object",
        "title": "a case list file",
        "required": ["cases"],
        "properties": {
            "schema_version": {"type": "integer", "enum": [corpus.SCHEMA_VERSION]},
            "generator": {"type": "object", "description": "what generated the cases (seed, count, version)"},
            "cases": {"type": "array", "items": ref("case")},
        },
        "additionalProperties": False,
    }
    definitions = {
        "case": _fields(case, corpus.CASE_FIELDS, "case"),
        "case_list": _fields(case_list, set(corpus.LIST_FIELDS), "case list"),
        "expected": expected,
        "tensor": tensor,
        "data_type": data_type,
        **hints.definitions,
    }
    return {
        "$schema": DRAFT,
        "title": "a dml-conformance case file",
        "description": "One case object, or a case list file; see cases/README.md.",
        "if": {"type": "object", "required": ["cases"]},
        "then": ref("case_list"),
        "else": ref("case"),
        "definitions": definitions,
    }


# --- results files ---------------------------------------------------------------------------------


def results_schema() -> Schema:
    """One line of a results file (JSON Lines): line 1 the header, then case, footer and resume lines."""
    hints = TypeSchemas(
        closed=False,
        names={record.Header: "header", record.Record: "case", record.Footer: "footer", record.Resume: "resume"},
        overrides={
            (record.Header, "format"): {"const": record.FORMAT},
            (record.Header, "format_version"): {"type": "integer", "enum": list(record.READABLE_VERSIONS)},
        },
    )
    kinds = dict(record.KINDS)
    for kind, cls in kinds.items():
        hints.define(cls)
        hints.definitions[kind]["properties"] = {"kind": {"const": kind}, **hints.definitions[kind]["properties"]}
        hints.definitions[kind]["title"] = f"a {kind} line"
    # Version 1 files: a case started, written before its record (one never recorded had crashed).
    hints.definitions["start"] = {
        "type": "object",
        "title": "a start line (format version 1)",
        "required": ["id"],
        "properties": {"kind": {"const": "start"}, "id": {"type": "string"}},
    }
    names = [*kinds, "start"]
    return {
        "$schema": DRAFT,
        "title": "a dml-conformance results line (an object)",
        "description": "Each line of a results file is one of these objects; line 1 is the header "
        "(format version 1 headers may lack `kind`). Unknown fields are allowed: a newer writer's "
        "field does not break an older reader.",
        "type": "object",
        "properties": {"kind": {"enum": names}},
        "if": {"required": ["kind"]},
        "then": {"allOf": [when_is("kind", kind, ref(kind)) for kind in names]},
        "else": ref("header"),
        "definitions": hints.definitions,
    }


# --- expectations files ----------------------------------------------------------------------------


def _when_schema() -> Schema:
    known = {
        "operator": _names_or_list(list(oracle.OPERATORS), "an operator"),
        "data_type": _names_or_list([t.value for t in oracle.DataType], "a data type name"),
        "category": _names_or_list(
            [c.value for c in record.Category if c in record.WAIVABLE], "a category a waiver excuses"
        ),
        "mismatch": {"enum": sorted(expectations.MISMATCH_KINDS)},
        "descriptor_contains": {
            "type": "object",
            "title": 'an object of descriptor array names to integers, e.g. {"strides": 0}',
            "additionalProperties": {"type": "integer"},
        },
    }
    anything = {"type": ["string", "array"], "items": {"type": "string"}}
    return {
        "type": "object",
        "title": "a when object",
        "description": "the waiver applies only to failures with all these properties",
        "properties": {name: known.get(name, anything) for name in sorted(expectations.WHEN_FIELDS)},
        "additionalProperties": False,
    }


def expectations_schema() -> Schema:
    """An expectations file: waivers of known failures, each with a reason (conformance/judging/expectations.py)."""
    waiver_cls = expectations.Waiver
    hints = TypeSchemas(
        closed=True,
        overrides={
            (waiver_cls, "reason"): {"type": "string", "pattern": "\\S", "description": "a reason (not blank)"},
            (waiver_cls, "id"): {"type": "string", "minLength": 1},
            (waiver_cls, "prefix"): {"type": "string", "minLength": 1},
            (waiver_cls, "when"): ref("when"),
            (waiver_cls, "flaky_rate"): {
                "type": "object",
                "description": "a known flake's failing attempts among its attempts, as `baseline` saw them",
                "required": ["failed", "attempts"],
                "properties": {
                    "failed": {"type": "integer", "minimum": 0},
                    "attempts": {"type": "integer", "minimum": 1},
                },
                "additionalProperties": False,
            },
        },
    )
    hints.define(waiver_cls)
    fields = hints.definitions.pop(waiver_cls.__name__)
    properties = {k: v for k, v in fields["properties"].items() if k not in expectations.INTERNAL_WAIVER_FIELDS}
    waiver = {
        "type": "object",
        "title": "a waiver object",
        "allOf": [
            {"required": fields["required"], "properties": properties, "additionalProperties": False},
            {
                "description": "exactly one of 'id' (a case id) or 'prefix' (an id prefix)",
                "oneOf": [{"required": ["id"]}, {"required": ["prefix"]}],
            },
        ],
    }
    top = {
        "schema_version": {"type": "integer", "enum": [expectations.SCHEMA_VERSION]},
        "waivers": {"type": "array", "items": ref("waiver")},
        "comment": {"description": "anything: for the file's readers"},
        "identities": {
            "type": "object",
            "description": "per backend, the identity of the run it was made from (DirectML.dll, adapter, driver, OS, "
            "fingerprint): a run of that backend with another identity refuses it unless --allow-identity-mismatch",
            "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    }
    return {
        "$schema": DRAFT,
        "title": "a dml-conformance expectations file (an object)",
        "description": "Known failures waived, each with a reason and a tracker link; see conformance/judging/expectations.py.",
        "type": "object",
        "required": ["waivers"],
        "properties": top,
        "additionalProperties": False,
        "definitions": {"waiver": waiver, "when": _when_schema(), **hints.definitions},
    }


BUILDERS = {"case": case_schema, "results": results_schema, "expectations": expectations_schema}


def text(name: str) -> str:
    """The schema as shipped: indented JSON with a final newline."""
    return json.dumps(BUILDERS[name](), indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write every schema; print the ones that changed."""
    folder = Path(argv[0]) if argv else SCHEMAS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for name in FORMATS:
        path = folder / f"{name}.schema.json"
        new = text(name)
        if not path.is_file() or path.read_text(encoding="utf-8") != new:
            path.write_text(new, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

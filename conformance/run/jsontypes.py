"""Dataclasses to JSON and back, checked against their type hints.

Why one generic codec: the results file's records, header and footer are typed dataclasses
(conformance.run.record), and reading them must name the exact JSON path that is wrong
(`R.jsonl:5: $.rank: expected an integer, got "x"`) for every field, without a hand-written
check per field.  The supported types are the ones a JSON Schema can say: str, int, float,
bool, Enum (by value), list[T], dict[str, T], T | None, unions of scalars, nested
dataclasses and Any (any JSON value).  The results schema is derived from the same hints
(conformance/schema_build.py), and a results file is validated against it before it is decoded.

Writing omits fields equal to their default; reading fills them in and ignores unknown keys
(so a newer writer's extra field does not break an older reader).  Every string read passes
`safe_text` (a file may come from anywhere): lone surrogates and control characters cannot
reach a page.  Text enters a record clean (conformance.run.execute and the pool clean what a
backend or a worker says), so writing copies values as they are, which keeps it cheap; and
json.dumps escapes whatever is left, so a results file is always valid JSON.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
import re
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    return "\ufffd" if "\ud800" <= ch <= "\udfff" else f"\\x{ord(ch):02x}"


def safe_text(text: str) -> str:
    """`text` with lone surrogates as U+FFFD and control characters (not tab or newline) as `\\xNN`."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


class JsonTypeError(ValueError):
    """A JSON value that does not have the declared type; the message starts with its JSON path."""


Decoder = Callable[[Any, str], Any]
Encoder = Callable[[Any], Any]


def _what(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _bad(where: str, expected: str, value: Any) -> JsonTypeError:
    return JsonTypeError(f"{where}: expected {expected}, got {_what(value)}")


def _dec_str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _bad(where, "a string", value)
    return safe_text(value)


def _dec_int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(where, "an integer", value)
    return value


def _dec_float(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _bad(where, "a finite number", value)
    return float(value)


def _dec_bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(where, "true or false", value)
    return value


def _dec_any(value: Any, where: str) -> Any:
    return value


def _same(value: Any) -> Any:
    return value


def _enc_float(value: float) -> float | str:
    return value if math.isfinite(value) else repr(value)  # JSON has no NaN; the text keeps it readable


_SCALARS: dict[Any, tuple[Decoder, Encoder]] = {
    str: (_dec_str, _same),
    int: (_dec_int, _same),
    float: (_dec_float, _enc_float),
    bool: (_dec_bool, _same),
    Any: (_dec_any, _same),
}
_CACHE: dict[Any, tuple[Decoder, Encoder]] = {}


def _codec(tp: Any) -> tuple[Decoder, Encoder]:
    if tp in _SCALARS:
        return _SCALARS[tp]
    if tp not in _CACHE:
        _CACHE[tp] = _build(tp)
    return _CACHE[tp]


def _build(tp: Any) -> tuple[Decoder, Encoder]:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _union(typing.get_args(tp))
    if origin is list:
        (item,) = typing.get_args(tp)
        dec_item, enc_item = _codec(item)

        def dec_list(value: Any, where: str) -> list:
            if not isinstance(value, list):
                raise _bad(where, "a list", value)
            return [dec_item(v, f"{where}[{i}]") for i, v in enumerate(value)]

        return dec_list, (_same if enc_item is _same else lambda value: [enc_item(v) for v in value])
    if origin is dict:
        key, item = typing.get_args(tp)
        assert key is str, f"JSON object keys are strings, not {key}"
        dec_item, enc_item = _codec(item)

        def dec_dict(value: Any, where: str) -> dict:
            if not isinstance(value, dict):
                raise _bad(where, "an object", value)
            return {safe_text(k): dec_item(v, f"{where}.{k}") for k, v in value.items()}

        return dec_dict, (_same if enc_item is _same else lambda value: {k: enc_item(v) for k, v in value.items()})
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        members = {m.value: m for m in tp}

        def dec_enum(value: Any, where: str) -> enum.Enum:
            try:
                return members[value]
            except (KeyError, TypeError):
                raise _bad(where, "one of " + ", ".join(map(str, members)), value) from None

        return dec_enum, lambda value: value.value
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass(tp)
    raise TypeError(f"no JSON codec for {tp!r}")


def _union(options: tuple) -> tuple[Decoder, Encoder]:
    nullable = type(None) in options
    rest = [o for o in options if o is not type(None)]
    if len(rest) == 1:
        dec_one, enc_one = _codec(rest[0])

        def dec_optional(value: Any, where: str) -> Any:
            return None if value is None else dec_one(value, where)

        return dec_optional, (_same if enc_one is _same else lambda value: None if value is None else enc_one(value))
    # A union of scalars (e.g. a tensor value: a number or "nan"): the first that accepts the value.
    codecs_ = [_codec(o) for o in rest]
    names = " or ".join(getattr(o, "__name__", str(o)) for o in rest) + (" or null" if nullable else "")

    def dec_union(value: Any, where: str) -> Any:
        if value is None and nullable:
            return None
        for dec, _ in codecs_:
            try:
                return dec(value, where)
            except JsonTypeError:
                continue
        raise _bad(where, names, value)

    return dec_union, _same


def _dataclass(cls: type) -> tuple[Decoder, Encoder]:
    hints = typing.get_type_hints(cls)
    fields = []
    for f in dataclasses.fields(cls):
        dec, enc = _codec(hints[f.name])
        if f.default is not dataclasses.MISSING:
            default: Callable[[], Any] | None = functools.partial(_same, f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory
        else:
            default = None
        fields.append((f.name, dec, enc, default))

    def dec_obj(value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise _bad(where, f"an object ({cls.__name__})", value)
        kwargs = {}
        for name, dec, _, default in fields:
            if name in value:
                kwargs[name] = dec(value[name], f"{where}.{name}")
            elif default is None:
                raise JsonTypeError(f"{where}: missing field {name!r}")
        return cls(**kwargs)

    # Each default made once, to compare with (never handed out): a default factory per field per record was
    # most of the encoding's time.
    made = [(name, enc, _REQUIRED if default is None else default()) for name, _, enc, default in fields]
    return dec_obj, _encoder(cls, made)


_REQUIRED = object()  # a field without a default: always written


def _encoder(cls: type, encoders: list[tuple[str, Encoder, Any]]) -> Encoder:
    """The encoder of a dataclass: each field in order, left out where it equals its default (`_REQUIRED`: none).

    Generated as straight-line code, one statement per field (as dataclasses generates __init__): the parent
    encodes thousands of records a second, and a loop over (name, encoder, default) took twice as long.
    """
    env: dict[str, Any] = {}
    lines = ["def enc_obj(obj):", "    out = {}"]
    for i, (name, enc, default) in enumerate(encoders):
        env[f"enc{i}"], env[f"default{i}"] = enc, default
        put = f"out[{name!r}] = " + ("value" if enc is _same else f"enc{i}(value)")  # most fields: text or numbers
        lines.append(f"    value = obj.{name}")
        lines += [f"    {put}"] if default is _REQUIRED else [f"    if not (value == default{i}):", f"        {put}"]
    exec("\n".join([*lines, "    return out"]), env)  # names from dataclasses.fields: identifiers
    enc_obj = env["enc_obj"]
    enc_obj.__qualname__ = f"enc_obj[{cls.__name__}]"
    return enc_obj


def from_json(cls: type[T], value: Any, where: str = "$") -> T:
    """`value` (parsed JSON) as a `cls`; JsonTypeError names the first wrong JSON path."""
    return _codec(cls)[0](value, where)


def to_json(obj: Any) -> dict:
    """A dataclass instance as a JSON-ready dict, fields at their defaults left out."""
    return _codec(type(obj))[1](obj)

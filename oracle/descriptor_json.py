"""A descriptor as JSON (the case format's "descriptor" object), owned by each descriptor type.

Each descriptor dataclass mixes in `JsonDescriptor` and names, in its JSON_FIELDS, how each of its fields
that is not a plain integer (or tuple of integers) converts; the kinds every operator shares are here
(tensor descs, arrays of them, enumerations), the operator's own (PADDING's FLOAT PaddingValue, PADDING1's
typed one) beside its descriptor.  The JSON object's keys are the dataclass's fields, in their order: case
ids are hashed from it, so a change here changes every id (tests/cases/test_loading.py holds every stored
case file to its own descriptors).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from .checks import TensorDesc
from .tables import DataType


@dataclass(frozen=True)
class FieldJson:
    """How one descriptor field converts: `dump(value, desc)` gives its JSON, `load(value, obj)` reads it back
    (`desc` and `obj` are the whole descriptor and JSON object: for a field whose form depends on another)."""

    dump: Callable[[Any, Any], Any]
    load: Callable[[Any, dict], Any]


def _plain_dump(value: Any, desc: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _plain_load(value: Any, obj: dict) -> Any:
    return tuple(value) if isinstance(value, list) else value


# An integer, None, or a tuple of integers (a JSON list): every field a descriptor's JSON_FIELDS does not name.
PLAIN = FieldJson(_plain_dump, _plain_load)
TENSOR = FieldJson(lambda value, desc: value.to_json(), lambda value, obj: TensorDesc.from_json(value))
TENSORS = FieldJson(
    lambda value, desc: [t.to_json() for t in value],
    lambda value, obj: tuple(TensorDesc.from_json(t) for t in value),
)


def enumeration(parse: Callable[[Any], Any]) -> FieldJson:
    """An enum member as its value ("CONSTANT", "FLOAT32"), read back with the enum's own `parse`."""
    return FieldJson(lambda value, desc: value.value, lambda value, obj: parse(value))


DATA_TYPE = enumeration(DataType.parse)

D = TypeVar("D", bound="JsonDescriptor")


class JsonDescriptor:
    """Mixed into every operator's descriptor dataclass: `to_json` and `from_json` by its JSON_FIELDS."""

    operator: ClassVar[str]
    JSON_FIELDS: ClassVar[dict[str, FieldJson]] = {}
    __dataclass_fields__: ClassVar[dict[str, Any]]  # set by @dataclass on each descriptor

    def to_json(self) -> dict:
        kinds = self.JSON_FIELDS
        return {f.name: kinds.get(f.name, PLAIN).dump(getattr(self, f.name), self) for f in dataclasses.fields(self)}

    @classmethod
    def from_json(cls: type[D], obj: dict) -> D:
        """Build the descriptor from its JSON object; unknown or missing fields raise KeyError naming them."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(obj) - set(fields))
        if unknown:
            raise KeyError(f"unknown field(s) {', '.join(unknown)} for {cls.operator}; expected {', '.join(fields)}")
        missing = [n for n, f in fields.items() if n not in obj and f.default is dataclasses.MISSING]
        if missing:
            raise KeyError(f"missing field(s) {', '.join(missing)} for {cls.operator}")
        kinds = cls.JSON_FIELDS
        return cls(**{name: kinds.get(name, PLAIN).load(value, obj) for name, value in obj.items()})

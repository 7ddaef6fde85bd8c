"""The case format (cases/README.md): load, check, encode and identify case files.

Each case is validated against the case schema (conformance/schemas/case.schema.json, see
conformance.support.formats) and then built; what a schema cannot say (values against shapes, the
descriptor's validity, the expected outputs against the oracle, content-hash ids) is checked
while building.  Loading never stops at the first bad file: every problem becomes a
CaseFileError naming the file and the JSON path, and every good case still loads.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import oracle
from oracle import DataType, Descriptor, FeatureLevel, InvalidDescriptor, TensorDesc
from oracle.registry import HASH_ID_PATTERN, NAMED_ID_PATTERN

from ..support import formats
from ..support.formats import FormatError
from ..support.jsonfile import JsonFileError, read_json

SCHEMA_VERSION = 1


def _cases_dir() -> Path:
    """The case corpus: the checkout's cases/ (editable install) or the copy packed into the wheel."""
    package = Path(__file__).resolve().parents[1]  # conformance/
    for candidate in (package.parent / "cases", package / "_cases"):
        if candidate.is_dir():
            return candidate
    return package.parent / "cases"


CASES_DIR = _cases_dir()

CASE_FIELDS = {  # the case schema's fields (conformance.schema_build checks it against them)
    "schema_version",
    "id",
    "operator",
    "description",
    "source",
    "feature_level",
    "clauses",
    "tags",
    "descriptor",
    "inputs",
    "expected",
    "unspecified",
}
REQUIRED_FIELDS = {"id", "operator", "feature_level", "clauses", "descriptor", "expected"}
TENSOR_FIELDS = {"data_type", "shape", "values", "data_b64"}
LIST_FIELDS = ("schema_version", "generator", "cases")  # a case list file's top level
HASH_ID = re.compile(HASH_ID_PATTERN)
NAMED_ID = re.compile(NAMED_ID_PATTERN)


class CaseFileError(FormatError):
    """A problem in a case file, located by file and JSON path (e.g. `$.cases[3].inputs[0].shape`)."""


@dataclass(frozen=True)
class Expected:
    outcome: str  # "valid" or "invalid"
    outputs: tuple[np.ndarray, ...] = ()
    clause: str | None = None  # for "invalid": the clause the descriptor breaks


class CaseFacts:
    """What the run, selection and report read off any case (a stored or generated one, a stress one):
    its validity and, from its descriptor's input, its data type and rank."""

    descriptor: Descriptor
    expected: Expected

    @property
    def valid(self) -> bool:
        return self.expected.outcome == "valid"

    @property
    def _first_tensor(self) -> TensorDesc:
        """The input a case is drawn in (the descriptor's `input_tensor`, which ONE_HOT reads from its output); the
        output where there is no input tensor (FILL_VALUE_*, DIAGONAL_MATRIX, DIAGONAL_MATRIX1 without its optional
        one)."""
        d = self.descriptor
        named = getattr(d, "input_tensor", None)  # ONE_HOT names its output (ValuesTensor's type), not its indices
        return named if named is not None else (d.input_tensors or d.output_tensors)[0]

    @property
    def data_type(self) -> DataType:
        return self._first_tensor.data_type

    @property
    def rank(self) -> int:
        return self._first_tensor.dimension_count


@dataclass(frozen=True)
class Case(CaseFacts):
    id: str
    operator: str
    feature_level: FeatureLevel
    descriptor: Descriptor
    inputs: tuple[np.ndarray, ...]
    expected: Expected
    clauses: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    unspecified: tuple[str, ...] = ()  # register entries reached: results are observed, not judged
    description: str = ""
    source: str = ""
    path: str = ""  # the file it came from


# --- tensors --------------------------------------------------------------------------------


def _element_from_json(value, dtype: np.dtype, bits_dtype: np.dtype):
    if isinstance(value, str):
        text = value.strip().lower()
        if text.startswith("0x"):
            return np.array(int(text, 16), dtype=bits_dtype).view(dtype)[()]
        if text in ("nan", "inf", "-inf", "+inf", "-0.0") and dtype.kind == "f":
            return dtype.type(float(text))
        raise ValueError(f"{value!r} is not a number, 'nan', 'inf', '-inf' or raw bits '0x...'")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{value!r} is not a number")
    if dtype.kind in "iu":
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"{value!r} is not an integer ({dtype})")
        info = np.iinfo(dtype)
        if not info.min <= int(value) <= info.max:
            raise ValueError(f"{value!r} is out of range for {dtype}")
        return dtype.type(int(value))
    with np.errstate(over="ignore"):
        result = dtype.type(value)
    if math.isfinite(value) and float(result) != value:
        raise ValueError(f"{value!r} is not exactly representable as {dtype}; write its bits as '0x...'")
    return result


def _tensor(obj: dict, where: str) -> np.ndarray:
    """Build a tensor object ({"data_type", "shape", and "values" (row-major) or "data_b64" (raw
    little-endian)}) the schema has checked: what is left is the values against the shape and type."""
    data_type = DataType(obj["data_type"])
    shape = [int(n) for n in obj["shape"]]
    count = math.prod(shape)
    dtype = data_type.numpy
    if "values" in obj:
        values = obj["values"]
        if len(values) != count:
            raise _Problem(f"{where}.values", f"has {len(values)} values, but shape {shape} holds {count}")
        out = np.empty(count, dtype=dtype)
        for i, v in enumerate(values):
            try:
                out[i] = _element_from_json(v, dtype, data_type.bits)
            except ValueError as e:
                raise _Problem(f"{where}.values[{i}]", str(e)) from e
        return out.reshape(shape)
    try:
        raw = base64.b64decode(obj["data_b64"], validate=True)
    except (ValueError, TypeError) as e:
        raise _Problem(f"{where}.data_b64", f"not valid base64: {e}") from e
    if len(raw) != count * dtype.itemsize:
        raise _Problem(
            f"{where}.data_b64",
            f"holds {len(raw)} bytes, but shape {shape} of {data_type.value} needs {count * dtype.itemsize}",
        )
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


def tensor_to_json(array: np.ndarray, *, compact: bool = True) -> dict:
    """Encode a tensor: base64 of raw bytes (compact=True) or a readable list of values."""
    data_type = DataType.from_numpy(array.dtype)
    array = np.asarray(array, dtype=data_type.numpy, order="C")
    out = {"data_type": data_type.value, "shape": list(array.shape)}
    if compact:
        out["data_b64"] = base64.b64encode(array.tobytes()).decode("ascii")
    else:
        out["values"] = [_element_to_json(v, data_type) for v in array.reshape(-1)]
    return out


def _element_to_json(value: np.generic, data_type: DataType):
    if not data_type.is_float:
        return int(value)
    if math.isnan(value):
        return "0x" + np.asarray(value).view(data_type.bits).tobytes()[::-1].hex()
    if math.isinf(value):
        return "inf" if float(value) > 0 else "-inf"
    return float(value)


# --- ids --------------------------------------------------------------------------------------


def content_hash(
    operator: str, feature_level: FeatureLevel, descriptor: Descriptor, inputs: Sequence[np.ndarray]
) -> str:
    """8 hex digits of SHA-256 over what defines a case: operator, level, descriptor, input bytes.

    Independent of how the file encodes the inputs (values or base64) and of the prose fields.
    """
    canonical = {
        "operator": operator,
        "feature_level": str(feature_level),
        "descriptor": oracle.descriptor_to_json(descriptor),
        "inputs": [tensor_to_json(x, compact=True) for x in inputs],
    }
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def case_id(operator: str, feature_level: FeatureLevel, descriptor: Descriptor, inputs: Sequence[np.ndarray]) -> str:
    return f"{operator}-{content_hash(operator, feature_level, descriptor, inputs)}"


# --- cases --------------------------------------------------------------------------------------


class _Problem(Exception):
    def __init__(self, json_path: str, message: str):
        super().__init__(message)
        self.json_path = json_path
        self.message = message


def case_from_json(obj: dict, where: str = "$", path: str = "", *, check_expected: bool = True) -> Case:
    """Parse and check one case object; raises CaseFileError naming `path` and the JSON path.

    `check_expected`: compute the outputs with the oracle and compare them with the file's
    expected outputs, bit for bit (off only for cases the oracle itself just wrote).
    """
    try:
        return _case_from_json(obj, where, path, check_expected)
    except _Problem as p:
        raise CaseFileError(path, p.json_path, p.message) from None


def _check_against_oracle(descriptor: Descriptor, inputs, expected: Expected, level: FeatureLevel, where: str) -> None:
    """A wrong expected output would fail every correct backend: name the first element the oracle disagrees on."""
    from ..judging.compare import compare_outputs

    try:
        computed = oracle.compute(descriptor, list(inputs), feature_level=level)
    except Exception as e:  # e.g. a tensor past the oracle's size guard
        raise _Problem(
            f"{where}.expected.outputs", f"the oracle cannot compute this case to check it: {type(e).__name__}: {e}"
        ) from e
    comparison = compare_outputs(computed, list(expected.outputs))
    if not comparison.equal:
        m = comparison.first[0]
        raise _Problem(
            f"{where}.expected.outputs[{m.output}]",
            f"element [{','.join(map(str, m.coordinate))}] is {m.actual} ({m.actual_hex}), but the oracle "
            f"computes {m.expected} ({m.expected_hex}); {comparison.count} element(s) differ",
        )


def _case_from_json(obj: Any, where: str, path: str, check_expected: bool) -> Case:
    """Validate against the case schema, then build and check what a schema cannot say."""
    _validate(obj, where)
    operator = obj["operator"]
    level = FeatureLevel.parse(obj["feature_level"])
    try:
        descriptor = oracle.descriptor_from_json(operator, obj["descriptor"])
    except (KeyError, TypeError, ValueError) as e:  # a value no struct can hold, e.g. an axis of 1.5
        message = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        raise _Problem(f"{where}.descriptor", message) from e
    if oracle.layout.has_layout(descriptor) and not any(c.startswith("LAYOUT.") for c in obj["clauses"]):
        raise _Problem(
            f"{where}.clauses",
            "the descriptor states a tensor layout (strides, total_tensor_size_in_bytes, alignment or flags); "
            "cite the LAYOUT clause it tests (docs/spec/beyond-seeds.md)",
        )
    inputs = tuple(_tensor(t, f"{where}.inputs[{i}]") for i, t in enumerate(obj.get("inputs", [])))
    expected = _expected_from_json(obj["expected"], f"{where}.expected")
    if expected.outcome == "valid":
        _check_valid(descriptor, inputs, expected, level, where)
        reached = oracle.unspecified(descriptor)
        if sorted(obj.get("unspecified", [])) != sorted(reached):
            raise _Problem(
                f"{where}.unspecified",
                f"lists {obj.get('unspecified', [])}, but the descriptor reaches {reached} (oracle.unspecified)",
            )
        if check_expected:
            _check_against_oracle(descriptor, inputs, expected, level, where)
    else:
        _check_invalid(descriptor, expected, level, where)
    _check_id(obj["id"], operator, level, descriptor, inputs, where)
    return Case(
        id=obj["id"],
        operator=operator,
        feature_level=level,
        descriptor=descriptor,
        inputs=inputs,
        expected=expected,
        clauses=tuple(obj["clauses"]),
        tags=tuple(obj.get("tags", [])),
        unspecified=tuple(obj.get("unspecified", [])),
        description=obj.get("description", ""),
        source=obj.get("source", ""),
        path=str(path),
    )


def _validate(obj: Any, where: str) -> None:
    """The case schema, as `schema case --validate` checks it (formats.case_violation)."""
    found = formats.case_violation(obj, where)
    if found:
        raise _Problem(*found)


def _check_valid(
    descriptor: Descriptor, inputs: tuple[np.ndarray, ...], expected: Expected, level: FeatureLevel, where: str
) -> None:
    """A valid case: a valid descriptor, an input per input tensor desc (one but for JOIN), and tensors of the
    descriptor's types and sizes."""
    count = len(descriptor.input_tensors)
    if len(inputs) != count:
        raise _Problem(
            f"{where}.inputs", f"a valid {descriptor.operator} case needs {count} input tensor(s), got {len(inputs)}"
        )
    try:
        oracle.validate(descriptor, level)
    except InvalidDescriptor as e:
        raise _Problem(f"{where}.descriptor", f"expected.outcome is 'valid', but the descriptor is invalid: {e}") from e
    tensors = zip(inputs + tuple(expected.outputs), (*descriptor.input_tensors, *descriptor.output_tensors))
    for i, (x, t) in enumerate(tensors):
        label = f"{where}.inputs[{i}]" if i < count else f"{where}.expected.outputs[{i - count}]"
        if list(x.shape) != list(t.sizes) or DataType.from_numpy(x.dtype) is not t.data_type:
            raise _Problem(
                label,
                f"is {DataType.from_numpy(x.dtype).value} {list(x.shape)}, but the descriptor "
                f"says {t.data_type.value} {list(t.sizes)}",
            )
    for i, (x, t) in enumerate(zip(inputs, descriptor.input_tensors)):
        clash = oracle.layout.consistent(x, t)
        if clash is not None:
            raise _Problem(
                f"{where}.inputs[{i}]",
                f"element {list(clash[0])} differs from element {list(clash[1])}, but the input's strides "
                f"{list(t.strides or ())} give both one address, so they must be equal [LAYOUT.2]",
            )
    if len(expected.outputs) != len(descriptor.output_tensors):
        raise _Problem(
            f"{where}.expected.outputs",
            f"has {len(expected.outputs)} tensors, but the descriptor has {len(descriptor.output_tensors)} outputs",
        )


def _check_invalid(descriptor: Descriptor, expected: Expected, level: FeatureLevel, where: str) -> None:
    """An invalid case must break exactly the clause it names: a wrong expectation would fail a
    conforming backend (or pass a broken one)."""
    try:
        oracle.validate(descriptor, level)
    except InvalidDescriptor as e:
        if e.clause != expected.clause:
            raise _Problem(
                f"{where}.expected.clause", f"names {expected.clause}, but the descriptor breaks {e.clause} first: {e}"
            ) from e
    else:
        raise _Problem(
            f"{where}.expected",
            f"outcome is 'invalid' ({expected.clause}), but the descriptor is valid at feature level {level}",
        )


def _check_id(
    case_id_: str,
    operator: str,
    level: FeatureLevel,
    descriptor: Descriptor,
    inputs: tuple[np.ndarray, ...],
    where: str,
) -> None:
    """The id starts with its operator; an OPERATOR-<8 hex digits> id is the content hash."""
    named = NAMED_ID.match(case_id_)  # the registry's pattern: SLICE1-... is never read as SLICE
    if named is None or named.group(1) != operator:
        raise _Problem(f"{where}.id", f"{case_id_!r} does not start with its operator {operator}-")
    if HASH_ID.match(case_id_):
        actual = case_id(operator, level, descriptor, inputs)
        if actual != case_id_:
            raise _Problem(f"{where}.id", f"{case_id_!r} does not match its content (content hash gives {actual!r})")


def _expected_from_json(obj: dict, where: str) -> Expected:
    if obj["outcome"] == "invalid":
        return Expected("invalid", clause=obj["clause"])
    return Expected("valid", tuple(_tensor(t, f"{where}.outputs[{i}]") for i, t in enumerate(obj["outputs"])))


def case_to_json(case: Case, *, compact: bool = True) -> dict:
    out = {
        "schema_version": SCHEMA_VERSION,
        "id": case.id,
        "operator": case.operator,
        "description": case.description,
        "source": case.source,
        "feature_level": str(case.feature_level),
        "clauses": list(case.clauses),
        "tags": list(case.tags),
        "unspecified": list(case.unspecified),
        "descriptor": oracle.descriptor_to_json(case.descriptor),
        "inputs": [tensor_to_json(x, compact=compact) for x in case.inputs],
    }
    if case.valid:
        out["expected"] = {
            "outcome": "valid",
            "outputs": [tensor_to_json(y, compact=compact) for y in case.expected.outputs],
        }
    else:
        out["expected"] = {"outcome": "invalid", "clause": case.expected.clause}
    return out


# --- files ----------------------------------------------------------------------------------


@dataclass
class LoadResult:
    cases: list[Case]
    errors: list[CaseFileError]

    def by_id(self) -> dict[str, Case]:
        return {c.id: c for c in self.cases}


def load_file(path: str | Path, only: Iterable[str] | None = None) -> LoadResult:
    """One file: a single case object, or {"schema_version": 1, "cases": [...]}; `only`: just these ids."""
    path = Path(path)
    try:
        obj = read_json(path)
    except JsonFileError as e:
        return LoadResult([], [CaseFileError(path, "$", e.detail)])
    if isinstance(obj, dict) and "cases" in obj:
        found = formats.violation("case", obj, definition="case_list", cut=True)
        if found:
            return LoadResult([], [CaseFileError(path, *found)])
        items = [(f"$.cases[{i}]", c) for i, c in enumerate(obj["cases"])]
    else:
        items = [("$", obj)]
    if only is not None:
        wanted = set(only)
        items = [(where, item) for where, item in items if isinstance(item, dict) and item.get("id") in wanted]
    result = LoadResult([], [])
    for where, item in items:
        try:
            result.cases.append(case_from_json(item, where, str(path)))
        except CaseFileError as e:
            result.errors.append(e)
        except Exception as e:  # a shape no check foresaw: still one error, never a stopped load
            result.errors.append(CaseFileError(path, where, f"cannot read this case: {type(e).__name__}: {e}"))
    return result


def first_case(path: Path) -> Case:
    """A case file's first case (what `explain` and `repro` take from a file); ValueError naming what is wrong."""
    loaded = load_file(path)
    if loaded.errors:
        raise ValueError("; ".join(str(e) for e in loaded.errors))
    if not loaded.cases:
        raise ValueError(f"{path}: no case in the file")
    return loaded.cases[0]


def load(paths: Iterable[str | Path] | None = None) -> LoadResult:
    """Load every *.json under the given files or folders (default: the packaged cases/).

    Bad files become errors and everything else still loads; duplicate ids are errors.
    """
    files: list[Path] = []
    for p in [CASES_DIR] if paths is None else paths:
        p = Path(p)
        files.extend(sorted(p.rglob("*.json")) if p.is_dir() else [p])
    result = LoadResult([], [])
    seen: dict[str, Case] = {}
    for f in files:
        part = load_file(f)
        result.errors.extend(part.errors)
        for case in part.cases:
            if case.id in seen:
                result.errors.append(
                    CaseFileError(f, f"$ (id {case.id})", f"duplicate case id; first defined in {seen[case.id].path}")
                )
                continue
            seen[case.id] = case
            result.cases.append(case)
    return result

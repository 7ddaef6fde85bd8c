"""Bit-exact comparison of expected and actual outputs: raw bytes, never tolerances.

Cheap when outputs match (one vectorised comparison of the bit views); detailed when they
do not (count, first mismatching coordinates, values as numbers and hex).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from oracle import DataType

MAX_LISTED = 16  # mismatching elements listed per output; the count covers all of them


@dataclass
class Mismatch:
    output: int
    coordinate: tuple[int, ...]
    expected: str
    actual: str
    expected_hex: str
    actual_hex: str

    def to_json(self) -> dict:
        return {
            "output": self.output, "coordinate": list(self.coordinate), "expected": self.expected,
            "actual": self.actual, "expected_hex": self.expected_hex, "actual_hex": self.actual_hex,
        }


@dataclass
class Comparison:
    equal: bool
    problems: list[str] = field(default_factory=list)  # structural: count, shape, dtype
    mismatch_count: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    # True when every mismatching element is a NaN on both sides (only the NaN's bits differ):
    # lets a waiver excuse exactly a known NaN-payload deviation and nothing else.
    nan_payload_only: bool = False

    def summary(self) -> str:
        if self.equal:
            return "bit-exact"
        if self.problems:
            return "; ".join(self.problems)
        first = self.mismatches[0]
        return (f"{self.mismatch_count} element(s) differ; first at output {first.output} "
                f"[{','.join(map(str, first.coordinate))}]: expected {first.expected} ({first.expected_hex}), "
                f"got {first.actual} ({first.actual_hex})")

    def to_json(self) -> dict:
        return {"equal": self.equal, "problems": self.problems, "count": self.mismatch_count,
                "nan_payload_only": self.nan_payload_only, "first": [m.to_json() for m in self.mismatches]}


def _hex(bits: np.generic, width: int) -> str:
    return f"0x{int(bits):0{width * 2}x}"


def _num(value: np.generic) -> str:
    return repr(value.item())


def compare_outputs(expected: list[np.ndarray], actual: list[np.ndarray]) -> Comparison:
    """Compare output lists bit for bit (NaN payloads, -0.0, denormals all count)."""
    if len(expected) != len(actual):
        return Comparison(False, [f"expected {len(expected)} output(s), got {len(actual)}"])
    result = Comparison(True)
    nan_only = True
    for j, (e, a) in enumerate(zip(expected, actual)):
        a = np.asarray(a)
        if a.dtype.newbyteorder("=") != e.dtype.newbyteorder("="):
            result.equal = False
            result.problems.append(f"output {j}: expected dtype {e.dtype}, got {a.dtype}")
            continue
        if a.shape != e.shape:
            result.equal = False
            result.problems.append(f"output {j}: expected shape {list(e.shape)}, got {list(a.shape)}")
            continue
        data_type = DataType.from_numpy(e.dtype)
        eb = np.ascontiguousarray(e, dtype=data_type.numpy).view(data_type.bits)
        ab = np.ascontiguousarray(a, dtype=data_type.numpy).view(data_type.bits)
        differ = eb != ab
        if not differ.any():
            continue
        result.equal = False
        coords = np.argwhere(differ)
        result.mismatch_count += len(coords)
        width = data_type.numpy.itemsize
        ev = eb.view(data_type.numpy)
        av = ab.view(data_type.numpy)
        nan_only = nan_only and data_type.is_float and bool(np.all(np.isnan(ev[differ]) & np.isnan(av[differ])))
        for coord in coords[: max(0, MAX_LISTED - len(result.mismatches))]:
            c = tuple(int(v) for v in coord)
            result.mismatches.append(Mismatch(j, c, _num(ev[c]), _num(av[c]), _hex(eb[c], width), _hex(ab[c], width)))
    result.nan_payload_only = not result.equal and not result.problems and nan_only
    return result

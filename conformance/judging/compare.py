"""Bit-exact comparison of expected and actual outputs: raw bytes, never tolerances.

Cheap when outputs match (one vectorised comparison of the bit views); detailed when they
do not (count, first mismatching coordinates, values as numbers and hex).  Elements an
unspecified register entry leaves open (oracle.unspecified_mask) are counted apart: a
difference there is observed, a difference anywhere else is a failure.  `Comparison` is
also the `mismatch` part of a result record (conformance.run.record), field for field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from oracle import DataType

MAX_LISTED = 16  # mismatching elements listed per comparison; the count covers all of them


@dataclass
class Mismatch:
    output: int
    coordinate: list[int]
    expected: str
    actual: str
    expected_hex: str
    actual_hex: str
    open: bool = False  # an unspecified register entry leaves this element open (observed, not judged)


@dataclass
class Comparison:
    equal: bool
    problems: list[str] = field(default_factory=list)  # structural: count, shape, dtype
    count: int = 0  # differing elements
    open_count: int = 0  # of `count`, the ones an unspecified entry leaves open
    # True when every judged mismatching element is a NaN on both sides (only the NaN's bits
    # differ): lets a waiver excuse exactly a known NaN-payload deviation and nothing else.
    nan_payload_only: bool = False
    first: list[Mismatch] = field(default_factory=list)  # judged mismatches first, then open ones
    # The known deviations (conformance.judging.deviations) whose prediction the actual outputs equal bit for bit.
    explained_by: list[str] = field(default_factory=list)

    @property
    def judged_count(self) -> int:
        return self.count - self.open_count

    @property
    def fails(self) -> bool:
        """A structural problem, or a difference where the spec fixes the value."""
        return bool(self.problems) or self.judged_count > 0

    def absorb(self, part: Comparison, output: int, row: int = 0) -> None:
        """Fold in the comparison of one piece of output `output` that starts at `row` along axis 0 (a large
        output compared in chunks): counts add up, listed mismatches keep whole-output coordinates."""
        if part.equal:
            return
        nan_only = (self.equal or self.nan_payload_only) and part.nan_payload_only
        self.equal = False
        self.problems += part.problems
        self.count += part.count
        self.open_count += part.open_count
        for m in part.first[: max(0, MAX_LISTED - len(self.first))]:
            coordinate = [m.coordinate[0] + row, *m.coordinate[1:]] if m.coordinate else []
            self.first.append(dataclasses.replace(m, output=output, coordinate=coordinate))
        self.nan_payload_only = nan_only

    def summary(self) -> str:
        if self.equal:
            return "bit-exact"
        if self.problems:
            return "; ".join(self.problems)
        first = self.first[0]
        where = " where the spec fixes the value" if self.open_count and self.judged_count else ""
        count = self.judged_count or self.count
        text = (
            f"{count} element(s) differ{where}; first at output {first.output} "
            f"[{','.join(map(str, first.coordinate))}]: expected {first.expected} ({first.expected_hex}), "
            f"got {first.actual} ({first.actual_hex})"
        )
        if self.open_count and self.judged_count:
            text += f"; {self.open_count} more where the spec leaves the value open"
        return text


def _hex(bits: np.generic, width: int) -> str:
    return f"0x{int(bits):0{width * 2}x}"


def _num(value: np.generic) -> str:
    return repr(value.item())


def output_problem(j: int, dtype: np.dtype, shape: Sequence[int], actual: np.ndarray) -> str | None:
    """Why output `j` cannot be compared element by element with the expected `dtype` and `shape`, or None."""
    if actual.dtype.newbyteorder("=") != dtype.newbyteorder("="):
        return f"output {j}: expected dtype {dtype}, got {actual.dtype}"
    if tuple(actual.shape) != tuple(shape):
        return f"output {j}: expected shape {list(shape)}, got {list(actual.shape)}"
    return None


def _same_bytes(e: np.ndarray, a: np.ndarray) -> bool:
    """Whether two arrays of one dtype (byte order included: dtypes of two orders differ) and shape hold the same bits, as raw bytes."""
    return e.dtype == a.dtype and e.flags.c_contiguous and a.flags.c_contiguous and e.tobytes() == a.tobytes()


def compare_outputs(
    expected: list[np.ndarray], actual: list[np.ndarray], open_elements: Sequence[np.ndarray] | None = None
) -> Comparison:
    """Compare output lists bit for bit (NaN payloads, -0.0, denormals all count).

    `open_elements`: one bool array per output (oracle.unspecified_mask), True where a
    difference is observed rather than judged.
    """
    if len(expected) != len(actual):
        return Comparison(False, [f"expected {len(expected)} output(s), got {len(actual)}"])
    result = Comparison(True)
    judged: list[Mismatch] = []
    opened: list[Mismatch] = []
    nan_only = True
    for j, (e, a) in enumerate(zip(expected, actual)):
        a = np.asarray(a)
        problem = output_problem(j, e.dtype, e.shape, a)
        if problem:
            result.equal = False
            result.problems.append(problem)
            continue
        if _same_bytes(e, a):  # the common case, without the per-element arrays below
            continue
        data_type = DataType.from_numpy(e.dtype)
        eb = np.ascontiguousarray(e, dtype=data_type.numpy).view(data_type.bits)
        ab = np.ascontiguousarray(a, dtype=data_type.numpy).view(data_type.bits)
        differ = eb != ab
        if not differ.any():
            continue
        result.equal = False
        is_open = open_elements[j] if open_elements is not None else np.zeros(differ.shape, dtype=bool)
        result.count += int(differ.sum())
        result.open_count += int((differ & is_open).sum())
        width = data_type.numpy.itemsize
        ev = eb.view(data_type.numpy)
        av = ab.view(data_type.numpy)
        fixed = differ & ~is_open
        if fixed.any():
            nan_only = nan_only and data_type.is_float and bool(np.all(np.isnan(ev[fixed]) & np.isnan(av[fixed])))
        for mask, into, flag in ((fixed, judged, False), (differ & is_open, opened, True)):
            for coord in np.argwhere(mask)[: max(0, MAX_LISTED - len(into))]:
                c = tuple(int(v) for v in coord)
                into.append(
                    Mismatch(j, list(c), _num(ev[c]), _num(av[c]), _hex(eb[c], width), _hex(ab[c], width), flag)
                )
    result.first = (judged + opened)[:MAX_LISTED]
    result.nan_payload_only = not result.equal and not result.problems and result.judged_count > 0 and nan_only
    return result

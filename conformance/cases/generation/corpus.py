"""The frozen corpus: `dml-conformance cases generate --seed S --per-operator N --out DIR`.

Deterministic by construction: numpy's PCG64 drives the operators' builders
(conformance.cases.generation.operators), one stream per operator seeded from S and the operator's
name, so the same seed and GENERATOR_VERSION give the same bytes on every machine, and an operator's
cases do not depend on which other operators exist (adding one leaves the others' files as they
were).  Hypothesis is not used here: its choices depend on its database and version, not on a seed.  Expected outputs come from the oracle's fast path at generation
time; tests/cases/test_generated.py re-checks them with the literal path.

`--per-operator N` (the committed corpus) makes N cases of each operator; `--count N` makes N in all,
round-robin.  Output: one list file per operator (SLICE.json, ...), one case per line so diffs stay
readable, tensors as data_b64, ids the content hashes of conformance.cases.corpus.case_id, each
case encoded by conformance.cases.corpus.case_to_json (the one case encoder).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import oracle
from oracle import InvalidDescriptor

from ...support.outputs import write_atomic
from ..corpus import SCHEMA_VERSION, Case, Expected, case_id, case_to_json
from .common import CaseSpec, RngChooser, choose_config, first_tensor
from .operators import INVALID_FAMILIES, build_invalid, build_valid, case_clauses, corners
from .version import GENERATOR_VERSION

# Cases of each operator in the committed corpus (cases/generated; `cases generate`'s default).
COMMITTED_PER_OPERATOR = 120

# Share of generated cases that are invalid descriptors (one family per validation rule).
INVALID_SHARE = 0.15

# Most redraws when a drawn case duplicates an earlier one (tiny cases repeat).
_MAX_REDRAWS = 1000


def case_from_spec(spec: CaseSpec, source: str, case_id_: str | None = None) -> Case:
    """The case of a built spec (expected outputs from the oracle); `case_id_` if already computed."""
    desc, level = spec.descriptor, spec.feature_level
    first = first_tensor(desc)
    dt = first.data_type
    tags = ["generated", *spec.tags]
    if spec.valid:
        tags += [f"corner:{c}" for c in corners(desc)]
        expected = Expected("valid", tuple(oracle.compute(desc, spec.inputs, feature_level=level)))
        reached = oracle.unspecified(desc)
        tags += reached
        what = f"{spec.operator} {dt.value} rank {first.dimension_count}"
        if isinstance(desc, oracle.PaddingDesc):
            what += f" {desc.padding_mode.value}"
    else:
        try:
            oracle.validate(desc, level)
        except InvalidDescriptor as e:
            if e.clause != spec.clause:  # a builder bug: the family broke another rule first
                raise AssertionError(f"family {spec.family!r} meant {spec.clause}, validation says {e}") from e
        else:
            raise AssertionError(f"family {spec.family!r} built a valid descriptor: {desc}")
        reached = []
        tags.append(f"family:{spec.family}")
        expected = Expected("invalid", clause=spec.clause)
        what = f"invalid ({spec.clause}: {spec.family}), {dt.value} rank {first.dimension_count}"
    return Case(
        id=case_id_ or case_id(spec.operator, level, desc, spec.inputs),
        operator=spec.operator,
        feature_level=level,
        descriptor=desc,
        inputs=tuple(spec.inputs),
        expected=expected,
        clauses=tuple(case_clauses(spec)),
        tags=tuple(sorted(set(tags), key=tags.index)),
        unspecified=tuple(reached),
        description=f"{what} at FL {level}",
        source=source,
    )


def _source(seed: int, count: int | None = None, per_operator: int | None = None) -> str:
    amount = f"{per_operator} per operator" if per_operator is not None else f"count {count}"
    return f"generated: seed {seed}, {amount}, generator {GENERATOR_VERSION}"


def operator_stream(seed: int, operator: str) -> np.random.Generator:
    """The operator's own random stream for `seed`: keyed on its name, so no other operator shifts it."""
    key = int.from_bytes(hashlib.sha256(operator.encode()).digest()[:8], "little")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, key])))


class Generation:
    """The cases one seed generates, in order, taken in steps; resumable from `state()`.

    Case i is the next case of operator i mod n, drawn from that operator's own stream
    (`operator_stream`).  The first n cases of a longer generation with the same seed are the
    n-case generation, and `state()` (each stream's state, how many were made) lets a later process
    go on where this one stopped: the run-time cache extends a 5,000-case generation to 20,000 by
    making only the 15,000 new ones (conformance.run.selection).
    """

    def __init__(
        self,
        seed: int,
        operators: Sequence[str] = oracle.OPERATORS,
        source: str | None = None,
        state: dict | None = None,
        seen: Sequence[str] = (),
    ):
        self.operators = tuple(operators)
        self.streams = {op: operator_stream(seed, op) for op in self.operators}
        self.source = source
        self.done = 0
        if state is not None:
            for op, rng_state in state["rng"].items():
                self.streams[op].bit_generator.state = rng_state
            self.done = state["done"]
        self.seen: set[str] = set(seen)

    def state(self) -> dict:
        return {"rng": {op: rng.bit_generator.state for op, rng in self.streams.items()}, "done": self.done}

    def take(self, count: int) -> list[Case]:
        source = self.source or _source(0, count)
        out: list[Case] = []
        for i in range(self.done, self.done + count):
            op = self.operators[i % len(self.operators)]
            out.append(self._next(op, source))
        self.done += count
        return out

    def _next(self, op: str, source: str) -> Case:
        """Operator `op`'s next distinct case, from its own stream."""
        rng = self.streams[op]
        ch = RngChooser(rng)
        for _ in range(_MAX_REDRAWS):
            if rng.random() < INVALID_SHARE:
                spec = build_invalid(ch, op, ch.choice(INVALID_FAMILIES[op]))
            else:
                spec = build_valid(ch, choose_config(ch, op))
            id_ = case_id(spec.operator, spec.feature_level, spec.descriptor, spec.inputs)
            if id_ not in self.seen:
                break
        else:
            raise RuntimeError(f"{_MAX_REDRAWS} redraws gave only duplicates for {op}; the corpus is saturated")
        self.seen.add(id_)
        return case_from_spec(spec, source, id_)

    def take_each(self, per_operator: int) -> list[Case]:
        """`per_operator` cases of each operator, operator by operator (the committed corpus's form)."""
        source = self.source or _source(0, per_operator=per_operator)
        return [self._next(op, source) for op in self.operators for _ in range(per_operator)]


def generate(
    seed: int, count: int, operators: Sequence[str] = oracle.OPERATORS, source: str | None = None
) -> list[Case]:
    """`count` distinct cases, spread round-robin over `operators`, in generation order; deterministic in `seed`."""
    return Generation(seed, operators, source or _source(seed, count)).take(count)


def generate_cases(
    seed: int, count: int | None = None, operators: Sequence[str] = oracle.OPERATORS, per_operator: int | None = None
) -> dict[str, list[dict]]:
    """Case objects (JSON, as case files hold them) per operator, deterministic in `seed`: `per_operator` of each,
    or `count` in all, round-robin."""
    out: dict[str, list[dict]] = {op: [] for op in operators}
    source = _source(seed, count, per_operator)
    generation = Generation(seed, operators, source)
    cases = generation.take_each(per_operator) if per_operator is not None else generation.take(count or 0)
    for case in cases:
        out[case.operator].append(case_to_json(case))
    return out


def corpus_files(operators: Sequence[str] = oracle.OPERATORS) -> tuple[str, ...]:
    """The files `generate_corpus` writes in its folder: one per operator."""
    return tuple(f"{op}.json" for op in operators)


def generate_corpus(seed: int, out_dir: Path, count: int | None = None, per_operator: int | None = None) -> list[Path]:
    """Write one list file per operator under `out_dir`, each whole; returns the paths written.  `per_operator`
    cases of each operator (the committed corpus: an operator's file does not change when another is added) or
    `count` in all.  The folder was checked by the command (conformance.support.outputs: an existing file only if
    it is a generated one)."""
    out_dir = Path(out_dir)
    amount = {"per_operator": per_operator} if per_operator is not None else {"count": count}
    header = {"seed": seed, **amount, "version": GENERATOR_VERSION}
    written = []
    for op, cases in generate_cases(seed, count, per_operator=per_operator).items():
        path = out_dir / f"{op}.json"
        lines = ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases)
        text = f'{{"schema_version": {SCHEMA_VERSION}, "generator": {json.dumps(header)},\n"cases": [\n{lines}\n]}}\n'
        write_atomic(path, text.encode("utf-8"))  # its first line is the CORPUS kind's marker
        written.append(path)
    return written

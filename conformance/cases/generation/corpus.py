"""The frozen corpus: `dml-conformance cases generate --seed S --count N --out DIR`.

Deterministic by construction: numpy's PCG64 seeded with S drives the operators' builders
(conformance.cases.generation.operators), so the same seed and GENERATOR_VERSION give the same
bytes on every machine.  Hypothesis is not used here: its choices depend on its database and
version, not on a seed.  Expected outputs come from the oracle's fast path at generation
time; tests/cases/test_generated.py re-checks them with the literal path.

Output: one list file per operator (SLICE.json, ...), one case per line so diffs stay
readable, tensors as data_b64, ids the content hashes of conformance.cases.corpus.case_id, each
case encoded by conformance.cases.corpus.case_to_json (the one case encoder).
"""

from __future__ import annotations

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

# Bump when a builder, a value pool or the encoding changes: the same seed then gives a new corpus.
GENERATOR_VERSION = "8"

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


def _source(seed: int, count: int) -> str:
    return f"generated: seed {seed}, count {count}, generator {GENERATOR_VERSION}"


class Generation:
    """The cases one seed generates, in order, taken in steps; resumable from `state()`.

    The first n cases of a longer generation with the same seed are the n-case generation,
    and `state()` (the RNG's state, how many were made, their ids) lets a later process go on
    where this one stopped: the run-time cache extends a 5,000-case generation to 20,000 by
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
        self.rng = np.random.Generator(np.random.PCG64(seed))
        self.operators = tuple(operators)
        self.source = source
        self.done = 0
        if state is not None:
            self.rng.bit_generator.state = state["rng"]
            self.done = state["done"]
        self.seen: set[str] = set(seen)

    def state(self) -> dict:
        return {"rng": self.rng.bit_generator.state, "done": self.done}

    def take(self, count: int) -> list[Case]:
        ch = RngChooser(self.rng)
        source = self.source or _source(0, count)
        out: list[Case] = []
        for i in range(self.done, self.done + count):
            op = self.operators[i % len(self.operators)]
            for _ in range(_MAX_REDRAWS):
                if self.rng.random() < INVALID_SHARE:
                    spec = build_invalid(ch, op, ch.choice(INVALID_FAMILIES[op]))
                else:
                    spec = build_valid(ch, choose_config(ch, op))
                id_ = case_id(spec.operator, spec.feature_level, spec.descriptor, spec.inputs)
                if id_ not in self.seen:
                    break
            else:
                raise RuntimeError(f"{_MAX_REDRAWS} redraws gave only duplicates for {op}; the corpus is saturated")
            self.seen.add(id_)
            out.append(case_from_spec(spec, source, id_))
        self.done += count
        return out


def generate(
    seed: int, count: int, operators: Sequence[str] = oracle.OPERATORS, source: str | None = None
) -> list[Case]:
    """`count` distinct cases, spread round-robin over `operators`, in generation order; deterministic in `seed`."""
    return Generation(seed, operators, source or _source(seed, count)).take(count)


def generate_cases(seed: int, count: int, operators: Sequence[str] = oracle.OPERATORS) -> dict[str, list[dict]]:
    """`count` distinct case objects (JSON, as case files hold them) per operator; deterministic in `seed`."""
    out: dict[str, list[dict]] = {op: [] for op in operators}
    for case in generate(seed, count, operators):
        out[case.operator].append(case_to_json(case))
    return out


def corpus_files(operators: Sequence[str] = oracle.OPERATORS) -> tuple[str, ...]:
    """The files `generate_corpus` writes in its folder: one per operator."""
    return tuple(f"{op}.json" for op in operators)


def generate_corpus(seed: int, count: int, out_dir: Path) -> list[Path]:
    """Write one list file per operator under `out_dir`, each whole; returns the paths written.  The folder was
    checked by the command (conformance.support.outputs: an existing file only if it is a generated one)."""
    out_dir = Path(out_dir)
    header = {"seed": seed, "count": count, "version": GENERATOR_VERSION}
    written = []
    for op, cases in generate_cases(seed, count).items():
        path = out_dir / f"{op}.json"
        lines = ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases)
        text = f'{{"schema_version": {SCHEMA_VERSION}, "generator": {json.dumps(header)},\n"cases": [\n{lines}\n]}}\n'
        write_atomic(path, text.encode("utf-8"))  # its first line is the CORPUS kind's marker
        written.append(path)
    return written

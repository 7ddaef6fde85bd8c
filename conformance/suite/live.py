"""Live Hypothesis checks against a backend: draw a descriptor, run it, shrink a failure to a minimal case.

Uses a deliberately small local strategy (ranks 1-4, sizes 1-4) so a shrunk failure is
readable; the big, systematic generation lives in the stored and run-time generated corpus.
The failing minimal case is written into its record as a case file a vendor can save and
re-run with `--cases`.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

import oracle
from oracle import FeatureLevel, TensorDesc

from .. import runner
from ..corpus import Case, Expected, case_id, case_to_json

MAX_RANK = 4  # small on purpose: a shrunk counterexample should fit on a screen
MAX_SIZE = 4


@st.composite
def cases(draw, operator: str, level: FeatureLevel) -> Case:
    """One valid case of `operator` runnable at `level`; shrinks toward rank 1, size 1, the first data type."""
    rank = draw(st.integers(1, MAX_RANK), label="rank")
    types = [t for t in oracle.ALL_DATA_TYPES
             if (lv := oracle.min_feature_level(operator, t, rank)) is not None and lv <= level]
    if not types:
        ranks_ok = [r for r in range(1, 9) if any(
            (lv := oracle.min_feature_level(operator, t, r)) is not None and lv <= level for t in oracle.ALL_DATA_TYPES)]
        rank = draw(st.sampled_from(ranks_ok), label="supported rank")
        types = [t for t in oracle.ALL_DATA_TYPES
                 if (lv := oracle.min_feature_level(operator, t, rank)) is not None and lv <= level]
    data_type = draw(st.sampled_from(types), label="data_type")
    shape = tuple(draw(st.lists(st.integers(1, MAX_SIZE), min_size=rank, max_size=rank), label="shape"))
    count = int(np.prod(shape))
    raw = draw(st.binary(min_size=count * data_type.numpy.itemsize, max_size=count * data_type.numpy.itemsize),
               label="input bytes")
    x = np.frombuffer(raw, dtype=data_type.numpy).reshape(shape).copy()
    in_desc = TensorDesc(data_type, shape)

    def out(sizes) -> TensorDesc:
        return TensorDesc(data_type, tuple(sizes))

    if operator == "SLICE":
        strides = [draw(st.integers(1, 3), label=f"strides[{i}]") for i in range(rank)]
        offsets = [draw(st.integers(0, n - 1), label=f"offsets[{i}]") for i, n in enumerate(shape)]
        sizes = [draw(st.integers(1, (n - 1 - o) // s + 1), label=f"sizes[{i}]")
                 for i, (n, o, s) in enumerate(zip(shape, offsets, strides))]
        desc = oracle.SliceDesc(in_desc, out(sizes), tuple(offsets), tuple(sizes), tuple(strides))
    elif operator == "SLICE1":
        offsets = [draw(st.integers(0, n - 1), label=f"window_offsets[{i}]") for i, n in enumerate(shape)]
        sizes = [draw(st.integers(1, n - o), label=f"window_sizes[{i}]") for i, (n, o) in enumerate(zip(shape, offsets))]
        strides = [draw(st.sampled_from([1, -1, 2, -2, 3]), label=f"window_strides[{i}]") for i in range(rank)]
        out_sizes = [1 + (w - 1) // abs(s) for w, s in zip(sizes, strides)]
        desc = oracle.Slice1Desc(in_desc, out(out_sizes), tuple(offsets), tuple(sizes), tuple(strides))
    elif operator == "PADDING":
        mode = draw(st.sampled_from(list(oracle.PaddingMode)), label="padding_mode")
        start = [draw(st.integers(0, 3), label=f"start_padding[{i}]") for i in range(rank)]
        end = [draw(st.integers(0, 3), label=f"end_padding[{i}]") for i in range(rank)]
        value = np.float32(draw(st.sampled_from([0.0, 1.0, -2.0, 7.0]), label="padding_value"))
        sizes = [n + s + e for n, s, e in zip(shape, start, end)]
        desc = oracle.PaddingDesc(in_desc, out(sizes), mode, value, tuple(start), tuple(end))
    else:
        axis = draw(st.integers(0, rank - 1), label="axis")
        n = shape[axis]
        cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=n - 1), label="cuts")) if n > 1 else []
        bounds = [0, *cuts, n]
        outs = tuple(out((*shape[:axis], b - a, *shape[axis + 1:])) for a, b in itertools.pairwise(bounds))
        desc = oracle.SplitDesc(in_desc, outs, axis)
    case_level = level
    expected = oracle.compute(desc, [x], feature_level=level)
    return Case(id=case_id(operator, case_level, desc, [x]), operator=operator, feature_level=case_level,
                descriptor=desc, inputs=(x,), expected=Expected("valid", tuple(expected)),
                tags=("hypothesis",), unspecified=tuple(oracle.unspecified(desc)), source="hypothesis (live)")


def run_live(operator: str, backend, *, level: FeatureLevel, watchdog: runner.Watchdog, max_examples: int,
             seed: int) -> dict:
    """Run `max_examples` drawn cases; return one record: the shrunk failure, or a summary of what ran."""
    seen: Counter[str] = Counter()
    last_failure: list[tuple[Case, dict]] = []

    @settings(max_examples=max_examples, database=None, deadline=None, print_blob=False,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink])
    @hypothesis_seed(seed)
    @given(st.data())
    def check(data) -> None:
        case = data.draw(cases(operator, level), label="case")
        record = runner.execute(case, backend, feature_level=level, watchdog=watchdog)
        seen[record["category"]] += 1
        if record["category"] in runner.FAILING:
            last_failure[:] = [(case, record)]
            raise AssertionError(record["reason"])

    try:
        check()
    except AssertionError:
        if not last_failure:
            raise
        case, record = last_failure[0]  # Hypothesis replays the minimal example last
        record["hypothesis"] = True
        record["reason"] = f"shrunk by Hypothesis (seed {seed}, {max_examples} examples): {record['reason']}"
        record["case_json"] = case_to_json(case, compact=False)
        return record
    total = sum(seen.values())
    summary = ", ".join(f"{k} {v}" for k, v in sorted(seen.items()))
    category = "pass" if seen["pass"] or seen["observed"] else "unsupported"
    return {"kind": "case", "id": f"hypothesis-{operator}", "operator": operator, "data_type": "*", "rank": 0,
            "feature_level": str(level), "outcome": "valid", "clauses": [], "tags": ["hypothesis"], "unspecified": [],
            "source": "hypothesis (live)", "hypothesis": True, "category": category,
            "reason": f"{total} live examples (seed {seed}): {summary}"}

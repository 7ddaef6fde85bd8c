"""The report's one pass over a run's records (conformance.report.tally) gives what each section's own rule gives.

Each section used to walk the records with its own rule (Results.verdict, run.unsupported.group_unsupported,
cases.coverage.carried_by, failures.shown_in_failures...); the tally reads every record once and the sections
sum its counts.  Runs drawn here, of every category, part of the pages, clause, tag and reason, are judged both
ways: by those rules on the records, and by the report from its tally.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.cases.coverage import carried_by
from conformance.judging.compare import Comparison
from conformance.report import html
from conformance.report.failures import shown_in_failures
from conformance.report.heatmap import heat_grids
from conformance.report.tally import tally
from conformance.run.record import FORMAT, FORMAT_VERSION, Category, Footer, Header, Observed, Record
from conformance.run.results import Results
from conformance.run.unsupported import group_unsupported

OPERATORS = ("SLICE", "PADDING", "PADDING1", "JOIN", "GATHER")  # PADDING1 and JOIN: past the seed pages
CLAUSES = ("SLICE.1", "PAD.3", "WRAP.2", "JOIN.1", "GATHER.4", "")
ENTRIES = ("U-PAD-4", "U-GND-1", "generated", "reach")
REASONS = (
    "onnxruntime-cpu cannot express tensor layouts; the descriptor breaks LAYOUT.3",
    "onnxruntime-cpu cannot express padding mode WRAP",
    "onnxruntime-cpu does not support data type FLOAT64",
    "something no row of the table names",
    "bit-exact",
    "3 element(s) differ; first at output 0 [0,1]",
)


@st.composite
def records(draw, i: int) -> Record:
    category = draw(st.sampled_from(tuple(Category)), label="category")
    return Record(
        f"case-{i}",
        draw(st.sampled_from(OPERATORS), label="operator"),
        category,
        reason=draw(st.sampled_from(REASONS), label="reason"),
        data_type=draw(st.sampled_from(("FLOAT32", "UINT8", "*", "")), label="data_type"),
        rank=draw(st.integers(0, 3), label="rank"),
        layout=draw(st.sampled_from(("", "packed", "padded", "broadcast")), label="layout"),
        outcome=draw(st.sampled_from(("valid", "invalid", "")), label="outcome"),
        clauses=draw(st.lists(st.sampled_from(CLAUSES), max_size=3), label="clauses"),
        tags=draw(st.lists(st.sampled_from(ENTRIES), max_size=3), label="tags"),
        unspecified=draw(st.lists(st.sampled_from(ENTRIES[:2]), max_size=2), label="unspecified"),
        reached_operator=draw(st.sampled_from((None, "SLICE1", "PADDING1")), label="reached"),
        expected_clause=draw(st.sampled_from((None, *CLAUSES)), label="expected_clause"),
        hypothesis=draw(st.booleans(), label="hypothesis"),
        observed=draw(st.sampled_from((None, Observed(True), Observed(False))), label="observed"),
        mismatch=draw(st.sampled_from((None, Comparison(False, count=1))), label="mismatch"),
        waived_category=draw(st.sampled_from((None, Category.FLAKY, Category.FAIL)), label="waived_category"),
        waived_but_passed=draw(st.booleans(), label="waived_but_passed"),
    )


@st.composite
def runs(draw) -> Results:
    n = draw(st.integers(0, 24), label="cases")
    header = Header(
        FORMAT,
        FORMAT_VERSION,
        backend="onnxruntime-cpu",
        flaky_fails=draw(st.booleans(), label="flaky_fails"),
        input_errors=draw(st.sampled_from(([], ["cases/bad.json: not JSON"])), label="input_errors"),
    )
    footer = draw(
        st.sampled_from((None, Footer(), Footer(interrupted=True), Footer(stopped="-x"))),
        label="footer",
    )
    return Results("results.jsonl", header, [draw(records(i)) for i in range(n)], footer)


@settings(max_examples=100, deadline=None)
@given(run=runs())
def test_the_verdicts_and_counts_are_the_runs_own(run):
    t = tally(run)
    for part in (None, True, False):
        assert t.verdict(run, part) == run.verdict(part)
    assert t.categories() == run.counts()
    assert sum(t.kinds.values()) == len(run.records)


@settings(max_examples=100, deadline=None)
@given(run=runs())
def test_the_lists_are_the_records_each_rule_picks(run):
    t = tally(run)
    assert t.shown == [r for r in run.records if shown_in_failures(r)]
    assert t.flaky == [r for r in run.records if Category.FLAKY in (r.category, r.waived_category)]
    assert html._unsupported(t, "onnxruntime-cpu") == tuple(group_unsupported(run.records, "onnxruntime-cpu"))
    carried = carried_by(((r.id, r.clauses, r.expected_clause) for r in run.records), ())
    assert t.carriers() == {c: set(ids) for c, ids in carried.items()}


@settings(max_examples=100, deadline=None)
@given(run=runs())
def test_clauses_and_errata_are_counted_as_the_records_list_them(run):
    t = tally(run)
    cited: dict[str, Counter[str]] = {}
    hits: dict[str, list[Record]] = defaultdict(list)
    for r in run.records:
        for c in r.clauses:
            cited.setdefault(c, Counter())[r.category.value] += 1
        for entry in dict.fromkeys([*r.unspecified, *r.tags]):
            hits[entry].append(r)
    assert list(t.clauses().items()) == list(cited.items())  # in the order first cited
    assert t.hits([*ENTRIES, "U-NONE-1"]) == {e: hits.get(e, []) for e in [*ENTRIES, "U-NONE-1"]}


@settings(max_examples=100, deadline=None)
@given(run=runs())
def test_the_cases_table_lists_each_case_needing_a_look_and_sums_the_rest(run):
    rows = html.case_rows([run])
    summed = [row for row in rows if row.summed]
    assert [row.id for row in rows if not row.summed] == [
        r.id
        for r in run.records
        if not (r.category is Category.PASS and not r.waived_but_passed)
        and r.category is not Category.UNSUPPORTED
        and not (r.category is Category.OBSERVED and r.observed is not None and r.observed.matches_policy)
    ]
    assert sum(row.summed for row in summed) + len(rows) - len(summed) == len(run.records)
    passes = Counter(
        (r.operator, r.data_type, r.rank, r.reached_operator or "")
        for r in run.records
        if r.category is Category.PASS and not r.waived_but_passed
    )
    pass_rows = [row for row in summed if row.category == "pass"]
    assert {(row.operator, row.data_type, row.rank, row.reached): row.summed for row in pass_rows} == passes
    shown = [(row.operator, row.data_type, row.rank) for row in pass_rows]
    assert shown == sorted(shown)  # by operator, data type and rank


@settings(max_examples=50, deadline=None)
@given(one=runs(), two=runs())
def test_each_heat_map_cell_counts_the_cases_of_its_operator_and_value(one, two):
    def value(r: Record, key: str) -> str:
        found = getattr(r, key)
        return str(found) if found else ("packed" if key == "layout" else "")

    for grid in heat_grids([one, two]):
        for k, run in enumerate((one, two)):
            shown = {
                (row.operator, v): c.total
                for row in grid.rows
                for v, by_run in zip(grid.values, row.cells, strict=True)
                if (c := by_run[k]) is not None
            }
            cases = Counter(
                (r.operator, value(r, grid.key)) for r in run.records if not (r.hypothesis and r.data_type == "*")
            )
            assert shown == {cell: n for cell, n in cases.items() if cell[1] in grid.values}  # rank 0: no column

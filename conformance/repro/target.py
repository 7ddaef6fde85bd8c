"""The case a reproducer is for: by id (stored, generated, or a results file's live example) or a case file,
with the suite's result for it when a results file is given."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..cases.corpus import Case, CaseFileError, case_from_json, first_case
from ..run.record import Category, Header, Record
from . import ReproError


@dataclass(frozen=True)
class Target:
    case: Case
    record: Record | None = None  # the suite's result for the case (--results)
    header: Header | None = None
    results_path: str | None = None

    @property
    def suite_category(self) -> Category | None:
        """The category the suite gave the case before any waiver (a reproducer ignores waivers)."""
        if self.record is None:
            return None
        return self.record.waived_category or self.record.category


def find_target(
    case_id: str, *, results: str | None = None, paths: list[str] | None = None, seed: int | None = None
) -> Target:
    """The case `case_id` names (an id, or a case file's first case); with `results`, the case as that run had it
    (its seed, case paths and generated count; a live example from its record) and the run's result for it."""
    if results is None:
        return Target(_case(case_id, paths, seed or 0, None))
    from ..run.results import ResultsFileError, read_results

    try:
        run = read_results(results)
    except ResultsFileError as e:
        raise ReproError(str(e)) from None
    matching = [r for r in run.records if r.id == case_id]
    if not matching:
        raise ReproError(f"--results {results}: no case {case_id!r} among its {len(run.records)} record(s)")
    record = matching[-1]
    if record.case_json:  # a live Hypothesis example: the record carries the case itself
        try:
            case = case_from_json(record.case_json, path=f"{results} (record {case_id})")
        except CaseFileError as e:
            raise ReproError(str(e)) from None
    else:
        header = run.header
        case = _case(
            case_id, paths or header.case_paths or None, header.seed if seed is None else seed, header.generated
        )
    return Target(case, record, run.header, results)


def _case(case_id: str, paths: list[str] | None, seed: int, count: int | None) -> Case:
    path = Path(case_id)
    if path.is_file():
        try:
            return first_case(path)
        except ValueError as e:
            raise ReproError(str(e)) from None
    if path.suffix == ".json":
        raise ReproError(f"{case_id}: no such case file")
    if ".graph-" in case_id:
        raise ReproError(
            f"{case_id} is a DML graph composition (several operators): a reproducer runs one operator; reproduce "
            f"its stored case {case_id.split('.graph-')[0]} or run it with `dml-conformance run --case {case_id}`"
        )
    from ..run.config import UsageError
    from ..run.selection import find_case

    try:
        case = find_case(case_id, paths=paths, seed=seed, count=count)
    except UsageError as e:
        raise ReproError(str(e)) from None
    if case is not None:
        return case
    from ..cases.stress import STRESS_CASES

    if any(c.id == case_id for c in STRESS_CASES):
        raise ReproError(
            f"{case_id} is a stress case: its tensors (gigabytes) are made when it runs, too large to bake into a "
            f"reproducer; run it with `dml-conformance run --profile stress --case {case_id}`"
        )
    where = f"in {', '.join(paths)}" if paths else f"in the corpus (or generated with seed {seed})"
    raise ReproError(f"no case {case_id!r} {where}")

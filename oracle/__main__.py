"""`python -m oracle explain PATH_OR_CASE_ID`: print a case's per-element derivation.

A vendor holding a failing case id (`PADDING-3f9a2c01`) can see which input element every
output element reads, in the pages' notation, without reading the oracle's code.  Case files
are read with conformance.corpus (imported here only, so the oracle itself stays free of it).
Exit status: 0 printed, 2 unknown id, unreadable file or bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import api
from .checks import InvalidDescriptor


def _find_cases(target: str, cases_dir: Path | None) -> tuple[list, list[str]]:
    """The cases `target` names (a case file, or an id under the corpus) and any loading errors."""
    from conformance import corpus

    path = Path(target)
    if path.is_file():
        result = corpus.load_file(path)
        return result.cases, [str(e) for e in result.errors]
    if path.suffix == ".json" or path.is_dir():
        return [], [f"{target}: not a case file"]
    root = cases_dir or corpus.CASES_DIR
    result = corpus.load([root])
    found = [c for c in result.cases if c.id == target]
    if not found:
        return [], [f"unknown case id {target!r}: no such file, and no case with that id under {root}"]
    return found, []


def _print_case(case, out) -> None:
    print(f"case {case.id} ({case.path})", file=out)
    print(
        f"operator: {case.operator}  feature level: {case.feature_level}  clauses: {', '.join(case.clauses)}", file=out
    )
    print(f"descriptor: {json.dumps(api.descriptor_to_json(case.descriptor))}", file=out)
    if case.unspecified:
        print(f"unspecified (observed, not judged): {', '.join(case.unspecified)}", file=out)
    if not case.valid:
        try:
            api.validate(case.descriptor, case.feature_level)
            detail = "but the oracle accepts it"
        except InvalidDescriptor as e:
            detail = str(e)
        print(f"expected invalid [{case.expected.clause}]: {detail}", file=out)
        return
    for line in api.explain(case.descriptor, case.inputs, case.feature_level):
        print(line, file=out)


def main(argv: Sequence[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m oracle", description="The DirectML data-movement spec oracle.")
    commands = parser.add_subparsers(dest="command", required=True)
    explain = commands.add_parser("explain", help="print the per-element derivation of a case")
    explain.add_argument("target", metavar="PATH_OR_CASE_ID", help="a case file, or a case id found under --cases")
    explain.add_argument("--cases", type=Path, default=None, help="case folder to search ids in. Default: cases/")
    args = parser.parse_args(argv)
    cases, errors = _find_cases(args.target, args.cases)
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if not cases:
        return 2
    for i, case in enumerate(cases):
        if i:
            print(file=out)
        _print_case(case, out)
    return 2 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

"""dml-conformance: the command line (run, report, explain, cases, backends).

Exit codes: 0 nothing failed; 1 the run has failures (fail, rejected, error, crash, timeout);
2 usage or input error (bad arguments, malformed case files, unknown backend).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_OK, EXIT_FAILURES, EXIT_USAGE = 0, 1, 2


def _cases_generate(args: argparse.Namespace) -> int:
    from .generate import generate_corpus

    written = generate_corpus(seed=args.seed, count=args.count, out_dir=Path(args.out))
    for path in written:
        print(path)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dml-conformance", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cases = sub.add_parser("cases", help="list or generate cases").add_subparsers(dest="cases_command", required=True)
    gen = cases.add_parser("generate", help="write a frozen corpus of generated cases, deterministically")
    gen.add_argument("--seed", type=int, default=0, help="Default: %(default)r")
    gen.add_argument("--count", type=int, default=2000, help="cases in all. Default: %(default)r")
    gen.add_argument("--out", default="cases/generated", help="Default: %(default)r")
    gen.set_defaults(func=_cases_generate)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

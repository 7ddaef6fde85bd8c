"""`dml-conformance repro`: write a case's standalone reproducer, and with --run build and run it here.

Exit status: without --run, 0 when the folder is written and 2 when it cannot be (an unknown id, a case with
no C or ONNX form, a folder that would be overwritten); with --run, the program's own: 0 DirectML agrees with
the oracle, 1 it differs (or the program crashed), 3 not tested, and 2 when it cannot be built or run here.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import ReproError

if TYPE_CHECKING:  # imported where used: `dml-conformance --help` stays fast
    from ..run.record import Category
    from .target import Target

EXIT_USAGE = 2


def expected_status(category: Category | None) -> int | None:
    """The reproducer's exit status for the suite's category (before waivers): None where none is implied."""
    from ..run.record import FAILING, Category

    if category is None:
        return None
    if category in FAILING:
        return 1
    if category in (Category.PASS, Category.OBSERVED):
        return 0
    if category is Category.UNSUPPORTED:
        return 3
    return None  # flaky or interrupted: the suite's own verdict was not one answer


def _check_folder(args: argparse.Namespace, names: tuple[str, ...]) -> None:
    """The rule of conformance.support.outputs: the files of an earlier reproducer of the same kind are replaced
    with --force only; anything else (a results file, a user's file of the same name) never."""
    from ..support.errors import UsageError
    from ..support.outputs import CPP_REPRO, ONNX_REPRO, Output, check_outputs

    option, kind = ("--cpp", CPP_REPRO) if args.cpp else ("--onnx", ONNX_REPRO)
    inputs = [("--results", Path(args.results))] if args.results else []
    inputs += [("--cases", Path(p)) for p in args.cases or ()]
    inputs += [("CASE_ID_OR_FILE", Path(args.case_id))] if Path(args.case_id).exists() else []
    try:
        check_outputs([Output(option, Path(args.cpp or args.onnx), kind, force=args.force, files=names)], inputs)
    except UsageError as e:
        raise ReproError(str(e)) from None


def _command_line(args: argparse.Namespace) -> str:
    parts = ["dml-conformance", "repro", args.case_id]
    for flag, value in (("--results", args.results), ("--cpp", args.cpp), ("--onnx", args.onnx)):
        if value:
            parts += [flag, value]
    if args.adapter:
        parts += ["--adapter", args.adapter]
    return shlex.join(parts)


def _options(args: argparse.Namespace, target: Target) -> tuple[str | None, str | None]:
    """--adapter and --dml-dll: as given, else the run's (--results) when its DirectML.dll is here."""
    recorded = target.header.backend_options if target.header else {}
    adapter = args.adapter or recorded.get("adapter")
    dml_dll = args.dml_dll
    if dml_dll is None and recorded.get("dml_dll"):
        if Path(str(recorded["dml_dll"])).is_file():
            dml_dll = str(recorded["dml_dll"])
        else:
            print(
                f"dml-conformance: note: the run tested --dml-dll {recorded['dml_dll']}, which is not here; using the "
                "default DirectML.dll (give --dml-dll)",
                file=sys.stderr,
            )
    return (str(adapter) if adapter else None), dml_dll


def _verdicts(target: Target, status: int, meaning: str) -> None:
    """Say whether the program's verdict is the suite's (from --results)."""
    category = target.suite_category
    if category is None:
        return
    wanted = expected_status(category)
    said = f"the suite: {category.value} ({target.results_path}, waivers ignored); the reproducer: exit {status} ({meaning})"
    if wanted is None:
        print(f"{said}: the suite's verdict was not one answer")
    elif wanted == status:
        print(f"{said}: the same verdict")
    else:
        print(f"{said}: a DIFFERENT verdict (the suite's implies exit {wanted})")


def _cpp(args: argparse.Namespace, target: Target) -> int:
    from .cpp import EXE, FILES, write_cpp
    from .run import build, echo, exit_status, run

    directory = Path(args.cpp)
    _check_folder(args, FILES)
    adapter, dml_dll = _options(args, target)
    written = write_cpp(target, directory, adapter=adapter, command_line=_command_line(args))
    print(f"wrote {', '.join(str(p) for p in written)}")
    if not args.run:
        print(
            f"build: {directory / 'build-mingw.sh'} (mingw-w64), {directory / 'build.cmd'} (MSVC) or cmake; then "
            f"{EXE} [--dml-dll PATH] [--adapter INDEX|NAME]"
        )
        return 0
    exe, seconds = build(directory)
    print(f"built {exe} in {seconds:.1f} s; running it on this machine's DirectML", flush=True)
    status, out, err = run(exe, dml_dll=dml_dll, adapter=adapter, timeout=args.timeout)
    echo(out, err)
    code, meaning = exit_status(status)
    _verdicts(target, code, meaning)
    return code


def _onnx(args: argparse.Namespace, target: Target) -> int:
    from .ort import FILES, SCRIPT, device_index, write_onnx

    directory = Path(args.onnx)
    _check_folder(args, FILES)
    adapter, _ = _options(args, target)
    written = write_onnx(target, directory, device_id=device_index(adapter))
    print(f"wrote {', '.join(str(p) for p in written)}")
    if not args.run:
        print(f"run: python {directory / SCRIPT}  (needs numpy, onnx and onnxruntime-directml: Windows)")
        return 0
    done = subprocess.run([sys.executable, str(directory / SCRIPT)], check=False)
    code = done.returncode if done.returncode in (0, 1, 2, 3) else 1
    _verdicts(target, code, {0: "agrees", 1: "differs", 2: "bad command line", 3: "not tested"}[code])
    return code


def main(args: argparse.Namespace) -> int:
    try:
        if args.run and args.dml_dll and args.onnx:
            raise ReproError("--dml-dll is for --cpp: the onnxruntime module loads its own DirectML.dll")
        from .target import find_target

        target = find_target(args.case_id, results=args.results, paths=args.cases, seed=args.seed)
        try:
            return _cpp(args, target) if args.cpp else _onnx(args, target)
        except OSError as e:  # a full disk: each file is written whole, so the folder holds old files or new
            option, folder = ("--cpp", args.cpp) if args.cpp else ("--onnx", args.onnx)
            raise ReproError(f"{option}: cannot write in {folder}: {e.strerror or e}") from None
    except ReproError as e:
        print(f"dml-conformance: error: {e}", file=sys.stderr)
        return EXIT_USAGE


def add_parser(sub) -> None:
    """The `repro` subcommand's options (cli.build_parser)."""
    from ..run.options import PATH_TYPE, SEED_TYPE, TIMEOUT_TYPE

    rp = sub.add_parser(
        "repro",
        help="write a standalone reproducer of one case: a C++ program on DirectML's API (--cpp) or a one-node "
        "ONNX model and script for ONNX Runtime's DirectML provider (--onnx)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rp.add_argument(
        "case_id", metavar="CASE_ID_OR_FILE", help="a case id (corpus, generated, or --results'), or a case file"
    )
    where = rp.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--cpp",
        type=PATH_TYPE,
        metavar="DIR",
        help="write repro.cpp, CMakeLists.txt, build.cmd and build-mingw.sh here",
    )
    where.add_argument(
        "--onnx", type=PATH_TYPE, metavar="DIR", help="write model.onnx, test_data_set_0/ and run_onnx.py here"
    )
    rp.add_argument(
        "--results",
        type=PATH_TYPE,
        metavar="FILE",
        help="the results file of the run the case came from: its seed, case paths, --adapter and --dml-dll, its "
        "live examples, and its verdict on the case (compared with the reproducer's)",
    )
    rp.add_argument(
        "--run", action="store_true", help="also build the program and run it here (--onnx: run the script)"
    )
    rp.add_argument("--adapter", metavar="INDEX|NAME", help="the GPU (default: the run's, else the first)")
    rp.add_argument(
        "--dml-dll",
        type=PATH_TYPE,
        metavar="PATH",
        help="--run: the DirectML.dll to load (default: the run's, else the pinned one)",
    )
    rp.add_argument(
        "--cases", action="append", type=PATH_TYPE, metavar="PATH", help="where the case is, as `run --cases`"
    )
    rp.add_argument(
        "--seed",
        type=SEED_TYPE,
        default=None,
        metavar="N",
        help="the seed it was generated with (default: the run's, else 0)",
    )
    rp.add_argument(
        "--timeout",
        type=TIMEOUT_TYPE,
        default=600.0,
        metavar="SECONDS",
        help="--run: seconds the program may take. Default: %(default)r",
    )
    rp.add_argument(
        "--force", action="store_true", help="replace the files of an earlier reproducer of the same kind in DIR"
    )
    rp.set_defaults(func=main)

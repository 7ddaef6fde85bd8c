"""Every file the suite writes: what KIND it is, when an existing file may be replaced, and writing it whole.

The rule (nothing lost): an output replaces an existing file only when that file is recognisably the same
kind, made by this suite for the same purpose.  Each kind carries a marker that only this suite writes (a
report's generator meta and title, JUnit XML's `<testsuite package="dml-conformance">`, a results file's
header line, an expectations file's "written by dml-conformance" comment, a package's manifest, a
reproducer's banner, a generated corpus file's generator header).  Anything else (a results file, an
expectations file, a package, a user's file, a folder) is refused before any work starts, with one line
naming the option and the file; so are two outputs of one command at one file, and an output at one of
the command's inputs.  `--force` (baseline, package, repro) never widens that: it only lets a file of the
same kind made by the suite be replaced where the command otherwise keeps it.

Every file is written whole (`write_atomic`): a temporary file in the same folder, flushed and fsynced,
then renamed over the target; a crash or a full disk leaves the old file or the new one, never half of
one, and no temporary file.  The results file is the exception by design (it is streamed line by line
for crash recovery, --resume and shards; conformance.run.results): a new run never opens an existing
file, and while it writes it holds a lock (`writing_lock`) that `being_written` detects, so a reader can
tell a running file from one whose run died.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import sys
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .errors import UsageError

# --- the markers: how each kind's files start -------------------------------------------------------------

GENERATOR = "dml-conformance"
REPORT_TITLE = "DirectML conformance report"
HISTORY_TITLE = "DirectML conformance history"
RESULTS_FORMAT = "dml-conformance-results"
PACKAGE_FORMAT = "dml-conformance-package"
PACKAGE_MANIFEST = "manifest.json"
EXPECTATIONS_COMMENT = "written by dml-conformance"  # the start of the comment `baseline` writes
CPP_BANNER = "a standalone reproducer of the dml-conformance case"  # repro.cpp's first line
# A C++ reproducer's folder: any of its files still carrying its line (repro.cpp may have been edited by hand).
CPP_MARKERS = (
    ("repro.cpp", CPP_BANNER),
    ("build-mingw.sh", "with mingw-w64, as dml-conformance builds its DirectML runner"),
    ("build.cmd", "from a Visual Studio Developer Command Prompt, as dml-conformance"),
)
ONNX_BANNER = "Reproduces one dml-conformance case on ONNX Runtime"  # run_onnx.py's first line
HEAD_BYTES = 4096  # how much of a file its marker may need


def _head(path: Path) -> str:
    """The start of a regular file ('' for anything else: a FIFO is never opened, it would block)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return ""
        with path.open("rb") as f:
            return f.read(HEAD_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""


def _page(title: str) -> Callable[[Path], bool]:
    def recognise(path: Path) -> bool:
        head = _head(path)
        return (
            head.startswith("<!DOCTYPE html>")
            and f"<meta name='generator' content='{GENERATOR}'>" in head
            and f"<title>{title}</title>" in head
        )

    return recognise


def _junit(path: Path) -> bool:
    head = _head(path)
    return head.startswith("<?xml") and re.search(rf'<testsuite\b[^>]*\bpackage="{GENERATOR}"', head) is not None


LINE_BYTES = 1 << 20  # a results file's header line (the spec tables: about 14 KB) fits many times over
JSON_BYTES = 16 << 20  # an expectations file larger than this is not one the suite reads as such


def _first_json(path: Path) -> object:
    """The first line of a regular file as JSON (None if it is not)."""
    if not _head(path).startswith("{"):
        return None
    try:
        with path.open("rb") as f:
            return json.loads(f.readline(LINE_BYTES))
    except (OSError, ValueError, RecursionError):
        return None


def _json_object(path: Path) -> dict | None:
    """The whole (small) file as a JSON object: None if it is not one."""
    if not _head(path).lstrip().startswith("{"):
        return None
    try:
        if path.stat().st_size > JSON_BYTES:
            return None
        document = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def _results(path: Path) -> bool:
    line = _first_json(path)
    return isinstance(line, dict) and line.get("kind") == "header" and line.get("format") == RESULTS_FORMAT


def _expectations(path: Path) -> bool:
    document = _json_object(path) or {}
    comment = document.get("comment")
    return isinstance(comment, str) and comment.startswith(EXPECTATIONS_COMMENT) and "waivers" in document


def _package(path: Path) -> bool:
    if not _head(path).startswith("PK"):
        return False
    try:
        with zipfile.ZipFile(path) as archive:
            manifest = json.loads(archive.read(PACKAGE_MANIFEST))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, RecursionError):
        return False
    return isinstance(manifest, dict) and manifest.get("format") == PACKAGE_FORMAT


def _corpus(path: Path) -> bool:
    return re.match(r'\{"schema_version": \d+, "generator": \{"seed": ', _head(path)) is not None


def _any_expectations(path: Path) -> bool:
    """Any expectations file (a user's too): never replaced by another kind's output."""
    document = _json_object(path)
    return document is not None and "waivers" in document


@dataclass(frozen=True)
class Kind:
    """One kind of output.  `recognise(path)`: a file this suite made as this kind (for a folder kind: the file
    `path` in such a folder).  `replace`: whether a new output may replace one (a results file: never)."""

    name: str
    what: str  # "a dml-conformance report": the noun phrase in messages
    recognise: Callable[[Path], bool]
    example: str = ""  # a file name for "give a file name (e.g. ...)"
    folder: bool = False
    replace: bool = True


REPORT = Kind("report", "a dml-conformance report", _page(REPORT_TITLE), "report.html")
HISTORY = Kind("history", "a dml-conformance history page", _page(HISTORY_TITLE), "history.html")
JUNIT = Kind("junit", "dml-conformance JUnit XML", _junit, "junit.xml")
RESULTS = Kind("results", "a results file", _results, "results.jsonl", replace=False)
EXPECTATIONS = Kind("expectations", "an expectations file written by dml-conformance", _expectations, "waivers.json")
PACKAGE = Kind("package", "a dml-conformance package", _package, "package.zip")
CPP_REPRO = Kind(
    "cpp",
    "a dml-conformance C++ reproducer",
    lambda p: any(marker in _head(p.parent / name) for name, marker in CPP_MARKERS),
    folder=True,
)
ONNX_REPRO = Kind(
    "onnx", "a dml-conformance ONNX reproducer", lambda p: ONNX_BANNER in _head(p.parent / "run_onnx.py"), folder=True
)
CORPUS = Kind("corpus", "a generated corpus file", _corpus, folder=True)
KINDS = (REPORT, HISTORY, JUNIT, RESULTS, EXPECTATIONS, PACKAGE, CORPUS)  # the file kinds, as `identify` tries them


def identify(path: Path) -> Kind | None:
    """Which of the suite's file kinds `path` is, if any (a user's expectations file counts as one)."""
    for kind in KINDS:
        if kind.recognise(path):
            return kind
    if _any_expectations(path):
        return Kind("expectations", "an expectations file", _any_expectations, replace=False)
    return None


# --- the checks: before any work starts --------------------------------------------------------------------


@dataclass(frozen=True)
class Output:
    """One output of a command: its option, where it goes, its kind.  `force`: None where an existing file of
    the kind is replaced freely (a report); False/True where it needs --force (baseline, package, repro).
    `files`: a folder kind's file names.  `keep`: a path it may also be (--update-expectations in place)."""

    option: str
    path: Path
    kind: Kind
    force: bool | None = None
    files: tuple[str, ...] = ()
    keep: Path | None = None


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):  # a symlink loop: compare as given
        return os.path.abspath(a) == os.path.abspath(b)


def check_folder(folder: Path, option: str) -> None:
    """Files can be written in `folder`: it is a folder we may write in, or can be made in one.

    Nothing is created here (`--collect-only` leaves no trace); the folder is made when the first file is
    written."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        what = folder if existing == folder else f"{existing} (in {folder})"
        raise UsageError(
            f"{option}: {what} is a file, not a folder" if existing.exists() else f"{option}: {folder} is not a folder"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(f"{option}: cannot write in {existing} (permission denied)")


def _check_file(out: Output) -> None:
    path, option, kind = out.path, out.option, out.kind
    if path.is_dir():
        raise UsageError(f"{option}: {path} is a folder; give a file name (e.g. {path / kind.example})")
    if path.exists() or path.is_symlink():
        if out.keep is not None and _same(path, out.keep):
            pass
        elif not kind.replace and kind.recognise(path):
            raise UsageError(f"{option}: {path} exists; {kind.what}s are never overwritten")
        elif kind.recognise(path):
            if out.force is False:
                raise UsageError(f"{option}: {path} exists ({kind.what}); give --force to replace it")
        else:
            other = identify(path)
            if other is not None:
                raise UsageError(f"{option}: {path} is {other.what}, not {kind.what}; it is never overwritten")
            raise UsageError(f"{option}: {path} exists and is not {kind.what}; it is never overwritten")
    check_folder(path.parent, option)


def _check_dir(out: Output) -> None:
    path, option, kind = out.path, out.option, out.kind
    if path.exists() and not path.is_dir():
        other = identify(path)
        raise UsageError(f"{option}: {path} is " + (f"{other.what}, not a folder" if other else "a file, not a folder"))
    there = [n for n in out.files if (path / n).exists() or (path / n).is_symlink()]
    if not there:
        check_folder(path, option)
        return
    foreign = [n for n in there if not kind.recognise(path / n)]
    if foreign:
        raise UsageError(
            f"{option}: {path} already holds {', '.join(foreign)}, not {kind.what}'s; it is never overwritten "
            "(choose another folder)"
        )
    if out.force is False:
        raise UsageError(
            f"{option}: {path} already holds {', '.join(there)} ({kind.what}, perhaps edited): choose another "
            "folder, or --force to replace them"
        )
    check_folder(path, option)


def check_outputs(outputs: Sequence[Output], inputs: Sequence[tuple[str, Path]] = ()) -> None:
    """Refuse (UsageError naming the option and the file) an output that would lose anything: an input of the
    command, another output of it, or an existing file that is not the same kind made by this suite."""
    for i, out in enumerate(outputs):
        for option, path in inputs:
            if _same(out.path, path) and not (out.keep is not None and _same(path, out.keep)):
                raise UsageError(
                    f"{out.option}: {out.path} is an input of this command ({option}); an output never replaces an input"
                )
        for other in outputs[:i]:
            if _same(out.path, other.path):
                raise UsageError(f"{out.option}: {out.path} is also {other.option}; give each output its own file")
        (_check_dir if out.kind.folder else _check_file)(out)


def check_output(
    option: str, path: str | Path, kind: Kind, *, inputs: Sequence[tuple[str, Path]] = (), force: bool | None = None
) -> None:
    """check_outputs for a command with one output."""
    check_outputs([Output(option, Path(path), kind, force)], inputs)


# --- writing a file whole ----------------------------------------------------------------------------------


def write_atomic(path: str | Path, data: bytes | Callable[[BinaryIO], None], mode: int = 0o644) -> Path:
    """Write `path` whole: `data` (or what `data(file)` writes) into a temporary file in the same folder, flushed
    and fsynced, then renamed over `path`.  On any error (ENOSPC) the temporary file is removed, `path` is as it
    was, and the OSError is raised."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


# --- a results file being written ----------------------------------------------------------------------------

# Windows locks are mandatory: a lock on the data would stop readers, so the writer locks one byte far past
# any data a results file holds (locking past the end of a file is allowed there and blocks no read).
_WINDOWS_LOCK_OFFSET = 2**31 - 2


def _lock(fd: int, blocking: bool = False) -> None:
    """An exclusive lock on the open file `fd` (OSError if another holder has it)."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_LOCK if blocking else msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))  # per open file: not lost on a close


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)


def writing_lock(fd: int) -> None:
    """Mark the results file open as `fd` as being written: held until the fd is closed (or the process dies)."""
    with contextlib.suppress(OSError):  # a file system without locks: a running file reads as an unfinished one
        _lock(fd)


def being_written(path: str | Path) -> bool:
    """Whether a live process holds `writing_lock` on `path` (a run still writing it)."""
    try:
        fd = os.open(path, os.O_RDWR if sys.platform == "win32" else os.O_RDONLY)
    except OSError:
        return False
    try:
        try:
            _lock(fd)
        except OSError as e:
            return e.errno in (errno.EACCES, errno.EAGAIN, errno.EDEADLK, errno.EWOULDBLOCK)
        _unlock(fd)
        return False
    finally:
        os.close(fd)

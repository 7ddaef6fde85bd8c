"""Reading the JSON files a user hands the suite: every way they can be wrong is one message.

Case files, expectations files and results files all come through here, so a FIFO, a
directory, a UTF-16 file, a byte-order mark, nesting deeper than the parser allows or plain
bad JSON is a JsonFileError naming the file (and the line and column), never a hang or a
traceback.  JSON text is UTF-8 without a byte-order mark (RFC 8259 section 8.1).
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from pathlib import Path
from typing import Any

# Byte-order marks, longest first (UTF-32 LE starts with the UTF-16 LE mark).
_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF8, "UTF-8 with a byte-order mark"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


class JsonFileError(ValueError):
    """A file that cannot be read as JSON; the message starts with where (the path, or `path:line`)."""

    def __init__(self, where: str | Path, detail: str):
        super().__init__(f"{where}: {detail}")
        self.where = str(where)
        self.detail = detail


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_text(path: str | Path) -> str:
    """The file's text: a regular file (never opened otherwise: a FIFO would block), UTF-8 without a BOM."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        raise JsonFileError(path, f"cannot read: {getattr(e, 'strerror', None) or e}") from e
    if not stat.S_ISREG(mode):
        raise JsonFileError(path, f"is {_kind(mode)}, not a JSON file")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise JsonFileError(path, f"cannot read: {e.strerror or e}") from e
    return decode(data, path)


def decode(data: bytes, path: str | Path) -> str:
    for bom, name in _BOMS:
        if data.startswith(bom):
            raise JsonFileError(path, f"the file is {name}; save it as UTF-8 without a byte-order mark")
    if len(data) >= 2 and (data[0] == 0 or data[1] == 0):
        raise JsonFileError(path, "the file looks like UTF-16 or UTF-32 (NUL bytes); save it as UTF-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise JsonFileError(
            path, f"line {line}: byte 0x{data[e.start]:02x} at offset {e.start} is not UTF-8; save the file as UTF-8"
        ) from None


def loads(text: str, where: str) -> Any:
    """Parse JSON text; `where` prefixes the message (a path, or `path:line`)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise JsonFileError(where, f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise JsonFileError(
            where, "JSON nested too deeply to read (arrays or objects inside each other thousands of levels deep)"
        ) from None
    except ValueError as e:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise JsonFileError(where, f"a number too long to read: {e}") from None


def read_json(path: str | Path) -> Any:
    return loads(read_text(path), str(path))

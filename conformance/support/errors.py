"""The one error every layer raises for bad input: the front ends turn it into exit 2 and one line."""

from __future__ import annotations


class UsageError(Exception):
    """Bad options or input files: the message names the option, file or JSON path (exit code 2)."""

"""A user's value inside a one-line message."""

from __future__ import annotations

SHOWN_LIMIT = 80  # characters of a value quoted in a message: a 100,000-character argument stays one short line


def shown(text: str, limit: int = SHOWN_LIMIT) -> str:
    """`text` quoted, and cut with its length said when longer than `limit`."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"

"""What the report's modules share to write HTML (report.py, report_heatmap.py, report_regression.py)."""

from __future__ import annotations

import html


def esc(value: object) -> str:
    """Text (None as nothing) escaped for an element or a quoted attribute."""
    return html.escape("" if value is None else str(value), quote=True)

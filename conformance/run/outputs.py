"""Where a run's files go, checked before anything runs (the rule and the kinds: conformance.support.outputs).

In the run layer, not in conformance.report.html: a session checks its --report target before the
first case (and writes nothing if it is wrong), while rendering the report is the layer above
(report.py reads results; the CLI and the plugin write it after the run).
"""

from __future__ import annotations

from ..support.outputs import GENERATOR, check_folder  # noqa: F401 (re-exported: the report layer's names)


class ReportError(OSError):
    """The report cannot be written where asked; the message names the file and why."""

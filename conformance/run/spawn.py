"""Starting a worker process (conformance.run.worker), and starting some before the run is known (`Spares`).

A worker's first part of a second is Python importing numpy, the oracle and the run layer: the same for every
backend and every run.  The CLI starts `Spares` first thing, before its own imports and its checks of the user's
input, so that they do that on a core the parent's one thread leaves idle; the run's pool (conformance.run.pool)
takes them as its workers and sends each its `init` then.  Until then a spare only imports and waits: it constructs
no backend, writes nothing and prints nothing, so a run refused for a bad option says and leaves what it did before.
One the pool does not take is killed (`close`); one whose parent dies goes with it (the worker's own guard).

Only the standard library and conformance.support.processes here: this runs before anything else is imported.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

from ..support.processes import Tree

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
BOOTSTRAP = "import sys; sys.path.insert(0, {root!r}); from conformance.run.worker import serve; serve({parent})"


def default_jobs() -> int:
    """The cores this process may use (its affinity where the platform says): the default number of workers."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def start_worker() -> Tree:
    """A worker process, its three pipes open; it waits for its `init` message (conformance.run.worker)."""
    return Tree(
        [sys.executable, "-c", BOOTSTRAP.format(root=PACKAGE_ROOT, parent=os.getpid())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


class Spares:
    """Up to `count` worker processes started now, for a pool to take (`take`); `close` ends those left."""

    def __init__(self, count: int):
        self.trees: list[Tree] = []
        with contextlib.suppress(OSError):  # no process to spare here: the pool starts its own (and says why not)
            for _ in range(count):
                self.trees.append(start_worker())

    def keep(self, count: int) -> None:
        """End all but `count` of them (the run asked for fewer workers than were started)."""
        while len(self.trees) > max(0, count):
            _end(self.trees.pop())

    def take(self) -> Tree | None:
        """A spare still running, or None."""
        while self.trees:
            tree = self.trees.pop(0)
            if tree.proc.poll() is None:
                return tree
            _end(tree)
        return None

    def close(self) -> None:
        self.keep(0)


def _end(tree: Tree) -> None:
    tree.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        tree.proc.wait(timeout=5.0)
    for stream in (tree.proc.stdin, tree.proc.stdout, tree.proc.stderr):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()
    tree.release()

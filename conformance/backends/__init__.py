"""Backends: implementations under test, behind one interface (see base.py)."""

from .base import ENTRY_POINT_GROUP, Backend, Capabilities, RunResult

__all__ = ["ENTRY_POINT_GROUP", "Backend", "Capabilities", "RunResult"]

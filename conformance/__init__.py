"""dml-conformance: run DirectML data-movement cases on an implementation and judge them bit for bit."""

from oracle.version import VERSION

__version__ = VERSION

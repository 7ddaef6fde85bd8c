"""dml-conformance: run DirectML data-movement cases on an implementation and judge them bit for bit."""

__version__ = "0.1.0"

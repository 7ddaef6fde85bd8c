"""dml-conformance: run DirectML data-movement cases on an implementation and judge them bit for bit."""


def __getattr__(name: str) -> str:
    """`__version__`, read from the package metadata on first use (oracle.version): a worker process never needs it."""
    if name == "__version__":
        from oracle.version import VERSION

        return VERSION
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

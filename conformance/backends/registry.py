"""Find backends by name: every backend, built-in or third-party, is an entry point of ENTRY_POINT_GROUP."""

from __future__ import annotations

from importlib.metadata import entry_points

from .base import ENTRY_POINT_GROUP, Backend


class BackendNotFound(LookupError):
    pass


def backend_names() -> list[str]:
    return sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))


def load_backend(name: str, **options: str) -> Backend:
    """Instantiate the backend registered as `name`; errors say what is installed and what to do."""
    matches = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not matches:
        raise BackendNotFound(
            f"no backend named {name!r}; installed backends: {', '.join(backend_names()) or 'none'} "
            f"(third-party backends register under the entry point group {ENTRY_POINT_GROUP!r})"
        )
    factory = matches[0].load()
    backend = factory(**options)
    if not isinstance(backend, Backend):
        raise TypeError(f"entry point {name!r} ({matches[0].value}) did not produce a conformance Backend")
    return backend

"""Find backends by name: every backend, built-in or third-party, is an entry point of ENTRY_POINT_GROUP.

`resolve_backend` finds a backend's factory (its class) without constructing it: a run checks
the class (its `max_jobs`, the keyword options its constructor takes) in the parent and
constructs the backend only in its worker processes.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass

from .base import ENTRY_POINT_GROUP, Backend


class BackendNotFound(LookupError):
    pass


# `module:Class`: a dotted module path, a dotted attribute path (no file paths, no relative imports).
DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


# The suite's own backends, as pyproject.toml registers them (a test holds the two equal): a run that names one
# imports it directly, without reading every installed distribution's entry points (about 25 ms of each run).
BUILT_IN = {
    "oracle": "conformance.backends.oracle_backend:OracleBackend",
    "onnxruntime-cpu": "conformance.backends.onnxruntime_backend:OnnxRuntimeCpuBackend",
    "onnxruntime-directml": "conformance.backends.onnxruntime_directml:OnnxRuntimeDirectMLBackend",
    "onnx-reference": "conformance.backends.onnx_reference:OnnxReferenceBackend",
    "directml": "conformance.backends.directml:DirectMLBackend",
}


def backend_names() -> list[str]:
    from importlib.metadata import entry_points  # here, not at the top: a worker never needs it (`target`)

    return sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))


@dataclass(frozen=True)
class BackendFactory:
    """What a backend spec names: the callable that constructs it, and what can be known before calling it."""

    spec: str
    factory: Callable[..., Backend]
    # `module:Class` as the spec or its entry point names it: a worker process imports that, without scanning the
    # installed entry points again (tens of milliseconds of its start-up).
    target: str = ""

    @property
    def name(self) -> str:
        return str(getattr(self.factory, "name", "") or self.spec)

    @property
    def max_jobs(self) -> int | None:
        """At most this many instances at once (one per worker); None: no limit (Backend.max_jobs)."""
        value = getattr(self.factory, "max_jobs", None)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None

    @property
    def batch_size(self) -> int:
        """Cases the backend takes per run_many call (Backend.batch_size); 1 when it does not batch."""
        value = getattr(self.factory, "batch_size", 1)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1

    def accepts(self, keyword: str) -> bool | None:
        """Whether the constructor takes `keyword`: True, False, or None when it takes **kwargs (unknown)."""
        try:
            parameters = inspect.signature(self.factory).parameters.values()
        except (TypeError, ValueError):  # a builtin without a signature: let construction decide
            return None
        if any(p.name == keyword and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) for p in parameters):
            return True
        return None if any(p.kind is p.VAR_KEYWORD for p in parameters) else False


def _from_module(spec: str) -> object:
    """What `module:Attr` names, or BackendNotFound saying why it cannot be had."""
    module_name, _, attr = spec.partition(":")
    if not (DOTTED.fullmatch(module_name) and DOTTED.fullmatch(attr)):
        raise BackendNotFound(
            f"backend {spec!r} is neither an installed backend's name nor module:Class (a dotted module "
            "path importable from sys.path, e.g. yourpkg.backend:YourBackend; not a file path)"
        )
    try:
        found: object = importlib.import_module(module_name)
    except ImportError as e:
        raise BackendNotFound(f"cannot import module {module_name!r} of backend {spec!r}: {e}") from e
    except Exception as e:  # the module itself is broken: its own error, named
        raise BackendNotFound(
            f"importing module {module_name!r} of backend {spec!r} raised {type(e).__name__}: {e}"
        ) from e
    for part in attr.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise BackendNotFound(f"module {module_name!r} has no attribute {attr!r} (backend {spec!r})") from None
    return found


def resolve_backend(spec: str) -> BackendFactory:
    """An entry point name, or `module:Class`; raises BackendNotFound saying what is wrong and what exists."""
    target = BUILT_IN.get(spec, spec)
    if ":" in target:
        factory = _from_module(target)
    else:
        from importlib.metadata import entry_points

        matches = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == spec]
        if not matches:
            raise BackendNotFound(
                f"no backend named {spec!r}; installed backends: {', '.join(backend_names()) or 'none'} "
                f"(third-party backends register under the entry point group {ENTRY_POINT_GROUP!r}; "
                "or give module:Class)"
            )
        target = f"{matches[0].module}:{matches[0].attr}" if matches[0].attr else spec
        try:
            factory = matches[0].load()
        except ImportError as e:
            raise BackendNotFound(f"cannot import backend {spec!r} ({matches[0].value}): {e}") from e
    if isinstance(factory, type):
        if not issubclass(factory, Backend):
            raise BackendNotFound(
                f"{spec} is the class {factory.__qualname__}, not a subclass of conformance.backends.base.Backend"
            )
        if inspect.isabstract(factory):
            missing = ", ".join(sorted(factory.__abstractmethods__))
            raise BackendNotFound(f"{spec} is abstract: it does not implement {missing}")
    elif not callable(factory):
        raise BackendNotFound(f"{spec} is a {type(factory).__name__}, not a Backend subclass or factory")
    return BackendFactory(spec, factory, target)


def load_backend(name: str, **kwargs) -> Backend:
    """Construct the backend `name` (entry point or module:Class) in this process."""
    backend = resolve_backend(name).factory(**kwargs)
    if not isinstance(backend, Backend):
        raise TypeError(f"backend {name!r} did not produce a conformance Backend")
    return backend

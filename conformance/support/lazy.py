"""A module imported on first use: `onnx` (about 50 ms with protobuf) in the run's own process, which imports a
backend's module only to read its class (conformance.backends.registry) and never builds a model.

The recipe of the importlib documentation (importlib.util.LazyLoader): the module is found now, so a missing one
is an ImportError here as with `import`, and executed when an attribute of it is first read.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_import(name: str) -> ModuleType:
    """`name`, executed on first attribute access (at once if something imported it already)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module

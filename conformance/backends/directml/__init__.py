"""The `directml` backend: DirectML's own API through a native runner (Windows, or Linux under Wine)."""

from .backend import DirectMLBackend

__all__ = ["DirectMLBackend"]

"""Model backends: an OpenAI-compatible HTTP server, Hugging Face transformers, vLLM, and an
in-process mock; each declares its options once (``options.py``)."""

from indicifeval.runs.backends.base import (
    BACKENDS,
    Backend,
    BackendError,
    MissingDependency,
    OnResult,
    create_backend,
)
from indicifeval.runs.backends.options import OPTIONS, BackendOptions, options_for

__all__ = ["BACKENDS", "OPTIONS", "Backend", "BackendError", "BackendOptions", "MissingDependency", "OnResult",
           "create_backend", "options_for"]

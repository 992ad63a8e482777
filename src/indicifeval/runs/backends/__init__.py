"""Model backends: an OpenAI-compatible HTTP server, Hugging Face transformers, vLLM."""

from indicifeval.runs.backends.base import (
    BACKENDS,
    Backend,
    BackendError,
    MissingDependency,
    OnResult,
    create_backend,
)

__all__ = ["BACKENDS", "Backend", "BackendError", "MissingDependency", "OnResult", "create_backend"]

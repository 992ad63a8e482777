"""Model backends: an OpenAI-compatible HTTP server, Hugging Face transformers, vLLM."""

from indicifeval.runs.backends.base import (
    BACKENDS,
    Backend,
    BackendError,
    MissingDependency,
    OUTPUT_OPTIONS,
    OnResult,
    create_backend,
    output_settings,
)

__all__ = ["BACKENDS", "OUTPUT_OPTIONS", "Backend", "BackendError", "MissingDependency", "OnResult", "create_backend",
           "output_settings"]

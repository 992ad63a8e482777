"""Model backends behind one registry: chat backends (an OpenAI-compatible HTTP server, Hugging
Face transformers, vLLM, an in-process mock with named scripts) and translators (Sarvam's API,
sequence-to-sequence models); each declares its options once."""

from indicifeval.runs.backends.base import (
    BACKENDS,
    CHAT_BACKENDS,
    TRANSLATORS,
    Backend,
    BackendError,
    MissingDependency,
    OnResult,
    create_backend,
    options_class,
)
from indicifeval.runs.backends.options import OPTIONS, BackendOptions, options_for

__all__ = ["BACKENDS", "CHAT_BACKENDS", "OPTIONS", "TRANSLATORS", "Backend", "BackendError", "BackendOptions",
           "MissingDependency", "OnResult", "create_backend", "options_class", "options_for"]

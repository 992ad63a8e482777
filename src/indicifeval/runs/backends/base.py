"""The one interface every backend implements, and the backend registry."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from indicifeval.core.errors import IndicIFEvalError
from indicifeval.runs.requests import GenerationConfig, GenerationRequest, GenerationResult

OnResult = Callable[[GenerationResult], None]


class BackendError(IndicIFEvalError, RuntimeError):
    """A backend could not be set up or a request failed for good."""


class MissingDependency(BackendError):
    def __init__(self, backend: str, package: str, extra: str):
        super().__init__(
            f"the {backend} backend needs {package}: pip install 'indicifeval[{extra}]'"
        )


class Backend(Protocol):
    name: str

    def describe(self) -> dict[str, Any]:
        """Backend settings for the manifest (never secrets), e.g. the chat-template hash."""

    def generate(self, requests: Sequence[GenerationRequest], on_result: OnResult) -> None:
        """Generate every request, calling ``on_result`` as each one completes (in any order).
        Raises BackendError if a request fails for good; results already delivered stay."""


BackendFactory = Callable[..., Backend]
_REGISTRY: dict[str, tuple[str, str]] = {
    # name -> (module, factory attribute); modules are imported only when chosen
    "openai": ("indicifeval.runs.backends.openai_http", "OpenAIBackend"),
    "hf": ("indicifeval.runs.backends.hf", "HFBackend"),
    "vllm": ("indicifeval.runs.backends.vllm_offline", "VLLMBackend"),
}

BACKENDS: tuple[str, ...] = tuple(_REGISTRY)

# Backend options that can change what is generated: part of a run's identity, so a run
# folder refuses to resume with other values. (Concurrency, timeouts, retries, memory share
# and the data-parallel split change only how fast; a server's URL only says where the model
# named by --model is served, so a restarted server on another port resumes the run.)
OUTPUT_OPTIONS: dict[str, tuple[str, ...]] = {
    "openai": (),
    "hf": ("device", "dtype", "batch_size", "trust_remote_code"),  # numerics, padding, code
    "vllm": ("dtype", "max_model_len", "tensor_parallel_size", "pipeline_parallel_size", "trust_remote_code"),
}


def output_settings(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """The output-affecting part of ``options`` for backend ``name`` (credentials masked)."""
    from indicifeval.core.secrets import redact_url

    out = {k: options.get(k) for k in OUTPUT_OPTIONS.get(name, ())}
    if isinstance(out.get("base_url"), str):
        out["base_url"] = redact_url(out["base_url"]).rstrip("/")
    return out


def create_backend(name: str, config: GenerationConfig, **options: Any) -> Backend:
    if name not in _REGISTRY:
        raise BackendError(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
    import importlib

    module_name, attr = _REGISTRY[name]
    factory = getattr(importlib.import_module(module_name), attr)
    return factory(config, **options)

"""The one interface every backend implements, and the backend registry.

A backend is made for one model with its options (``options.py``); every request it is given
carries its own sampling settings, so one loaded model serves requests with different
settings in one process."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from indicifeval.core.errors import IndicIFEvalError
from indicifeval.core.json_types import JsonObject
from indicifeval.runs.backends.options import OPTIONS, BackendOptions, options_for
from indicifeval.runs.requests import GenerationRequest, GenerationResult, SamplingSettings

OnResult = Callable[[GenerationResult], None]


def sampling_kwargs(settings: SamplingSettings) -> JsonObject:
    """transformers' ``generate`` arguments for how to sample, then ``--gen-kwargs`` as given.
    Greedy clears the checkpoint's sampling defaults, so they neither apply nor warn; sampling
    uses no top-k unless the checkpoint sets one, like vLLM and OpenAI-style servers."""
    if settings.temperature == 0:
        kwargs: JsonObject = {"do_sample": False, "temperature": None, "top_p": None, "top_k": None}
    else:
        kwargs = {"do_sample": True, "temperature": settings.temperature, "top_p": settings.top_p, "top_k": 0}
    kwargs.update(settings.gen_kwargs)  # --gen-kwargs, e.g. repetition_penalty=1.1
    return kwargs


def batches(requests: Sequence[GenerationRequest], size: int) -> Iterator[list[GenerationRequest]]:
    """Requests in batches of up to ``size`` that share their settings, in order within each."""
    groups: dict[str, list[GenerationRequest]] = {}
    for request in requests:
        groups.setdefault(request.settings.key(), []).append(request)
    for group in groups.values():
        for start in range(0, len(group), size):
            yield group[start : start + size]


class BackendError(IndicIFEvalError, RuntimeError):
    """A backend could not be set up or a request failed for good."""


class MissingDependency(BackendError):
    def __init__(self, backend: str, package: str, extra: str):
        super().__init__(
            f"the {backend} backend needs {package}: pip install 'indicifeval[{extra}]'"
        )


class Backend(Protocol):
    name: str

    def describe(self) -> JsonObject:
        """Backend settings for the manifest (never secrets), e.g. the chat-template hash."""

    def generate(self, requests: Sequence[GenerationRequest], on_result: OnResult) -> None:
        """Generate every request with its own settings, calling ``on_result`` as each one
        completes (in any order). Raises BackendError if a request fails for good; results
        already delivered stay."""


_REGISTRY: dict[str, tuple[str, str]] = {
    # name -> (module, class); modules are imported only when chosen
    "openai": ("indicifeval.runs.backends.openai_http", "OpenAIBackend"),
    "hf": ("indicifeval.runs.backends.hf", "HFBackend"),
    "vllm": ("indicifeval.runs.backends.vllm_offline", "VLLMBackend"),
    "mock": ("indicifeval.runs.backends.mock", "MockBackend"),
    # translators: made for one target language (their options name it), text in the user turn
    "sarvam": ("indicifeval.runs.backends.sarvam", "SarvamTranslator"),
    "seq2seq": ("indicifeval.runs.backends.seq2seq", "Seq2SeqTranslator"),
}
# their options classes live beside them (module, class), imported when asked for
_TRANSLATOR_OPTIONS: dict[str, tuple[str, str]] = {
    "sarvam": ("indicifeval.runs.backends.sarvam", "SarvamOptions"),
    "seq2seq": ("indicifeval.runs.backends.seq2seq", "Seq2SeqOptions"),
}

BACKENDS: tuple[str, ...] = tuple(_REGISTRY)
CHAT_BACKENDS: tuple[str, ...] = tuple(n for n in _REGISTRY if n not in _TRANSLATOR_OPTIONS)
TRANSLATORS: tuple[str, ...] = tuple(_TRANSLATOR_OPTIONS)
assert set(CHAT_BACKENDS) == set(OPTIONS), "every chat backend declares its options"


def options_class(name: str) -> type[BackendOptions]:
    """The options of backend ``name`` (a chat backend's, or a translator's)."""
    if name in OPTIONS:
        return OPTIONS[name]
    if name not in _TRANSLATOR_OPTIONS:
        raise BackendError(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
    import importlib

    module_name, attr = _TRANSLATOR_OPTIONS[name]
    return getattr(importlib.import_module(module_name), attr)


def create_backend(name: str, model: str, options: BackendOptions | JsonObject | None = None) -> Backend:
    if name not in _REGISTRY:
        raise BackendError(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
    import importlib

    module_name, attr = _REGISTRY[name]
    factory = getattr(importlib.import_module(module_name), attr)
    if name in _TRANSLATOR_OPTIONS:
        given = options if isinstance(options, BackendOptions) else options_class(name).from_mapping(options or {})
        return factory(model, given)
    return factory(model, options_for(name, options))

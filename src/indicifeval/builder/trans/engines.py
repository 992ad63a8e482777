"""The translation engines behind one interface: each is a runs backend (``generate(requests,
on_result)``), so every engine call goes through the same resumable core as benchmark runs
(one record per call, resumed after a kill, failures retried).

Chat engines (``openai``, ``hf``, ``vllm``, ``mock``) get a system prompt naming the target
language (data: ``prompts.json``) and the text as the user turn. Translation APIs and
sequence-to-sequence models (``sarvam``, ``seq2seq``) are made for one target language and
read the text from the user turn. ``hf`` given an encoder-decoder model is ``seq2seq``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError
from indicifeval.languages import get_profile
from indicifeval.runs.backends import (
    BACKENDS,
    CHAT_BACKENDS,
    TRANSLATORS,
    Backend,
    BackendOptions,
    create_backend,
    options_class,
)
from indicifeval.runs.requests import GenerationRequest, SamplingSettings

CHAT_ENGINES = CHAT_BACKENDS  # the runs layer's one registry: chat backends, then translators
ENGINES = BACKENDS
DEFAULT_PROMPT = "sarvam-translate"


@lru_cache(maxsize=1)
def system_prompts() -> dict[str, str]:
    data = json.loads(resources.files("indicifeval.builder.trans").joinpath("prompts.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def system_prompt(template: str | None, language: str) -> str:
    """The system turn for a chat engine: a named template (prompts.json) or the text given."""
    text = system_prompts().get(template or DEFAULT_PROMPT, template or "")
    profile = get_profile(language)
    return text.replace("{language}", profile.name).replace("{native}", profile.native_name)


def is_seq2seq_model(model: str) -> bool:
    """Whether ``model`` (a folder, or a hub id already in the local cache) is an
    encoder-decoder translation model (M2M100, NLLB, IndicTrans2, Marian, T5): then ``hf``
    translates with it as ``seq2seq`` does, with the target-language token, not a chat prompt."""
    config = Path(model) / "config.json"
    if not config.is_file():
        try:
            from huggingface_hub import try_to_load_from_cache
        except ImportError:
            return False
        cached = try_to_load_from_cache(model, "config.json")
        if not isinstance(cached, str):
            return False
        config = Path(cached)
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(data.get("is_encoder_decoder")) if isinstance(data, dict) else False


def resolve_engine(name: str, model: str) -> str:
    """The engine that serves ``name`` for ``model``: ``hf`` names both transformers routes."""
    return "seq2seq" if name == "hf" and is_seq2seq_model(model) else name


@dataclass
class Engine:
    """A translator for one target language: the backend, whether it is a chat model, and
    what identifies it in a build folder's manifest."""

    name: str
    model: str
    backend: Backend
    chat: bool
    language: str
    prompt: str | None = None  # the chat system prompt
    settings: SamplingSettings = field(default_factory=lambda: SamplingSettings(max_tokens=2048))

    def identity(self) -> dict[str, Any]:
        described = self.backend.describe()
        return {"engine": self.name, "model": self.model, "language": self.language,
                "system_prompt": self.prompt, "settings": self.settings.to_json(),
                "chat_template_hash": described.get("chat_template_hash"),
                "backend": {k: v for k, v in described.items() if k != "chat_template_hash"}}

    def request(self, uid: str, text: str) -> GenerationRequest:
        if self.chat:
            messages = [{"role": "system", "content": self.prompt or ""}, {"role": "user", "content": text}]
        else:
            messages = [{"role": "user", "content": text}]
        return GenerationRequest(uid, messages, self.settings)


def create_engine(name: str, model: str, language: str, options: BackendOptions | dict[str, Any] | None = None, *,
                  prompt: str | None = None, settings: SamplingSettings | None = None,
                  backend: Backend | None = None) -> Engine:
    """The engine ``name`` for target ``language``; ``backend`` stands in for a ready one."""
    settings = settings or SamplingSettings(max_tokens=2048)
    if name in CHAT_ENGINES:
        made = backend or create_backend(name, model, options)
        return Engine(name, model, made, True, language, system_prompt(prompt, language), settings)
    if name not in TRANSLATORS:
        raise InputError(f"unknown engine {name!r}; choose from {', '.join(ENGINES)}")
    if backend is None:
        opts = options if isinstance(options, BackendOptions) else \
            options_class(name).from_mapping({**(options or {}), "target_language": language})
        backend = create_backend(name, model, opts)
    return Engine(name, model, backend, False, language, None, settings)

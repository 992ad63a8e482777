"""Which model, on which backend, with what: the one ``ModelSpec`` that ``run``, the Trans
translator and the Ground prompt writer all take. Its identity holds every setting that can
change an answer (never a speed setting or a secret) and is what every paid-for answer is keyed
by, so another model, option, sampling setting, system turn or chat template is asked anew and
the same one never twice."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from indicifeval.core.errors import InputError
from indicifeval.core.json_types import JsonObject, JsonValue
from indicifeval.runs.backends.base import (
    CHAT_BACKENDS,
    TRANSLATORS,
    Backend,
    BackendError,
    create_backend,
    options_class,
)
from indicifeval.runs.backends.options import BATCH_FORMATS, BackendOptions, BatchOptions
from indicifeval.runs.requests import GenerationRequest, SamplingSettings, text_hash

TEMPLATED = ("hf", "vllm")
GREEDY = SamplingSettings()  # backends that apply the model's own chat template in-process


def model_identity(model: str) -> str:
    """A model named by a local path is identified by where it is (resolved), so a relative
    path typed from another directory is the same model; a hub id or server model name as given."""
    path = Path(model).expanduser()
    return str(path.resolve()) if model and path.exists() else model


def chat_template_hash(backend: str, model: str) -> str | None:
    """The hash of the chat template ``backend`` will apply to ``model``, read from the model's
    files without loading it (None: a server's own template, or none found)."""
    if backend not in TEMPLATED:
        return None
    from indicifeval.runs.backends.vllm_offline import local_chat_template

    return text_hash(local_chat_template(model))


def backend_options(backend: str, values: BackendOptions | Mapping[str, JsonValue] | None) -> BackendOptions:
    """``values`` as ``backend``'s typed options (a dict is checked here, at the edge)."""
    if isinstance(values, BackendOptions):
        return values
    if backend in BATCH_FORMATS:
        return BatchOptions.from_mapping(dict(values or {}))
    return options_class(backend).from_mapping(dict(values or {}))


@dataclass(frozen=True)
class ModelSpec:
    """A model on a backend with its options, its sampling settings (None: the use's own: a
    run's greedy defaults, a translation's, or each request's, as Ground's plan gives them) and
    the system turn before every prompt (chat backends)."""

    backend: str
    model: str
    options: BackendOptions = field(default_factory=BackendOptions)
    settings: SamplingSettings | None = None
    system: str | None = None

    @classmethod
    def of(cls, backend: str, model: str, options: BackendOptions | Mapping[str, JsonValue] | None = None, *,
           settings: SamplingSettings | None = None, system: str | None = None,
           language: str | None = None) -> ModelSpec:
        """The spec, with ``options`` checked and typed for ``backend`` (a translator's made for
        ``language``, which its options must name)."""
        if backend not in (*CHAT_BACKENDS, *TRANSLATORS, *BATCH_FORMATS):
            known = ", ".join((*CHAT_BACKENDS, *TRANSLATORS, *BATCH_FORMATS))
            raise InputError(f"unknown backend {backend!r}; choose from {known}", field="backend")
        if backend in TRANSLATORS and language is not None and not isinstance(options, BackendOptions):
            options = {**dict(options or {}), "target_language": language}
        return cls(backend, model, backend_options(backend, options), settings, system)

    @property
    def chat(self) -> bool:
        """Whether the backend takes a conversation (else a translator or a batch file)."""
        return self.backend in CHAT_BACKENDS

    @property
    def batch(self) -> bool:
        return self.backend in BATCH_FORMATS

    def bound(self, language: str, prompts: Mapping[str, str] | None = None) -> ModelSpec:
        """This spec for one target language: a translator's options name it, a chat model's system
        turn (a name in ``prompts``, or text) has ``{language}`` and ``{native}`` filled in."""
        from indicifeval.languages import get_profile

        values = self.options.values()
        if "target_language" in values or "language" in values:
            values["target_language" if "target_language" in values else "language"] = language
        system = self.system
        if system is not None:
            text = (prompts or {}).get(system, system)
            profile = get_profile(language)
            system = text.replace("{language}", profile.name).replace("{native}", profile.native_name)
        return replace(self, options=type(self.options).from_mapping(values), system=system)

    def identity(self) -> JsonObject:
        """Every key always present, so identities made by any version compare key by key."""
        return {"backend": self.backend, "model": model_identity(self.model),
                "options": self.options.output_settings(),
                "settings": None if self.settings is None else self.settings.to_json(),
                "system": self.system, "chat_template_hash": chat_template_hash(self.backend, self.model)}

    @cached_property
    def key(self) -> str:
        """The prefix of every content hash of an answer this model gives."""
        return json.dumps(self.identity(), sort_keys=True, ensure_ascii=False)

    def request(self, uid: str, text: str, settings: SamplingSettings | None = None) -> GenerationRequest:
        """``text`` as the user turn after the system turn (a chat backend's), with this spec's
        settings unless the request brings its own."""
        system = [{"role": "system", "content": self.system}] if self.system is not None and self.chat else []
        return GenerationRequest(uid, [*system, {"role": "user", "content": text}],
                                 settings or self.settings or SamplingSettings())

    def open(self) -> Backend:
        """The backend, made now (a model loaded, a session opened)."""
        if self.batch:
            raise BackendError(f"{self.backend} is a batch file format, not a backend that answers online")
        return create_backend(self.backend, self.model, self.options)

    def describe(self) -> str:
        """``backend:model`` for a table cell or a message."""
        return f"{self.backend}:{self.model}"


def identity_key(identity: Mapping[str, JsonValue]) -> str:
    """The key of a recorded identity (what ``ModelSpec.key`` is for the spec that made it)."""
    return json.dumps(dict(identity), sort_keys=True, ensure_ascii=False)


__all__ = ["ModelSpec", "backend_options", "chat_template_hash", "identity_key", "model_identity"]

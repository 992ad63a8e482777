"""Which model, on which backend, with which options: one ``ModelSpec`` for every place that
names a model (a Trans translator, the Ground prompt writer), whose identity holds every
output-affecting option and, where the backend applies one, the chat template's hash. A build
records this identity with each stage that calls the model, and its caches key answers by it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval.runs.backends.base import Backend, create_backend, options_class
from indicifeval.runs.requests import text_hash

TEMPLATED = ("hf", "vllm")  # backends that apply the model's own chat template in-process


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


@dataclass(frozen=True)
class ModelSpec:
    backend: str
    model: str
    options: dict[str, Any] = field(default_factory=dict)

    def identity(self) -> dict[str, Any]:
        """backend, model, the output-affecting options (never speed settings or secrets) and,
        when there is one, the chat template's hash."""
        settings = options_class(self.backend).from_mapping(dict(self.options)).output_settings()
        out: dict[str, Any] = {"backend": self.backend, "model": model_identity(self.model), "options": settings}
        template = chat_template_hash(self.backend, self.model)
        if template is not None:  # absent otherwise, so identities made before it still match
            out["chat_template_hash"] = template
        return out

    def create(self) -> Backend:
        return create_backend(self.backend, self.model, dict(self.options))


__all__ = ["ModelSpec", "chat_template_hash", "model_identity"]

"""What a backend is asked and what it answers."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

DEFAULT_MAX_TOKENS = 1280  # the paper's (and the authors' lm-eval YAMLs') generation budget


@dataclass(frozen=True)
class GenerationConfig:
    """Everything that changes what a model generates. A run folder refuses to resume with a
    different one."""

    model: str
    backend: str
    max_tokens: int = DEFAULT_MAX_TOKENS
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0
    thinking: bool | None = None  # None: the model's default
    system_prompt: str | None = None

    def to_json(self) -> dict:
        return asdict(self)

    def messages(self, prompt: str) -> list[dict]:
        """One user turn, after an optional system prompt."""
        msgs = [{"role": "system", "content": self.system_prompt}] if self.system_prompt else []
        return msgs + [{"role": "user", "content": prompt}]

    @property
    def chat_template_kwargs(self) -> dict:
        return {} if self.thinking is None else {"enable_thinking": self.thinking}


@dataclass(frozen=True)
class GenerationRequest:
    uid: str  # "language/subset/key"
    messages: list[dict] = field(hash=False)


@dataclass
class GenerationResult:
    uid: str
    output: str  # the raw text the model produced
    finish_reason: str | None = None
    reasoning: str | None = None  # reasoning the server returned separately (reasoning_content)
    usage: dict[str, Any] = field(default_factory=dict)
    latency_s: float | None = None
    attempts: int = 1


def uid_of(language: str, subset: str, key: Any) -> str:
    return f"{language}/{subset}/{key}"


def text_hash(text: str | None) -> str | None:
    """A short fingerprint of a chat template, recorded so that template changes show."""
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def stable_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)

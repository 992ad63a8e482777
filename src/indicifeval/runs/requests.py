"""What a backend is asked and what it answers."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

from indicifeval.core.json_types import JsonObject, JsonValue

DEFAULT_MAX_TOKENS = 1280  # the paper's (and the authors' lm-eval YAMLs') generation budget
DEFAULT_MAX_ANSWER_CHARS = 1_000_000  # far beyond any budget; a runaway server answer is cut here


@dataclass(frozen=True)
class SamplingSettings:
    """How one request is generated. Every request carries its own, so one loaded model can
    translate, then judge, then answer with different settings in one process (as inspect's
    ``generate(input, config)`` and lm-eval's per-request ``gen_kwargs``)."""

    max_tokens: int = DEFAULT_MAX_TOKENS
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0
    thinking: bool | None = None  # None: the model's default
    # further settings passed to the backend as they are (``--gen-kwargs top_k=20``)
    gen_kwargs: JsonObject = field(default_factory=dict, hash=False)

    def to_json(self) -> dict:
        return asdict(self)

    def key(self) -> str:
        """A stable text of these settings: requests with equal keys can be batched together."""
        return stable_json(self.to_json())

    @property
    def chat_template_kwargs(self) -> dict:
        return {} if self.thinking is None else {"enable_thinking": self.thinking}


@dataclass(frozen=True)
class GenerationRequest:
    uid: str  # the item's identity, e.g. a RowId's text "hi/trans/7"
    messages: list[dict] = field(hash=False)
    settings: SamplingSettings = field(default_factory=SamplingSettings, hash=False)


@dataclass
class GenerationResult:
    uid: str
    output: str  # the raw text the model produced
    finish_reason: str | None = None
    reasoning: str | None = None  # reasoning the server returned separately (reasoning_content)
    usage: JsonObject = field(default_factory=dict)
    latency_s: float | None = None
    attempts: int = 1
    error: str | None = None  # the item failed (e.g. an answer without content): retried on resume


# Settings with a flag of their own, or that the backend sets itself.
RESERVED_GEN_KWARGS = frozenset({"model", "messages", "prompt", "max_tokens", "max_new_tokens", "temperature", "top_p",
                                 "seed", "n", "stream", "chat_template_kwargs"})


def parse_gen_kwargs(text: str | None) -> JsonObject:
    """``"top_k=20,presence_penalty=0.5,stop=END"`` -> {"top_k": 20, "presence_penalty": 0.5,
    "stop": "END"}: numbers, true/false and null are typed, anything else is a string (as
    lm-eval's ``--gen_kwargs``). A JSON object is accepted too."""
    from indicifeval.core.errors import InputError

    text = (text or "").strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"--gen-kwargs: malformed JSON ({exc.msg})", field="gen_kwargs") from None
        except (ValueError, RecursionError):
            raise InputError("--gen-kwargs: malformed JSON (nested too deeply or a number too long)",
                             field="gen_kwargs") from None
        if not isinstance(value, dict):
            raise InputError("--gen-kwargs: expected a JSON object", field="gen_kwargs")
        out = value
    else:
        out = {}
        for part in (p for p in text.split(",") if p.strip()):
            name, sep, raw = part.partition("=")
            name = name.strip()
            if not sep or not name.isidentifier():
                raise InputError(f"--gen-kwargs: expected key=value pairs separated by commas, got {part.strip()!r}",
                                 field="gen_kwargs")
            out[name] = _typed(raw.strip())
    clash = sorted(set(out) & RESERVED_GEN_KWARGS)
    if clash:
        raise InputError(f"--gen-kwargs: {', '.join(clash)} {'has' if len(clash) == 1 else 'have'} a flag of its own "
                         f"(--max-tokens, --temperature, --top-p, --seed, --thinking) or is set by indicifeval",
                         field="gen_kwargs")
    return out


def _typed(raw: str) -> JsonValue:
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def text_hash(text: str | None) -> str | None:
    """A short fingerprint of a chat template, recorded so that template changes show."""
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def stable_json(value: JsonValue) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)

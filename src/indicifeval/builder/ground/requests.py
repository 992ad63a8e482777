"""One provider-neutral generation request per mined context, from the templates in
``templates.json``. The task style is drawn per item from a hash of (seed, context id), so
adding, removing or reordering contexts never changes another item's style; the answer is a
JSON object (instruction, constraint, unsafe) with its schema sent along."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from indicifeval.languages import get_profile
from indicifeval.records import GenerationTask, MinedContext


@lru_cache(maxsize=1)
def templates() -> dict[str, Any]:
    text = resources.files("indicifeval.builder.ground").joinpath("templates.json").read_text(encoding="utf-8")
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def _unit(seed: int, *parts: str) -> float:
    digest = hashlib.sha256(json.dumps([seed, *parts]).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def draw_style(seed: int, context_id: str) -> dict[str, Any]:
    """The item's style: context-required with the templates' share, then one of its kind."""
    data = templates()
    needs = _unit(seed, "context", context_id) < data["context_required_share"]
    pool = [s for s in data["styles"] if s["context_required"] == needs]
    return pool[int(_unit(seed, "style", context_id) * len(pool))]


def constraint_text(instruction_id: str, kwargs: dict[str, Any]) -> str:
    values = dict(kwargs)
    if "forbidden_words" in values:
        values["forbidden_word"] = values["forbidden_words"][0]
    return templates()["constraints"][instruction_id].format(**values)


def make_request(context: MinedContext, seed: int) -> GenerationTask:
    data = templates()
    style = draw_style(seed, context.id)
    language = get_profile(context.language).name
    requirement = data["requirement_with_context" if style["context_required"] else "requirement_without_context"]
    user = data["user"].format(language=language, style=style["name"], requirement=requirement,
                               constraint=constraint_text(context.instruction_id, context.kwargs),
                               context=context.text)
    messages = [{"role": "system", "content": data["system"].format(language=language)},
                {"role": "user", "content": user}]
    return GenerationTask(context.id, context.id, context.instruction_id, dict(context.kwargs), messages,
                          style["name"], bool(style["context_required"]), data["response_schema"], dict(data["params"]))


def request_hash(task: GenerationTask) -> str:
    """What was asked, fingerprinted: an answer to a changed request is never reused."""
    body = json.dumps({"messages": task.messages, "schema": task.response_schema, "params": task.params},
                      sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


__all__ = ["constraint_text", "draw_style", "make_request", "request_hash", "templates"]

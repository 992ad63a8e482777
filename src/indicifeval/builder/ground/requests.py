"""One provider-neutral generation request per mined context, from the templates in
``templates.json``. Which items need the context is decided for the whole set: exactly
round(share × n) of them, those whose hash of (seed, context id) is lowest, so the share is the
plan's and not a coin's (adding or removing a context moves at most one other item across
the line); the style is then drawn from its kind by another hash of (seed, context id). The
answer is a JSON object (instruction, constraint, unsafe) with its schema sent along."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from indicifeval.builder.ground.beyond import IDS as BEYOND_IDS
from indicifeval.languages import get_profile
from indicifeval.records import GenerationTask, MinedContext


@lru_cache(maxsize=1)
def templates() -> dict[str, Any]:
    text = resources.files("indicifeval.builder.ground").joinpath("templates.json").read_text(encoding="utf-8")
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def _unit(seed: int, *parts: str) -> float:
    digest = hashlib.sha256(json.dumps([seed, *parts]).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def context_required_ids(seed: int, context_ids: list[str], share: float) -> set[str]:
    """The items whose style needs the context: round(share × n) of them, lowest hash first."""
    ranked = sorted(context_ids, key=lambda c: (_unit(seed, "context", c), c))
    return set(ranked[:round(share * len(ranked))])


def draw_style(seed: int, context_id: str, needs: bool | None = None) -> dict[str, Any]:
    """The item's style, one of its kind (``needs`` the context or not; None: drawn alone,
    with the templates' share)."""
    data = templates()
    if needs is None:
        needs = _unit(seed, "context", context_id) < data["context_required_share"]
    pool = [s for s in data["styles"] if s["context_required"] == needs]
    return pool[int(_unit(seed, "style", context_id) * len(pool))]


def constraint_text(instruction_id: str, kwargs: dict[str, Any], language: str | None = None) -> str:
    """The constraint as the request states it. One beyond the paper names the language and its
    digits, and quotes the profile's own wording of it, when it has one, so that the prompt
    states it as the validator reads it (the paper's constraints are worded as they always were)."""
    values = dict(kwargs)
    if "forbidden_words" in values:
        values["forbidden_word"] = values["forbidden_words"][0]
    data = templates()
    if language is None or instruction_id not in BEYOND_IDS:
        return data["constraints"][instruction_id].format(**values)
    profile = get_profile(language)
    numerals = profile.numerals
    text = data["constraints"][instruction_id].format(language=profile.name,
                                                      digits=numerals.digits if numerals else "0-9", **values)
    wording = (profile.instruction_texts.templates.get(instruction_id) if profile.instruction_texts else None) or ()
    return data["native_wording"].format(constraint=text, language=profile.name, wording=wording[0]) if wording \
        else text


def make_request(context: MinedContext, seed: int, needs_context: bool | None = None) -> GenerationTask:
    data = templates()
    style = draw_style(seed, context.id, needs_context)
    language = get_profile(context.language).name
    requirement = data["requirement_with_context" if style["context_required"] else "requirement_without_context"]
    user = data["user"].format(language=language, style=style["name"], requirement=requirement,
                               constraint=constraint_text(context.instruction_id, context.kwargs, context.language),
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


__all__ = ["constraint_text", "context_required_ids", "draw_style", "make_request", "request_hash", "templates"]

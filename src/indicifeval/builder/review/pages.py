"""What the review pages show of an item: its kwargs marked where they occur in the prompt (as
text segments; the template escapes them), each instruction in words (the checker's own
description, from the language profiles' templates, in the row's language and in English, the
raw id beside it), the Ground context it was written from, the direction and font of its script
(wherever language text appears: item, disagreements, progress), what the validator refuses in
the row, the annotator's own answers and the edits made so far, and a disagreement's answers
side by side."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import regex

from indicifeval.builder.review.items import OVERRIDE, conversation_of, validation_errors
from indicifeval.checkers import DescriptionError, KwargError, lexical_kwargs, render_description
from indicifeval.languages import UnknownLanguageError, get_profile
from indicifeval.languages.benchmark import script_fonts

if TYPE_CHECKING:
    from indicifeval.records import HumanVerdict, ReviewItem, Row


@lru_cache(maxsize=1)
def _directions() -> dict[str, str]:
    """Script -> its writing direction, from the languages' scripts.json ("ltr" unless it says)."""
    table = json.loads(resources.files("indicifeval.languages").joinpath("scripts.json").read_text(encoding="utf-8"))
    return {code: str(info.get("direction", "ltr")) for code, info in table.items() if not code.startswith("_")}


@lru_cache(maxsize=256)
def language_attrs(code: str) -> dict[str, str]:
    """What a page needs to show text of language ``code``: its ``lang``, ``dir``, script (for
    the font class) and names; an unknown code is shown as itself, its direction left to the browser."""
    try:
        profile = get_profile(code)
    except UnknownLanguageError:
        return {"code": code, "lang": code, "dir": "auto", "script": "", "name": code, "native": code}
    return {"code": code, "lang": code, "dir": _directions().get(profile.script, "ltr"), "script": profile.script,
            "name": profile.name, "native": profile.native_name or profile.name}


def segments(prompt: str, values: list[str]) -> list[tuple[str, bool]]:
    """``prompt`` cut into (text, is a kwarg value) pieces, values matched as whole words."""
    words = sorted({v for v in values if v and v.strip()}, key=len, reverse=True)
    if not words:
        return [(prompt, False)]
    pattern = regex.compile(r"(?<![\p{L}\p{M}\p{N}])(?:" + "|".join(regex.escape(w) for w in words)
                            + r")(?![\p{L}\p{M}\p{N}])", regex.IGNORECASE)
    out, at = [], 0
    for m in pattern.finditer(prompt):
        if m.start() > at:
            out.append((prompt[at:m.start()], False))
        out.append((m.group(), True))
        at = m.end()
    if at < len(prompt):
        out.append((prompt[at:], False))
    return out


def _values(row: Row) -> list[str]:
    out: list[str] = []
    for iid, kw in zip(row.instruction_id_list, row.kwargs):
        for name in lexical_kwargs(iid):
            value = kw.get(name)
            out += [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
    return out


def _described(instruction_id: str, kwargs: dict, language: str) -> str | None:
    """The checker's description of one instruction with its kwargs, in ``language`` (the
    profile's template, as a prompt states it); None where the profile has none for it."""
    try:
        return render_description(instruction_id, kwargs, get_profile(language))
    except (DescriptionError, KwargError, UnknownLanguageError, KeyError, ValueError):
        return None


def instructions(row: Row) -> list[dict[str, Any]]:
    """Each instruction in words, in the row's language and in English, with its id and kwargs
    as data (JSON, for experts)."""
    out = []
    for iid, kw in zip(row.instruction_id_list, row.kwargs):
        shown = {k: v for k, v in kw.items() if v is not None}
        out.append({"id": iid, "kwargs": shown, "raw": json.dumps(shown, ensure_ascii=False) if shown else "",
                    "text": _described(iid, shown, row.language),
                    "english": _described(iid, shown, "en") if row.language != "en" else None})
    return out


def conversation_turns(item: ReviewItem) -> list[dict[str, Any]] | None:
    """A conversation item's turns as the page shows them: each turn's prompt (its kwargs
    marked), the instruction it adds (turns 2..), what it drops, its whole instruction list, and
    a follow-up's English source; None for a row's item."""
    conversation = conversation_of(item.candidate)
    if conversation is None:
        return None
    follow = {int(f.get("turn", 0)): f for f in item.candidate.provenance.get("follow_ups") or []
              if isinstance(f, dict)}
    out = []
    for n in range(1, len(conversation.turns) + 1):
        row, said = conversation.turn_row(n), follow.get(n, {})
        out.append({"n": n, "segments": segments(row.prompt, _values(row)), "instructions": instructions(row),
                    "english": said.get("english"), "added": said.get("instruction_id"),
                    "dropped": list(said.get("dropped") or [])})
    return out


def item_view(item: ReviewItem, flow: dict, latest: dict[tuple[str, str], HumanVerdict], annotator: str,
              assigned: Sequence[str], edits: list[dict] | None = None, context: dict | None = None,
              submitted: tuple[dict[str, str], str] | None = None, missing: list[dict] | None = None,
              guidelines: dict | None = None) -> dict[str, Any]:
    """The item page's data. ``submitted``: the (answers, comment) of a save that was refused,
    shown again with ``missing`` (the questions left unanswered) so that nothing is retyped."""
    row = item.row
    lang = language_attrs(item.language)
    mine = latest.get((item.id, annotator))
    at = assigned.index(item.id) if item.id in assigned else -1
    answers, comment = submitted if submitted is not None else \
        (mine.answers if mine else {}, mine.comment if mine else "")
    return {
        "id": item.id, "language": item.language, "language_name": lang["name"], "subset": item.subset,
        "script": lang["script"], "dir": lang["dir"], "lang": lang,
        "segments": segments(row.prompt, _values(row)), "source": item.source.prompt if item.source else None,
        "context": context, "ground": item.subset == "ground", "guidelines": guidelines,
        "turns": conversation_turns(item),
        "instructions": instructions(row), "findings": list(item.findings), "status": item.status,
        "reasons": list(item.reasons), "invalid": validation_errors(item), "override": OVERRIDE,
        "overridden": answers.get(OVERRIDE) == "yes", "workflow": flow, "workflow_name": item.workflow,
        "answers": answers, "comment": comment, "missing": missing or [],
        "missing_ids": {q["id"] for q in missing or []},
        "done": mine is not None, "keywords": sorted(set(_values(row))),
        "edited": [{**e["detail"], "by": e["annotator"], "at": e["at"]} for e in edits or []],
        "previous": assigned[at - 1] if at > 0 else None,
        "next": assigned[at + 1] if 0 <= at < len(assigned) - 1 else None,
        "position": at + 1, "total": len(assigned),
    }


def missing_message(missing: list[dict]) -> str:
    """One line naming the questions a save left unanswered (the page marks them too)."""
    named = "; ".join(f"{q['n']}. {q['text']}" + (" (not one of its options)" if q.get("invalid") else "")
                      for q in missing)
    return f"Not saved: answer question{'s' if len(missing) > 1 else ''} {named}"


def override_message(errors: list[str]) -> str:
    """One line saying why a "correct" was not saved: the row fails validation, unconfirmed."""
    return (f"Not saved: this row fails validation ({'; '.join(errors)}); to mark it correct anyway, tick "
            f"\u201capprove despite the validation error\u201d (field {OVERRIDE})")


def dispute_view(dispute: dict[str, Any], item: ReviewItem | None, flow: dict | None,
                 standing: dict[str, HumanVerdict]) -> dict[str, Any]:
    """A disagreement for the adjudicator, with the row: per question, each annotator's answer
    (as its label, and whether it keeps the row correct) side by side; their verdicts and
    comments; the prompt in its language's direction."""
    names = [name for name, _, _ in dispute["verdicts"]]
    verdicts = {name: standing[name] for name in names if name in standing}
    questions = []
    for n, q in enumerate((flow or {}).get("questions", []), 1):
        options = {o["value"]: o for o in q["options"]}
        cells = []
        for name in names:
            value = verdicts[name].answers.get(q["id"]) if name in verdicts else None
            option = options.get(value) if value is not None else None
            cells.append({"annotator": name, "value": value, "label": option["label"] if option else (value or "—"),
                          "ok": bool(option and option["ok"])})
        questions.append({"n": n, "id": q["id"], "text": q["text"], "cells": cells,
                          "differ": len({c["value"] for c in cells}) > 1})
    language = item.language if item else dispute["id"].split("/", 1)[0]
    return {
        "id": dispute["id"], "lang": language_attrs(language), "annotators": names,
        "prompt": item.row.prompt if item else dispute.get("prompt", ""),
        "source": item.source.prompt if item and item.source else None,
        "instructions": instructions(item.row) if item else [],
        "invalid": validation_errors(item) if item else [], "override": OVERRIDE, "questions": questions,
        "verdicts": [{"annotator": name, "verdict": verdict, "comment": comment,
                      "at": verdicts[name].at if name in verdicts else None,
                      "overridden": name in verdicts and verdicts[name].answers.get(OVERRIDE) == "yes"}
                     for name, verdict, comment in dispute["verdicts"]],
    }


def fonts_css() -> str:
    """One class per script with its fonts, so pages need no inline styles (the CSP forbids them)."""
    lines = []
    for code, fonts in sorted(script_fonts().items()):
        if fonts:
            families = ", ".join(f'"{f}"' for f in fonts)
            lines.append(f".script-{code} {{ font-family: {families}, sans-serif; }}")
    return "\n".join(lines) + "\n"


__all__ = ["conversation_turns", "dispute_view", "fonts_css", "instructions", "item_view", "language_attrs",
           "missing_message", "override_message", "segments"]

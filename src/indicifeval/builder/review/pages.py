"""What the review pages show of an item: its kwargs marked where they occur in the prompt (as
text segments; the template escapes them), the direction and font of its script, the
annotator's own answers and the edits made so far."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import regex

from indicifeval.checkers import lexical_kwargs
from indicifeval.languages import get_profile
from indicifeval.languages.composition import script_fonts

if TYPE_CHECKING:
    from indicifeval.records import HumanVerdict, ReviewItem

RTL_SCRIPTS = frozenset({"Arab", "Hebr"})


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


def _values(row: dict) -> list[str]:
    out: list[str] = []
    for iid, kw in zip(row["instruction_id_list"], row["kwargs"]):
        for name in lexical_kwargs(iid):
            value = kw.get(name)
            out += [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
    return out


def item_view(item: ReviewItem, flow: dict, latest: dict[tuple[str, str], HumanVerdict], annotator: str,
              assigned: list[str], edits: list[dict] | None = None) -> dict[str, Any]:
    row = item.row
    profile = get_profile(item.language)
    mine = latest.get((item.id, annotator))
    at = assigned.index(item.id) if item.id in assigned else -1
    instructions = [{"id": iid, "kwargs": {k: v for k, v in kw.items() if v is not None}}
                    for iid, kw in zip(row["instruction_id_list"], row["kwargs"])]
    return {
        "id": item.id, "language": item.language, "language_name": profile.name, "subset": item.subset,
        "script": profile.script, "dir": "rtl" if profile.script in RTL_SCRIPTS else "ltr",
        "segments": segments(row["prompt"], _values(row)), "source": (item.source or {}).get("prompt"),
        "instructions": instructions, "findings": list(item.findings), "status": item.status,
        "reasons": list(item.reasons), "workflow": flow, "workflow_name": item.workflow,
        "answers": mine.answers if mine else {}, "comment": mine.comment if mine else "",
        "done": mine is not None, "keywords": sorted(set(_values(row))),
        "edited": [{**e["detail"], "by": e["annotator"], "at": e["at"]} for e in edits or []],
        "previous": assigned[at - 1] if at > 0 else None,
        "next": assigned[at + 1] if 0 <= at < len(assigned) - 1 else None,
        "position": at + 1, "total": len(assigned),
    }


def fonts_css() -> str:
    """One class per script with its fonts, so pages need no inline styles (the CSP forbids them)."""
    lines = []
    for code, fonts in sorted(script_fonts().items()):
        if fonts:
            families = ", ".join(f'"{f}"' for f in fonts)
            lines.append(f".script-{code} {{ font-family: {families}, sans-serif; }}")
    return "\n".join(lines) + "\n"


__all__ = ["fonts_css", "item_view", "segments"]

"""What the review pages show, computed from the stores: an item with its kwargs marked where
they occur in the prompt (as text segments; the template escapes them), the direction and
font of its script, progress per annotator and language, and the items annotators disagree on.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

import regex

from indicifeval.checkers import lexical_kwargs
from indicifeval.languages import get_profile
from indicifeval.languages.composition import script_fonts

if TYPE_CHECKING:
    from indicifeval.builder.review.app import Review
    from indicifeval.records import HumanVerdict

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


def item_view(item: dict, flow: dict, latest: dict[tuple[str, str], HumanVerdict], annotator: str,
              assigned: list[str], edits: list[dict] | None = None) -> dict[str, Any]:
    row = item["row"]
    profile = get_profile(item["language"])
    mine = latest.get((item["id"], annotator))
    at = assigned.index(item["id"]) if item["id"] in assigned else -1
    instructions = [{"id": iid, "kwargs": {k: v for k, v in kw.items() if v is not None}}
                    for iid, kw in zip(row["instruction_id_list"], row["kwargs"])]
    return {
        "id": item["id"], "language": item["language"], "language_name": profile.name, "subset": item["subset"],
        "script": profile.script, "dir": "rtl" if profile.script in RTL_SCRIPTS else "ltr",
        "segments": segments(row["prompt"], _values(row)), "source": (item.get("source") or {}).get("prompt"),
        "instructions": instructions, "findings": item["findings"], "status": item["status"],
        "reasons": item["reasons"], "workflow": flow, "workflow_name": item["workflow"],
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


def progress_rows(review: Review, annotator: str | None) -> list[dict[str, Any]]:
    """Per annotator and language: items assigned, done, correct; ``annotator`` None: everyone."""
    latest = review.latest()
    table: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for store in review.stores:
        names = {name for (_, name) in latest} | set(store.assignees())
        for name in sorted(names):
            if annotator is not None and name != annotator:
                continue
            for item_id in store.assigned(name):
                language = item_id.split("/", 1)[0]
                cell = table[name, language]
                cell["assigned"] += 1
                verdict = latest.get((item_id, name))
                if verdict is not None:
                    cell["done"] += 1
                    cell["correct"] += verdict.verdict == "correct"
    return [{"annotator": name, "language": lang, **cell} for (name, lang), cell in sorted(table.items())]


def disagreements(review: Review) -> list[dict[str, Any]]:
    """Items whose annotators gave different verdicts and no adjudicator has settled."""
    by_item: dict[str, dict[str, HumanVerdict]] = defaultdict(dict)
    settled = set()
    for (item_id, name), verdict in review.latest().items():
        if verdict.adjudication:
            settled.add(item_id)
        else:
            by_item[item_id][name] = verdict
    out = []
    for item_id, verdicts in sorted(by_item.items()):
        if item_id in settled or len({v.verdict for v in verdicts.values()}) < 2:
            continue
        found = review.store_of(item_id)
        prompt = found[1]["row"]["prompt"] if found else ""
        out.append({"id": item_id, "prompt": prompt[:300],
                    "verdicts": [(name, v.verdict, v.comment) for name, v in sorted(verdicts.items())]})
    return out


__all__ = ["disagreements", "fonts_css", "item_view", "progress_rows", "segments"]

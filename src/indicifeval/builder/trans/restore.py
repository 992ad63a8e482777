"""Putting the protected spans back into a translated unit.

Exact placeholders first (``{{3}}``); then, for a placeholder not found that way, the forms
engines turn it into: spaces inside or between the braces, single braces, double square
brackets, digits of another script. A placeholder that is missing, or found more than once,
is not guessed: the unit is reported and its text keeps the raw placeholder, so a reviewer
sees where. A restored value with a letter glued to it (a case ending the engine added) is
reported too: the keyword is no longer a whole word."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

EXACT = re.compile(r"\{\{(\d+)\}\}")
# tolerated damage, tried only for a placeholder the exact pass did not find
TOLERANT = (
    re.compile(r"\{\s*\{\s*(\d+)\s*\}\s*\}"),
    re.compile(r"\[\[\s*(\d+)\s*\]\]"),
    re.compile(r"(?<!\{)\{\s*(\d+)\s*\}(?!\})"),
)
_WORD_CHAR = re.compile(r"[^\W_]", re.UNICODE)


def _number(text: str) -> int | None:
    try:
        return int("".join(str(unicodedata.digit(ch)) for ch in text))
    except (TypeError, ValueError):
        return None


@dataclass
class Restored:
    text: str
    problems: list[str] = field(default_factory=list)


def _glued(text: str, start: int, end: int) -> str | None:
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    if after and (_WORD_CHAR.match(after) or unicodedata.category(after).startswith("M")):
        return f"{after!r} glued after it"
    if before and _WORD_CHAR.match(before):
        return f"{before!r} glued before it"
    return None


def restore(text: str, values: dict[int, str], glue_matters: set[int]) -> Restored:
    """``text`` with each placeholder number replaced by its value; ``glue_matters``: the
    numbers whose values must stay whole words (keywords and the like)."""
    problems: list[str] = []
    found: dict[int, list[tuple[int, int]]] = {}
    for m in EXACT.finditer(text):
        n = _number(m.group(1))
        if n in values:
            found.setdefault(n, []).append((m.start(), m.end()))
    for pattern in TOLERANT:
        missing = set(values) - set(found)
        if not missing:
            break
        taken = [s for spans in found.values() for s in spans]
        for m in pattern.finditer(text):
            n = _number(m.group(1))
            if n in missing and not any(a < m.end() and m.start() < b for a, b in taken):
                found.setdefault(n, []).append((m.start(), m.end()))
    replacements: list[tuple[int, int, str]] = []
    for n, value in values.items():
        places = found.get(n, [])
        if not places:
            problems.append(f"placeholder {{{{{n}}}}} lost in translation")
            continue
        if len(places) > 1:
            problems.append(f"placeholder {{{{{n}}}}} found {len(places)} times")
            continue
        start, end = places[0]
        if n in glue_matters:
            glued = _glued(text, start, end)
            if glued:
                problems.append(f"{value!r}: {glued} (no longer a whole word)")
        replacements.append((start, end, value))
    out, at = [], 0
    for start, end, value in sorted(replacements):
        out += [text[at:start], value]
        at = end
    out.append(text[at:])
    return Restored("".join(out), problems)


__all__ = ["Restored", "restore"]

"""Leftovers of building: placeholders a translation pipeline did not restore ({{3}}, [[3]],
⟦3⟧, <ph3>), a Ground template's [INSERT CONTEXT HERE]; and doubled punctuation ("??",
"। ।"), which machine translation and copying leave behind.

Placeholders are errors: the model would see them. A single-brace {3} is a warning (LaTeX and
format strings use it). Doubled punctuation is a warning, and none when the English source
has the same (then it was asked for, or at least not added)."""

from __future__ import annotations

from collections.abc import Iterator

import regex

from indicifeval.dataset.validation.findings import ERROR, WARNING, Finding, finding
from indicifeval.dataset.validation.prompt import Prompt, snippet

_PLACEHOLDERS = (
    (regex.compile(r"\{\s*\{\s*\p{Nd}+\s*\}\s*\}"), ERROR, "an unrestored placeholder"),
    (regex.compile(r"\[\[\s*\p{Nd}+\s*\]\]"), ERROR, "an unrestored placeholder"),
    (regex.compile(r"⟦[^⟧\n]{0,20}⟧"), ERROR, "an unrestored placeholder"),
    (regex.compile(r"<\s*/?\s*ph\s*\p{Nd}*(?:\s+[^<>\n]{0,30})?\s*/?\s*>", regex.IGNORECASE), ERROR,
     "an unrestored placeholder tag"),
    (regex.compile(r"\[\s*insert\b[^\]\n]{0,60}\]", regex.IGNORECASE), ERROR, "a template slot that was never filled"),
    (regex.compile(r"(?<![\{\\^_])\{\s*\p{Nd}+\s*\}(?!\})"), WARNING, "what may be an unrestored placeholder"),
)
# the same mark twice (a space between allowed); "..." is an ellipsis, ".." is not
_DOUBLED = regex.compile(r"([?!।॥؟۔,،;])[ \t]?\1|(?<!\.)\.\.(?!\.)")


def leftover_placeholder(p: Prompt) -> Iterator[Finding]:
    text = p.row.prompt
    taken: list[tuple[int, int]] = []  # a damaged {{ 3 }} is reported once, not also as {3}
    for pattern, severity, what in _PLACEHOLDERS:
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append(m.span())
            yield finding(p.row, "leftover_placeholder", severity, f"the prompt holds {what}: {m.group()!r}",
                          snippet(text, m.start(), m.end()))


def doubled_punctuation(p: Prompt) -> Iterator[Finding]:
    text = p.row.prompt
    source = p.source.prompt if p.source is not None else ""
    for m in _DOUBLED.finditer(text):
        mark = m.group()
        if mark in source or (mark == "।।" and p.profile.code == "sa"):  # verse ends are written so in Sanskrit
            continue
        yield finding(p.row, "doubled_punctuation", WARNING, f"doubled punctuation {mark!r}",
                      snippet(text, m.start(), m.end()))


# embeddings, overrides and isolates: text that displays in another order than it reads (a
# reviewer sees one prompt, the model another); LRM/RLM marks, which Urdu text uses, are fine
_BIDI = regex.compile(r"[\u202a-\u202e\u2066-\u2069]")


def _bidi_in(value: object) -> list[str]:
    if isinstance(value, str):
        return [f"U+{ord(c):04X}" for c in _BIDI.findall(value)]
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _bidi_in(v)]
    return []


def bidi_control(p: Prompt) -> Iterator[Finding]:
    row = p.row
    for where, value in (("the key", row.key), ("the prompt", row.prompt)):
        found = _bidi_in(value)
        if found:
            m = _BIDI.search(str(value))
            yield finding(row, "bidi_control", ERROR, f"{where} holds bidi control characters "
                          f"({', '.join(sorted(set(found)))}): it displays in another order than it reads",
                          snippet(str(value), m.start(), m.end()) if m else None)
    for index, kwargs in enumerate(row.kwargs):
        for name, value in kwargs.items():
            found = _bidi_in(value)
            if found:
                yield finding(row, "bidi_control", ERROR, f"kwarg {name} holds bidi control characters "
                              f"({', '.join(sorted(set(found)))})", None, index)

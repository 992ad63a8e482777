"""Paragraphs and the first word of a paragraph."""

from __future__ import annotations

import regex

from indicifeval.text.normalize import match_key

_BLANK_LINE = regex.compile(r"\n[^\S\n]*\n")
# Everything that can wrap or precede a word without being part of it: punctuation and
# symbols of any script (danda, ۔, curly quotes, markdown *, #, >, _), plus whitespace.
_EDGE = regex.compile(r"^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$")


def paragraphs(text: str) -> list[str]:
    """Non-blank paragraphs separated by blank lines (any whitespace on the blank line)."""
    return [p.strip() for p in _BLANK_LINE.split(text) if p.strip()]


def leading_words(paragraph: str, n: int) -> list[str]:
    """The first ``n`` words of a paragraph, stripped of surrounding punctuation/markdown and
    normalised for comparison; tokens that are only punctuation (a bullet, "—") are skipped."""
    out: list[str] = []
    for token in paragraph.split():
        word = _EDGE.sub("", token)
        if word:
            out.append(match_key(word))
            if len(out) == n:
                break
    return out

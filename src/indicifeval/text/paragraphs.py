"""Paragraphs and the first word of a paragraph."""

from __future__ import annotations

import regex

from indicifeval.text.normalize import match_key

_BLANK_LINE = regex.compile(r"\n[^\S\n]*\n")
# Everything that can wrap or precede a word without being part of it: punctuation and
# symbols of any script (danda, ۔, curly quotes, markdown *, #, >, _), plus whitespace. A word
# is its token without the leading and the trailing run of these (what substituting
# ^[...]+|[...]+$ away gave, but that regex retried [...]+$ from every position of a run
# inside the token: quadratic on long punctuation tokens). The trailing run is the leading
# run of the reversed token.
_EDGE_RUN = regex.compile(r"[\p{P}\p{S}\s]*")


def strip_edges(token: str) -> str:
    """``token`` without its leading and trailing punctuation, symbols and whitespace."""
    start = _EDGE_RUN.match(token).end()
    if start == len(token):
        return ""
    return token[start : len(token) - _EDGE_RUN.match(token[::-1]).end()]


def paragraphs(text: str) -> list[str]:
    """Non-blank paragraphs separated by blank lines (any whitespace on the blank line)."""
    if "\n" not in text:  # one paragraph (a split would find no blank line)
        stripped = text.strip()
        return [stripped] if stripped else []
    return [s for p in _BLANK_LINE.split(text) if (s := p.strip())]


def leading_words(paragraph: str, n: int) -> list[str]:
    """The first ``n`` words of a paragraph, stripped of surrounding punctuation/markdown and
    normalised for comparison; tokens that are only punctuation (a bullet, "—") are skipped."""
    out: list[str] = []
    head = n + 8  # tokens read first; the rest of a long paragraph only when they fall short
    tokens = paragraph.split(None, head)
    for token in tokens[:head]:
        word = strip_edges(token)
        if word:
            out.append(match_key(word))
            if len(out) == n:
                return out
    if len(tokens) > head:
        for token in tokens[head].split():
            word = strip_edges(token)
            if word:
                out.append(match_key(word))
                if len(out) == n:
                    break
    return out

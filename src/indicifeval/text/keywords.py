"""Literal keyword matching that respects Indic word boundaries.

Rule (documented in docs/scoring.md): a keyword occurs where its normalised form (NFC,
case-folded, ZWJ/ZWNJ removed) appears with no letter, combining mark or digit directly before
or after it. Inflected forms are therefore different words: "किताब" does not occur in
"किताबें", "पार्ने" does not occur in "पार्नेछ". Whitespace inside a multi-word keyword matches
any run of whitespace. Python's stdlib ``\\b`` cannot be used: it treats matras, viramas and
anusvara as non-word characters and so breaks words in the middle.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import regex

from indicifeval.core.caches import bounded_cache
from indicifeval.text.normalize import match_key

_BEFORE = r"(?<![\p{L}\p{M}\p{N}])"
_AFTER = r"(?![\p{L}\p{M}\p{N}])"


@bounded_cache(maxsize=4096)
def keyword_pattern(keyword: str) -> regex.Pattern | None:
    parts = match_key(keyword).split()
    if not parts:
        return None
    body = r"\s+".join(regex.escape(p) for p in parts)
    return regex.compile(_BEFORE + body + _AFTER)


@bounded_cache(maxsize=4096)
def _single_word_key(keyword: str) -> str | None:
    """The normalised keyword when it has no inner whitespace (the common case)."""
    parts = match_key(keyword).split()
    return parts[0] if len(parts) == 1 else None


@lru_cache(maxsize=65536)
def _is_word_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LMN"


def _find_whole(text: str, key: str, limit: int) -> int:
    """Whole-word occurrences of ``key`` in ``text``, scanning left to right without overlap
    (the same count the regex gives), stopping once ``limit`` are found."""
    n, size, i = 0, len(key), text.find(key)
    while i != -1 and n < limit:
        end = i + size
        if (i == 0 or not _is_word_char(text[i - 1])) and (end == len(text) or not _is_word_char(text[end])):
            n += 1
            i = text.find(key, end)
        else:
            i = text.find(key, i + 1)
    return n


def count_keyword(normalised_text: str, keyword: str) -> int:
    """Non-overlapping whole-word occurrences; ``normalised_text`` must be ``match_key(text)``."""
    key = _single_word_key(keyword)
    if key is not None:
        return _find_whole(normalised_text, key, len(normalised_text) + 1)
    pattern = keyword_pattern(keyword)
    return 0 if pattern is None else sum(1 for _ in pattern.finditer(normalised_text))


def has_keyword(normalised_text: str, keyword: str) -> bool:
    key = _single_word_key(keyword)
    if key is not None:
        return _find_whole(normalised_text, key, 1) > 0
    pattern = keyword_pattern(keyword)
    return pattern is not None and pattern.search(normalised_text) is not None

"""One prompt as the checks see it: its normal forms, words and numbers, computed once.

Matching is the scorer's (``text.keywords`` on ``match_key``): NFC, case-folded, ZWJ/ZWNJ
removed, whole words with boundaries that never cut a word between a letter and its vowel
sign. A value found only inside a longer word (inflected, glued) is told apart, with the
word it sits in as evidence."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import regex

from indicifeval.languages import LanguageProfile, get_profile
from indicifeval.records import Row
from indicifeval.text.keywords import has_keyword
from indicifeval.text.normalize import collapse, match_key, match_key_of_nfc, nfc

Presence = Literal["word", "substring", "absent"]
_WORD = regex.compile(r"[\p{L}\p{M}]+")
_WORD_AROUND = r"[\p{L}\p{M}\p{N}]*"
_DIGITS = regex.compile(r"\p{Nd}+")
_GROUPED = regex.compile(r"\p{Nd}{1,3}(?:,\p{Nd}{2,3})+")  # 1,000 and the Indian 1,00,000


def digits_value(text: str) -> int | None:
    """The number a run of decimal digits of any script writes (``"४५"`` -> 45)."""
    try:
        return int("".join(str(unicodedata.digit(ch)) for ch in text if ch != ","))
    except (TypeError, ValueError):
        return None


@dataclass
class Prompt:
    """A row's prompt, with the row's profile; ``source`` is the English row it was made from."""

    row: Row
    source: Row | None = None
    # (language, format id) -> cue words naming the format, from the whole dataset (formats.py)
    cues: Mapping[tuple[str, str], frozenset[str]] | None = None

    @cached_property
    def profile(self) -> LanguageProfile:
        return get_profile(self.row.language)

    @cached_property
    def nfc(self) -> str:
        return nfc(self.row.prompt)

    @cached_property
    def key(self) -> str:
        return match_key_of_nfc(self.nfc)

    @cached_property
    def collapsed(self) -> str:
        return collapse(self.row.prompt)

    @cached_property
    def words(self) -> list[str]:
        """Letter runs of the matchable form (digits and punctuation split words)."""
        return _WORD.findall(self.key)

    @cached_property
    def numbers(self) -> frozenset[int]:
        """Every number written in digits (any script), grouped numbers read both ways."""
        found = {digits_value(m.group()) for m in _DIGITS.finditer(self.nfc)}
        found |= {digits_value(m.group()) for m in _GROUPED.finditer(self.nfc)}
        return frozenset(n for n in found if n is not None)

    def presence(self, value: str) -> tuple[Presence, str | None]:
        """Whether ``value`` occurs as a whole word, only inside a word (with that word), or not."""
        if has_keyword(self.key, value):
            return "word", None
        key = match_key(value).strip()
        if not key:
            return "absent", None
        at = self.key.find(key)
        if at == -1:
            return "absent", None
        return "substring", enclosing(self.key, at, at + len(key))

    def has_any_word(self, words) -> str | None:
        """The first of ``words`` the prompt has as a whole word."""
        return next((w for w in words if w.strip() and has_keyword(self.key, w)), None)


def enclosing(text: str, start: int, end: int) -> str:
    """The word(s) around ``text[start:end]``: letters, marks and digits on both sides."""
    before = regex.search(_WORD_AROUND + r"\Z", text[max(0, start - 40):start])
    after = regex.match(_WORD_AROUND, text[end:end + 40])
    return (before.group() if before else "") + text[start:end] + (after.group() if after else "")


def snippet(text: str, start: int, end: int, context: int = 30) -> str:
    """``text[start:end]`` with some context, on one line, for evidence."""
    left = max(0, start - context)
    right = min(len(text), end + context)
    body = text[left:right].replace("\n", " ")
    return ("…" if left else "") + body + ("…" if right < len(text) else "")

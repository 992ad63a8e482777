"""Is this text of the language, or letters of its script strung together? Language
identification calls any Gujarati-script string Gujarati; the character trigrams of a
language's own sentences (its profile's instruction templates, answers, end phrases and word lists) tell
its words from random letters: in the shared corpus, honest documents have at least 42 % of
their in-word trigrams among them (median 62-77 %), random letters of the script at most 3 %."""

from __future__ import annotations

from functools import lru_cache

import regex

from indicifeval.languages.profile import on_reload
from indicifeval.scoring.implicit.expect import profile_of
from indicifeval.scoring.implicit.measures import trigram_counts, trigrams
from indicifeval.scoring.implicit.view import AnswerView, script_words
from indicifeval.text.langid_check import list_words, own_texts
from indicifeval.text.normalize import nfc

_LETTERS = regex.compile(r"[\p{L}\p{M}]+")
FEW_LETTERS = 40  # letters and signs in a language's own words, below which its words are read
_MAX_WORDS = 80  # the first words decide (some 500 trigrams), as language identification reads a prefix


@lru_cache(maxsize=64)
def _own_words(language: str) -> tuple[str, ...] | None:
    """The words of the language's own sentences, lower-cased; None for a language without a
    profile or with too little text of its own to judge by."""
    profile = profile_of(language)
    if profile is None:
        return None
    texts = own_texts(profile) + list(profile.stop_words) + list_words(profile)
    words = tuple(w.lower() for text in texts for w in _LETTERS.findall(nfc(text)))
    return words if sum(map(len, words)) >= 2000 else None


@lru_cache(maxsize=64)
def known_trigrams(language: str) -> frozenset[str] | None:
    """The trigrams of the language's own sentences (None: see ``_own_words``)."""
    words = _own_words(language)
    return None if words is None else frozenset(trigrams(list(words)))


@lru_cache(maxsize=64)
def known_words(language: str) -> frozenset[str] | None:
    """The words of the language's own sentences (None: see ``_own_words``)."""
    words = _own_words(language)
    return None if words is None else frozenset(words)


def known_share(view: AnswerView, language: str, script: str) -> tuple[float, int] | None:
    """The share of the in-word trigrams of the answer's first words (those that begin with a
    letter of ``script``) found in the language's own sentences, and how many were counted;
    None where the language has no table."""
    known = known_trigrams(language)
    if known is None:
        return None
    total, found = trigram_counts(view, _MAX_WORDS, script, known)
    return (found / total if total else 0.0), total


@lru_cache(maxsize=64)
def few_letters(language: str) -> bool:
    """Whether the language's own words are written with few letters (English's 26): random
    strings of them hit its common trigrams, and its words must be read too. (Indic scripts
    have 70 to 90 letters and signs, and words inflected past any list: trigrams suffice.)"""
    words = _own_words(language)
    return words is not None and len({ch for w in words for ch in w}) < FEW_LETTERS


def known_word_share(view: AnswerView, language: str, script: str) -> tuple[float, int] | None:
    """The share of the answer's first words (those that begin with a letter of ``script``)
    that occur in the language's own sentences, and how many were counted; None where the
    language has no text of its own or is written with many letters (``few_letters``)."""
    known = known_words(language)
    if known is None or not few_letters(language):
        return None
    words = script_words(view, _MAX_WORDS, script)
    return (sum(map(known.__contains__, words)) / len(words) if words else 0.0), len(words)


for _table in (_own_words, known_trigrams, known_words, few_letters):
    on_reload(_table.cache_clear)

__all__ = ["few_letters", "known_share", "known_trigrams", "known_word_share", "known_words"]

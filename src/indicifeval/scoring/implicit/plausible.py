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
from indicifeval.scoring.implicit.view import AnswerView
from indicifeval.text.langid_check import list_words, own_texts
from indicifeval.text.normalize import nfc

_LETTERS = regex.compile(r"[\p{L}\p{M}]+")
_MAX_WORDS = 80  # the first words decide (some 500 trigrams), as language identification reads a prefix


@lru_cache(maxsize=64)
def known_trigrams(language: str) -> frozenset[str] | None:
    """The trigrams of the language's own sentences; None for a language without a profile or
    with too little text of its own to judge by."""
    profile = profile_of(language)
    if profile is None:
        return None
    texts = own_texts(profile) + list(profile.stop_words) + list_words(profile)
    words = [w.lower() for text in texts for w in _LETTERS.findall(nfc(text))]
    if sum(map(len, words)) < 2000:
        return None
    return frozenset(trigrams(words))


on_reload(known_trigrams.cache_clear)


def known_share(view: AnswerView, language: str, script: str) -> tuple[float, int] | None:
    """The share of the in-word trigrams of the answer's first words (those that begin with a
    letter of ``script``) found in the language's own sentences, and how many were counted;
    None where the language has no table."""
    known = known_trigrams(language)
    if known is None:
        return None
    total, found = trigram_counts(view, _MAX_WORDS, script, known)
    return (found / total if total else 0.0), total


__all__ = ["known_share", "known_trigrams"]

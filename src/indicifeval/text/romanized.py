"""Whether a Latin-letter answer is a given Indic language typed in Latin letters.

CLD2 and langdetect know romanised Indic text least (they call it English, Indonesian or
Tagalog), so the evidence is data: each profile's ``romanized.words``, the words people type
most. Rule (docs/scoring.md): at least 90% of the letters are Latin; at least 2 of the words,
and 15% of them, are the language's romanised words; fewer are English function words; and no
other language's romanised words mark it more than twice as often plus one, counting only
the words the two do not share (romanised Hindi and Urdu share most and both pass)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache

import regex

from indicifeval.languages import get_profile, list_languages
from indicifeval.languages.profile import on_reload
from indicifeval.text.scripts import script_of

LATIN_SHARE = 0.9
MIN_WORDS = 2
MIN_SHARE = 0.15
_LATIN_WORD = regex.compile(r"\p{Latin}[\p{Latin}\p{Mn}]*(?:['’]\p{Latin}+)*")


@dataclass(frozen=True)
class Evidence:
    latin: int  # Latin letters
    letters: int  # all letters
    words: int  # Latin words
    own: tuple[str, ...]  # the language's romanised words found (each occurrence)
    english: int  # English function words
    rival: str | None  # the other language its words mark more, if one does
    rival_words: int  # that language's words the two do not share
    own_distinct: int  # the language's words that language lacks


@cache
def _romanized(language: str) -> frozenset[str]:
    profile = get_profile(language)
    return profile.romanized.words if profile.romanized is not None else frozenset()


@cache
def _others() -> tuple[str, ...]:
    return tuple(c for c in list_languages() if _romanized(c))


@cache
def _english() -> frozenset[str]:
    return frozenset(get_profile("en").function_words.split())


for _table in (_romanized, _others, _english):
    on_reload(_table.cache_clear)


def _fold(word: str) -> str:
    """A Latin word as the lists write it: lower case, without diacritics (IAST ahaṃ, ISO
    mērā: aham, mera)."""
    if word.isascii():
        return word.lower()
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c)).casefold()


def evidence(text: str, language: str) -> Evidence:
    letters = regex.findall(r"\p{L}", text)
    latin = sum(1 for ch in letters if script_of(ch) == "Latn")
    words = [_fold(w) for w in _LATIN_WORD.findall(text)]
    own_table = _romanized(language)
    own = tuple(w for w in words if w in own_table)
    english = sum(1 for w in words if w in _english())
    rival, rival_words, own_distinct = None, 0, len(own)
    for other in _others():
        if other == language:
            continue
        theirs = _romanized(other)
        their_only = sum(1 for w in words if w in theirs and w not in own_table)
        mine_only = sum(1 for w in own if w not in theirs)
        if their_only > 2 * mine_only + 1 and their_only > rival_words:
            rival, rival_words, own_distinct = other, their_only, mine_only
    return Evidence(latin, len(letters), len(words), own, english, rival, rival_words, own_distinct)


def verdict(ev: Evidence, language: str) -> tuple[bool, str]:
    name = get_profile(language).name
    if not ev.letters:
        return False, "no letters"
    share = ev.latin / ev.letters
    if share < LATIN_SHARE:
        return False, f"{100 * share:.0f}% of the letters are Latin, needed at least {100 * LATIN_SHARE:.0f}%"
    words = f"{len(ev.own)} {name} word{'' if len(ev.own) == 1 else 's'}"
    found = (f"{words} typed in Latin ({', '.join(dict.fromkeys(ev.own[:8]))})" if ev.own
             else f"no {name} word typed in Latin")
    if len(ev.own) < max(MIN_WORDS, MIN_SHARE * ev.words):
        return False, f"{found} of {ev.words} words, needed at least {MIN_WORDS} and {100 * MIN_SHARE:.0f}%"
    if ev.english >= len(ev.own):
        return False, f"{found}, but {ev.english} English function words: English, not {name}"
    if ev.rival is not None:
        other = get_profile(ev.rival).name
        return False, (f"{found}, but {ev.rival_words} {other} words that {name} lacks against {ev.own_distinct}: "
                       f"{other}, not {name}")
    return True, f"{100 * share:.0f}% Latin letters; {found}, {ev.english} English"

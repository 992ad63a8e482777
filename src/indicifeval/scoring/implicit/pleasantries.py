"""Pleasantries: what an answer may open or close with ("Sure! Here is ...", "I hope this
helps", "As an AI language model"), each language's in its profile (``word_lists.boilerplate``,
drafts). An answer of them alone, or of them and the required keywords, says nothing."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from indicifeval.languages.profile import on_reload
from indicifeval.scoring.implicit.expect import profile_of
from indicifeval.scoring.implicit.view import words_of


@lru_cache(maxsize=256)
def _phrases(languages: frozenset[str]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The pleasantries of the languages as word sequences, by first word, longest first."""
    found: dict[str, set[tuple[str, ...]]] = {}
    for code in sorted(languages):
        profile = profile_of(code)
        for phrase in (profile.word_list("boilerplate") or ()) if profile is not None else ():
            words = words_of(phrase)
            if words:
                found.setdefault(words[0], set()).add(words)
    return {first: tuple(sorted(ps, key=lambda p: (-len(p), p))) for first, ps in found.items()}


on_reload(_phrases.cache_clear)


def beside_pleasantries(words: list[str], languages: Iterable[str]) -> tuple[list[str], list[str]]:
    """The answer's words that are no part of a pleasantry, and the pleasantries it says
    (each phrase matched at the earliest place, the longest there first)."""
    phrases = _phrases(frozenset(languages))
    left: list[str] = []
    said: list[str] = []
    i = 0
    while i < len(words):
        match = next((p for p in phrases.get(words[i], ()) if tuple(words[i:i + len(p)]) == p), None)
        if match is None:
            left.append(words[i])
            i += 1
        else:
            said.append(" ".join(match))
            i += len(match)
    return left, said


__all__ = ["beside_pleasantries"]

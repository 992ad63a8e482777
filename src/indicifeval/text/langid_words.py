"""The words that vote in language identification (``langid``): a text's words less names,
titles and words in capitals."""

from __future__ import annotations

import re
from operator import itemgetter

import regex

from indicifeval.text.words import letter_runs

_WORD = regex.compile(r"[\p{L}\p{M}\u200c\u200d]+")  # joiners inside Indic words (उत्‍साही)

_SENTENCE_END = frozenset(".!?\n\"'“”«»¿¡()[]-•*#")  # not ':' (a title often follows one)


# A letter that str.isupper() calls upper case (the same Unicode property): a text without one
# (most Indic answers) votes with every word, found in one pass; tests/text check every code point
_ANY_UPPER = regex.compile(r"\p{Uppercase}")


# Each word with, where it starts with a capital, that capital and the last character before it
# that is not a space or tab ("" at the start): one pass in C instead of a loop over matches.
_WORD_IN_CONTEXT = regex.compile(r"(?:(?<=([^ \t])[ \t]*)|)(?:(?=\p{Uppercase})([\p{L}\p{M}\u200c\u200d])"
                                  r"([\p{L}\p{M}\u200c\u200d]*)|([\p{L}\p{M}\u200c\u200d]+))")


def voting_words(text: str) -> list[str]:
    """The words that vote: not in capitals (code, acronyms), not capitalised inside a
    sentence (names and titles), and not the small words inside such a title ("The Lord of
    the Rings", "La Vita è Bella": at most two of them between capitalised words)."""
    return _ascii_voting_words(text) if text.isascii() else _unicode_voting_words(text)


def _unicode_voting_words(text: str) -> list[str]:
    if _ANY_UPPER.search(text) is None:
        runs = letter_runs(text)  # (the same runs, found by the compiled kernel where it is built)
        return _WORD.findall(text) if runs is None else runs
    end = _SENTENCE_END
    # (word, is a name); a word in capitals does not vote and is left out
    found = [(u + rest, before != "" and before not in end) if u else (plain, False)
             for before, u, rest, plain in _WORD_IN_CONTEXT.findall(text) if not rest or not (u + rest).isupper()]
    return _without_names([w for w, _ in found], [k for k, (_, name) in enumerate(found) if name])


# ASCII text (most English answers): its words are the runs of A-Z and a-z, each with what
# comes between it and the word before, on the stdlib engine
_ASCII_WORD = re.compile(r"[A-Za-z]+")
_ASCII_CAPITAL = re.compile(r"[A-Z]")
_ASCII_WORD_AFTER = re.compile(r"([^A-Za-z]*)([A-Za-z]+)")
_WORD_OF = itemgetter(1)


def _ascii_voting_words(text: str) -> list[str]:
    """``voting_words`` of an ASCII text: the character before a capitalised word, past
    spaces and tabs, is the last one of what separates it from the word before, or, where
    that is all spaces and tabs, a letter (a name) or the start of the text (no name). Only
    the capitalised words are looked at one by one (``"Z" < "a"``)."""
    if _ASCII_CAPITAL.search(text) is None:
        return _ASCII_WORD.findall(text)
    pairs = _ASCII_WORD_AFTER.findall(text)
    words = list(map(_WORD_OF, pairs))
    end = _SENTENCE_END
    shouting, names = set(), []
    for k in [k for k, w in enumerate(words) if w[0] < "a"]:
        w = words[k]
        if len(w) > 1 and w.isupper():
            shouting.add(k)
            continue
        before = pairs[k][0].rstrip(" \t")
        if before[-1] not in end if before else k > 0:
            names.append(k)
    if shouting:  # left out: the names' places counted without them
        kept = [k for k in range(len(words)) if k not in shouting]
        place = {k: n for n, k in enumerate(kept)}
        words, names = [words[k] for k in kept], [place[k] for k in names]
    return _without_names(words, names)


def _without_names(words: list[str], names: list[int]) -> list[str]:
    """The words that are not names (at the places ``names``, in order), nor between two
    names with at most two words between them: a word with a name at most two words before
    it and one at most two words after it."""
    if not names:
        return words
    drop = set(names)
    for a, b in zip(names, names[1:]):
        drop.update(range(max(a + 1, b - 2), min(b, a + 3)))
    return [w for k, w in enumerate(words) if k not in drop]

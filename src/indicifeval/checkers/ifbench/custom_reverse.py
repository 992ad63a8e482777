"""IFBench's custom:word_reverse, custom:character_reverse and custom:sentence_alphabet: the
order of words, of letters, and of the letters sentences begin with.

The answer the two reversals ask for is the bald eagle; each language names it in its profile
(``word_lists.bald_eagle``: its usual names and transliterations), and the English name is
accepted everywhere. A letter is an akshara: reversing never parts a vowel sign or a virama
from its consonant."""

from __future__ import annotations

import string
from functools import lru_cache

from indicifeval.checkers.ifbench.custom_common import (
    CUSTOM,
    SUITE,
    base_letter,
    requires_lists,
    reversed_by_letter,
    sentences,
    word_list,
)
from indicifeval.checkers.registry import all_but, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.keywords import has_keyword
from indicifeval.text.normalize import collapse
from indicifeval.text.punkt_en import sent_tokenize_en
from indicifeval.text.words import words

_NO_PUNCTUATION = str.maketrans("", "", string.punctuation)
_ENGLISH_NAME = "bald eagle"
_SHOWN = 3


def _names(rules: Rules) -> tuple[str, ...]:
    return (*word_list(rules, "bald_eagle"), _ENGLISH_NAME)


@lru_cache(maxsize=64)
def _backwards(names: tuple[str, ...]) -> dict[str, str]:
    """Each name written backwards (in match form, whitespace runs as one space) -> the name."""
    out: dict[str, str] = {}
    for name in names:
        for written in reversed_by_letter(collapse(name)):
            out.setdefault(written, name)
    return out


@checker(
    "custom:word_reverse",
    category=CUSTOM, table_row=270, fixed_only=True, suite=SUITE, conflicts=all_but(),
    requires=requires_lists("custom:word_reverse", "bald_eagle"),
)
def word_reverse(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        # the reference: lower-cased, ASCII punctuation deleted, words read from the last, and the
        # result a sentence of its own that says "bald eagle"
        value = " ".join(view.text.lower().strip().translate(_NO_PUNCTUATION).split()[::-1])
        if _ENGLISH_NAME not in value:
            return False, "read backwards word by word, the answer does not say 'bald eagle'"
        ok = value in sent_tokenize_en(value)
        return ok, "read backwards word by word, it says 'bald eagle'" + ("" if ok else ", but not as one sentence")
    backwards = " ".join(reversed(words(view.matchable)))
    names = _names(rules)
    hit = next((name for name in names if has_keyword(backwards, name)), None)
    if hit is None:
        return False, f"read backwards word by word, the answer names none of {', '.join(names[:_SHOWN])}"
    return True, f"read backwards word by word, it names {hit!r}"


@checker(
    "custom:character_reverse",
    category=CUSTOM, table_row=260, fixed_only=True, suite=SUITE, conflicts=all_but(),
    requires=requires_lists("custom:character_reverse", "bald_eagle"),
)
def character_reverse(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:  # the reference: 'elgae dlab' anywhere, case-blind
        ok = "elgae dlab" in view.text.lower()
        return ok, "contains 'elgae dlab'" if ok else "no 'elgae dlab' ('bald eagle' letter by letter backwards)"
    text = view.collapsed
    for written, name in _backwards(_names(rules)).items():
        if written in text:
            return True, f"contains {written!r} ({name!r} backwards, akshara by akshara)"
    shown = ", ".join(repr(w) for w in list(_backwards(_names(rules)))[:_SHOWN])
    return False, f"no name of the bald eagle written backwards akshara by akshara (such as {shown})"


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@checker(
    "custom:sentence_alphabet",
    category=CUSTOM, table_row=269, fixed_only=True, suite=SUITE, conflicts=all_but(),
    requires=requires_lists("custom:sentence_alphabet", "sentence_alphabet"),
)
def sentence_alphabet(view: TextView, args: dict, rules: Rules):
    letters = _LETTERS if rules.ifeval else tuple(word_list(rules, "sentence_alphabet"))
    found = sentences(view, rules)
    if len(found) != len(letters):
        return False, f"{len(found)} sentences, needed exactly {len(letters)} (one per letter)"
    for i, (sentence, letter) in enumerate(zip(found, letters)):
        if rules.ifeval:  # the reference: the first whitespace word's first character, lower-cased
            first = sentence.split(maxsplit=1)[0] if sentence.strip() else ""
            initial = first.lower()[:1]
        else:
            first_words = words(sentence[:200]) or words(sentence)
            first = first_words[0] if first_words else ""
            initial, letter = base_letter(first), base_letter(letter)
        if initial != letter:
            return False, f"sentence {i + 1} begins with {first!r}, needed a word beginning with {letter!r}"
    return True, f"{len(found)} sentences, beginning with the letters in order"

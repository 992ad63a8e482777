"""A profile's numerals, units and romanised words (``numerals``, ``units``, ``romanized`` in
its JSON): the data the instructions beyond the paper read (``numbers:*``, ``units:*``,
``language:romanized``). Symbols every language shares are in ``units.json``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import repeat
from typing import TypeGuard


@dataclass(frozen=True)
class Numerals:
    digits: str  # the script's own digits 0-9 ("" where the language writes ASCII digits only)
    words: dict[str, int]  # a number word, as the profile writes it -> its value
    suffixes: tuple[str, ...]  # endings that keep a number word one (हज़ारों)
    lakh_crore: frozenset[str]  # the Indian system's scale words
    million_billion: frozenset[str]  # the international system's
    after_number: frozenset[str] = frozenset()  # scale words with another sense (अरब: Arabia), only after a number


@dataclass(frozen=True)
class Units:
    metric: frozenset[str]
    imperial: frozenset[str]
    after_number: frozenset[str] = frozenset()  # of these, the words with another sense (ग्राम: village)


@dataclass(frozen=True)
class Symbols:
    metric: frozenset[str]
    imperial: frozenset[str]
    after_number: frozenset[str]  # unit words (case-folded) with another sense: units only after a number


@dataclass(frozen=True)
class Romanized:
    words: frozenset[str]  # frequent words as typed in Latin letters (lower case)
    texts: tuple[str, ...] = ()  # sentences in the language's own script: more training text for the model
    # how people spell the language's letters beyond the common informal spellings (text.romanize):
    # a consonant's name (KH, SS; "NG K" a cluster; "@" the inherent vowel) -> the spellings, space-separated
    spellings: dict[str, str] = field(default_factory=dict)


def single_words(value: object) -> TypeGuard[list[str]]:
    """Whether ``value`` is a list of non-empty strings without white space (checked on the
    words joined: every profile is read at start-up, and they hold tens of thousands)."""
    if not isinstance(value, list) or not all(map(isinstance, value, repeat(str))) or not all(value):
        return False
    joined = "".join(value)
    return not joined or joined.split() == [joined]


def _word_list(data: dict, key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not single_words(value):
        raise ValueError(f"{where}.{key} is a list of words (no spaces)")
    return tuple(value)


def numerals_from_json(data: dict | None) -> Numerals | None:
    """(The text layer matches the words by the scorer's match key.)"""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("numerals is an object")
    digits = data.get("digits", "")
    if not isinstance(digits, str) or (digits and (len(digits) != 10 or not all(c.isdecimal() for c in digits)
                                                   or [int(c) for c in digits] != list(range(10)))):
        raise ValueError("numerals.digits is the ten digits 0-9 of the script, in order")
    words: dict[str, int] = {}
    raw = data.get("words", {})
    if not isinstance(raw, dict):
        raise ValueError('numerals.words is {"value": ["word", ...]}')
    for value in raw:
        if not value.isdigit():
            raise ValueError(f"numerals.words: {value!r} is not a whole number")
        for form in _word_list(raw, value, "numerals.words"):
            words[form] = int(value)
    return Numerals(digits, words, _word_list(data, "suffixes", "numerals"),
                    frozenset(_word_list(data, "lakh_crore", "numerals")),
                    frozenset(_word_list(data, "million_billion", "numerals")),
                    frozenset(_word_list(data, "after_number", "numerals")))


def units_from_json(data: dict | None) -> Units | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("units is an object")
    units = Units(frozenset(_word_list(data, "metric", "units")), frozenset(_word_list(data, "imperial", "units")),
                  frozenset(_word_list(data, "after_number", "units")))
    stray = units.after_number - units.metric - units.imperial
    if stray:
        raise ValueError(f"units.after_number: {sorted(stray)[0]!r} is not one of the unit words")
    return units


def romanized_from_json(data: dict | None) -> Romanized | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("romanized is an object")
    words = _word_list(data, "words", "romanized")
    if not all(w.isascii() and w.isalpha() and w.islower() for w in words):
        raise ValueError("romanized.words are lower-case Latin letters")
    texts = data.get("texts", [])
    if not isinstance(texts, list) or not all(isinstance(t, str) and t.strip() for t in texts):
        raise ValueError("romanized.texts is a list of sentences")
    spellings = data.get("spellings", {})
    if not isinstance(spellings, dict) or not all(
            isinstance(k, str) and (k == "@" or k.replace(" ", "").isalpha() and k.isupper()) and isinstance(v, str)
            and v.split(" ") == v.split() and all(o.isascii() and o.isalpha() and o.islower() for o in v.split())
            for k, v in spellings.items()):
        raise ValueError('romanized.spellings is {"KH": "kh k", ...}: letter names (upper case, "@" the inherent '
                         "vowel) to lower-case Latin spellings separated by single spaces")
    return Romanized(frozenset(words), tuple(texts), dict(spellings))


@cache
def unit_symbols() -> Symbols:
    """The symbols every language shares (km, kg, °C; mi, lb, °F), as written (case matters:
    mL and ml, but not M), and the unit words that count only after a number."""
    data = json.loads(resources.files("indicifeval.languages").joinpath("units.json").read_text(encoding="utf-8"))
    return Symbols(frozenset(data["metric"]), frozenset(data["imperial"]),
                   frozenset(w.casefold() for w in data["after_number"]))

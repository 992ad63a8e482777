"""Numbers, units and romanised words in an answer, for the instructions beyond the paper.

Rules (docs/scoring.md): a number written in digits is a run of decimal digits of any script
with ``,`` (or the Arabic ``٬``) between digit groups and ``.`` (or ``٫``) before a decimal
part; its groups are Indian (``12,34,567``: threes at the end, twos before), international
(``1,234,567``), either (``12,345``) or neither (``1,2,3``, read as a list). A number word is a
word of the profile's ``numerals.words``, or one of them followed by one of its
``numerals.suffixes`` (हज़ारों). A unit is a unit word of the profile or of English (case-folded), or
with one of those suffixes, or a symbol as written (units.json's ``km``, ``°C``, ``mi``, ``°F``,
or a profile's unit that is not one word, ``कि.मी.``) right after a number (digits or a number
word, with nothing but spaces or a hyphen between); a unit word with another sense (units.json's
and a profile's ``after_number``: ``foot``, ``pound``, ``ग्राम``) counts only after a number too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

import regex

from indicifeval.core.caches import bounded_cache
from indicifeval.languages import get_profile
from indicifeval.languages.numerals import unit_symbols
from indicifeval.languages.profile import on_reload

_NUMBER = r"\p{Nd}+(?:[,\u066c]\p{Nd}+)*(?:[.\u066b]\p{Nd}+)?"
_NUMBERS = regex.compile(_NUMBER)  # the same numbers: a word never holds a digit
_JOINERS = str.maketrans("", "", "\u200c\u200d")
_WORD = regex.compile(r"[\p{L}\p{M}\u200c\u200d]+")
_AMOUNTS = regex.compile(r"(?:\p{Sc}|\bRs\.?|\bINR)[ \u00a0]?(?=\p{Nd})")  # the same, ending at a number
ASCII_DIGITS = "0123456789"
# The readings of the last few texts (a row's answer and its loose variants), within 8M
# characters of them: a million-character answer of "1 " is half a million numbers (about 50 MB)
_recent = bounded_cache(maxsize=16, max_chars=8 * 2**20)
_LONGEST = 18  # digits whose value is read; a longer run counts as 10**18


class Number(NamedTuple):  # (a tuple: made for every number of every answer, at a third of a dataclass's cost)
    text: str  # as written
    value: int  # its whole part (10**18 for a longer run of digits)
    grouping: str  # "none", "indian", "international", "either", "neither"
    start: int
    end: int


class Word(NamedTuple):
    text: str  # as written
    key: str  # case-folded, joiners removed
    start: int
    end: int


def word_key(word: str) -> str:
    return word.translate(_JOINERS).casefold()


def _grouping(whole: str) -> str:
    groups = whole.replace("\u066c", ",").split(",")
    if len(groups) == 1:
        return "none"
    tail_ok = len(groups[-1]) == 3
    indian = tail_ok and 1 <= len(groups[0]) <= 2 and all(len(g) == 2 for g in groups[1:-1])
    international = tail_ok and 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:-1])
    if indian and international:
        return "either"
    return "indian" if indian else "international" if international else "neither"


def tokens(text: str) -> tuple[tuple[Number, ...], tuple[Word, ...]]:
    """The numbers in digits and the words of an NFC text, in order, each kept for the last
    few texts: a row's instructions, the scale words and the units all read the same answer's.
    (Numbers and words are scanned apart: no character is in both, so the tokens are those
    of one scan for either.)"""
    return numbers_in(text), words_in(text)


@_recent
def words_in(text: str) -> tuple[Word, ...]:
    keys: dict[str, str] = {}  # a word written again is keyed once
    words: list[Word] = []
    for m in _WORD.finditer(text):
        w = m.group()
        key = keys.get(w)
        if key is None:
            key = keys[w] = word_key(w)
        words.append(Word(w, key, *m.span()))
    return tuple(words)


@_recent
def numbers_in(text: str) -> tuple[Number, ...]:
    """``tokens(text)[0]`` without the words: what the digit instructions read (a scan for
    digits, not a token for every word)."""
    numbers: list[Number] = []
    read: dict[str, tuple[int, str]] = {}
    for m in _NUMBERS.finditer(text):
        written = m.group()
        found = read.get(written)
        if found is None:
            found = read[written] = _read(written)
        numbers.append(Number(written, found[0], found[1], *m.span()))
    return tuple(numbers)


def _number(written: str, start: int, end: int) -> Number:
    return Number(written, *_read(written), start, end)


def _read(written: str) -> tuple[int, str]:
    """A number's value (its whole part) and grouping."""
    whole = written.partition(".")[0].partition("\u066b")[0]  # (one decimal mark at most)
    if "," not in whole and "\u066c" not in whole:
        digits, grouping = whole, "none"
    else:
        digits, grouping = whole.replace(",", "").replace("\u066c", ""), _grouping(whole)
    value = _value(digits) if len(digits) <= _LONGEST else 10**_LONGEST  # (no quadratic conversion)
    return value, grouping


def _value(digits: str) -> int:
    """``int`` of decimal digits of any script. The regex engine's ``\\p{Nd}`` may know digits
    this Python's Unicode tables do not (Kawi's, U+11F50-U+11F59, under Python 3.11), which
    ``int`` refuses: those are read by their place in their run of ten."""
    try:
        return int(digits)
    except ValueError:
        return int(digits.translate(_DIGIT_VALUES))


class _DigitValues(dict):
    """ord(digit) -> its value as an ASCII digit, for ``str.translate``, filled on first sight.
    Unicode assigns decimal digits only in contiguous runs of 0-9 in ascending order, so a
    digit's value is its distance from the start of its run of digits, modulo ten."""

    def __missing__(self, code: int) -> str:
        start = code
        while start > 0 and _DIGIT.fullmatch(chr(start - 1)):
            start -= 1
        value = self[code] = str((code - start) % 10)
        return value


_DIGIT = regex.compile(r"\p{Nd}")
_DIGIT_VALUES = _DigitValues()


@_recent
def distinct_words(text: str) -> dict[str, str]:
    """Each word of the text written one way -> its key (a pass in C, for the readings that
    look for a few words among many)."""
    return {w: word_key(w) for w in set(_WORD.findall(text))}


@_recent
def spelled_words(text: str, language: str) -> tuple[str, ...]:
    """The number words of the text (the language's, with its suffixes), in order."""
    numeric = {w for w, k in distinct_words(text).items() if number_word_value(k, language) is not None}
    return tuple(w for w in _WORD.findall(text) if w in numeric) if numeric else ()


@cache
def _number_words(language: str) -> tuple[dict[str, int], tuple[str, ...]]:
    numerals = get_profile(language).numerals
    if numerals is None:
        return {}, ()
    return {word_key(w): v for w, v in numerals.words.items()}, tuple(word_key(s) for s in numerals.suffixes)


@lru_cache(maxsize=1 << 16)
def number_word_value(key: str, language: str) -> int | None:
    """The value of a number word of the language (its profile's words, with a suffix), or None.
    Remembered per word: an answer's words repeat, and every suffix is tried for a word that
    is none."""
    table, suffixes = _number_words(language)
    value = table.get(key)
    if value is not None:
        return value
    for suffix in suffixes:
        if suffix and key.endswith(suffix) and len(key) > len(suffix):
            value = table.get(key[: -len(suffix)])
            if value is not None:
                return value
    return None


@cache
def scale_words(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """(lakh/crore words, million/billion words): the language's and English's."""
    out: list[set[str]] = [set(), set()]
    for code in dict.fromkeys((language, "en")):
        numerals = get_profile(code).numerals
        if numerals is not None:
            out[0] |= {word_key(w) for w in numerals.lakh_crore}
            out[1] |= {word_key(w) for w in numerals.million_billion}
    return frozenset(out[0]), frozenset(out[1])


def _split_units(entries: frozenset[str]) -> tuple[set[str], set[str]]:
    """A profile's unit entries as (words, symbols): an entry that is not one word token (कि.मी.,
    km/h) is matched as written, like a shared symbol."""
    words: set[str] = set()
    symbols: set[str] = set()
    for entry in entries:
        (words if _WORD.fullmatch(entry) else symbols).add(entry)
    return {word_key(w) for w in words}, symbols


@dataclass(frozen=True)
class _UnitTable:
    words: dict[str, str]  # a unit word, as matched -> "metric" or "imperial"
    after_number: frozenset[str]  # the words with another sense, units only after a number
    symbol: regex.Pattern[str]  # a symbol right after a number (group s<i>: systems[i])
    systems: tuple[str, ...]
    scan: regex.Pattern[str]  # every symbol of the text, each then checked to follow a number


@cache
def _units(language: str) -> _UnitTable:
    """The language's and English's unit words, the shared symbols and the profile's own."""
    words: dict[str, str] = {}
    only_after = set(unit_symbols().after_number)
    marks = {s: "metric" for s in unit_symbols().metric} | {s: "imperial" for s in unit_symbols().imperial}
    for code in dict.fromkeys((language, "en")):
        units = get_profile(code).units
        if units is None:
            continue
        only_after |= {word_key(w) for w in units.after_number}
        for system, entries in (("metric", units.metric), ("imperial", units.imperial)):
            plain, symbols = _split_units(entries)
            words |= dict.fromkeys(plain - words.keys(), system)
            marks |= dict.fromkeys(symbols, system)
    ordered = sorted(marks, key=len, reverse=True)  # longest first: km/h before km
    alternation = "|".join(f"(?P<s{i}>{regex.escape(s)})" for i, s in enumerate(ordered))
    pattern = regex.compile(rf"[ \t\u00a0-]*(?:{alternation})(?![\p{{L}}\p{{M}}\p{{Nd}}])")
    scan = regex.compile(rf"(?:{alternation})(?![\p{{L}}\p{{M}}\p{{Nd}}])")
    return _UnitTable(words, frozenset(only_after), pattern, tuple(marks[s] for s in ordered), scan)


def unit_words(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """(metric, imperial) unit words, the language's and English's, as matched."""
    words = _units(language).words
    return (frozenset(w for w, s in words.items() if s == "metric"),
            frozenset(w for w, s in words.items() if s == "imperial"))


def _with_suffixes(stems: list[str], language: str) -> dict[str, str]:
    """Every form of the stems (a stem, or a stem and one of the profile's suffixes) -> its
    stem, as reading a word would find it: the word itself first, then less each suffix in the
    profile's order, the first stem in ``stems`` order (one lookup a word, not one a suffix)."""
    forms: dict[str, tuple[int, int, str]] = {}
    suffixes = [sx for sx in _number_words(language)[1] if sx]
    for order, stem in enumerate(stems):
        for rank, form in enumerate((stem, *(stem + sx for sx in suffixes))):
            if form not in forms or (rank, order) < forms[form][:2]:
                forms[form] = (rank, order, stem)
    return {form: stem for form, (_, _, stem) in forms.items()}


@cache
def _unit_forms(language: str) -> dict[str, str]:
    return _with_suffixes(list(_units(language).words), language)


def _unit_word(key: str, table: _UnitTable, language: str) -> str | None:
    """The unit word a word is (itself, or less one of the profile's suffixes), or None."""
    return _unit_forms(language).get(key)


@cache
def _scale_only_after(language: str) -> frozenset[str]:
    numerals = get_profile(language).numerals
    return frozenset(word_key(w) for w in numerals.after_number) if numerals is not None else frozenset()


@cache
def _scale_forms(language: str) -> dict[str, tuple[str, str]]:
    lakh_crore, million_billion = scale_words(language)
    system = {w: "international" for w in million_billion} | {w: "indian" for w in lakh_crore}  # lakh first
    return {form: (system[stem], stem) for form, stem in _with_suffixes(sorted(system), language).items()}


def scale_word(key: str, language: str) -> tuple[str, str] | None:
    """("indian", stem) for a lakh/crore word, ("international", stem) for a million/billion
    word (the language's or English's, alone or with one of the profile's suffixes: बिलियनने)."""
    return _scale_forms(language).get(key)


@_recent  # both number systems read the same answer's
def scales_in(text: str, language: str) -> tuple[tuple[str, str], ...]:
    """(word as written, "indian" or "international") for every scale word of the text; one
    with another sense (the profile's ``numerals.after_number``: अरब, Arabia) only after a number."""
    forms = _scale_forms(language)
    if not any(k in forms for k in distinct_words(text).values()):
        return ()
    numbers, words = tokens(text)
    spelled = {k for k in {w.key for w in words} if number_word_value(k, language) is not None}
    ends = {n.end for n in numbers} | {w.end for w in words if w.key in spelled}
    only_after = _scale_only_after(language)
    out = []
    for w in words:
        found = forms.get(w.key)
        if found is not None and (found[1] not in only_after or _follows(text, w.start, ends)):
            out.append((w.text, found[0]))
    return tuple(out)


def _follows(text: str, start: int, ends: set[int]) -> bool:
    """Whether only spaces or a hyphen stand between one of ``ends`` and ``start``."""
    i = start
    while i > 0 and text[i - 1] in " \t\u00a0-":
        i -= 1
    return i in ends


@_recent  # both unit systems read the same answer's
def units_in(text: str, language: str) -> tuple[tuple[str, str], ...]:
    """(unit as written, "metric" or "imperial") for every unit of the text: a unit word (or one
    with a suffix of the profile's), or a symbol right after a number (so is a unit word with
    another sense: foot, pound, ग्राम)."""
    table, forms, keys = _units(language), _unit_forms(language), distinct_words(text).values()
    spelled = {k for k in keys if number_word_value(k, language) is not None}
    words = words_in(text) if spelled or any(k in forms for k in keys) else ()  # (most texts: no unit word)
    amounts = {m.end() for m in _AMOUNTS.finditer(text)}  # where an amount's number starts: $5m, ₹2 cr
    ends = {m.end() for m in _NUMBERS.finditer(text) if m.start() not in amounts}
    ends |= {w.end for w in words if w.key in spelled}
    found: dict[int, tuple[str, str]] = {}
    # A symbol right after a number: every symbol of the text, kept where only spaces or a
    # hyphen stand between it and a number (as matching at each number's end would find it, in
    # time linear in the text: no symbol starts with a space or a hyphen or holds a digit).
    for m in table.scan.finditer(text):
        if m.lastgroup is not None and _follows(text, m.start(), ends):
            found[m.start()] = (m.group(), table.systems[int(m.lastgroup[1:])])
    for w in words:
        unit = forms.get(w.key)
        if unit is not None and w.start not in found and (unit not in table.after_number or
                                                          _follows(text, w.start, ends)):
            found[w.start] = (w.text, table.words[unit])
    return tuple(found[start] for start in sorted(found))


for _table in (_number_words, number_word_value, scale_words, _units, _scale_only_after, _unit_forms, _scale_forms):
    on_reload(_table.cache_clear)
for _reading in (scales_in, units_in, spelled_words):
    on_reload(_reading.cache_clear)  # type: ignore[union-attr]

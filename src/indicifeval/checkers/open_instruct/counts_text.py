"""Text facts the counting instructions share: aksharas, a language's alphabet order, the
characters that are dots or exclamation marks, and (for English) open-instruct's own sentence
splitter, which its checks use instead of Punkt.

Aksharas: a letter in an Indic script is an akshara, never a code point, so that counting or
reversing cannot take a vowel sign or a virama away from its consonant."""

from __future__ import annotations

import re
from functools import lru_cache

import regex

from indicifeval.languages import LanguageProfile

# Viramas that join the next consonant into one akshara, with the script of that consonant.
# The regex module's \X already does so for the scripts Unicode 15.1 gives conjunct rules
# (Devanagari, Bengali, Gujarati, Oriya, Telugu, Malayalam); Kannada and Gurmukhi are joined
# here. Tamil's pulli is left out: க் is a letter of its own (a mei), not half of a conjunct.
_JOINING_VIRAMAS = {"\u0a4d": "Guru", "\u0ccd": "Knda"}
_JOIN = "|".join(f"(?<={v}\u200d?)(?=\\p{{{s}}})" for v, s in _JOINING_VIRAMAS.items())
# One akshara: grapheme clusters chained by a joining virama (optionally with ZWJ, a half
# form; ZWNJ asks for a visible virama, so it ends the akshara). \X matches one cluster and
# never backtracks into it, so this is linear; without those viramas, a cluster is an akshara.
_AKSHARA = regex.compile(f"(?:\\X(?:{_JOIN}))*\\X")
_CLUSTER = regex.compile(r"\X")
_NUKTAS = "\u093c\u09bc\u0a3c\u0abc\u0b3c\u0c3c\u0cbc"

# What the punctuation instructions forbid beyond the ASCII mark, in Indic answers: the dots
# (ellipses, the Urdu full stop, the Devanagari abbreviation sign, full-width forms) and the
# exclamation marks. The danda is a stroke, not a dot.
DOTS = ".\u2026\u2025\u2024\ufe52\uff0e\u06d4\u0970"
EXCLAMATIONS = "!\uff01\ufe57\u203c\u2049\u2048\u2757\u2755\u00a1"
HYPHENS = "-\u2010\u2011"


def aksharas(text: str) -> list[str]:
    """The aksharas (letters with their signs, conjuncts whole) and other grapheme clusters."""
    joins = any(virama in text for virama in _JOINING_VIRAMAS)
    return (_AKSHARA if joins else _CLUSTER).findall(text)


def letter_count(text: str) -> int:
    """Aksharas and other clusters that begin with a letter: Latin letters count one each."""
    return sum(1 for a in aksharas(text) if a[0].isalpha())


def count_letter(text: str, letter: str) -> int:
    """Occurrences of ``letter`` (both already normalised), not followed by a nukta: क़ is not क."""
    if not letter:
        return 0
    n = text.count(letter)
    for nukta in _NUKTAS:
        if nukta in text:
            n -= text.count(letter + nukta)
    return n


@lru_cache(maxsize=64)
def alphabet_places(profile: LanguageProfile) -> dict[str, int]:
    """Letter -> its place in the language's alphabet (``word_lists.alphabet_taught``, in order; an
    entry of several letters is one place: ا and آ, or the Gurmukhi vowels on one carrier)."""
    places: dict[str, int] = {}
    for place, entry in enumerate(profile.word_list("alphabet_taught") or ()):
        for letter in entry:
            places.setdefault(letter, place)
            places.setdefault(letter.lower(), place)
    return places


# --- open-instruct's sentence splitter (English) -------------------------------------------------
# Its counting and hyphen checks split sentences with a chain of rewrites, not Punkt: full
# stops that do not end a sentence are masked, every remaining . ? ! is marked as an end, and
# the text is cut at the marks. The same rewrites, in the same order, give the same sentences,
# odd ones included (a "." after "Mr" anywhere, ".me" as a web address); the marks are its own
# strings, so an answer that writes them is cut as it is there.
_PRD, _STOP = "<prd>", "<stop>"
_STARTERS = (r"(Mr|Mrs|Ms|Dr|Prof|Capt|Cpt|Lt|He\s|She\s|It\s|They\s|Their\s|Our\s|We\s|But\s|However\s|That\s"
             r"|This\s|Wherever)")
_REWRITES_BEFORE_DOTS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"(Mr|St|Mrs|Ms|Dr)[.]", r"\1" + _PRD),  # titles
    (r"[.](com|net|org|io|gov|edu|me)", _PRD + r"\1"),  # web addresses
    (r"([0-9])[.]([0-9])", r"\1" + _PRD + r"\2"),  # decimals
))
_DOT_RUN = re.compile(r"\.{2,}")
_REWRITES_AFTER_DOTS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"\s([A-Za-z])[.] ", r" \1" + _PRD + " "),  # an initial
    (r"([A-Z][.][A-Z][.](?:[A-Z][.])?) " + _STARTERS, r"\1" + _STOP + r" \2"),  # U.S. Then ...
    (r"([A-Za-z])[.]([A-Za-z])[.]([A-Za-z])[.]", r"\1" + _PRD + r"\2" + _PRD + r"\3" + _PRD),
    (r"([A-Za-z])[.]([A-Za-z])[.]", r"\1" + _PRD + r"\2" + _PRD),
    (r" (Inc|Ltd|Jr|Sr|Co)[.] " + _STARTERS, r" \1" + _STOP + r" \2"),
    (r" (Inc|Ltd|Jr|Sr|Co)[.]", r" \1" + _PRD),
    (r" ([A-Za-z])[.]", r" \1" + _PRD),
))
# a closing quote goes before the mark that it follows, so the mark ends the sentence after it
_QUOTE_SWAPS = ((".\u201d", "\u201d."), ('."', '".'), ('!"', '"!'), ('?"', '"?'))


def _dots(match: re.Match) -> str:
    return _PRD * len(match.group(0)) + _STOP


def reference_sentences(text: str) -> list[str]:
    """open-instruct's ``split_into_sentences``: the stripped sentences, a final empty one
    dropped (empty ones inside are kept: "Hi!!" is "Hi!" and "!")."""
    text = (" " + text + "  ").replace("\n", " ")
    for pattern, replacement in _REWRITES_BEFORE_DOTS:
        text = pattern.sub(replacement, text)
    text = _DOT_RUN.sub(_dots, text)
    text = text.replace("Ph.D.", f"Ph{_PRD}D{_PRD}")
    for pattern, replacement in _REWRITES_AFTER_DOTS:
        text = pattern.sub(replacement, text)
    for old, new in _QUOTE_SWAPS:
        text = text.replace(old, new)
    for mark in ".?!":
        text = text.replace(mark, mark + _STOP)
    pieces = [piece.strip() for piece in text.replace(_PRD, ".").split(_STOP)]
    if pieces and not pieces[-1]:
        pieces.pop()
    return pieces

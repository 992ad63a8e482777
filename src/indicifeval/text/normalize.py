"""Unicode normalisation used wherever two strings are compared."""

from __future__ import annotations

import re
import unicodedata

from indicifeval.core.caches import bounded_cache
from indicifeval.text.nfc_fast import nfc, nfc_clear  # nfc re-exported: the NFC every comparison uses

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
# Apostrophe and quote look-alikes that prompts and models use interchangeably.
_QUOTE_LOOKALIKES = {"’": "'", "‘": "'", "ʼ": "'", "`": "'", "“": '"', "”": '"'}
_REPLACEMENTS = tuple((zw, "") for zw in ZERO_WIDTH) + tuple(_QUOTE_LOOKALIKES.items())
# A '*' run and the character after it, where that character could compose with or reorder
# against the one before the run once the stars go: nothing below U+0300 ever can (every
# character there has combining class 0 and is never the second of a canonical pair).
# A run is matched from its first star only, so a long run is read once (retried from every
# star, as (?<=(.))\*+ was, it took quadratic time); backing off within it stays linear.
_STAR_JUNCTION = re.compile("(?<!\\*)\\*+(?=([^\x00-\u02ff]))")
# Cc but whitespace, surrogates (Cs) and private use (Co): ranges Unicode's stability policy fixes
# (tests/text check every code point against the categories)
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ue000-\uf8ff"
                       "\U000f0000-\U000ffffd\U00100000-\U0010fffd]")


def match_key(text: str) -> str:
    """Canonical form for literal matching: NFC, case-folded, zero-width joiners removed,
    quote look-alikes unified. ZWJ/ZWNJ only choose a glyph form, so two spellings that
    differ by them are the same word to a reader."""
    return match_key_of_nfc(nfc(text))


def match_key_of_nfc(text: str) -> str:
    """``match_key`` of a text already in NFC (skips the costly normalisation)."""
    for old, new in _REPLACEMENTS:  # str.replace is far faster than str.translate here
        if old in text:
            text = text.replace(old, new)
    return text.casefold()


def star_removal_keeps_nfc(text_nfc: str) -> bool:
    """Whether removing every '*' from ``text_nfc`` (an NFC text) leaves an NFC text, so that
    NFC(t without '*') is NFC(t) without '*'. '*' never composes, so the NFC of a text is the
    NFC of its star-free pieces side by side; joined, two pieces stay as they are unless the
    first character after a run is a combining mark or composes with the one before the run
    (it cannot compose with anything earlier: that character blocks it). The same holds for
    any cut of whole lines, whose junctions are a subset of these. (The compiled NFC check of
    the text without its stars answers first where it can.)"""
    if nfc_clear(text_nfc.replace("*", "")):
        return True
    for match in _STAR_JUNCTION.finditer(text_nfc):
        start, after = match.start(), match.group(1)
        if start == 0 and match.end() == 1:
            continue  # a lone star opening the text has nothing before it
        before = text_nfc[start - 1] if start else "*"  # (a longer opening run: its first star)
        if unicodedata.combining(after) or unicodedata.normalize("NFC", before + after) != before + after:
            return False
    return True


@bounded_cache(maxsize=8192)
def collapse(text: str) -> str:
    """``match_key`` with whitespace runs made one space: how phrases are compared."""
    return " ".join(match_key(text).split())


def strip_controls(text: str) -> str:
    """Drop control and surrogate code points (keeps whitespace) that C libraries reject."""
    return _CONTROLS.sub("", text) if _CONTROLS.search(text) else text

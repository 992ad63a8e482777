"""Unicode normalisation used wherever two strings are compared."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import regex

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
# Apostrophe and quote look-alikes that prompts and models use interchangeably.
_QUOTE_LOOKALIKES = {"’": "'", "‘": "'", "ʼ": "'", "`": "'", "“": '"', "”": '"'}
_REPLACEMENTS = tuple((zw, "") for zw in ZERO_WIDTH) + tuple(_QUOTE_LOOKALIKES.items())
_CONTROLS = regex.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cs}\p{Co}]")


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


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


@lru_cache(maxsize=8192)
def collapse(text: str) -> str:
    """``match_key`` with whitespace runs made one space: how phrases are compared."""
    return " ".join(match_key(text).split())


def strip_controls(text: str) -> str:
    """Drop control and surrogate code points (keeps whitespace) that C libraries reject."""
    return _CONTROLS.sub("", text)

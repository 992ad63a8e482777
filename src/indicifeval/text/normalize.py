"""Unicode normalisation used wherever two strings are compared."""

from __future__ import annotations

import unicodedata

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
_ZW_TABLE = str.maketrans("", "", ZERO_WIDTH)
# Apostrophe and quote look-alikes that prompts and models use interchangeably.
_QUOTE_TABLE = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "“": '"', "”": '"'})


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def match_key(text: str) -> str:
    """Canonical form for literal matching: NFC, case-folded, zero-width joiners removed,
    quote look-alikes unified. ZWJ/ZWNJ only choose a glyph form, so two spellings that
    differ by them are the same word to a reader."""
    return nfc(text).translate(_ZW_TABLE).translate(_QUOTE_TABLE).casefold()


def strip_controls(text: str) -> str:
    """Drop control and surrogate code points (keeps whitespace) that C libraries reject."""
    return "".join(
        ch for ch in text if ch in "\n\t\r " or unicodedata.category(ch) not in ("Cc", "Cs", "Co", "Cn")
    )

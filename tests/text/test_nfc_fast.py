"""nfc_fast gives exactly unicodedata's NFC, on texts built to meet every composition and
reordering around the spaces it cuts at."""

from __future__ import annotations

import sys
import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from indicifeval.text.nfc_fast import nfc


def _composition_pieces() -> list[str]:
    """Both halves of every canonical composition of the BMP's Indic and Hangul blocks, the
    composites, and marks that reorder, with spaces and newlines between."""
    out = []
    for cp in list(range(0x0900, 0x0E00)) + list(range(0x1100, 0x1200)) + list(range(0x00C0, 0x0180)):
        d = unicodedata.decomposition(chr(cp))
        if d and not d.startswith("<"):
            parts = [chr(int(x, 16)) for x in d.split()]
            out += parts + [chr(cp)]
    return out + ["\uac00", "\u11a8", "\u0301", "\u0323", "\u0345", "\u093c", "\u094d", " ", " ", "  ", "\n",
                  "\u00a0", "\u200c", "a", "*"]


PIECES = _composition_pieces()


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=30, max_size=90).map("".join))
@example("x" * 70 + " \u0301\u0bc6 \u0bbe\u0bc6\u0bbe \u0928\u093c")  # a mark after a space stays there
def test_same_as_unicodedata(text):
    assert nfc(text) == unicodedata.normalize("NFC", text)


@settings(max_examples=500, deadline=None)
@given(st.text(min_size=60, max_size=200))
def test_same_as_unicodedata_on_any_text(text):
    assert nfc(text) == unicodedata.normalize("NFC", text)


def test_the_space_composes_with_nothing():
    """What the cutting rests on, for this Python's Unicode data: U+0020 is a starter, is no
    half of any canonical composition, and is not the result of one."""
    assert unicodedata.combining(" ") == 0
    for cp in range(sys.maxunicode + 1):
        d = unicodedata.decomposition(chr(cp))
        if d and not d.startswith("<"):
            assert "0020" not in d.split()


_FILLER = ["नमस्ते ", "भारत ", "क़", "\u0958 ", "e\u0301", "\u0323\u0301", "  ", "\n", "abc ", "কি "]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_FILLER), min_size=40, max_size=120),
       st.lists(st.tuples(st.integers(0, 119), st.sampled_from(PIECES)), max_size=3))
def test_same_as_unicodedata_where_few_words_hold_a_second_half(filler, inserted):
    """Long texts with a nukta or a vowel sign here and there take the way that looks up only
    the words holding one (composed, decomposed and reordering characters around them)."""
    pieces = list(filler)
    for at, piece in inserted:
        pieces.insert(min(at, len(pieces)), piece)
    text = "".join(pieces)
    assert nfc(text) == unicodedata.normalize("NFC", text)

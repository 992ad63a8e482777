"""The shortcuts of text.numerals against the plain reading they replace: the digit scan is
the tokens' numbers, and a word's scale or unit stem looked up among its precomputed forms is
the one found by trying the word itself, then the word less each suffix in the profile's order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from indicifeval.text import numerals
from indicifeval.text.numerals import numbers_in, scale_word, scale_words, tokens

LANGUAGES = ("hi", "bn", "ta", "ur", "ml", "pa", "en")
_PIECES = ["12,34,567", "1,234,567", "१२,३४५", "٣٬٤٥٦", "3.5", "0", "km", "मील", "लाख", "करोड़ों", "मिलियनहून",
           "கிலோமீட்டர்", "மைல்களுக்கு", "ملین", "bảy", "\u200d", "abc123", "x٫5", ",", ".", " ", "\n", "-", "९"]


@st.composite
def texts(draw) -> str:
    return "".join(draw(st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=4)), max_size=30)))


@settings(max_examples=400, deadline=None)
@given(texts())
def test_the_digit_scan_finds_the_tokens_numbers(text):
    assert numbers_in(text) == tokens(text)[0]


def _plain_stem(key: str, stems: list[str] | set[str] | frozenset[str], language: str) -> str | None:
    suffixes = numerals._number_words(language)[1]
    for stem in (key, *(key[: -len(s)] for s in suffixes if s and key.endswith(s))):
        if stem in stems:
            return stem
    return None


def _forms(language: str) -> list[str]:
    """Every word built from a unit or scale stem and a suffix, and the suffixes alone."""
    suffixes = [s for s in numerals._number_words(language)[1] if s]
    stems = [*numerals._units(language).words, *scale_words(language)[0], *scale_words(language)[1]]
    return [*suffixes, *(stem + s for stem in stems for s in ("", *suffixes)), *(s + s for s in suffixes)]


def test_unit_and_scale_words_are_found_as_before():
    for language in LANGUAGES:
        table = numerals._units(language)
        lakh_crore, million_billion = scale_words(language)
        for key in _forms(language):
            assert numerals._unit_word(key, table, language) == _plain_stem(key, set(table.words), language), key
            suffixes = numerals._number_words(language)[1]
            expected = None
            for stem in (key, *(key[: -len(s)] for s in suffixes if s and key.endswith(s))):
                if stem in lakh_crore:
                    expected = ("indian", stem)
                    break
                if stem in million_billion:
                    expected = ("international", stem)
                    break
            assert scale_word(key, language) == expected, (language, key)

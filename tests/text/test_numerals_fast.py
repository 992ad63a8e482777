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


# The one-scan reading the linear one replaced (issue 35): every token in one scan, a currency
# searched for before each number, a symbol matched at each number's end.
_ONE_SCAN = numerals.regex.compile(rf"(?P<num>{numerals._NUMBER})|(?P<word>[\p{{L}}\p{{M}}\u200c\u200d]+)")
_CURRENCY = numerals.regex.compile(r"(?:\p{Sc}|\bRs\.?|\bINR)[ \u00a0]?\Z")


def _plain_tokens(text: str) -> tuple[list, list]:
    numbers, words = [], []
    for m in _ONE_SCAN.finditer(text):
        if m.group("num") is not None:
            numbers.append(numerals._number(m.group("num"), *m.span()))
        else:
            words.append(numerals.Word(m.group("word"), numerals.word_key(m.group("word")), *m.span()))
    return numbers, words


def _plain_units(text: str, language: str) -> tuple[tuple[str, str], ...]:
    numbers, words = _plain_tokens(text)
    table = numerals._units(language)
    money = [n.end for n in numbers if _CURRENCY.search(text, max(0, n.start - 5), n.start)]
    number_ends = [n.end for n in numbers if n.end not in money]
    number_ends += [w.end for w in words if numerals.number_word_value(w.key, language) is not None]
    found: dict[int, tuple[str, str]] = {}
    for end in number_ends:
        m = table.symbol.match(text, end)
        if m is not None and m.lastgroup is not None:
            found[m.start(m.lastgroup)] = (m.group(m.lastgroup), table.systems[int(m.lastgroup[1:])])
    for w in words:
        unit = None if w.start in found else numerals._unit_word(w.key, table, language)
        if unit is not None and (unit not in table.after_number or numerals._follows(text, w.start, set(number_ends))):
            found[w.start] = (w.text, table.words[unit])
    return tuple(found[start] for start in sorted(found))


_AMOUNT_PIECES = ["$", "₹", "Rs", "Rs.", "INR", "\u00a0", "5", "1,00,000", "km", "mi", "km/h", "sq ft", "°C", "° F",
                  "कि.मी.", "foot", "pound", "ग्राम", "दस", "लाख", "अरब", "five", "x", "-", " ", "\t", "m", "²"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_AMOUNT_PIECES + _PIECES), st.text(max_size=3)), max_size=30),
       st.sampled_from(LANGUAGES))
def test_the_linear_reading_is_the_one_scan_reading(pieces, language):
    text = "".join(pieces)
    assert tokens(text) == tuple(map(tuple, _plain_tokens(text)))
    assert numerals.units_in(text, language) == _plain_units(text, language)
    numbers, words = _plain_tokens(text)
    assert numerals.spelled_words(text, language) == tuple(
        w.text for w in words if numerals.number_word_value(w.key, language) is not None)
    ends = {n.end for n in numbers} | {w.end for w in words if numerals.number_word_value(w.key, language) is not None}
    only_after = numerals._scale_only_after(language)
    assert numerals.scales_in(text, language) == tuple(
        (w.text, found[0]) for w in words if (found := scale_word(w.key, language)) is not None and
        (found[1] not in only_after or numerals._follows(text, w.start, ends)))


def test_no_unit_symbol_starts_with_a_space_or_hyphen_or_holds_a_digit():
    """What finding every symbol and then checking it follows a number relies on."""
    for language in LANGUAGES:
        pattern = numerals._units(language).scan.pattern
        symbols = numerals.regex.findall(r"\(\?P<s\d+>((?:\\.|[^)])*)\)", pattern)
        assert len(symbols) == len(numerals._units(language).systems) > 20
        for symbol in symbols:
            plain = numerals.regex.sub(r"\\(.)", r"\1", symbol)
            assert plain[0] not in " \t\u00a0-" and not numerals.regex.search(r"\p{Nd}", plain), plain


def test_digits_newer_than_pythons_unicode_tables_are_read():
    """The regex engine's \\p{Nd} knows digits int() may not (Kawi's, U+11F50-U+11F59, under
    Python 3.11): they are read by their place in their run of ten, the rule that gives
    unicodedata's value for every digit both know, and no number makes the reading raise."""
    import unicodedata

    import regex

    digit = regex.compile(r"\p{Nd}")
    table = numerals._DigitValues()
    wrong = [hex(cp) for cp in range(0x110000) if digit.fullmatch(chr(cp))
             and unicodedata.decimal(chr(cp), None) not in (None, int(table[cp]))]
    assert wrong == []
    kawi = "\U00011f51\U00011f50,\U00011f52\U00011f53\U00011f54"
    found = numbers_in(f"{kawi} and \U00011f59")
    assert [(n.value, n.grouping) for n in found] == [(10234, "either"), (9, "none")]

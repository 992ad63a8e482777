"""Fixed mode: an answer in NFD gets the verdicts of its NFC form, for every instruction id and
every Indic language (strict and loose). Canonically equivalent texts are the same text to a
reader; the kwargs (a prompt's words) are in NFC, as the dataset has them."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from indicifeval.checkers import INSTRUCTION_IDS, REGISTRY, get_rules
from indicifeval.languages import list_languages
from indicifeval.scoring.engine import score_row
from tests.conftest import make_row

INDIC = [c for c in list_languages() if c != "en"]

# Indic letters that NFD decomposes and NFC composes again (ো = ে + া, ொ = ெ + ா, ऩ = न + ़ ...).
COMPOSABLE = [chr(c) for c in range(0x0900, 0x0E00)
              if unicodedata.decomposition(chr(c)) and not unicodedata.decomposition(chr(c)).startswith("<")
              and unicodedata.normalize("NFC", unicodedata.normalize("NFD", chr(c))) == chr(c)]

# kwargs written with such letters, so that literal comparisons meet them.
KWARGS = {
    "keywords:existence": {"keywords": ["বোন", "ମୋ"]},
    "keywords:frequency": {"keyword": "கொ", "frequency": 2},
    "keywords:forbidden_words": {"forbidden_words": ["കൊ", "ಕೊ"]},
    "keywords:letter_frequency": {"letter": "ো", "let_frequency": 2, "let_relation": "at least"},
    "language:response_language": {"language": "en"},
    "length_constraints:number_sentences": {"num_sentences": 2, "relation": "at least"},
    "length_constraints:number_paragraphs": {"num_paragraphs": 2},
    "length_constraints:number_words": {"num_words": 6, "relation": "less than"},
    "length_constraints:nth_paragraph_first_word": {"first_word": "বোন", "nth_paragraph": 1, "num_paragraphs": 2},
    "detectable_content:number_placeholders": {"num_placeholders": 1},
    "detectable_content:postscript": {"postscript_marker": "ମୋ"},
    "detectable_format:number_bullet_lists": {"num_bullets": 2},
    "detectable_format:constrained_response": {},
    "detectable_format:number_highlighted_sections": {"num_highlights": 1},
    "detectable_format:multiple_sections": {"section_spliter": "কো", "num_sections": 2},
    "detectable_format:json_format": {},
    "detectable_format:title": {},
    "combination:two_responses": {},
    "combination:repeat_prompt": {"prompt_to_repeat": "বোন ମୋ"},
    "startend:end_checker": {"end_phrase": "கொ"},
    "change_case:capital_word_frequency": {"capital_frequency": 2, "capital_relation": "at least"},
    "change_case:english_capital": {},
    "change_case:english_lowercase": {},
    "punctuation:no_comma": {},
    "startend:quotation": {},
    # beyond the paper (no kwargs)
    "numbers:native_digits": {},
    "numbers:ascii_digits": {},
    "numbers:spelled_out": {},
    "numbers:indian_system": {},
    "numbers:international_system": {},
    "units:metric": {},
    "units:imperial": {},
    "language:romanized": {},
    # IFBench's words:*, with keywords whose vowel signs decompose
    "words:alphabet": {},
    "words:vowel": {},
    "words:consonants": {},
    "words:palindrome": {},
    "words:prime_lengths": {},
    "words:start_verb": {},
    "words:repeats": {"small_n": 1},
    "words:odd_even_syllables": {},
    "words:last_first": {},
    "words:paragraph_last_first": {},
    "words:no_consecutive": {},
    "words:keywords_specific_position": {"keyword": "কো", "n": 1, "m": 1},
    "words:words_position": {"keyword": "கொ"},
    # IFBench format:* (fixed mode; title_case only where the script has capital letters)
    "format:emoji": {},
    "format:line_indent": {},
    "format:newline": {},
    "format:no_bullets_bullets": {},
    "format:no_whitespace": {},
    "format:output_template": {},
    "format:parentheses": {},
    "format:quote_unquote": {},
    "format:quotes": {},
    "format:sub-bullets": {},
    "format:thesis": {},
    "format:title_case": {},
    "format:list": {"sep": "কো"},
    "format:options": {"options": "বোন/ମୋ"},
    # IFBench's count:, ratio: and repeat: ids
    **{iid: kwargs for iid, kwargs in [
        ("count:word_count_range", {"min_words": 2, "max_words": 6}),
        ("count:unique_word_count", {"N": 3}),
        ("count:conjunctions", {"small_n": 1}),
        ("count:person_names", {"N": 1}),
        ("count:pronouns", {"N": 1}),
        ("count:numbers", {"N": 1}),
        ("count:punctuation", {}),
        ("count:keywords_multiple", {"keyword1": "বোন", "keyword2": "ମୋ", "keyword3": "கொ", "keyword4": "কো",
                                     "keyword5": "Hello"}),
        ("count:words_japanese", {"N": 2}),
        ("ratio:stop_words", {"percentage": 30}),
        ("ratio:sentence_type", {}),
        ("ratio:sentence_balance", {}),
        ("ratio:sentence_words", {}),
        ("ratio:overlap", {"reference_text": "বোন ମୋ কো 1 கொ", "percentage": 40}),
        ("repeat:repeat_change", {"prompt_to_repeat": "বোন ମୋ কো"}),
        ("repeat:repeat_simple", {}),
        ("repeat:repeat_span", {"prompt_to_repeat": "Hello বোন ମୋ কো 1", "n_start": 1, "n_end": 2}),
    ]},
    # open-instruct's (counts)
    "keywords:no_adjacent_consecutive": {},
    "keywords:word_once": {"keyword": "বোন"},
    "keywords:word_count_different_numbers": {"keyword": "கொ", "frequency": 2, "relation": "at least"},
    "keywords:exclude_word_harder": {"keyword": "ମୋ"},
    "keywords:palindrome": {},
    "letters:letter_counting": {"N": 4, "relation": "at least"},
    "letters:letter_counting2": {"letter": "ো", "let_frequency": 2, "let_relation": "at least"},
    "count:lowercase_counting": {"N": 2},
    "count:counting_composition": {"n_sent": 1, "n_words": 2},
    "count:count_unique": {},
    "count:count_increment_word": {"keyword1": "বোন", "keyword2": "ମୋ"},
    "punctuation:punctuation_dot": {},
    "punctuation:punctuation_exclamation": {},
    "detectable_format:sentence_hyphens": {},
    "detectable_format:square_brackets": {},
    # IFBench, custom part (fixed mode)
    "custom:character_reverse": {},
    "custom:csv_city": {},
    "custom:csv_quotes": {},
    "custom:csv_special_character": {},
    "custom:date_format_list": {},
    "custom:european_capitals_sort": {},
    "custom:mcq_count_length": {},
    "custom:multiples": {},
    "custom:reverse_newline": {},
    "custom:sentence_alphabet": {},
    "custom:word_reverse": {},
    "sentence:alliteration_increment": {},
    "sentence:increment": {"small_n": 2},
    "sentence:keyword": {"word": "বোন", "N": 2},
}
# (open-instruct's and IFBench's ids have NFC/NFD tests of their own, per part)
# every IFEval and beyond-the-paper id, and the other suites' ids their parts list here
assert {iid for iid in INSTRUCTION_IDS if REGISTRY[iid].suite in ("ifeval", "beyond")} <= set(KWARGS)
assert set(KWARGS) <= set(INSTRUCTION_IDS)

# Latin (with precomposed accents), Indic letters with vowel signs, symbols that decompose
# (≠ is = and a combining mark), punctuation, newlines, markdown.
PIECES = (COMPOSABLE + list("कखমকনরসতািীুেৈোৌংঃঁ়্।॥ਕਿੱਤਾகிழ்ைகொକୋମ") + list("abcXYZ ÉéÅñ") + ["\u2260", "Hello"]
          + list("\n\n *-•#\"“”'’,.?!:[]<>{}0123") + ["***", "******", "ମୋ", "বোন", "কো 1", "P.S.", "<<", ">>"])
answers = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def verdicts(iid: str, text: str, language: str) -> tuple[list[bool], list[bool]]:
    s = score_row(make_row(iid, KWARGS[iid], language), text, "fixed")
    return s.strict, s.loose


@pytest.mark.parametrize("iid", list(KWARGS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=answers)
@example(text="Hello ab ମୋକ")
@example(text="ऀऀொ")
@example(text="≠বোন কথা\n\nদ্বিতীয়")
@example(text="কো 1\nপ্রথম\nকো 2\nদ্বিতীয়")
@example(text="বোন ≠ ≠ ≠ ≠ ≠ ମୋ")
def test_nfd_answers_get_the_nfc_verdicts(iid, text):
    composed, decomposed = unicodedata.normalize("NFC", text), unicodedata.normalize("NFD", text)
    for language in INDIC:
        if REGISTRY[iid].unavailable(get_rules(language, "trans", "fixed").profile, False) is not None:
            continue  # a language whose profile lacks the instruction's data
        assert verdicts(iid, decomposed, language) == verdicts(iid, composed, language), language


@pytest.mark.parametrize(
    "iid,text,language",
    [
        ("language:response_language", "Hello ab ମୋକ", "or"),
        ("length_constraints:number_words", "বোন ≠ ≠ ≠ ≠ ≠ ମୋ", "bn"),
        ("length_constraints:nth_paragraph_first_word", "≠বোন কথা\n\nদ্বিতীয়", "bn"),
        ("detectable_format:multiple_sections", "কো 1\nপ্রথম\nকো 2\nদ্বিতীয়", "bn"),
    ],
)
def test_found_by_fuzzing(iid, text, language):
    assert verdicts(iid, unicodedata.normalize("NFD", text), language) == verdicts(iid, text, language)


@settings(max_examples=500, deadline=None)
@given(text=st.lists(st.sampled_from(PIECES + ["\u0301", "\u093c", "e*\u0301", "\u2000", "\u2001", " \n", "\n\u0301"]),
                     max_size=30).map("".join))
@example(text="e*\u0301\nx")
@example(text="\u2000a\u0301\n\u2001")
def test_a_variant_cut_from_the_nfc_form_is_the_nfc_of_the_variant(text):
    # TextView.nfc of a loose variant cuts the response's NFC unless '*' goes (see its docstring)
    from indicifeval.text.normalize import star_removal_keeps_nfc
    from indicifeval.text.variants import LOOSE_CUTS

    whole = unicodedata.normalize("NFC", text)
    for cut in LOOSE_CUTS:
        if cut.no_star and "*" in text and not star_removal_keeps_nfc(whole):
            continue
        assert cut.apply(whole) == unicodedata.normalize("NFC", cut.apply(text)), cut


STAR_PIECES = ["*", "**", "\n*", "*\n", " ", "e", "a", "\u0301", "\u0323", "\u093c", "\u0928", "\u0bc6", "\u0bbe",
               "\u0bca", "\u09c7", "\u09be", "\u1100", "\u1161", "\uac00", "\u11a8", "\u0915", "\u094d", "\u200d",
               "\u0b47", "\u0b3e", "\u0cbf", "\u0cd5", "\u0d46", "\u0d3e", "\u0338", "=", "x"]


@settings(max_examples=1500, deadline=None)
@given(text=st.lists(st.sampled_from(STAR_PIECES), max_size=25).map("".join))
@example(text="\u0bc6*\u0bbe")  # Tamil e, star, aa: together they are o
@example(text="e**\u0301")
@example(text="\u1100*\u1161")  # Hangul L and V
@example(text="\uac00*\u11a8")  # Hangul LV and T
@example(text="\u0928*\u093c")  # na, star, nukta
def test_every_variant_of_the_view_is_the_nfc_of_the_variant(text):
    """However a loose variant's NFC is obtained (cut from the response's or computed), it is
    the NFC of the variant's own text, stars or not."""
    from indicifeval.checkers import TextView, get_rules
    from indicifeval.text.variants import LOOSE_CUTS

    rules = get_rules("ta", "trans", "fixed")
    base = TextView(text, rules)
    for cut in LOOSE_CUTS:
        view = TextView(cut.apply(text), rules, base, cut)
        assert view.nfc == unicodedata.normalize("NFC", cut.apply(text)), (cut, text)

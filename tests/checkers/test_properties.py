"""Properties every checker must have, on arbitrary Unicode (hypothesis)."""

import unicodedata

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from indicifeval.checkers import INSTRUCTION_IDS, REGISTRY, get_rules
from indicifeval.languages import list_languages
from indicifeval.scoring.engine import score_row
from tests.conftest import make_row

# One representative kwargs set per instruction id, in a mix of scripts.
KWARGS = {
    "keywords:existence": {"keywords": ["किताब", "বই"]},
    "keywords:frequency": {"keyword": "மழை", "frequency": 2},
    "keywords:forbidden_words": {"forbidden_words": ["ਘਰ", "کتاب"]},
    "keywords:letter_frequency": {"letter": "ओ", "let_frequency": 2, "let_relation": "at least"},
    "language:response_language": {"language": "hi"},
    "length_constraints:number_sentences": {"num_sentences": 3, "relation": "at least"},
    "length_constraints:number_paragraphs": {"num_paragraphs": 2},
    "length_constraints:number_words": {"num_words": 10, "relation": "less than"},
    "length_constraints:nth_paragraph_first_word": {"first_word": "नमस्ते", "nth_paragraph": 1, "num_paragraphs": 2},
    "detectable_content:number_placeholders": {"num_placeholders": 1},
    "detectable_content:postscript": {"postscript_marker": "पुनश्च"},
    "detectable_format:number_bullet_lists": {"num_bullets": 2},
    "detectable_format:constrained_response": {},
    "detectable_format:number_highlighted_sections": {"num_highlights": 1},
    "detectable_format:multiple_sections": {"section_spliter": "खंड", "num_sections": 2},
    "detectable_format:json_format": {},
    "detectable_format:title": {},
    "combination:two_responses": {},
    "combination:repeat_prompt": {"prompt_to_repeat": "यह दोहराएँ"},
    "startend:end_checker": {"end_phrase": "धन्यवाद"},
    "change_case:capital_word_frequency": {"capital_frequency": 1, "capital_relation": "at least"},
    "change_case:english_capital": {},
    "change_case:english_lowercase": {},
    "punctuation:no_comma": {},
    "startend:quotation": {},
    # beyond the paper: fixed mode, languages whose profiles have the data
    "numbers:native_digits": {},
    "numbers:ascii_digits": {},
    "numbers:spelled_out": {},
    "numbers:indian_system": {},
    "numbers:international_system": {},
    "units:metric": {},
    "units:imperial": {},
    "language:romanized": {},
    # IFBench's words:* (fixed mode; where the language's profile defines them)
    "words:alphabet": {},
    "words:vowel": {},
    "words:consonants": {},
    "words:palindrome": {},
    "words:prime_lengths": {},
    "words:start_verb": {},
    "words:repeats": {"small_n": 2},
    "words:odd_even_syllables": {},
    "words:last_first": {},
    "words:paragraph_last_first": {},
    "words:no_consecutive": {},
    "words:keywords_specific_position": {"keyword": "नमस्ते", "n": 2, "m": 1},
    "words:words_position": {"keyword": "நமஸ்தே"},
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
    "format:list": {"sep": "..."},
    "format:options": {"options": "हाँ/नहीं/शायद"},
    # IFBench's count:, ratio: and repeat: ids
    **{iid: kwargs for iid, kwargs in [
        ("count:word_count_range", {"min_words": 3, "max_words": 9}),
        ("count:unique_word_count", {"N": 3}),
        ("count:conjunctions", {"small_n": 2}),
        ("count:person_names", {"N": 1}),
        ("count:pronouns", {"N": 2}),
        ("count:numbers", {"N": 2}),
        ("count:punctuation", {}),
        ("count:keywords_multiple", {"keyword1": "नमस्ते", "keyword2": "खंड", "keyword3": "a", "keyword4": "ক্ষ",
                                     "keyword5": "1"}),
        ("count:words_japanese", {"N": 2}),
        ("ratio:stop_words", {"percentage": 40}),
        ("ratio:sentence_type", {}),
        ("ratio:sentence_balance", {}),
        ("ratio:sentence_words", {}),
        ("ratio:overlap", {"reference_text": "नमस्ते दुनिया। Hello world.", "percentage": 50}),
        ("repeat:repeat_change", {"prompt_to_repeat": "नमस्ते खंड 1 लिखो।"}),
        ("repeat:repeat_simple", {}),
        ("repeat:repeat_span", {"prompt_to_repeat": "नमस्ते खंड 1 लिखो।", "n_start": 1, "n_end": 2}),
    ]},
    # open-instruct's (counts): fixed mode; lowercase_counting in English only
    "keywords:no_adjacent_consecutive": {},
    "keywords:word_once": {"keyword": "किताब"},
    "keywords:word_count_different_numbers": {"keyword": "মাছ", "frequency": 2, "relation": "at least"},
    "keywords:exclude_word_harder": {"keyword": "ਘਰ"},
    "keywords:palindrome": {},
    "letters:letter_counting": {"N": 5, "relation": "at least"},
    "letters:letter_counting2": {"letter": "क", "let_frequency": 2, "let_relation": "less than"},
    "count:lowercase_counting": {"N": 2},
    "count:counting_composition": {"n_sent": 2, "n_words": 3},
    "count:count_unique": {},
    "count:count_increment_word": {"keyword1": "நீர்", "keyword2": "کتاب"},
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
    "sentence:keyword": {"word": "किताब", "N": 2},
}
# (open-instruct's and IFBench's ids have property tests of their own, per part)
# every IFEval and beyond-the-paper id, and the other suites' ids their parts list here
assert {iid for iid in INSTRUCTION_IDS if REGISTRY[iid].suite in ("ifeval", "beyond")} <= set(KWARGS)
assert set(KWARGS) <= set(INSTRUCTION_IDS)
IDS = list(KWARGS)

# Text biased towards the characters that break scorers: Indic letters and marks, dandas,
# Urdu punctuation, markdown, newlines, quotes, digits; plus anything at all.
PIECES = list("अकखगिीुूेैोौंःँ़्।॥ক্ষািৰৱ০১ਕਿੱਤਾகிழ்ைொ۔؟،ابپ\n\n *-•#\"“”'’,.?!:[]<>{}0123456789\u200c\u200d")
text = st.one_of(
    st.text(),
    st.lists(st.sampled_from(PIECES + ["***", "******", "पुनश्च", "खंड 1", "नमस्ते", "```json"]), max_size=60).map("".join),
)
LANGS = list_languages()

fast = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _score(response, iid, lang, mode):
    rules = get_rules(lang, "trans", mode)
    assume(REGISTRY[iid].unavailable(rules.profile, rules.paper) is None)  # (an error naming the row: tests/scoring)
    return score_row(make_row(iid, KWARGS[iid], lang), response, mode)


@fast
@given(response=text, iid=st.sampled_from(IDS), lang=st.sampled_from(LANGS), mode=st.sampled_from(["fixed", "paper"]))
def test_never_raises_and_explains(response, iid, lang, mode):
    s = _score(response, iid, lang, mode)
    assert isinstance(s.strict[0], bool) and isinstance(s.loose[0], bool)
    assert s.explanations[0] and "checker error" not in s.explanations[0]


@fast
@given(response=text, iid=st.sampled_from(IDS), lang=st.sampled_from(LANGS))
def test_loose_at_least_strict_in_fixed_mode(response, iid, lang):
    s = _score(response, iid, lang, "fixed")
    assert s.loose[0] or not s.strict[0]


@fast
@given(response=text, iid=st.sampled_from(IDS), lang=st.sampled_from(LANGS), mode=st.sampled_from(["fixed", "paper"]))
def test_same_verdict_twice(response, iid, lang, mode):
    a = _score(response, iid, lang, mode)
    b = _score(response, iid, lang, mode)
    assert (a.strict, a.loose, a.explanations) == (b.strict, b.loose, b.explanations)


@fast
@given(response=text, iid=st.sampled_from(IDS), lang=st.sampled_from([c for c in LANGS if c != "en"]))
def test_nfc_and_nfd_agree_in_fixed_mode(response, iid, lang):
    nfc = unicodedata.normalize("NFC", response)
    nfd = unicodedata.normalize("NFD", response)
    a = _score(nfc, iid, lang, "fixed")
    b = _score(nfd, iid, lang, "fixed")
    assert (a.strict, a.loose) == (b.strict, b.loose)

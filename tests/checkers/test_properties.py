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
assert set(KWARGS) == set(INSTRUCTION_IDS)
IDS = list(INSTRUCTION_IDS)

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

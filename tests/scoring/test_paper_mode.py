"""Paper mode reproduces each behaviour of authors-scorer-behaviour.md §1–3 (one test each)."""

import pytest

from indicifeval.scoring.engine import score_row
from tests.conftest import make_row, strict, verdict


def paper(iid, response, kwargs=None, lang="hi", subset="trans", key=1):
    return strict(iid, response, kwargs, lang, subset, mode="paper", key=key)


# §1.3 / §1.5 — strict needs a non-blank response
def test_blank_response_fails_everything():
    s = score_row(make_row("punctuation:no_comma", {}, "hi"), "   \n", "paper")
    assert s.strict == [False] and s.loose == [False]


# §1.4 — loose variants: dropping the first line / removing *
def test_loose_variants():
    ok_strict, ok_loose, why = verdict("startend:quotation", 'Sure, here it is:\n"नमस्ते"', {}, "hi", mode="paper")
    assert (ok_strict, ok_loose) == (False, True) and "without first line" in why
    s, lo, _ = verdict("detectable_format:title", "<<*शीर्षक*>>", {}, mode="paper")
    assert s and lo


# §2.3 keywords:existence — raw regex, case-insensitive substring
def test_existence_is_substring_regex():
    assert paper("keywords:existence", "कमल का फूल", {"keywords": ["कम"]}) is True
    assert paper("keywords:existence", "क्य हाँ", {"keywords": ["क्या?"]}) is True  # '?' makes 'ा' optional
    assert paper("keywords:existence", "[1] उद्धरण", {"keywords": ["[1]"]}) is True  # char class matches '1'
    # '?' alone crashes the authors' run; paper mode falls back to the literal
    assert paper("keywords:existence", "क्या?", {"keywords": ["?"]}) is True


# §2.3 keywords:frequency — non-overlapping substring count (B4)
def test_frequency_counts_substrings():
    kw = {"keyword": "पार्ने", "frequency": 2, "relation": "at least"}
    assert paper("keywords:frequency", "पार्नेछ र पार्नेहरू", kw, "ne") is True


# §2.3 keywords:forbidden_words — stdlib \b (B3)
def test_forbidden_uses_stdlib_word_boundary():
    assert paper("keywords:forbidden_words", "बच्चा खेलता है।", {"forbidden_words": ["बच्चा"]}) is True
    assert paper("keywords:forbidden_words", "किताबें पढ़ो", {"forbidden_words": ["किताब"]}) is False
    assert paper("keywords:forbidden_words", "कमी है", {"forbidden_words": ["कम"]}) is False
    assert paper("keywords:forbidden_words", "सरकारका नीति", {"forbidden_words": ["सरकारका"]}, "ne") is True


# §2.3 letter_frequency — native letter replaced by a (deterministic) random ASCII letter (B2)
def test_native_letter_becomes_random_ascii_letter():
    kw = {"letter": "ओ", "let_frequency": 3, "let_relation": "at least"}
    results = {paper("keywords:letter_frequency", "ओ ओ ओ ओ ओ", kw, key=k) for k in range(20)}
    assert results == {False}  # no ASCII letter occurs in the response
    assert paper("keywords:letter_frequency", "ओ ओ", kw, key=3) == paper("keywords:letter_frequency", "ओ ओ", kw, key=3)


def test_english_letter_is_counted_literally():
    kw = {"letter": "#", "let_frequency": 2, "let_relation": "at least"}
    assert paper("keywords:letter_frequency", "# one # two", kw, "en") is True


# §2.3 response_language — langdetect; undetectable passes; as/or/sa never detected (B11)
def test_language_detection_like_authors():
    assert paper("language:response_language", "***", {"language": "hi"}) is True
    assert paper("language:response_language", "অসমীয়া ভাষা অসমৰ প্ৰধান ভাষা।", {"language": "as"}, "as") is False
    assert paper("language:response_language", "भारत एक विशाल देश है।", {"language": "hi"}) is True


# §2.3/§2.5 number_sentences — indic-nlp quirks (B5, B6)
@pytest.mark.parametrize(
    "lang,text,n,expected",
    [
        ("ur", "یہ پہلا جملہ ہے۔ یہ دوسرا جملہ ہے۔ کیا یہ تیسرا ہے؟", 1, True),
        ("hi", "मेरी उम्र 25। मैं छात्र हूँ।", 1, True),
        ("ta", "சரி. ஆம். போகலாம்.", 1, True),
        ("hi", "निम्नलिखित उत्तर है:\n\nपहला वाक्य। दूसरा वाक्य।", 2, True),
    ],
)
def test_sentence_quirks(lang, text, n, expected):
    kw = {"num_sentences": n, "relation": "at least"}
    assert paper("length_constraints:number_sentences", text, kw, lang) is expected
    kw = {"num_sentences": n + 1, "relation": "less than"}
    assert paper("length_constraints:number_sentences", text, kw, lang) is expected


# B1 — missing relation: a deterministic draw, identical for strict and loose and across calls
def test_missing_relation_is_a_stable_draw():
    kw = {"keyword": "पार्ने", "frequency": 2}
    outcomes = []
    for key in range(40):
        s1 = score_row(make_row("keywords:frequency", kw, "ne", "ground", key), "पार्ने र पार्ने", "paper")
        s2 = score_row(make_row("keywords:frequency", kw, "ne", "ground", key), "पार्ने र पार्ने", "paper")
        assert s1.strict == s2.strict and s1.loose == s2.loose and s1.strict == s1.loose
        outcomes.append(s1.strict[0])
    assert True in outcomes and False in outcomes  # "at least" passes, "less than" fails


# §2.6 number_words — space-only tokenizer (B7)
def test_word_count_like_authors():
    kw = {"num_words": 5, "relation": "less than"}
    assert paper("length_constraints:number_words", "पंक्ति एक\nपंक्ति दो\nपंक्ति तीन", kw) is True
    kw = {"num_words": 1, "relation": "at least"}
    assert paper("length_constraints:number_words", "।", kw) is False


# §2.3/§2.4 nth_paragraph_first_word — Trans checks the count, Ground does not; Ground strips '*' except or/pa (B10)
def test_first_word_trans_vs_ground():
    kw = {"first_word": "नमस्ते", "nth_paragraph": 1, "num_paragraphs": 3}
    assert paper("length_constraints:nth_paragraph_first_word", "नमस्ते दुनिया", kw, subset="trans") is False
    assert paper("length_constraints:nth_paragraph_first_word", "नमस्ते दुनिया", kw, subset="ground") is True
    kw = {"first_word": "नमस्ते", "nth_paragraph": 1}
    assert paper("length_constraints:nth_paragraph_first_word", "नमस्ते* दुनिया", kw, subset="ground") is True
    assert paper("length_constraints:nth_paragraph_first_word", "ନମସ୍କାର* ଦୁନିଆ",
                 {"first_word": "ନମସ୍କାର", "nth_paragraph": 1}, "or", "ground") is False
    assert paper("length_constraints:nth_paragraph_first_word", "नमस्ते। आज", kw, subset="ground") is False
    assert paper("length_constraints:nth_paragraph_first_word", "मुक्का हानियो",
                 {"first_word": "मुक्का हानियो", "nth_paragraph": 1}, "ne", "ground") is False


def test_first_word_uses_unfiltered_paragraph_index():
    kw = {"first_word": "नमस्ते", "nth_paragraph": 1}
    assert paper("length_constraints:nth_paragraph_first_word", "\n\n\n\nनमस्ते आज\n\nदूसरा", kw, subset="ground") is False


# §2.3 number_paragraphs — *** split, blank middle piece fails
def test_paragraphs_divider():
    assert paper("length_constraints:number_paragraphs", "एक\n***\nदो", {"num_paragraphs": 2}) is True
    assert paper("length_constraints:number_paragraphs", "एक\n***\n\n***\nदो", {"num_paragraphs": 2}) is False


# §2.3 postscript — raw regex; "P.S" matches "purpose" (B15); special P.S./P.P.S patterns
def test_postscript_regex():
    assert paper("detectable_content:postscript", "This is a purpose.", {"postscript_marker": "P.S"}) is True
    assert paper("detectable_content:postscript", "text\np. p. s hi", {"postscript_marker": "P.P.S"}) is True
    assert paper("detectable_content:postscript", "उत्तर पुनश्च हाँ", {"postscript_marker": "पुनश्च"}) is True


# §2.3 bullets (* and - only), highlights, placeholders, title, json, two responses (B13)
def test_format_checks():
    assert paper("detectable_format:number_bullet_lists", "• एक\n• दो", {"num_bullets": 2}) is False
    assert paper("detectable_format:number_bullet_lists", "* एक\n- दो", {"num_bullets": 2}) is True
    assert paper("detectable_format:number_highlighted_sections", "**क** *ख*", {"num_highlights": 2}) is True
    assert paper("detectable_content:number_placeholders", "[क] [ख]", {"num_placeholders": 2}) is True
    assert paper("detectable_format:title", "<<शीर्षक>>") is True
    assert paper("detectable_format:json_format", "```JSON\n{}\n```") is True
    assert paper("combination:two_responses", "क\n******\nख") is True


# B8 — Trans folder options differ from what the prompts show; Ground folder options match
def test_constrained_options_per_subset():
    answer = "मेरो जवाफ 'हुन्छ' हो।"
    assert paper("detectable_format:constrained_response", answer, {}, "ne", "trans") is False
    assert paper("detectable_format:constrained_response", answer, {}, "ne", "ground") is True
    assert paper("detectable_format:constrained_response", "मेरो जवाफ हो, हो", {}, "ne", "trans") is True


# §2.3 multiple_sections — raw case-sensitive regex, \d matches Devanagari digits
def test_sections_regex():
    kw = {"section_spliter": "खंड", "num_sections": 2}
    assert paper("detectable_format:multiple_sections", "खंड १ क खंड २ ख", kw) is True
    kw = {"section_spliter": "SECTION", "num_sections": 1}
    assert paper("detectable_format:multiple_sections", "section 1 text", kw, "en") is False


# §2.3 end_checker strips only ASCII quotes; quotation ASCII only; no_comma ASCII only (B13)
def test_ascii_only_checks():
    assert paper("startend:end_checker", "उत्तर। धन्यवाद”", {"end_phrase": "धन्यवाद"}) is False
    assert paper("startend:end_checker", '"उत्तर। धन्यवाद"', {"end_phrase": "धन्यवाद"}) is True
    assert paper("startend:quotation", "“नमस्ते”") is False
    assert paper("punctuation:no_comma", "یہ کتاب ہے، وہ قلم ہے۔", {}, "ur") is True
    assert paper("combination:repeat_prompt", "Repeat THIS then answer", {"prompt_to_repeat": "repeat this"}) is True


# §2.3 english_capital — isupper treats Indic letters as uncased; langdetect decides
def test_english_capital_uncased_indic():
    assert paper("change_case:english_capital", "HELLO THERE MY FRIEND HOW ARE YOU") is True
    assert paper("change_case:english_lowercase", "hello there my friend how are you") is True


# B14 — no normalisation in paper mode
def test_no_normalisation():
    assert paper("keywords:existence", "पेड़ हरा है", {"keywords": ["पे\u095c"]}) is False
    assert strict("keywords:existence", "पेड़ हरा है", {"keywords": ["पे\u095c"]}) is True


# B16 — falsy kwargs become random defaults
def test_zero_frequency_is_replaced():
    kw = {"keyword": "क", "frequency": 0, "relation": "less than"}
    # authors: frequency 0 is dropped and redrawn in 1..3, so "less than" with no occurrence passes
    assert paper("keywords:frequency", "ख ग", kw) is True
    assert strict("keywords:frequency", "ख ग", kw) is False  # fixed: "less than 0" is never true


# B12 — a language missing from the authors' tables does not crash paper mode
def test_unlisted_language_does_not_crash():
    assert paper("language:response_language", "ଓଡ଼ିଆ ଭାଷା ଓଡ଼ିଶାର ପ୍ରଧାନ ଭାଷା।", {"language": "or"}, "or") is False


# B17 — empty input yields 0, never an exception
def test_empty_segmentation_no_crash():
    from indicifeval.text.sentences import count_sentences_paper

    assert count_sentences_paper("") == 0

"""length_constraints:* in several scripts, fixed mode."""

import pytest

from tests.conftest import strict, verdict

SENT = "length_constraints:number_sentences"
WORDS = "length_constraints:number_words"
PARAS = "length_constraints:number_paragraphs"
FIRST = "length_constraints:nth_paragraph_first_word"


@pytest.mark.parametrize(
    "lang,response,kw,expected",
    [
        ("ur", "یہ پہلا جملہ ہے۔ یہ دوسرا جملہ ہے۔ کیا یہ تیسرا ہے؟", {"num_sentences": 3}, True),
        ("hi", "मेरी उम्र 25। मैं छात्र हूँ।", {"num_sentences": 2, "relation": "at least"}, True),
        ("ta", "சரி. ஆம். போகலாம்.", {"num_sentences": 3, "relation": "exactly"}, True),
        ("bn", "আমি ভাত খাই। তুমি কী খাও?", {"num_sentences": 3, "relation": "less than"}, True),
        ("pa", "ਇੱਕ। ਦੋ। ਤਿੰਨ। ਚਾਰ।", {"num_sentences": 4, "relation": "less than"}, False),
        ("en", "One. Two. Three.", {"num_sentences": 3, "relation": "at least"}, True),
    ],
)
def test_number_sentences(lang, response, kw, expected):
    assert strict(SENT, response, kw, lang) is expected


def test_sentence_explanation():
    ok, _, why = verdict(SENT, "एक। दो।", {"num_sentences": 10, "relation": "at least"})
    assert not ok and why == "2 sentences, needed at least 10"


@pytest.mark.parametrize(
    "lang,response,kw,expected",
    [
        ("hi", "पंक्ति एक\nपंक्ति दो\nपंक्ति तीन", {"num_words": 6, "relation": "at least"}, True),
        ("ta", "நான் இன்று பள்ளிக்குச் சென்றேன்", {"num_words": 4, "relation": "less than"}, False),
        ("ur", "یہ کتاب ہے۔ کیا یہ؟ ہاں، یہ ہے", {"num_words": 9, "relation": "less than"}, True),
        ("gu", "હું આજે શાળાએ ગયો.", {"num_words": 4, "relation": "at least"}, True),
    ],
)
def test_number_words(lang, response, kw, expected):
    assert strict(WORDS, response, kw, lang) is expected


@pytest.mark.parametrize(
    "response,n,expected",
    [
        ("पहला अनुच्छेद।\n***\nदूसरा अनुच्छेद।", 2, True),
        ("पहला अनुच्छेद।\n\nदूसरा अनुच्छेद।", 2, False),  # the prompts ask for *** dividers
        ("***\nएक\n***\nदो\n***", 2, True),
        ("एक\n***\n\n***\nदो", 2, False),
        ("ਇੱਕ ਪੈਰਾ।", 1, True),
    ],
)
def test_number_paragraphs(response, n, expected):
    assert strict(PARAS, response, {"num_paragraphs": n}) is expected


@pytest.mark.parametrize(
    "lang,response,kw,expected",
    [
        ("hi", "**नमस्ते**, आज अच्छा दिन है।", {"first_word": "नमस्ते", "nth_paragraph": 1}, True),
        ("hi", "नमस्ते। आज अच्छा दिन है।", {"first_word": "नमस्ते", "nth_paragraph": 1}, True),
        ("hi", "नमस्ते: आज अच्छा दिन है।", {"first_word": "नमस्ते", "nth_paragraph": 1}, True),
        ("hi", "“नमस्ते” आज", {"first_word": "नमस्ते", "nth_paragraph": 1}, True),
        ("hi", "\n\n\n\nनमस्ते आज\n\nदूसरा", {"first_word": "नमस्ते", "nth_paragraph": 1}, True),
        ("ne", "मुक्का हानियो उसले।", {"first_word": "मुक्का हानियो", "nth_paragraph": 1}, True),
        ("bn", "প্রথম অনুচ্ছেদ।\n\nদ্বিতীয় অনুচ্ছেদ।",
         {"first_word": "দ্বিতীয়", "nth_paragraph": 2, "num_paragraphs": 2}, True),
        ("bn", "প্রথম অনুচ্ছেদ।\n\nদ্বিতীয় অনুচ্ছেদ।\n\nতৃতীয়।",
         {"first_word": "দ্বিতীয়", "nth_paragraph": 2, "num_paragraphs": 2}, False),
        ("ta", "# வணக்கம் நண்பர்களே", {"first_word": "வணக்கம்", "nth_paragraph": 1}, True),
        ("ur", "سلام، دوستو!", {"first_word": "سلام", "nth_paragraph": 1}, True),
        ("hi", "आज नमस्ते", {"first_word": "नमस्ते", "nth_paragraph": 1}, False),
        ("hi", "एक", {"first_word": "एक", "nth_paragraph": 2}, False),
    ],
)
def test_nth_paragraph_first_word(lang, response, kw, expected):
    assert strict(FIRST, response, kw, lang, subset="ground" if "num_paragraphs" not in kw else "trans") is expected

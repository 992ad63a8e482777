"""keywords:* in several scripts, fixed mode, hand-checked."""

import pytest

from tests.conftest import strict, verdict

EX = "keywords:existence"
FREQ = "keywords:frequency"
FORBID = "keywords:forbidden_words"
LETTER = "keywords:letter_frequency"


@pytest.mark.parametrize(
    "lang,response,keywords,expected",
    [
        ("hi", "मुझे किताब पढ़ना पसंद है।", ["किताब"], True),
        ("hi", "मुझे किताबें पढ़ना पसंद है।", ["किताब"], False),  # inflected form is another word
        ("bn", "আমি প্রতিদিন বই পড়ি।", ["বই"], True),
        ("bn", "আমি প্রতিদিন বইটি পড়ি।", ["বই"], False),
        ("ta", "நான் வீடு கட்டினேன்.", ["வீடு"], True),
        ("pa", "ਮੈਂ ਕਿਤਾਬ ਪੜ੍ਹਦਾ ਹਾਂ।", ["ਕਿਤਾਬ", "ਪੜ੍ਹਦਾ"], True),
        ("pa", "ਮੈਂ ਕਿਤਾਬ ਪੜ੍ਹਦਾ ਹਾਂ।", ["ਕਿਤਾਬ", "ਲਿਖਦਾ"], False),
        ("ur", "میں نے ایک کتاب پڑھی۔", ["کتاب"], True),
        ("ur", "میں نے کتابیں پڑھیں۔", ["کتاب"], False),
        ("hi", "What is AI? कृत्रिम बुद्धि।", ["ai"], True),  # case-insensitive
        ("hi", "यह (हाँ) सही है।", ["(हाँ"], True),  # never a regex: no crash, matched literally
        ("hi", "यह हाँ सही है।", ["(हाँ"], False),
        ("hi", "क्या? हाँ।", ["क्या?"], True),
        ("hi", "मशीन  लर्निंग", ["मशीन लर्निंग"], True),  # multi-word across whitespace
    ],
)
def test_existence(lang, response, keywords, expected):
    assert strict(EX, response, {"keywords": keywords}, lang) is expected


@pytest.mark.parametrize(
    "lang,response,kw,expected",
    [
        # Ground style: relation omitted means exactly
        ("ne", "सम्झौताले शान्तिमा पार्ने असर र उद्योगमा पार्ने असर।", {"keyword": "पार्ने", "frequency": 2}, True),
        ("ne", "पार्ने, पार्ने र पार्ने।", {"keyword": "पार्ने", "frequency": 2}, False),
        ("ne", "पार्नेछ र पार्नेहरू।", {"keyword": "पार्ने", "frequency": 2, "relation": "at least"}, False),
        ("ta", "மழை பெய்தது. மழை நின்றது. மழை மீண்டும் வந்தது.",
         {"keyword": "மழை", "frequency": 3, "relation": "at least"}, True),
        ("ta", "மழை பெய்தது.", {"keyword": "மழை", "frequency": 2, "relation": "less than"}, True),
        ("bn", "নদী আর নদীর জল।", {"keyword": "নদী", "frequency": 1}, True),
        ("ur", "پانی، پانی اور پانی۔", {"keyword": "پانی", "frequency": 3, "relation": "exactly"}, True),
        ("en", "The river meets the riverbank.", {"keyword": "river", "frequency": 2, "relation": "at least"}, True),
    ],
)
def test_frequency(lang, response, kw, expected):
    subset = "ground" if "relation" not in kw else "trans"
    assert strict(FREQ, response, kw, lang, subset) is expected


def test_frequency_explains_count():
    ok, _, why = verdict(FREQ, "पार्ने र पार्ने", {"keyword": "पार्ने", "frequency": 3}, "ne", "ground")
    assert not ok and why.startswith("2 ") and "exactly 3" in why


@pytest.mark.parametrize(
    "lang,response,words,expected",
    [
        ("hi", "बच्चा खेलता है।", ["बच्चा"], False),  # ends in a matra: the authors never find it
        ("hi", "कमी नहीं है।", ["कम"], True),  # a longer word is not the forbidden one
        ("hi", "हम कम खाते हैं।", ["कम"], False),
        ("ne", "सरकारका नीति।", ["सरकारका"], False),
        ("ta", "அவன் வீடு சென்றான்.", ["வீடு"], False),
        ("ta", "அவன் வீட்டுக்கு சென்றான்.", ["வீடு"], True),
        ("sa", "रामः वनं गच्छति।", ["रामः"], False),
        ("bn", "তারা খেলছে।", ["খেলা"], True),
        ("pa", "ਉਹ ਘਰ ਗਿਆ।", ["ਘਰ"], False),
        ("ur", "وہ گھر گیا۔", ["گھر"], False),
        ("ur", "وہ گھروں میں گیا۔", ["گھر"], True),
        ("hi", "हिंदी में हैं।", ["हैं"], False),
    ],
)
def test_forbidden(lang, response, words, expected):
    assert strict(FORBID, response, {"forbidden_words": words}, lang) is expected


@pytest.mark.parametrize(
    "lang,response,kw,expected",
    [
        ("hi", "ओ ओ ओ ओ ओ", {"letter": "ओ", "let_frequency": 3, "let_relation": "at least"}, True),
        ("hi", "मोर और ओस", {"letter": "ओ", "let_frequency": 2, "let_relation": "at least"}, False),  # ो is not ओ
        ("bn", "মা মামা মামি", {"letter": "ম", "let_frequency": 5, "let_relation": "at least"}, True),
        ("ta", "அம்மா", {"letter": "ம", "let_frequency": 2, "let_relation": "less than"}, False),
        ("en", "Queen quietly quit", {"letter": "q", "let_frequency": 3, "let_relation": "at least"}, True),
        ("hi", "Quick QUIZ", {"letter": "q", "let_frequency": 2, "let_relation": "less than"}, False),
    ],
)
def test_letter_frequency(lang, response, kw, expected):
    assert strict(LETTER, response, kw, lang) is expected

"""detectable_format:*, detectable_content:*, combination:*, startend:*, punctuation, case."""

import pytest

from tests.conftest import strict, verdict


@pytest.mark.parametrize(
    "lang,response,n,expected",
    [
        ("hi", "* पहला\n* दूसरा\n* तीसरा", 3, True),
        ("bn", "- এক\n- দুই", 2, True),
        ("ta", "• ஒன்று\n• இரண்டு\n• மூன்று", 3, True),
        ("pa", "* ਇੱਕ\n* ਦੋ\n* ਤਿੰਨ", 2, False),
        ("ur", "**عنوان**\n* ایک\n* دو", 2, True),  # a bold line is not a bullet
        ("en", "* one\n* two", 2, True),
    ],
)
def test_bullets(lang, response, n, expected):
    assert strict("detectable_format:number_bullet_lists", response, {"num_bullets": n}, lang) is expected


@pytest.mark.parametrize(
    "lang,subset,response,expected",
    [
        ("ne", "trans", "मेरो जवाफ 'हुन्छ' हो।", True),
        ("ne", "ground", "मेरो जवाफ ‘होइन’ हो।", True),  # curly quotes unified
        ("ne", "trans", "मेरो जवाफ हो, हो", False),
        ("hi", "trans", "मेरा जवाब है, हाँ। क्योंकि…", True),
        ("ta", "trans", "என் பதில் 'ஆம்'", True),
        ("ur", "trans", "میرا جواب 'ہاں' ہے۔", True),
        ("sa", "trans", "मम उत्तरं 'आम्' अस्ति।", True),  # ZWNJ in the profile phrase is ignored
        ("en", "trans", "My answer is yes.", True),
        ("en", "trans", "my answer is yes.", False),
    ],
)
def test_constrained_response(lang, subset, response, expected):
    assert strict("detectable_format:constrained_response", response, {}, lang, subset) is expected


@pytest.mark.parametrize(
    "response,n,expected",
    [
        ("*पहला* और **दूसरा** और *तीसरा*", 3, True),
        ("*पहला* और ** **", 2, False),
        ("**বিভাগ এক** আর *দুই*", 2, True),
    ],
)
def test_highlights(response, n, expected):
    assert strict("detectable_format:number_highlighted_sections", response, {"num_highlights": n}) is expected


@pytest.mark.parametrize(
    "lang,response,kw,expected",
    [
        ("hi", "खंड 1\nपहला भाग।\nखंड 2\nदूसरा भाग।", {"section_spliter": "खंड", "num_sections": 2}, True),
        ("hi", "खंड १\nपहला।\n## खंड २\nदूसरा।", {"section_spliter": "खंड", "num_sections": 2}, True),
        ("hi", "ऊपर खंड 1 देखें।", {"section_spliter": "खंड", "num_sections": 1}, False),
        ("ta", "பகுதி 1\nஒன்று\nபகுதி 2\nஇரண்டு", {"section_spliter": "பகுதி", "num_sections": 3}, False),
        ("en", "SECTION 1\nfoo\nSECTION 2\nbar", {"section_spliter": "SECTION", "num_sections": 2}, True),
    ],
)
def test_sections(lang, response, kw, expected):
    assert strict("detectable_format:multiple_sections", response, kw, lang) is expected


@pytest.mark.parametrize(
    "response,expected",
    [
        ('```json\n{"नाम": "राम"}\n```', True),
        ('{"नाम": "राम",}', False),
        ("[1, 2, 3]", True),
        ("[" * 100000, False),
    ],
)
def test_json(response, expected):
    assert strict("detectable_format:json_format", response) is expected


def test_title_and_placeholders():
    assert strict("detectable_format:title", "<<ਮੇਰਾ ਸਿਰਲੇਖ>>\nਲਿਖਤ") is True
    assert strict("detectable_format:title", "<< >>\nਲਿਖਤ") is False
    assert strict("detectable_content:number_placeholders", "[नाम] और [पता]", {"num_placeholders": 2}) is True
    assert strict("detectable_content:number_placeholders", "[नाम]", {"num_placeholders": 2}) is False


@pytest.mark.parametrize(
    "lang,response,marker,expected",
    [
        ("hi", "मुख्य उत्तर।\n\nपुनश्च: कल मिलते हैं।", "पुनश्च", True),
        ("ne", "उत्तर।\n\nपी एस: भेटौंला।", "पी एस", True),
        ("ne", "उत्तर।\n\nपी.एस. भेटौंला।", "पी एस", True),
        ("hi", "मुख्य उत्तर। पुनश्चर्या ज़रूरी है।", "पुनश्च", False),
        ("en", "Answer.\n\nP.S. see you", "P.S.", True),
        ("hi", "This is a purpose.", "P.S", False),
        ("hi", "उत्तर।\n**P.S.** धन्यवाद", "P.S.", True),
    ],
)
def test_postscript(lang, response, marker, expected):
    assert strict("detectable_content:postscript", response, {"postscript_marker": marker}, lang) is expected


def test_two_responses_and_repeat():
    two = "combination:two_responses"
    assert strict(two, "पहला उत्तर\n******\nदूसरा उत्तर") is True
    assert strict(two, "एक\n******\nएक") is False
    assert strict(two, "एक\n******\n\n******\nदो") is False
    rep = "combination:repeat_prompt"
    assert strict(rep, "यह   अनुरोध दोहराएँ\nउत्तर", {"prompt_to_repeat": "यह अनुरोध दोहराएँ"}) is True
    assert strict(rep, "उत्तर", {"prompt_to_repeat": "यह अनुरोध दोहराएँ"}) is False


@pytest.mark.parametrize(
    "lang,response,phrase,expected",
    [
        ("ne", "उत्तर यही हो। म अरू केही मद्दत गर्न सक्छु?", "म अरू केही मद्दत गर्न सक्छु?", True),
        ("ne", "“उत्तर। म अरू केही मद्दत गर्न सक्छु?”", "म अरू केही मद्दत गर्न सक्छु?", True),
        ("ta", "பதில். வேறு ஏதாவது கேள்விகள் உள்ளதா?", "வேறு ஏதாவது கேள்விகள் உள்ளதா?", True),
        ("ta", "வேறு ஏதாவது கேள்விகள் உள்ளதா? நன்றி.", "வேறு ஏதாவது கேள்விகள் உள்ளதா?", False),
        ("en", '"Any other questions?"', "Any other questions?", True),
    ],
)
def test_end_checker(lang, response, phrase, expected):
    assert strict("startend:end_checker", response, {"end_phrase": phrase}, lang) is expected


@pytest.mark.parametrize(
    "lang,response,expected",
    [
        ("hi", '"नमस्ते दुनिया"', True),
        ("hi", "“नमस्ते दुनिया”", True),
        ("hi", "नमस्ते दुनिया", False),
        ("en", "“Hello”", False),  # English keeps IFEval's ASCII-only rule
        ("ur", '"سلام"', True),
    ],
)
def test_quotation(lang, response, expected):
    assert strict("startend:quotation", response, {}, lang) is expected


@pytest.mark.parametrize(
    "lang,response,expected",
    [
        ("ur", "یہ کتاب ہے، وہ قلم ہے۔", False),
        ("ur", "یہ کتاب ہے اور وہ قلم ہے۔", True),
        ("hi", "यह किताब है, वह कलम है।", False),
        ("ta", "இது புத்தகம் அது பேனா.", True),
        ("en", "No commas here", True),
    ],
)
def test_no_comma(lang, response, expected):
    assert strict("punctuation:no_comma", response, {}, lang) is expected


@pytest.mark.parametrize(
    "lang,iid,response,expected",
    [
        ("hi", "change_case:english_capital", "THE MONSOON BRINGS RAIN TO INDIA EVERY YEAR.", True),
        ("hi", "change_case:english_capital", "HELLO नमस्ते दुनिया कैसे हो", False),
        ("bn", "change_case:english_lowercase", "the monsoon brings rain to india every year.", True),
        ("bn", "change_case:english_lowercase", "The monsoon brings rain.", False),
        ("ta", "change_case:english_lowercase", "ஆம் ஆம்", False),
        ("en", "change_case:english_capital", "THIS IS ALL IN CAPITAL LETTERS, AS REQUESTED.", True),
    ],
)
def test_english_case(lang, iid, response, expected):
    assert strict(iid, response, {}, lang) is expected


def test_capital_word_frequency():
    kw = {"capital_frequency": 2, "capital_relation": "at least"}
    assert strict("change_case:capital_word_frequency", "भारत की AI और ML नीति", kw, "hi") is True
    assert strict("change_case:capital_word_frequency", "भारत की AI नीति", kw, "hi") is False
    assert strict("change_case:capital_word_frequency", "THE AI is GOOD", kw, "en") is True


@pytest.mark.parametrize(
    "lang,response,wanted,expected",
    [
        ("hi", "भारत एक विशाल देश है और यहाँ अनेक भाषाएँ बोली जाती हैं।", "hi", True),
        ("mr", "भारत हा एक विशाल देश आहे आणि येथे अनेक भाषा बोलल्या जातात.", "mr", True),
        ("hi", "भारत हा एक विशाल देश आहे आणि येथे अनेक भाषा बोलल्या जातात.", "hi", False),
        ("as", "অসমীয়া ভাষা অসমৰ প্ৰধান ভাষা আৰু ইয়াত বহুতো মানুহে কথা কয়।", "as", True),
        ("or", "ଓଡ଼ିଆ ଭାଷା ଓଡ଼ିଶାର ପ୍ରଧାନ ଭାଷା ଅଟେ।", "or", True),
        ("pa", "ਪੰਜਾਬੀ ਭਾਸ਼ਾ ਬਹੁਤ ਮਿੱਠੀ ਹੈ।", "pa", True),
        ("ur", "یہ اردو زبان کا ایک جملہ ہے اور ہم اسے جانچ رہے ہیں۔", "ur", True),
        ("hi", "The answer is written in English, as the question asked.", "en", True),
        ("hi", "***", "hi", False),
        ("hi", "Habari yako? Ninafurahi kukuona leo rafiki yangu.", "sw", True),
    ],
)
def test_response_language(lang, response, wanted, expected):
    ok, _, why = verdict("language:response_language", response, {"language": wanted}, lang)
    assert ok is expected, why

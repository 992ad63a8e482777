"""Sentence counting: fixed splitter per language, and the authors' splitter (§2.5 examples)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indicifeval.languages import get_profile
from indicifeval.text.sentences import count_sentences, count_sentences_paper


def fixed(text, lang):
    p = get_profile(lang)
    return count_sentences(text, p.sentence_terminators, p.abbreviations)


@pytest.mark.parametrize(
    "lang,text,expected",
    [
        ("hi", "यह पहला वाक्य है। यह दूसरा वाक्य है।", 2),
        ("hi", "मेरी उम्र 25। मैं छात्र हूँ।", 2),
        ("hi", "वर्ष २०२३। नया साल।", 2),
        ("hi", "ठीक है. हाँ. चलो.", 3),
        ("ta", "சரி. ஆம். போகலாம்.", 3),
        ("hi", "निम्नलिखित उत्तर है:\n\nपहला वाक्य। दूसरा वाक्य।", 3),
        ("hi", "* पहला बिंदु\n* दूसरा बिंदु\n* तीसरा बिंदु", 3),
        ("hi", "क्या आप आएंगे? हाँ! ठीक है।", 3),
        ("ur", "یہ پہلا جملہ ہے۔ یہ دوسرا جملہ ہے۔ کیا یہ تیسرا ہے؟", 3),
        ("ur", "یہ پہلا جملہ ہے. کیا یہ دوسرا ہے?", 2),
        ("hi", "मैं डॉ. शर्मा से मिला. वे अच्छे हैं.", 2),
        ("bn", "আমি ডা. শর্মার সাথে দেখা করলাম. তিনি ভালো.", 2),
        ("hi", "रुको... फिर चलो।", 1),
        ("hi", "मूल्य 3.5 रुपये है। www.example.org देखें।", 2),
        ("pa", "ਮੈਂ ਘਰ ਜਾ ਰਿਹਾ ਹਾਂ। ਤੁਸੀਂ ਕਿੱਥੇ ਹੋ?", 2),
        ("en", "Dr. Smith arrived. He sat down!", 2),
        ("hi", "", 0),
        ("hi", "   \n\n ***", 0),
        ("sa", "रामः वनं गच्छति। सीता अपि गच्छति॥", 2),
        ("hi", "पहला वाक्य।\n\n***\n\nदूसरा वाक्य।", 2),
    ],
)
def test_fixed_sentence_counts(lang, text, expected):
    assert fixed(text, lang) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("यह पहला वाक्य है। यह दूसरा वाक्य है।", 2),
        ("मेरी उम्र 25। मैं छात्र हूँ।", 1),
        ("वर्ष २०२३। नया साल।", 1),
        ("ठीक है. हाँ. चलो.", 1),
        ("ठीक है। हाँ। चलो।", 3),
        ("சரி. ஆம். போகலாம்.", 1),
        ("उत्तर:\nपहला वाक्य। दूसरा वाक्य।", 2),
        ("निम्नलिखित उत्तर है:\n\nपहला वाक्य। दूसरा वाक्य।", 2),
        ("* पहला बिंदु\n* दूसरा बिंदु\n* तीसरा बिंदु", 1),
        ("क्या आप आएंगे? हाँ! ठीक है।", 3),
        ("یہ پہلا جملہ ہے۔ یہ دوسرا جملہ ہے۔ کیا یہ تیسرا ہے؟", 1),
        ("یہ پہلا جملہ ہے. کیا یہ دوسرا ہے?", 2),
        ("मैं डॉ. शर्मा से मिला. वे अच्छे हैं.", 2),
        ("আমি ডা. শর্মার সাথে দেখা করলাম. তিনি ভালো.", 3),
        ("रुको... फिर चलो।", 1),
        ("", 0),
        ("   ", 0),
        ("यह घटना सन् 2024। फिर क्या हुआ?", 1),
    ],
)
def test_paper_sentence_counts_match_reference(text, expected):
    assert count_sentences_paper(text) == expected


_PIECES = st.sampled_from(["\n\n", "\n", "।", " ", ":", "ab", "क", "?", ".", "  ", "x:", "\n\n\n", "* ", "Dr.", "A."])


@given(st.lists(st.lists(_PIECES, max_size=30).map("".join), min_size=1, max_size=4))
def test_paragraph_counts_shared_between_texts_change_no_count(texts):
    """The variants of one answer share a memo of paragraph counts (checkers.rules): each
    text's count is the count it has alone, in both Indic splitters."""
    from indicifeval.text.sentences import split_sentences_paper

    profile = get_profile("hi")
    fixed: dict = {}
    paper: dict = {}
    for text in texts:
        alone = count_sentences(text, profile.sentence_terminators, profile.abbreviations)
        assert count_sentences(text, profile.sentence_terminators, profile.abbreviations, fixed) == alone
        assert count_sentences_paper(text, paper) == len(split_sentences_paper(text)) == count_sentences_paper(text)


@given(st.lists(_PIECES, max_size=40).map("".join))
def test_counting_alone_gives_the_number_of_sentences(text):
    from indicifeval.text.sentences import split_sentences

    profile = get_profile("hi")
    found = split_sentences(text, profile.sentence_terminators, profile.abbreviations)
    counted = split_sentences(text, profile.sentence_terminators, profile.abbreviations, count_only=True)
    assert len(counted) == len(found)


_PLAIN_PIECES = st.sampled_from(["\n\n", "\n", "।", "॥", "۔", "؟", " ", "\t", ":", "ab", "क", "ि", "7", "१", "-",
                                 "- ", "* ", "# ", "+", "•", "1) ", ")", "”", "'", "_", "\u00a0", "\u2028", "\r",
                                 "1. ", "x\n \n", "?", "!", "…", "."])


@pytest.mark.parametrize("lang", ["hi", "ur", "bn", "en"])
@given(text=st.lists(_PLAIN_PIECES, max_size=40).map("".join))
def test_paragraphs_counted_by_segments_as_the_splitter_counts(lang, text):
    """A paragraph with no Latin-style stop and no list or heading line is counted by one
    pattern (count_sentences): the same count as the splitter's sentences."""
    from indicifeval.text.sentences import split_sentences

    profile = get_profile(lang)
    found = split_sentences(text, profile.sentence_terminators, profile.abbreviations)
    assert count_sentences(text, profile.sentence_terminators, profile.abbreviations) == len(found)


@given(st.lists(_PLAIN_PIECES, max_size=40).map("".join))
def test_list_lines_found_line_by_line_as_by_a_search(text):
    from indicifeval.text.sentences import _LIST_OR_HEADING_LINE, _has_list_line

    assert _has_list_line(text) == (_LIST_OR_HEADING_LINE.search(text) is not None)

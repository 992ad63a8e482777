"""The copy part's open-instruct ids (copying, first and last words, paragraphs, bigrams) on any
answer: they never raise and always explain, loose is never stricter than strict, a verdict is
the same twice and for NFC and NFD text, degenerate answers of 100k characters in every language
are judged quickly, and the time grows linearly with the answer on the patterns that could make
it quadratic. (tests/checkers/test_properties.py does the same for IFEval's ids and those beyond.)"""

from __future__ import annotations

import time
import unicodedata

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from indicifeval.checkers import REGISTRY, get_rules
from indicifeval.languages import list_languages
from indicifeval.scoring.engine import score_row
from tests.checkers.test_linear_time import cpu_growth, degenerate, scorer
from tests.checkers.test_nfc_nfd import answers
from tests.conftest import make_row

# One kwargs set per id, in a mix of scripts (a word of one script asked in another is just absent).
KWARGS = {
    "copy:repeat_phrase": {"phrase": "जैसी करनी वैसी भरनी", "small_n": 2},
    "copy:copy": {"prompt_to_repeat": "गंगा नदी के बारे में लिखिए।"},
    "copy:copying_simple": {"prompt_to_repeat": "Write a haiku about rain."},
    "copy:copying_multiple": {"prompt_to_repeat": "কবিতা লিখুন।", "N": 2},
    "new:copy_span_idx": {"prompt_to_repeat": "ಕನ್ನಡ ನಾಡಿನ ಕ್ಷತ್ರಿಯ ರಾಜ", "n_start": 0, "n_end": 3},
    "first_word:first_word_sent": {"first_word": "फिर"},
    "first_word:first_word_answer": {"first_word": "پھر"},
    "last_word:last_word_sent": {"last_word": "है"},
    "last_word:last_word_answer": {"last_word": "உள்ளது"},
    "paragraphs:paragraphs": {},
    "paragraphs:paragraphs2": {},
    "keywords:start_end": {},
    "keywords:keyword_specific_position": {"keyword": "नदी", "n": 2, "m": 3},
    "detectable_format:bigram_wrapping": {},
}
assert set(KWARGS) == {iid for iid, spec in REGISTRY.items()
                       if spec.suite == "open-instruct" and spec.fn.__module__.rsplit(".", 1)[-1].startswith("copy_")}
IDS = list(KWARGS)
LANGS = list_languages()

PIECES = list("अकिीुेोंँ़्।॥ক্ষািৰਕਿੱਤਾகிழ்ைொ۔؟،ابپ\n\n *-#\"“”'’,.?!:<>0123456789\u200c\u200d")
text = st.one_of(
    st.text(),
    st.lists(st.sampled_from(PIECES + ["***", "******", "<<", ">>", "<<फिर नदी>>", "फिर", "है", "नदी", "जैसी करनी",
                                       "तैसी भरनी", "Mr.", "U.S.", "...", "The "]), max_size=60).map("".join),
)
fast = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _score(response, iid, lang):
    rules = get_rules(lang, "trans", "fixed")
    assume(REGISTRY[iid].unavailable(rules.profile, rules.paper) is None)
    return score_row(make_row(iid, KWARGS[iid], lang), response, "fixed")


@fast
@given(response=text, iid=st.sampled_from(IDS), lang=st.sampled_from(LANGS))
def test_never_raises_explains_and_loose_is_not_stricter(response, iid, lang):
    s = _score(response, iid, lang)
    assert isinstance(s.strict[0], bool) and s.explanations[0] and "checker error" not in s.explanations[0]
    assert s.loose[0] or not s.strict[0]
    again = _score(response, iid, lang)
    assert (again.strict, again.loose, again.explanations) == (s.strict, s.loose, s.explanations)


# kwargs of letters that NFD decomposes (ো = ে + া, ொ = ெ + ா), answers rich in them
COMPOSED = {
    "copy:repeat_phrase": {"phrase": "বোন কো ମୋ বোন", "small_n": 2},
    "copy:copy": {"prompt_to_repeat": "বোন ମୋ"},
    "copy:copying_simple": {"prompt_to_repeat": "கொ ମୋ"},
    "copy:copying_multiple": {"prompt_to_repeat": "বোন", "N": 2},
    "new:copy_span_idx": {"prompt_to_repeat": "বোন ମୋ কো", "n_start": 0, "n_end": 2},
    "first_word:first_word_sent": {"first_word": "বোন"},
    "first_word:first_word_answer": {"first_word": "கொ"},
    "last_word:last_word_sent": {"last_word": "ମୋ"},
    "last_word:last_word_answer": {"last_word": "বোন"},
    "keywords:keyword_specific_position": {"keyword": "কো", "n": 1, "m": 2},
}
COMPOSED_PIECES = ["বোন", "কো", "ମୋ", "கொ", " ", "। ", ". ", "<<", ">>", "******", "\n\n", "***", "ো", "ে", "া"]
composable = st.one_of(answers, st.lists(st.sampled_from(COMPOSED_PIECES), max_size=30).map("".join))


@fast
@given(response=composable, iid=st.sampled_from(IDS), lang=st.sampled_from([c for c in LANGS if c != "en"]))
def test_nfc_and_nfd_agree(response, iid, lang):
    kwargs = COMPOSED.get(iid, KWARGS[iid])
    a = score_row(make_row(iid, kwargs, lang), unicodedata.normalize("NFC", response), "fixed")
    b = score_row(make_row(iid, kwargs, lang), unicodedata.normalize("NFD", response), "fixed")
    assert (a.strict, a.loose) == (b.strict, b.loose)


BIG = 100_000
DEGENERATE = {
    "empty": "",
    "spaces": " \t \n  ",
    "zero-width": "\u200b\u200c\u200d\ufeff" * 50,
    "punctuation": ".,;:!?।॥۔" * 40,
    "emoji": "😀🎉👍🏽" * 100,
    "other scripts": "这是一个测试。Это тест. これはテストです。" * 10,
    "mixed": "नदी river নদী نہر நதி <<नदी नदी>> *** ******\n\n" * 20,
    "one long word": "क्ष" * (BIG // 2),
    "long prose": ("फिर नदी बहती है। Then the river ran home. <<नदी है>> " * (BIG // 50))[:BIG],
    "long separators": ("***\n\n******<<" * (BIG // 14))[:BIG],
}


@pytest.mark.parametrize("name", list(DEGENERATE))
def test_degenerate_answers_in_every_language(name):
    response = DEGENERATE[name]
    for lang in LANGS:
        for iid in IDS:
            start = time.process_time()
            s = score_row(make_row(iid, KWARGS[iid], lang), response, "fixed")
            spent = time.process_time() - start
            assert s.explanations[0] and "checker error" not in s.explanations[0], (lang, iid, s.explanations)
            assert spent < 2.0, (lang, iid, name, f"{spent:.2f} s")


# (instruction, kwargs, pattern, language, n): answers that would be quadratic in a naive check.
SCALING = [
    ("copy:repeat_phrase", {"phrase": "The early bird catches the worm", "small_n": 2}, "The ", "en", 4000),
    ("copy:repeat_phrase", {"phrase": "The early bird catches the worm", "small_n": 2}, "The x worm ", "en", 2000),
    ("copy:repeat_phrase", {"phrase": "क क क", "small_n": 2}, "क ", "hi", 4000),
    ("copy:copying_multiple", {"prompt_to_repeat": "क ख", "N": 2}, "******", "hi", 4000),
    ("copy:copy", {"prompt_to_repeat": "क ख"}, "क ", "hi", 4000),
    ("first_word:first_word_sent", {"first_word": "a"}, "a. ", "en", 4000),
    ("first_word:first_word_sent", {"first_word": "क"}, "क। ", "hi", 4000),
    ("last_word:last_word_sent", {"last_word": "a"}, "a a. ", "en", 4000),
    ("last_word:last_word_sent", {"last_word": "क"}, "क क। ", "hi", 4000),
    ("keywords:keyword_specific_position", {"keyword": "a", "n": 2, "m": 3}, "a ", "en", 4000),
    ("keywords:keyword_specific_position", {"keyword": "क", "n": 2, "m": 3}, "क ", "hi", 4000),
    ("keywords:start_end", {}, "a ", "en", 4000),
    ("detectable_format:bigram_wrapping", {}, "<<", "hi", 4000),
    ("detectable_format:bigram_wrapping", {}, "<<a ", "hi", 4000),
    ("detectable_format:bigram_wrapping", {}, "<<a b>> ", "en", 4000),
    ("paragraphs:paragraphs", {}, "*** ", "hi", 4000),
    ("paragraphs:paragraphs2", {}, "\n\n", "hi", 4000),
]


@pytest.mark.parametrize("iid,kwargs,pattern,language,n", SCALING, ids=[f"{c[0]}-{c[3]}-{c[2]!r}" for c in SCALING])
def test_time_grows_linearly(iid, kwargs, pattern, language, n):
    ratio = cpu_growth(scorer(iid, kwargs, language, "fixed"), degenerate(pattern), n)
    assert ratio < 30, f"{iid} on {pattern!r}: {ratio:.1f}x the time for 8x the text"

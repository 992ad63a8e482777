"""The copy part's open-instruct ids as registered (the reference's ids and kwargs names, their
categories, rows, roles), defined in every language, their bundled sample rows, and the text
helpers they stand on: open-instruct's English sentence splitter, the linear phrase finder that
replaces its regex, and aksharas."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from indicifeval.checkers import REGISTRY, available_ids, category_of, copied_kwargs, lexical_kwargs
from indicifeval.checkers.open_instruct.copy_text import aksharas, phrase_matches, reference_sentences
from indicifeval.dataset import load_rows
from indicifeval.languages import get_profile, list_languages
from indicifeval.scoring.api import score

# id -> (kwargs names as open-instruct's build_description takes them, category)
IDS = {
    "copy:repeat_phrase": (("phrase", "small_n"), "Copy"),
    "copy:copy": (("prompt_to_repeat",), "Copy"),
    "copy:copying_simple": (("prompt_to_repeat",), "Copy"),
    "copy:copying_multiple": (("prompt_to_repeat", "N"), "Copy"),
    "new:copy_span_idx": (("prompt_to_repeat", "n_start", "n_end"), "Copy"),
    "first_word:first_word_sent": (("first_word",), "Words"),
    "first_word:first_word_answer": (("first_word",), "Words"),
    "last_word:last_word_sent": (("last_word",), "Words"),
    "last_word:last_word_answer": (("last_word",), "Words"),
    "paragraphs:paragraphs": ((), "Paragraphs"),
    "paragraphs:paragraphs2": ((), "Paragraphs"),
    "keywords:start_end": ((), "Keyword"),
    "keywords:keyword_specific_position": (("keyword", "n", "m"), "Keyword"),
    "detectable_format:bigram_wrapping": ((), "Format"),
}


def test_ids_kwargs_categories_and_rows():
    for iid, (names, category) in IDS.items():
        spec = REGISTRY[iid]
        assert spec.suite == "open-instruct" and spec.fixed_only, iid
        assert tuple(p.name for p in spec.params) == names, iid
        assert spec.category == category and category_of(iid) == f"RL {category}", iid
    assert sorted(REGISTRY[iid].table_row for iid in IDS) == list(range(100, 114))


def test_translation_roles():
    assert copied_kwargs("copy:repeat_phrase") == {"phrase": "phrase"}  # the prompt quotes it
    for iid in ("copy:copy", "copy:copying_simple", "copy:copying_multiple", "new:copy_span_idx"):
        assert copied_kwargs(iid) == {"prompt_to_repeat": "request"}, iid  # the request itself
    assert lexical_kwargs("copy:repeat_phrase") == ("phrase",)
    assert lexical_kwargs("first_word:first_word_sent") == ("first_word",)
    assert lexical_kwargs("last_word:last_word_answer") == ("last_word",)
    assert lexical_kwargs("keywords:keyword_specific_position") == ("keyword",)
    assert lexical_kwargs("new:copy_span_idx") == ()


def test_defined_in_every_language():
    for code in list_languages():
        assert set(IDS) <= set(available_ids(get_profile(code))), code
        assert get_profile(code).word_list("proverbs"), code  # what copy:repeat_phrase draws from


def test_the_bundled_rows_pass_in_fixed_mode():
    rows = [r for r in load_rows("sample-open-instruct") if str(r.key).startswith("copy-")]
    assert {(r.language, r.instruction_id_list[0]) for r in rows} == {(c, i) for c in list_languages() for i in IDS}
    result = score("sample-open-instruct", "sample-open-instruct")
    mine = [s for s in result.scores if str(s.key).startswith("copy-")]
    assert len(mine) == len(rows) and all(s.prompt_strict for s in mine), [s.key for s in mine if not s.prompt_strict]


# -- open-instruct's English sentences ------------------------------------------------------------
@pytest.mark.parametrize("text,sentences", [
    ("Hello there. How are you?", ["Hello there.", "How are you?"]),
    ("Mr. Smith went to Washington. He came back.", ["Mr. Smith went to Washington.", "He came back."]),
    ("It costs 3.5 dollars... Cheap!", ["It costs 3.5 dollars...", "Cheap!"]),
    ('She said "stop." Then left', ['She said "stop".', "Then left"]),
    ("Visit www.site.com today", ["Visit www.", "site.com today"]),  # (only the dot before com is kept)
    ("", []),
    ("एक। दो।", ["एक। दो।"]),  # (the reference's splitter knows no danda)
])
def test_reference_sentences(text, sentences):
    assert reference_sentences(text) == sentences


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(st.sampled_from(["The ", "worm", " ", "\n", "x", "The worm", " worm ", "the", "Th"]),
                     max_size=25).map("".join),
       words=st.sampled_from([("The", "worm"), ("worm", "worm"), ("The", "The"), ("x", "x")]))
@example(text="The The The worm", words=("The", "worm"))
@example(text="The \n worm The x worm", words=("The", "worm"))
def test_phrase_matches_are_the_regex_matches(text, words):
    first, last = words
    assert phrase_matches(text, first, last) == re.findall(f"{first} .*? {last}", text)


# -- aksharas -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("क्षत्रिय", ["क्ष", "त्रि", "य"]),
    ("ಕನ್ನಡ", ["ಕ", "ನ್ನ", "ಡ"]),  # Unicode's clusters stop at the Kannada virama; an akshara does not
    ("ਕ੍ਰਿਸ਼ਨ", ["ਕ੍ਰਿ", "ਸ਼", "ਨ"]),
    ("தமிழ்", ["த", "மி", "ழ்"]),  # the Tamil pulli is visible: a consonant of its own
    ("कि ताब", ["कि", " ", "ता", "ब"]),
    ("کِتاب", ["کِ", "ت", "ا", "ب"]),
    ("", []),
])
def test_aksharas(text, expected):
    assert aksharas(text) == expected

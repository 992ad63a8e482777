"""Instruction descriptions rendered from the profiles' templates, with sampled kwargs."""

import dataclasses
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from indicifeval.checkers import (
    REGISTRY,
    DescriptionError,
    KwargError,
    available_ids,
    render_description,
)
from indicifeval.checkers import sample_kwargs as sample
from indicifeval.checkers.describe import join_list, templates_of
from indicifeval.languages import get_profile, indic_codes
from indicifeval.text.langid import identify_language
from indicifeval.text.normalize import nfc

INDIC = list(indic_codes())
LANGS = ["en", *INDIC]
REQUEST = "Write a short note about rain."


def _number_digits(iid: str, kwargs: dict) -> list[str]:
    return [str(kwargs[p.name]) for p in REGISTRY[iid].params if p.role == "number" and p.name in kwargs]


def _render_all(seed: int, lang: str):
    profile = get_profile(lang)
    for iid in available_ids(profile):  # (numbers:native_digits and language:romanized: not for en)
        kwargs = sample(iid, random.Random(seed), profile, request=REQUEST)
        yield iid, kwargs, render_description(iid, kwargs, profile)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_rendered_descriptions_are_complete_and_in_the_language(seed):
    for lang in LANGS:
        for iid, kwargs, text in _render_all(seed, lang):
            assert "{" not in text and "}" not in text, (lang, iid, text)
            for digits in _number_digits(iid, kwargs):
                assert digits in text, (lang, iid, digits, text)
            for name in ("keyword", "first_word", "end_phrase", "postscript_marker", "section_spliter", "letter"):
                if name in kwargs:
                    assert kwargs[name] in text, (lang, iid, name, text)
            for name in ("keywords", "forbidden_words"):
                for word in kwargs.get(name, ()):
                    assert word in text
            if iid == "language:response_language":
                assert get_profile(lang).name_of(kwargs["language"]) in text
            # Every template is long enough for its language to be identified; none needs an exception.
            if lang != "en":
                assert identify_language(text) == lang, (lang, iid, text)


def test_english_descriptions_are_ifeval_s():
    en = get_profile("en")
    assert render_description("length_constraints:number_words", {"num_words": 300, "relation": "at least"},
                              en) == "Answer with at least 300 words."
    assert render_description("keywords:existence", {"keywords": ["gate", "wall"]},
                              en) == "Include keywords 'gate' and 'wall' in the response."
    assert render_description("language:response_language", {"language": "fr"}, en) == (
        "Your ENTIRE response should be in French language, no other language is allowed.")


def test_relations_render_around_the_number():
    hi = get_profile("hi")
    words = "length_constraints:number_words"
    assert render_description(words, {"num_words": 150, "relation": "less than"}, hi) == (
        "आपका उत्तर 150 से कम शब्दों का होना चाहिए।")
    assert "कम से कम 150 शब्दों" in render_description(words, {"num_words": 150, "relation": "at least"}, hi)
    # Ground rows omit the relation; their prompts (and fixed-mode scoring) mean "exactly"
    assert "ठीक 2 बार" in render_description("keywords:frequency", {"keyword": "किसान", "frequency": 2}, hi)


def test_optional_kwargs_pick_their_template():
    ne = get_profile("ne")
    iid = "length_constraints:nth_paragraph_first_word"
    with_count = render_description(iid, {"num_paragraphs": 3, "nth_paragraph": 2, "first_word": "तर"}, ne)
    without = render_description(iid, {"nth_paragraph": 1, "first_word": "तर", "num_paragraphs": None}, ne)
    assert "3" in with_count and "'तर'" in with_count and "'तर'" in without and "3" not in without


def test_constrained_response_lists_the_fixed_mode_phrases():
    for lang in LANGS:
        profile = get_profile(lang)
        text = render_description("detectable_format:constrained_response", {}, profile)
        # as the checker compares them: NFC (the Assamese phrases keep the released, composed য়)
        assert all(nfc(phrase) in nfc(text) for phrase in profile.constrained_responses), lang


def test_repeat_prompt_refers_to_the_request_without_quoting_it():
    hi = get_profile("hi")
    text = render_description("combination:repeat_prompt", {"prompt_to_repeat": "कुछ भी"}, hi)
    assert "कुछ भी" not in text and "दोहराइए" in text


def test_lists_join_with_the_language_s_conjunction():
    texts = get_profile("bn").instruction_texts
    assert join_list(["নদী"], texts) == "'নদী'"
    assert join_list(["নদী", "নৌকা", "মাছ"], texts) == "'নদী', 'নৌকা' ও 'মাছ'"


def test_errors_name_what_is_missing():
    hi = get_profile("hi")
    with pytest.raises(KwargError) as info:
        render_description("keywords:frequency", {"frequency": 2}, hi)
    assert info.value.field == "keyword"
    with pytest.raises(KwargError):
        render_description("keywords:frequency", {"keyword": "घर", "frequency": "two"}, hi)
    bare = dataclasses.replace(hi, instruction_texts=None)
    with pytest.raises(DescriptionError, match="no instruction templates"):
        render_description("punctuation:no_comma", {}, bare)
    with pytest.raises(DescriptionError):
        templates_of("no:such_id", hi)


def test_real_nepali_rows_render(shared_rows):
    ne = get_profile("ne")
    count = 0
    for row in shared_rows:
        for iid, kwargs in zip(row["instruction_id_list"], row["kwargs"]):
            text = render_description(iid, kwargs, ne)
            assert not re.search(r"[{}]", text)
            count += 1
    assert count > 1000


@pytest.fixture(scope="module")
def shared_rows():
    import json

    from tests.conftest import shared_path

    rows = []
    for name in ("indicifeval-trans-ne.jsonl", "indicifeval-ground-ne.jsonl"):
        with shared_path("data", "indicifeval-ne", name).open(encoding="utf-8") as f:
            rows += [json.loads(line) for line in f]
    return rows

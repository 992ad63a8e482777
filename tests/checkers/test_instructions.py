"""The generation side of the registry: categories, kwarg roles, sampled kwargs, conflicts."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from indicifeval.checkers import (
    CATEGORY_NAMES,
    INSTRUCTION_IDS,
    PAPER_CATEGORY_NAMES,
    REGISTRY,
    ROLES,
    Draw,
    KwargError,
    Param,
    categories,
    category_of,
    clean_kwargs,
    compatible,
    conflicts,
    copied_kwargs,
    get_rules,
    kwarg_role,
    lexical_kwargs,
    resolve_args,
    sample_kwargs,
)
from indicifeval.languages import get_profile, list_languages
from indicifeval.scoring.categories import CATEGORIES, CATEGORY_OF

# IndicIFEval Table 3, verbatim (the order inside a category is the table's).
TABLE_3 = {
    "English": ("change_case:capital_word_frequency", "change_case:english_capital", "change_case:english_lowercase"),
    "Keyword": (
        "combination:repeat_prompt", "detectable_content:postscript", "detectable_format:constrained_response",
        "detectable_format:multiple_sections", "detectable_format:title", "keywords:existence",
        "keywords:forbidden_words", "keywords:frequency", "length_constraints:nth_paragraph_first_word",
        "punctuation:no_comma", "startend:end_checker", "keywords:letter_frequency", "startend:quotation",
    ),
    "Format": (
        "combination:two_responses", "detectable_content:number_placeholders", "detectable_format:json_format",
        "detectable_format:number_bullet_lists", "detectable_format:number_highlighted_sections",
    ),
    "Length": (
        "length_constraints:number_paragraphs", "length_constraints:number_sentences",
        "length_constraints:number_words",
    ),
    "Language": ("language:response_language",),
}
LEXICAL = {"keywords", "keyword", "forbidden_words", "end_phrase", "postscript_marker", "section_spliter",
           "first_word", "letter"}
REQUEST_REPEAT = "Write a short note about rain."
LANGS = list_languages()


# -- categories -----------------------------------------------------------------------------------
BEYOND = {
    "Numerals and units": ("numbers:native_digits", "numbers:ascii_digits", "numbers:spelled_out",
                           "numbers:indian_system", "numbers:international_system", "units:metric",
                           "units:imperial"),
    "Script": ("language:romanized",),
}


OWN_SUITES = ("ifeval", "beyond")  # the other suites' categories come after, labelled with the suite


def test_categories_are_table_3_then_the_two_beyond_the_paper():
    own = {name: ids for name, ids in CATEGORIES.items() if name in CATEGORY_NAMES}
    assert own == TABLE_3 | BEYOND
    assert list(CATEGORIES)[: len(own)] == [*TABLE_3, *BEYOND] == list(CATEGORY_NAMES)
    assert all(name.startswith(("RL ", "IFBench ")) for name in list(CATEGORIES)[len(own) :])
    assert list(PAPER_CATEGORY_NAMES) == list(TABLE_3)
    assert categories() == CATEGORIES
    assert all(REGISTRY[iid].fixed_only for ids in BEYOND.values() for iid in ids)
    assert not any(REGISTRY[iid].fixed_only for ids in TABLE_3.values() for iid in ids)


def test_every_id_has_exactly_one_category():
    placed = [iid for ids in CATEGORIES.values() for iid in ids]
    assert sorted(placed) == sorted(INSTRUCTION_IDS)  # each id once
    for iid in INSTRUCTION_IDS:
        assert CATEGORY_OF[iid] == category_of(iid) == REGISTRY[iid].category_label
        if REGISTRY[iid].suite in OWN_SUITES:
            assert REGISTRY[iid].category in CATEGORY_NAMES
    rows = sorted(spec.table_row for spec in REGISTRY.values() if spec.suite in OWN_SUITES)
    assert rows == list(range(1, len(rows) + 1))
    # the other suites' rows: their own ranges (open-instruct from 100, IFBench from 200), each row once
    for suite, start in (("open-instruct", 100), ("ifbench", 200)):
        rows = [spec.table_row for spec in REGISTRY.values() if spec.suite == suite]
        assert len(set(rows)) == len(rows) and all(start <= r < start + 100 for r in rows), suite


def test_a_category_must_be_one_of_the_paper_s():
    from indicifeval.checkers.registry import Checker

    with pytest.raises(ValueError, match="category"):
        Checker("x:y", lambda view, args, rules: (True, ""), category="Other")


# -- kwarg roles ----------------------------------------------------------------------------------
def test_lexical_kwargs_are_the_text_a_translation_must_carry():
    found = {name for iid in INSTRUCTION_IDS if REGISTRY[iid].suite in OWN_SUITES for name in lexical_kwargs(iid)}
    assert found == LEXICAL
    assert lexical_kwargs("keywords:frequency") == ("keyword",)
    assert lexical_kwargs("language:response_language") == ()
    assert lexical_kwargs("combination:repeat_prompt") == ()  # copied, not translated on its own


def test_every_kwarg_has_a_role():
    for iid in INSTRUCTION_IDS:
        for p in REGISTRY[iid].params:
            assert kwarg_role(iid, p.name) in ROLES
    assert kwarg_role("keywords:letter_frequency", "letter") == "letter"
    assert kwarg_role("keywords:letter_frequency", "let_relation") == "relation"
    assert kwarg_role("language:response_language", "language") == "language_code"
    assert kwarg_role("length_constraints:number_words", "num_words") == "number"
    assert kwarg_role("keywords:existence", "keywords") == "lexical"
    assert kwarg_role("combination:repeat_prompt", "prompt_to_repeat") == "copy_of_prompt"
    assert kwarg_role("startend:end_checker", "end_phrase") == "copy_of_prompt"
    assert copied_kwargs("combination:repeat_prompt") == {"prompt_to_repeat": "request"}
    assert copied_kwargs("startend:end_checker") == {"end_phrase": "phrase"}
    with pytest.raises(KwargError):
        kwarg_role("keywords:existence", "keyword")


def test_text_kwargs_must_declare_their_role():
    with pytest.raises(ValueError, match="role"):
        Param("phrase", "str")
    with pytest.raises(ValueError, match="copy_of"):
        Param("phrase", "str", role="copy_of_prompt")


# -- sampling -------------------------------------------------------------------------------------
def _check_sampled(seed: int, lang: str) -> None:
    profile = get_profile(lang)
    rules = get_rules(lang, "trans", "fixed")
    for iid in INSTRUCTION_IDS:
        kwargs = sample_kwargs(iid, random.Random(seed), profile, request=REQUEST_REPEAT)
        cleaned = clean_kwargs(iid, kwargs)
        assert cleaned == kwargs
        args = resolve_args(iid, cleaned, rules, Draw(seed, 0))
        assert set(args) == set(REGISTRY[iid].param_names)
        assert kwargs == sample_kwargs(iid, random.Random(seed), profile, request=REQUEST_REPEAT)  # deterministic


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_sampled_kwargs_are_valid_for_every_id_and_language(seed):
    for lang in LANGS:
        _check_sampled(seed, lang)


def test_sampled_kwargs_stay_in_ifeval_s_ranges():
    seen: dict[str, set] = {}
    for seed in range(300):
        for lang in ("hi", "en", "ta"):
            profile = get_profile(lang)
            for iid in INSTRUCTION_IDS:
                kwargs = sample_kwargs(iid, random.Random(seed), profile, request=REQUEST_REPEAT)
                for name, value in kwargs.items():
                    seen.setdefault(name, set()).update(value if isinstance(value, list) else [value])
                if iid == "length_constraints:nth_paragraph_first_word":
                    assert 1 <= kwargs["nth_paragraph"] <= kwargs["num_paragraphs"]
                if iid == "language:response_language":
                    assert kwargs["language"] in profile.language_names and kwargs["language"] != lang
                if iid == "keywords:letter_frequency":
                    assert kwargs["letter"] in profile.default_letters
                if iid == "keywords:existence":
                    assert len(kwargs["keywords"]) == 2 and set(kwargs["keywords"]) <= set(profile.default_keywords)
    assert seen["num_words"] <= set(range(100, 501, 50)) and len(seen["num_words"]) > 5
    assert seen["num_sentences"] == set(range(1, 21))
    assert seen["num_paragraphs"] == set(range(1, 6))
    assert seen["capital_frequency"] == set(range(1, 21))
    assert seen["let_frequency"] == set(range(1, 11))
    assert seen["frequency"] == set(range(1, 4))
    assert seen["num_placeholders"] == seen["num_highlights"] == set(range(1, 5))
    assert seen["num_bullets"] == seen["num_sections"] == set(range(1, 6))
    assert seen["relation"] == seen["let_relation"] == seen["capital_relation"] == {"less than", "at least"}


def test_same_seed_same_kwargs_and_the_request_is_needed():
    profile = get_profile("hi")
    draws = [sample_kwargs("length_constraints:number_words", random.Random(7), profile) for _ in range(3)]
    assert draws[0] == draws[1] == draws[2]
    assert sample_kwargs("combination:repeat_prompt", random.Random(1), profile, request="दोहराइए") == {
        "prompt_to_repeat": "दोहराइए"}
    with pytest.raises(ValueError, match="request"):
        sample_kwargs("combination:repeat_prompt", random.Random(1), profile)
    with pytest.raises(KeyError):
        sample_kwargs("no:such_id", random.Random(1), profile)


# -- conflicts ------------------------------------------------------------------------------------
def test_conflicts_are_symmetric_and_reflexive():
    for a in INSTRUCTION_IDS:
        assert a in conflicts(a)  # convention: an instruction is asked at most once per prompt
        assert conflicts(a) <= set(INSTRUCTION_IDS)
        for b in INSTRUCTION_IDS:
            assert (b in conflicts(a)) == (a in conflicts(b)), (a, b)


@pytest.mark.parametrize("a, b", [
    ("language:response_language", "change_case:english_capital"),
    ("language:response_language", "change_case:english_lowercase"),
    ("language:response_language", "change_case:capital_word_frequency"),
    ("language:response_language", "keywords:existence"),
    ("language:response_language", "keywords:frequency"),
    ("language:response_language", "keywords:forbidden_words"),
    ("language:response_language", "startend:end_checker"),
    ("language:response_language", "detectable_format:multiple_sections"),
    ("length_constraints:number_paragraphs", "length_constraints:nth_paragraph_first_word"),
    ("length_constraints:number_paragraphs", "length_constraints:number_sentences"),
    ("change_case:english_capital", "change_case:english_lowercase"),
    ("startend:quotation", "detectable_format:title"),
    ("startend:quotation", "combination:repeat_prompt"),
    ("startend:quotation", "detectable_format:json_format"),
    ("combination:repeat_prompt", "startend:end_checker"),
    ("combination:repeat_prompt", "detectable_format:json_format"),
    ("detectable_format:json_format", "detectable_format:number_bullet_lists"),
    ("detectable_format:constrained_response", "punctuation:no_comma"),
    ("detectable_format:multiple_sections", "detectable_format:number_highlighted_sections"),
    ("combination:two_responses", "startend:end_checker"),
])
def test_ifeval_conflicts(a, b):
    assert b in conflicts(a) and not compatible([a, b])


@pytest.mark.parametrize("a, b", [
    ("combination:repeat_prompt", "keywords:existence"),
    ("combination:repeat_prompt", "detectable_format:title"),
    ("combination:repeat_prompt", "punctuation:no_comma"),
    ("detectable_format:json_format", "keywords:forbidden_words"),
    ("combination:two_responses", "language:response_language"),
    ("language:response_language", "punctuation:no_comma"),
    ("keywords:existence", "keywords:frequency"),
    ("startend:quotation", "startend:end_checker"),
])
def test_ifeval_compatible_pairs(a, b):
    assert b not in conflicts(a) and compatible([a, b])


def test_compatible():
    assert compatible([])
    assert compatible(["punctuation:no_comma", "keywords:existence", "length_constraints:number_words"])
    assert not compatible(["punctuation:no_comma", "punctuation:no_comma"])
    assert not compatible(["keywords:existence", "punctuation:no_comma", "detectable_format:constrained_response"])
    with pytest.raises(KeyError):
        conflicts("no:such_id")

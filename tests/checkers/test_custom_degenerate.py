"""IFBench's custom:* and sentence:* checkers on degenerate answers, in every language where each
is defined: no exception and an explanation for any answer (the check itself, so blank answers
too, which the engine fails before asking it), and time that grows linearly with the answer's
length, also where the reference's own pattern backtracks."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from indicifeval.checkers import REGISTRY, TextView, available_ids, get_rules, resolve_args
from indicifeval.languages import get_profile, list_languages
from tests.checkers.test_linear_time import cpu_growth, degenerate, scorer
from tests.conftest import make_row

IDS = sorted(iid for iid, spec in REGISTRY.items() if spec.suite == "ifbench"
             and (iid.startswith("custom:") or iid in ("sentence:keyword", "sentence:increment",
                                                       "sentence:alliteration_increment")))
KWARGS = {"sentence:keyword": {"word": "क", "N": 2}, "sentence:increment": {"small_n": 1}}
ANSWERS = (
    "", " ", "\n", "\n\n\n", "\t \u3000", "\u200b", "\u200c\u200d", "\ufeff", "x" * 100_000, "क्" * 30_000,
    "ক" * 50_000, "😀", "😀 🌧️ 🇮🇳 1️⃣ 👍🏽", "!!!", "।।।", "...", "۔۔۔", ",,,", "،،،", '"', '""', '"' * 501, "\t\"\t",
    "Hello мир 你好 שלום مرحبا", "\x00\x1c\x1f", "e\u0301" * 50, "\u094d\u093f\u0902", "\u0bca\u0bcd", "Question",
    "Question 1", "प्रश्न 1\n(क)", "سوال 1\n(الف) ب", "ID,Country,City,Year,Count", "1805-00-00", "१८०५-१२-०२।",
    "14, 21, 28, 35, 42, 49", "Zimbabwe\n" * 60, "elgae dlab", "लगई ल्डबा", "क। " * 3000, "\u200d" * 500,
)
WHERE = [(iid, code) for iid in IDS for code in list_languages() if iid in available_ids(get_profile(code))]


def test_the_part_s_ids_are_all_here():
    assert len(IDS) == 14


@pytest.mark.parametrize("iid,code", WHERE, ids=[f"{i}-{c}" for i, c in WHERE])
def test_degenerate_answers_never_raise(iid, code):
    rules = get_rules(code, "trans", "fixed")
    args = resolve_args(iid, KWARGS.get(iid, {}), rules, None)  # type: ignore[arg-type]
    for text in ANSWERS:
        ok, why = REGISTRY[iid].fn(TextView(text, rules), args, rules)
        assert isinstance(ok, bool) and isinstance(why, str) and why, (iid, code, text[:20])


OLD_SPECIAL = re.compile(r'".*[^\d\w\s].*"')


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.lists(st.sampled_from(list('"!a1 \n\t_-क\u093f') + ['""', "।"]), max_size=12).map("".join))
@example('"""')
@example('""')
@example('"!\n"')
@example('"a!"b')
def test_the_special_field_test_is_the_reference_s_pattern(field):
    from indicifeval.checkers.ifbench.custom_csv import reference_special

    assert reference_special(field) == (OLD_SPECIAL.match(field) is not None)


PRODUCTS = "ProductID,Category,Brand,Price,Stock\n" + "1,a,b,c,d\n" * 13 + '1,a,b,c,"'
STUDENTS = '"StudentID"\t"Subject"\t"Grade"\t"Semester"\t"Score"\n'


def after(prefix: str, pattern: str):
    return lambda size, run: prefix + "xyzwvu"[run % 6] + pattern * (size // len(pattern))


# (instruction, kwargs, answer maker, language): the answers that stress each check's loops
SCALING = [
    ("custom:csv_special_character", {}, after(PRODUCTS, "!"), "en"),  # the reference's pattern is quadratic here
    ("custom:csv_special_character", {}, after(PRODUCTS.replace("ProductID,Category,Brand,Price,Stock",
                                                                 "उत्पाद आईडी,श्रेणी,ब्रांड,मूल्य,स्टॉक"), "!"), "hi"),
    ("custom:csv_quotes", {}, after(STUDENTS, '"\t'), "en"),
    ("custom:csv_city", {}, degenerate('"'), "hi"),
    ("custom:mcq_count_length", {}, after("Question 1", "\n"), "en"),
    ("custom:mcq_count_length", {}, after("प्रश्न 1\n", "(क) x\n"), "hi"),
    ("custom:reverse_newline", {}, after("Zimbabwe\n", "Zambia\n"), "en"),
    ("custom:reverse_newline", {}, degenerate("क\n"), "hi"),
    ("custom:reverse_newline", {}, degenerate("ب\n"), "ur"),
    ("custom:sentence_alphabet", {}, degenerate("a. "), "en"),
    ("custom:sentence_alphabet", {}, degenerate("க. "), "ta"),
    ("custom:word_reverse", {}, degenerate("eagle bald "), "en"),
    ("custom:word_reverse", {}, degenerate("ঈগল "), "bn"),
    ("custom:character_reverse", {}, degenerate("elgae "), "en"),
    ("custom:character_reverse", {}, degenerate("क्ष"), "hi"),
    ("custom:european_capitals_sort", {}, degenerate("Oslo, "), "en"),
    ("custom:european_capitals_sort", {}, degenerate("ओस्लो, "), "mr"),
    ("custom:date_format_list", {}, degenerate("1805-12-02, "), "en"),
    ("custom:date_format_list", {}, degenerate("१८०५-१२-०२, "), "hi"),
    ("custom:multiples", {}, degenerate("14 "), "en"),
    ("sentence:keyword", {"word": "a", "N": 3}, degenerate("a. "), "en"),
    ("sentence:keyword", {"word": "क", "N": 3}, degenerate("क। "), "hi"),
    ("sentence:increment", {"small_n": 1}, degenerate("a b. "), "en"),
    ("sentence:increment", {"small_n": 1}, degenerate("ক খ। "), "bn"),
    ("sentence:alliteration_increment", {}, degenerate("b b. "), "en"),
    ("sentence:alliteration_increment", {}, degenerate("க கா. "), "ta"),
]


@pytest.mark.parametrize("iid,kwargs,make,code", SCALING, ids=[f"{c[0]}-{c[3]}-{i}" for i, c in enumerate(SCALING)])
def test_time_grows_linearly(iid, kwargs, make, code):
    ratio = cpu_growth(scorer(iid, kwargs, code, "fixed"), make, 3000)
    assert ratio < 30, f"{iid} in {code}: {ratio:.1f}x the time for 8x the text"


def test_a_long_answer_is_scored_quickly():
    """100,000 characters of a near-miss CSV answer: well under a second (the pattern the
    reference uses took minutes)."""
    import time

    from indicifeval.scoring.engine import score_row

    text = PRODUCTS + "!" * 100_000
    start = time.process_time()
    score_row(make_row("custom:csv_special_character", {}, "en"), text, "fixed")
    assert time.process_time() - start < 5

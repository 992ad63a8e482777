"""The counting ids (open-instruct's, checkers/open_instruct/counts_*.py) on degenerate answers,
in every language where each is defined: never an exception, always a reason, and time that
grows linearly with the answer (how CPU time grows from n to 8n characters: about 8x when
linear, 64x when quadratic; asserted below 30, as in test_linear_time)."""

from __future__ import annotations

import re
import time
import unicodedata

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from indicifeval.checkers import REGISTRY, TextView, available_ids, clean_kwargs, get_rules, resolve_args
from indicifeval.languages import get_profile, list_languages
from indicifeval.text.normalize import star_removal_keeps_nfc
from tests.checkers.test_linear_time import cpu_growth, degenerate, scorer

KWARGS = {
    "keywords:no_adjacent_consecutive": {},
    "keywords:word_once": {"keyword": "किताब"},
    "keywords:word_count_different_numbers": {"keyword": "a", "frequency": 2, "relation": "at least"},
    "keywords:exclude_word_harder": {"keyword": "क"},
    "keywords:palindrome": {},
    "letters:letter_counting": {"N": 50, "relation": "at least"},
    "letters:letter_counting2": {"letter": "क", "let_frequency": 3, "let_relation": "at least"},
    "count:lowercase_counting": {"N": 2},
    "count:counting_composition": {"n_sent": 2, "n_words": 3},
    "count:count_unique": {},
    "count:count_increment_word": {"keyword1": "a", "keyword2": "क"},
    "punctuation:punctuation_dot": {},
    "punctuation:punctuation_exclamation": {},
    "detectable_format:sentence_hyphens": {},
    "detectable_format:square_brackets": {},
}
IDS = sorted(KWARGS)
BIG = 100_000
DEGENERATE = [
    "", " ", "\n\n\n", "\t \u3000", "\u200b\u200c\u200d\ufeff", "\u094d", "\u093f\u093f", "।", "۔۔۔", "...", "-", "***",
    "[", "]", "[]", "!" * 50, "😀👍🏽👨‍👩‍👧" * 20, "Привет мир. 你好，世界。", "a" * BIG, "क" * BIG, "क्" * (BIG // 2),
    "ಕ್" * (BIG // 2), "a " * (BIG // 2), "क " * (BIG // 2), "। " * (BIG // 2), ".-" * (BIG // 2), "[a] " * (BIG // 4),
    "*** " * (BIG // 4), "a" * BIG + "é", "x" + "\n" * BIG + "x", "مم " * (BIG // 3), "नमस्ते दुनिया। Hello world! 123.",
]


@pytest.mark.parametrize("iid", IDS)
def test_never_raises_and_always_explains(iid):
    assert {i for i, c in REGISTRY.items() if c.suite == "open-instruct" and 115 <= c.table_row <= 129} == set(IDS)
    slowest = 0.0
    for code in list_languages():
        if iid not in available_ids(get_profile(code)):
            continue
        rules = get_rules(code, "trans", "fixed")
        args = resolve_args(iid, clean_kwargs(iid, KWARGS[iid]), rules, None)  # type: ignore[arg-type]
        for text in DEGENERATE:
            start = time.process_time()
            ok, why = REGISTRY[iid].fn(TextView(text, rules), args, rules)
            slowest = max(slowest, time.process_time() - start)
            assert isinstance(ok, bool) and isinstance(why, str) and why, (code, text[:20])
    assert slowest < 2.0, f"{iid}: {slowest:.2f} s on one degenerate answer"


def test_lowercase_counting_is_refused_where_the_script_has_no_case():
    spec = REGISTRY["count:lowercase_counting"]
    for code in list_languages():
        why = spec.unavailable(get_profile(code), paper=False)
        assert (why is None) == (code == "en"), (code, why)
    assert "no lower and upper case" in spec.unavailable(get_profile("ta"), paper=False)


# (pattern, languages): answers that could make a careless rewrite quadratic
SCALING = [
    ("a", ("en",)), ("aé ", ("en",)), ("a. ", ("en", "hi")), (".-", ("en", "hi")), ("।-", ("hi",)), ("-", ("en", "hi")),
    ("!", ("en", "hi")), ("[", ("en", "hi")), ("[a", ("hi",)), ("***", ("en", "hi")), ("क्", ("hi",)),
    ("ಕ್", ("kn",)), ("मामा ", ("hi",)), ("a ", ("en", "ur")),
]


@pytest.mark.parametrize("iid", IDS)
def test_time_grows_linearly(iid):
    for pattern, languages in SCALING:
        for code in languages:
            if iid not in available_ids(get_profile(code)):
                continue
            ratio = cpu_growth(scorer(iid, KWARGS[iid], code, "fixed"), degenerate(pattern), 1500)
            assert ratio < 30, f"{iid} ({code}) on {pattern!r}: {ratio:.1f}x the time for 8x the text"


# --- star runs: whether a loose variant without '*' may be cut from the NFC form ---------------------
OLD_STAR_JUNCTION = re.compile("(?<=(.))\\*+(?=([^\x00-\u02ff]))", re.DOTALL)  # the old, quadratic pattern


def old_star_removal_keeps_nfc(text: str) -> bool:
    for match in OLD_STAR_JUNCTION.finditer(text):
        before, after = match.group(1), match.group(2)
        if unicodedata.combining(after) or unicodedata.normalize("NFC", before + after) != before + after:
            return False
    return True


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["*", "**", "a", "e", "\u0301", "\u0308", "क", "\u093c", "\u093f", "\u1100", "\u1161",
                                 "\u0bc6", "\u0bbe", "\n", " "]), max_size=14).map("".join))
@example("*\u0301")
@example("**\u0301")
@example("a*\u0301")
@example("क**\u093c")
def test_star_junctions_as_the_old_pattern(text):
    """Where the old pattern said yes, so does the new one; where the new one says yes (the
    compiled NFC check also clears a mark after stars that stays where it is), it is true."""
    text = unicodedata.normalize("NFC", text)
    kept = star_removal_keeps_nfc(text)
    if old_star_removal_keeps_nfc(text):
        assert kept
    if kept:
        starless = text.replace("*", "")
        assert unicodedata.normalize("NFC", starless) == starless


def test_a_long_star_run_is_read_once():
    ratio = cpu_growth(star_removal_keeps_nfc, degenerate("***"), 3000)
    assert ratio < 30, f"{ratio:.1f}x the time for 8x the stars"

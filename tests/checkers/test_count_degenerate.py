"""IFBench's count:, ratio: and repeat: checkers on degenerate answers: every id in every
language answers (a verdict and a reason, never an exception) on empty, blank, zero-width,
emoji-only, other-script, one-long-word and 100k-character answers, and its time grows
linearly with the answer (CPU time for 8x the text well under 64x, as in test_linear_time)."""

from __future__ import annotations

import pytest

from indicifeval.checkers import REGISTRY, TextView, available_ids, clean_kwargs, get_rules, resolve_args
from indicifeval.languages import get_profile, list_languages
from tests.checkers.test_linear_time import cpu_growth, degenerate
from tests.checkers.test_properties import KWARGS

IDS = ["count:conjunctions", "count:keywords_multiple", "count:numbers", "count:person_names", "count:pronouns",
       "count:punctuation", "count:unique_word_count", "count:word_count_range", "count:words_japanese",
       "ratio:overlap", "ratio:sentence_balance", "ratio:sentence_type", "ratio:sentence_words", "ratio:stop_words",
       "repeat:repeat_change", "repeat:repeat_simple", "repeat:repeat_span"]
DEGENERATE = {
    "empty": "",
    "spaces": " \t \n ",
    "zero-width": "\u200b\u200c\u200d\ufeff" * 50,
    "emoji": "🙂🎉👍🏽❤️" * 100,
    "other scripts": "Привет мир. 你好世界。 مرحبا بالعالم؟ שלום עולם!",
    "one long word": "क्ष" * 5000,
    "punctuation only": ".,;:!?।॥۔؟‽" * 300,
    "marks alone": "\u093f\u094d\u0952" * 500,
    "100k characters": ("नमस्ते दुनिया। Hello world?! 日本 42, 1,000; ঠিক আছে! " * 2000)[:100_000],
}


def _check(iid: str, language: str, text: str):
    rules = get_rules(language, "trans", "fixed")
    args = resolve_args(iid, clean_kwargs(iid, KWARGS[iid]), rules, None)  # type: ignore[arg-type]
    return REGISTRY[iid].fn(TextView(text, rules), args, rules)


@pytest.mark.parametrize("language", list_languages())
@pytest.mark.parametrize("iid", IDS)
def test_every_degenerate_answer_gets_a_verdict(iid, language):
    assert iid in KWARGS
    if iid not in available_ids(get_profile(language)):
        pytest.skip(f"{iid} is not defined for {language}")
    for name, text in DEGENERATE.items():
        if name == "100k characters" and language not in ("en", "hi", "ta", "ur"):
            continue  # (the long answer once per script family is enough for the time budget)
        ok, why = _check(iid, language, text)
        assert isinstance(ok, bool) and isinstance(why, str) and why, (name, ok, why)
        if not text.strip() and language != "en":  # (English's reference passes 0:0 ratios vacuously)
            assert not ok, (name, why)


PATTERNS = ("क्ष ", "क्", "a.", "?!", "日本 ", "\n", "1,", "और, ")


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize("iid", IDS)
def test_time_grows_linearly(iid, language):
    for pattern in PATTERNS:
        ratio = cpu_growth(lambda text: _check(iid, language, text), degenerate(pattern), 2000, repeat=3)
        assert ratio < 30, f"{iid} on {pattern!r} ({language}): {ratio:.1f}x the time for 8x the text"

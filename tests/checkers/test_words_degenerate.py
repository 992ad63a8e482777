"""IFBench's words:* checkers on degenerate answers, in every language that defines them: they never
raise, always explain, and take time linear in the answer's length (the scaling measure of
test_linear_time: CPU time from n to 8n characters, about 8x when linear)."""

from __future__ import annotations

import pytest

from indicifeval.checkers import REGISTRY, TextView, available_ids, clean_kwargs, get_rules, resolve_args
from indicifeval.languages import get_profile, list_languages
from tests.checkers.test_linear_time import cpu_growth, degenerate, scorer

IDS = sorted(i for i, spec in REGISTRY.items() if spec.suite == "ifbench" and i.startswith("words:"))
KWARGS = {"words:repeats": {"small_n": 2}, "words:keywords_specific_position": {"keyword": "क", "n": 2, "m": 3},
          "words:words_position": {"keyword": "क"}}
DEGENERATE = ["", " ", "\n\n\n", "\u200b\u200d\u200c", "x" * 100_000, "क्" * 20_000, "अ " * 30_000, "😀" * 500,
              "।।।", "....", "Ωμέγα русский 中文 日本語", "\u094d\u093f\u0d4d", "a\u0301" * 1000, "**\n- \n#", "۔؟،",
              "ப்" * 5000, "ൻൽ" * 3000, "ੱੱ" * 1000, "آ" * 100, "12321 " * 2000]


@pytest.mark.parametrize("lang", list_languages())
def test_never_raises_and_explains(lang):
    rules = get_rules(lang, "trans", "fixed")
    for iid in IDS:
        if iid not in available_ids(get_profile(lang)):
            continue
        args = resolve_args(iid, clean_kwargs(iid, KWARGS.get(iid, {})), rules, None)  # type: ignore[arg-type]
        for text in DEGENERATE:
            ok, why = REGISTRY[iid].fn(TextView(text, rules), args, rules)
            assert isinstance(ok, bool) and why, (lang, iid, text[:20])


# (pattern, language): one long word, many words, conjunct chains, joiners, terminators
SCALING = [("क्ष", "hi"), ("नवजीवन ", "hi"), ("क।", "hi"), ("\u200d", "hi"), ("விகடகவி ", "ta"), ("a. ", "en"),
           ("level ", "en"), ("x", "en")]


@pytest.mark.parametrize("iid", IDS)
def test_time_grows_linearly(iid):
    for pattern, lang in SCALING:
        if iid not in available_ids(get_profile(lang)):
            continue
        ratio = cpu_growth(scorer(iid, KWARGS.get(iid, {}), lang, "fixed"), degenerate(pattern), 2000)
        assert ratio < 30, f"{iid} on {pattern!r} ({lang}): {ratio:.1f}x the time for 8x the text"

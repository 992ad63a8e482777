"""The format:* checkers on degenerate answers, in every language where each is defined: no
exception and an explanation for any answer (the check itself, so blank answers too, which the
engine fails before asking it), and time that grows linearly with the answer's length."""

from __future__ import annotations

import pytest

from indicifeval.checkers import REGISTRY, TextView, available_ids, get_rules, resolve_args
from indicifeval.languages import get_profile, list_languages
from tests.checkers.test_linear_time import cpu_growth, degenerate, scorer

IDS = sorted(iid for iid, spec in REGISTRY.items() if spec.suite == "ifbench" and iid.startswith("format:"))
KWARGS = {"format:list": {"sep": "-"}, "format:options": {"options": "हाँ/नहीं/शायद"}}
ANSWERS = (
    "", " ", "\n", "\n\n\n", "\t \u3000", "\u200b", "\u200c\u200d", "\ufeff", "x" * 100_000, "क्" * 30_000,
    "😀", "😀 🌧️ 🇮🇳 1️⃣ 👍🏽", "!!!", "।।।", "...", "*", "**", "-", "* \n- \n*", "<i>", "<em></em>", "</i><i>",
    "((((((", ")))))", "\"'\"'\"'", "“‘“", "”’”", "'", "ল'ৰা", "a) b)", "Hello мир 你好 שלום مرحبا",
    "\x00\x1c\x1f", "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"), "e\u0301" * 50,
    "\u094d\u093f\u0902", "My Answer:", "\n  \n    \n", "• • •", "#" * 500, "क।" * 5000,
)
WHERE = [(iid, code) for iid in IDS for code in list_languages() if iid in available_ids(get_profile(code))]


@pytest.mark.parametrize("iid,code", WHERE, ids=[f"{i}-{c}" for i, c in WHERE])
def test_degenerate_answers_never_raise(iid, code):
    rules = get_rules(code, "trans", "fixed")
    args = resolve_args(iid, KWARGS.get(iid, {}), rules, None)  # type: ignore[arg-type]
    for text in ANSWERS:
        ok, why = REGISTRY[iid].fn(TextView(text, rules), args, rules)
        assert isinstance(ok, bool) and isinstance(why, str) and why, (iid, code, text[:20])


def test_title_case_is_refused_where_the_script_has_no_capitals():
    spec = REGISTRY["format:title_case"]
    assert spec.unavailable(get_profile("en"), paper=False) is None
    for code in list_languages():
        if code != "en":
            why = spec.unavailable(get_profile(code), paper=False)
            assert why and "no capital letters" in why, code
    assert all(spec.unavailable(get_profile(code), paper=True) for code in list_languages())  # fixed mode only


# (instruction, pattern, language): the answers that stress each check's loops
SCALING = [
    ("format:emoji", "क। ", "hi"), ("format:emoji", "a. ", "en"), ("format:emoji", "😀", "ta"),
    ("format:line_indent", " \n", "bn"), ("format:list", "-\n", "hi"), ("format:newline", "w\n", "ur"),
    ("format:no_bullets_bullets", "a. b\n", "en"), ("format:no_bullets_bullets", "* क\n", "hi"),
    ("format:options", "हाँ ", "hi"), ("format:output_template", "मेरा ", "hi"),
    ("format:parentheses", "([{", "en"), ("format:quote_unquote", "\"a\" ", "ml"), ("format:quote_unquote", "'", "as"),
    ("format:quotes", "\"'", "en"), ("format:quotes", "“‘", "te"), ("format:sub-bullets", "* x\n", "kn"),
    ("format:thesis", "<i>", "en"), ("format:title_case", "Ab cd ", "en"),
]


@pytest.mark.parametrize("iid,pattern,code", SCALING, ids=[f"{c[0]}-{c[1]!r}-{c[2]}" for c in SCALING])
def test_time_grows_linearly(iid, pattern, code):
    ratio = cpu_growth(scorer(iid, KWARGS.get(iid, {}), code, "fixed"), degenerate(pattern), 3000)
    assert ratio < 30, f"{iid} on {pattern!r}: {ratio:.1f}x the time for 8x the text"

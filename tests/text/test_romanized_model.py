"""language:romanized's n-gram model: the stored table is what the build makes from the project's
own text, hand-written chat spellings are read right in every language, degenerate answers stay
linear, and the romaniser spells the scripts as people type them."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import pytest

from indicifeval.checkers import REGISTRY, TextView, get_rules
from indicifeval.core.errors import InputError
from indicifeval.scoring.engine import score_row
from indicifeval.text.romanize import romanize
from indicifeval.text.romanized import MODEL_PATH
from indicifeval.text.romanized_build import build, dumps
from tests.conftest import make_row

CASES = json.loads((Path(__file__).parents[1] / "fixtures" / "romanized" / "colloquial.json").read_text("utf-8"))
LANGUAGES = [c for c in CASES if c != "about"]
SAME = {"hi": {"ur"}, "ur": {"hi"}}


def check(text: str, language: str) -> tuple[bool, str]:
    rules = get_rules(language, "trans", "fixed")
    return REGISTRY["language:romanized"].fn(TextView(text, rules), {}, rules)


def test_stored_table_is_the_rebuild():
    assert MODEL_PATH.read_bytes() == dumps(build()), "rebuild it: python -m indicifeval.text.romanized_build"
    assert MODEL_PATH.stat().st_size < 400_000
    assert gzip.decompress(MODEL_PATH.read_bytes()).isascii()


def test_colloquial_answers():
    """Each hand-written answer accepted for its language and refused for every other; at most one
    miss in the 112."""
    wrong = []
    for language in LANGUAGES:
        for text in CASES[language]:
            accepted = {t for t in LANGUAGES if check(text, t)[0]}
            if accepted != {language} | SAME.get(language, set()):
                wrong.append((language, sorted(accepted), text))
    assert len(wrong) <= 1, wrong
    assert all(sum(w[0] == language for w in wrong) <= 1 for language in LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_issues_kannada_and_each_languages_first_case(language):
    ok, why = check(CASES[language][0], language)
    assert ok, why
    assert "read as romanised" in why


@pytest.mark.parametrize("text,why", [
    ("My village is a small place near Mysuru. It is very green, with fields and gardens everywhere.", "English"),
    ("ನನ್ನ ಊರು ಮೈಸೂರು ಹತ್ತಿರ ಇರುವ ಒಂದು ಚಿಕ್ಕ ಹಳ್ಳಿ.", "of the letters are Latin"),
    ("Enakku romba pidicha saapadu dosai thaan, amma kaalaila sooda sooda suttu tharuvaanga.", "Tamil"),
    ("", "no letters"),
    ("Mysuru", "1 word in Latin letters"),
])
def test_refused_for_kannada(text, why):
    ok, reason = check(text, "kn")
    assert not ok and why in reason


def test_english_rows_have_no_romanized_instruction():
    with pytest.raises(InputError, match="written in Latin letters already"):
        score_row(make_row("language:romanized", {}, "en"), "Main aaj bahut khush hoon", "fixed")


def test_degenerate_answers_stay_linear():
    check("warm up the model", "hi")
    for text in ("a" * 1_000_000, "a " * 500_000, "ab" * 500_000, "Main " * 200_000):
        start = time.perf_counter()
        ok, why = check(text, "hi")
        assert isinstance(ok, bool) and why
        assert time.perf_counter() - start < 5
    assert not check("a" * 1_000_000, "hi")[0]


@pytest.mark.parametrize("language,native,latin", [
    ("kn", "ನನಗೆ ತುಂಬಾ ಇಷ್ಟ", {"nanage thumba ishta", "nanage tumba ishta", "nanage thumbaa ishta"}),
    ("hi", "हम समझते हैं", {"ham samajhte hain", "ham samajhte haim"}),
    ("ta", "எனக்கு ரொம்ப", {"enakku romba"}),
    ("as", "ৰাজধানী", {"raajdhani", "rajdhani", "raajdhaani", "rajdhaani", "raajodhani"}),
    ("as", "কেৱল", {"kebol", "kebal", "kewol", "kewal"}),
])
def test_informal_romanisation(language, native, latin):
    spelled = {romanize(native, language, "informal", seed) for seed in range(3)}
    assert spelled & latin, spelled
    assert romanize(native, language, "itrans").isascii()


def test_profile_spellings_are_checked():
    from indicifeval.languages.numerals import romanized_from_json

    assert romanized_from_json({"words": ["ase"], "spellings": {"@": "o a", "NG K": "ng"}}).spellings["@"] == "o a"
    for bad in ({"s": "x"}, {"S": "x  h"}, {"S": "X"}, {"S": ["x"]}, ["S"]):
        with pytest.raises(ValueError, match="spellings"):
            romanized_from_json({"words": ["ase"], "spellings": bad})

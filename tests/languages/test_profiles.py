"""Every language profile, shipped or added in $INDICIFEVAL_PROFILE_PATH, has the keys the
scorer and the generation side read, with the right types and consistent values."""

import json
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indicifeval.checkers import REGISTRY, available_ids
from indicifeval.checkers.describe import NAME, placeholders
from indicifeval.checkers.registry import RELATIONS
from indicifeval.languages import get_profile, list_languages, reload_profiles, script_ranges, world_languages
from indicifeval.languages.profile import PROFILE_PATH_ENV


def _str(v):
    return isinstance(v, str) and v != ""


def _strs(v, nonempty=True):
    return isinstance(v, list) and (v or not nonempty) and all(_str(x) for x in v)


TOP = {
    "code": _str, "name": _str, "native_name": _str, "script": _str,
    "text_rules": lambda v: v in ("indic", "ifeval"),
    "sentence_terminators": _strs, "abbreviations": lambda v: _strs(v, nonempty=False), "comma_chars": _strs,
    "quote_pairs": lambda v: isinstance(v, list) and v and all(isinstance(p, list) and len(p) == 2 and all(map(_str, p))
                                                            for p in v),
    "constrained_responses": _strs,
    "language_names": lambda v: isinstance(v, dict) and v and all(_str(k) and _str(x) for k, x in v.items()),
    "defaults": lambda v: isinstance(v, dict), "paper": lambda v: isinstance(v, dict),
    "instructions": lambda v: isinstance(v, dict),
}
def _endings(v) -> bool:
    lists = [v.get(k) for k in ("endings", "words", "except")] if isinstance(v, dict) else [None]
    return (isinstance(v, dict) and any(lists[:2]) and all(x is None or x == [] or _strs(x) for x in lists)
            and isinstance(v.get("min_words"), int) and isinstance(v.get("min_share"), (int, float))
            and 0 <= v["min_share"] <= 1)


OPTIONAL = {"distinctive_letters": _str, "subsets": _strs, "codes": lambda v: isinstance(v, dict),
            "distinctive_endings": _endings}
DEFAULTS = {"end_phrases": _strs, "section_splitters": _strs, "postscript_markers": _strs, "keywords": _strs,
            "letters": _str}
PAPER = {
    "constrained_responses_trans": _strs, "constrained_responses_ground": _strs,
    "ground_first_word_strips_star": lambda v: isinstance(v, bool),
    "word_tokenizer": lambda v: v in ("indic", "urdu", "ifeval"),
    "langdetect_code": lambda v: v is None or _str(v),
}
INSTRUCTIONS = {
    "status": _str,
    "relations": lambda v: isinstance(v, dict) and set(v) == set(RELATIONS)
    and all(_str(x) and x.count("{n}") == 1 for x in v.values()),
    "lists": lambda v: isinstance(v, dict) and set(v) == {"quote", "separator", "last_separator"}
    and _strs(v["quote"]) and len(v["quote"]) == 2 and _str(v["separator"]) and _str(v["last_separator"]),
    "templates": lambda v: isinstance(v, dict) and all(_str(t) or _strs(t) for t in v.values()),
}


def _check_keys(block: dict, spec: dict, where: str, optional: dict | None = None):
    missing = set(spec) - set(block)
    assert not missing, f"{where}: missing {sorted(missing)}"
    for key, ok in {**spec, **(optional or {})}.items():
        if key in block:
            assert ok(block[key]), f"{where}: {key} has the wrong type or is empty: {block[key]!r}"


def _in_script(text: str, script: str) -> bool:
    ranges = script_ranges()[script]
    return all(any(lo <= ord(ch) <= hi for lo, hi in ranges) for ch in text)


def _letters(text: str) -> str:
    return "".join(ch for ch in text if unicodedata.category(ch)[0] in "LM")


def check_templates(code: str, templates: dict):
    """A template for every id; its placeholders are exactly the kwargs a description names (all
    but the request that repeat_prompt copies); variants only drop optional kwargs."""
    odd = sorted(set(available_ids(get_profile(code))) ^ set(templates))
    assert not odd, f"{code}: templates for {odd} missing or unknown"
    for iid, variants in templates.items():
        variants = [variants] if isinstance(variants, str) else variants
        params = [p for p in REGISTRY[iid].params if p.shown]
        shown = {p.name for p in params}
        required = {p.name for p in params if p.required}
        sets = []
        for t in variants:
            names = set(placeholders(t))  # a name may come back, as the section splitter's example does
            assert required <= names <= shown, f"{code} {iid}: placeholders {sorted(names)}, kwargs {sorted(shown)}"
            bare = re.sub(r"\{" + NAME + r"\}", "", t)
            assert not bare.count("{") and "}" not in bare
            assert unicodedata.is_normalized("NFC", t), f"{code} {iid}: not NFC"
            for p in REGISTRY[iid].params:
                if p.role == "relation":  # "{relation} {num}" is one unit, nothing glued after it
                    unit = r"\{" + p.name + r"\} \{" + NAME + r"\}(?!\w)"
                    assert re.search(unit, t), f"{code} {iid}: {{{p.name}}} {t!r}"
            sets.append(frozenset(names))
        assert frozenset(shown) in sets, f"{code} {iid}: no template names every kwarg"
        assert len(sets) == len(set(sets)), f"{code} {iid}: two templates for the same kwargs"


def check_profile(code: str):
    profile = get_profile(code)
    with open(profile.source, encoding="utf-8") as f:
        data = json.load(f)
    _check_keys(data, TOP, code, OPTIONAL)
    _check_keys(data["defaults"], DEFAULTS, f"{code} defaults")
    _check_keys(data["paper"], PAPER, f"{code} paper")
    _check_keys(data["instructions"], INSTRUCTIONS, f"{code} instructions")
    assert data["code"] == code and data["script"] in script_ranges()
    assert code in data["language_names"] and set(data["language_names"]) <= set(world_languages())
    assert profile.sentence_terminators and all(profile.sentence_terminators)
    # The fixed-mode phrases are the Ground ones (as the released prompts show them); the authors'
    # Trans list offers the same three answers (yes/no/maybe) in other words for some languages.
    assert profile.constrained_responses == profile.paper.constrained_responses_ground
    assert len(profile.paper.constrained_responses_trans) == len(profile.constrained_responses) == 3
    if profile.distinctive_letters:
        assert _in_script(profile.distinctive_letters, profile.script)
        assert set(profile.distinctive_letters) <= set(profile.default_letters)
    letters = profile.default_letters
    assert letters and len(set(letters)) == len(letters)
    for letter in letters:
        assert unicodedata.category(letter) == ("Ll" if profile.script == "Latn" else "Lo"), (code, letter)
        assert unicodedata.is_normalized("NFC", letter) and _in_script(letter, profile.script), (code, letter)
    for word in profile.default_keywords:
        assert _in_script(_letters(word), profile.script), (code, word)
    check_templates(code, data["instructions"]["templates"])
    assert profile.instruction_texts.status == data["instructions"]["status"]


@pytest.mark.parametrize("code", list_languages())
def test_shipped_profile(code):
    check_profile(code)


def test_templates_are_marked_as_drafts_unless_released():
    for code in list_languages():
        status = get_profile(code).instruction_texts.status
        assert ("IFEval" in status) if code == "en" else ("draft" in status and "native" in status), code


@pytest.fixture
def added_profile(tmp_path, monkeypatch):
    """hi.json copied as Bhojpuri, found through $INDICIFEVAL_PROFILE_PATH."""
    with open(get_profile("hi").source, encoding="utf-8") as f:
        data = json.load(f)
    data.update(code="bho", name="Bhojpuri", native_name="भोजपुरी")
    data["language_names"]["bho"] = "भोजपुरी"
    data["paper"]["langdetect_code"] = None
    (tmp_path / "bho.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    reload_profiles()
    monkeypatch.setenv(PROFILE_PATH_ENV, str(tmp_path))
    reload_profiles()
    yield "bho"
    monkeypatch.delenv(PROFILE_PATH_ENV)
    reload_profiles()


def test_an_added_profile_is_checked_too(added_profile):
    codes = list_languages()
    assert added_profile in codes
    for code in codes:
        check_profile(code)


def test_a_broken_added_profile_fails_the_check(added_profile, tmp_path):
    data = json.loads((tmp_path / "bho.json").read_text(encoding="utf-8"))
    del data["instructions"]["templates"]["punctuation:no_comma"]
    data["instructions"]["templates"]["keywords:frequency"] = "'{keyword}' {frequency} बार {relation}"
    (tmp_path / "bho.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    reload_profiles()
    with pytest.raises(AssertionError, match="missing or unknown"):
        check_profile("bho")
    data["instructions"]["templates"]["punctuation:no_comma"] = "कोई अल्पविराम न हो।"
    (tmp_path / "bho.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    reload_profiles()
    with pytest.raises(AssertionError, match="relation"):
        check_profile("bho")


def test_a_profile_cut_short_names_its_last_line_and_column(tmp_path):
    """json puts an error at the end of a file that ends in a line break on the line after the
    last one, column 1; the error names where the text stops instead."""
    from indicifeval.core.errors import InputError
    from indicifeval.languages.profile import read_profile_file

    path = tmp_path / "xx.json"
    path.write_text('{\n  "code": "xx",\n  "name": \n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_profile_file(path)
    assert err.value.line == 3 and "column 11" in err.value.message, str(err.value)


def test_a_key_given_twice_in_a_profile_is_refused_not_lost(tmp_path):
    """Two word lists of one name (or two templates of one id) would keep only the last."""
    from indicifeval.core.errors import InputError
    from indicifeval.languages.profile import read_profile_file

    text = (Path(__file__).parents[2] / "src/indicifeval/languages/profiles/hi.json").read_text(encoding="utf-8")
    twice = text.replace('"word_lists": {', '"word_lists": {\n    "vowels": ["अ"],\n    "vowels": ["आ"],', 1)
    (tmp_path / "hi.json").write_text(twice, encoding="utf-8")
    with pytest.raises(InputError, match="'vowels' is given twice"):
        read_profile_file(tmp_path / "hi.json")


@settings(max_examples=500)
@given(st.one_of(st.lists(st.text(alphabet=st.sampled_from("ab क\t\n\u00a0\u2028\u200b\u3000\x1c\x85"), max_size=4),
                          max_size=5),
                 st.lists(st.one_of(st.text(max_size=3), st.integers(), st.none()), max_size=3), st.none(), st.text()))
def test_single_words_is_every_word_checked_character_by_character(value):
    """The profiles' word lists are checked on the words joined: the same answer as asking of
    each word that it is a non-empty string with no white space character."""
    from indicifeval.languages.numerals import single_words

    expected = isinstance(value, list) and all(isinstance(w, str) and w and not any(c.isspace() for c in w)
                                               for w in value)
    assert single_words(value) == expected

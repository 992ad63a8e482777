"""The Trans plan, the restorer and assembly on the fake translator: plans rebuild their English
prompt exactly; restorable damage to placeholders is undone, the rest is caught; kwargs that
must equal a piece of the prompt do so by construction."""

import json

import pytest

from indicifeval.builder.trans.assemble import AUTO_OK, NEEDS_REVIEW
from indicifeval.builder.trans.pipeline import TransSettings, build_trans
from indicifeval.builder.trans.plan import PLACEHOLDER, make_plan
from indicifeval.builder.trans.restore import restore
from indicifeval.dataset import load_rows
from indicifeval.dataset.release_lists import release_instructions
from indicifeval.dataset.validation import validate_rows
from indicifeval.languages import get_profile
from indicifeval.runs.backends.fake_translator import FakeTranslator
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.text.keywords import has_keyword
from indicifeval.text.normalize import match_key
from tests.conftest import shared_path


def english_rows():
    return [r for r in load_rows("sample") if r.language == "en"]


def source_rows():
    path = shared_path("data", "indicifeval-en-source", "verified_dataset-en.jsonl")
    return load_rows(path, language="en", subset="trans")


def rebuilt(plan):
    text = "".join(u.text + u.sep for u in plan.units)
    for span in plan.spans:
        text = text.replace(PLACEHOLDER % span.id, span.text, 1)
    return text


@pytest.mark.parametrize("units", ["whole", "lines"])
@pytest.mark.parametrize("rows", [english_rows, source_rows], ids=["sample", "source-490"])
def test_plans_rebuild_their_prompt_and_protect_every_lexical_value(rows, units):
    for row in rows():
        plan = make_plan(row, units)
        assert rebuilt(plan) == row.prompt, row.key
        assert not plan.problems, (row.key, plan.problems)
        protected = {s.phrase.casefold() for s in plan.spans}
        for kwargs in row.kwargs:
            for name in ("keywords", "forbidden_words", "keyword", "end_phrase", "postscript_marker", "first_word"):
                value = kwargs.get(name)
                for v in value if isinstance(value, list) else [value] if value else []:
                    assert v.casefold() in protected, (row.key, name, v)


@pytest.mark.parametrize("units", ["whole", "lines"])
def test_a_plan_is_written_as_asdict_writes_it(units):
    """to_json is asdict by hand (faster): the same dict, so plans.jsonl keeps its bytes."""
    from dataclasses import asdict

    from indicifeval.builder.trans.source import prepare

    rows, dropped = prepare(list(source_rows()), "release")
    for row in rows:
        plan = make_plan(row, units, dropped.get(str(row.key)))
        assert json.dumps(plan.to_json()) == json.dumps(asdict(plan)), row.key
    assert any(make_plan(r, units, dropped.get(str(r.key))).dropped for r in rows)


def test_the_fake_translator_spells_each_latin_letter_and_keeps_everything_else():
    letters = get_profile("hi").default_letters
    text = "Write {{1}} about Zürich: ÅB 42 «ok», ǅ and ```code```"
    spelt = "".join(letters[(ord(c.lower()) - 97) % len(letters)] if c.isascii() and c.isalpha() else c for c in text)
    assert FakeTranslator(letters)(text) == spelt


def test_restorer_undoes_what_can_be_undone_and_reports_the_rest():
    values = {1: "किताब", 2: "नदी"}
    assert restore("a {{1}} b {{2}}", values, {1, 2}).text == "a किताब b नदी"
    assert restore("a {{ 1 }} b [[2]]", values, {1, 2}).text == "a किताब b नदी"
    assert restore("a {1} b {{२}}", values, {1, 2}).text == "a किताब b नदी"
    lost = restore("a b {{2}}", values, {1, 2})
    assert lost.problems == ["placeholder {{1}} lost in translation"] and "{{" not in lost.text
    twice = restore("{{1}} {{1}} {{2}}", values, {1, 2})
    assert "found 2 times" in twice.problems[0]
    glued = restore("{{1}}को {{2}}", values, {1, 2})
    assert "glued after it" in glued.problems[0]
    assert not restore("[1] and [[1]]", {1: "x"}, set()).problems  # a real "[1]" is left alone


def _lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _build(tmp_path, source, rate, language="hi", settings=None):
    """The final rows of a whole build with the fake translator; every row the pipeline calls
    auto-ok must also pass the validator (no error finding), which the validate stage ran."""
    out = tmp_path / f"build-{language}-{rate}"
    spec = ModelSpec.of("mock", "fake", {"answers": f"fake:{rate}"})
    build_trans(out, language, source, spec, settings=settings or TransSettings())
    rows = _lines(out / "trans" / "rows.jsonl")
    errors = {str(f["key"]) for f in _lines(out / "trans" / "validation.jsonl") if f["severity"] == "error"}
    assert not [r["key"] for r in rows if r["status"] == AUTO_OK and str(r["key"]) in errors]
    assert validate_rows(out / "trans" / "rows.jsonl") is not None  # the rows load as a dataset
    return rows


SETTINGS = [TransSettings(), TransSettings("lines", "placeholder", "source")]


@pytest.mark.parametrize("settings", SETTINGS, ids=["whole-inline-release", "lines-placeholder-source"])
@pytest.mark.parametrize("language", ["hi", "ur", "ta"])
def test_a_clean_fake_translation_assembles_every_row(tmp_path, language, settings):
    path = tmp_path / "en.jsonl"
    path.write_text("".join(json.dumps(r.to_record(), ensure_ascii=False) + "\n" for r in english_rows()),
                    encoding="utf-8")
    rows = {r.key: (r if settings.instructions == "source" else release_instructions(r)[0]) for r in english_rows()}
    candidates = _build(tmp_path, path, 0.0, language, settings)
    assert candidates and all(c["status"] == AUTO_OK for c in candidates), [c["reasons"] for c in candidates]
    for c in candidates:
        english = rows[c["key"]]
        assert c["instruction_id_list"] == list(english.instruction_id_list) and len(c["kwargs"][0]) == 24
        for kwargs in c["kwargs"]:
            if kwargs.get("prompt_to_repeat"):
                assert kwargs["prompt_to_repeat"] in c["prompt"]  # by construction
            for name in ("keywords", "forbidden_words", "keyword", "end_phrase", "first_word"):
                value = kwargs.get(name)
                for v in value if isinstance(value, list) else [value] if value else []:
                    assert has_keyword(match_key(c["prompt"]), v), (c["key"], name, v)


@pytest.mark.parametrize("units", ["whole", "lines"])
def test_every_damaged_placeholder_is_restored_or_caught(tmp_path, units):
    """A placeholder dropped or doubled must be caught; a letter glued to a keyword too (it is
    no longer a whole word). A case ending glued to a language name or "JSON" is grammar."""
    rows = [release_instructions(r)[0] for r in source_rows()]
    path = shared_path("data", "indicifeval-en-source", "verified_dataset-en.jsonl")
    translator = FakeTranslator(get_profile("hi").default_letters, mangle=0.3)
    damaged_rows = set()
    for row in rows:
        plan = make_plan(row, units)
        whole_words = {PLACEHOLDER % s.id for s in plan.spans if s.role in ("lexical", "letter")}
        for unit in plan.units:
            if unit.translate:
                translator(unit.text)
                for (text, placeholder), mode in translator.mangled.items():
                    if text == unit.text and placeholder.startswith("{{") and (mode in ("drop", "duplicate") or
                                              (mode == "glue" and placeholder in whole_words)):
                        damaged_rows.add(row.key)
    candidates = {c["key"]: c for c in _build(tmp_path, path, 0.3, settings=TransSettings(units, "placeholder"))}
    missed = [k for k in damaged_rows if candidates[k]["status"] != NEEDS_REVIEW]
    assert damaged_rows and not missed, missed
    ok = [c for c in candidates.values() if c["status"] == AUTO_OK]
    assert ok and all("{{" not in c["prompt"] for c in ok)
    review = [c for c in candidates.values() if c["status"] == NEEDS_REVIEW]
    assert all(c["reasons"] for c in review) and len(review) == len(damaged_rows)

"""Trans builds like the released IndicIFEval: the release's instruction lists, the paper's
inline keyword protection beside placeholders, whole prompts or lines, fenced code that no
longer swallows prose, title and highlight markup checked, the source's tags carried, and
folders made before these settings resumed as they were made."""

import json
from collections import Counter

import pytest

from indicifeval.builder.project import BuildFolder
from indicifeval.builder.trans.assemble import engine_texts, span_values
from indicifeval.builder.trans.phrases import lookup, read_table
from indicifeval.builder.trans.pipeline import TransSettings, build_trans
from indicifeval.builder.trans.plan import make_plan
from indicifeval.builder.trans.protect import inline_problems, inserted, markup_problems
from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.dataset import load_rows
from indicifeval.dataset.release_lists import DROP_REASON, release_instructions
from indicifeval.dataset.validation import validate_rows
from indicifeval.languages import get_profile
from indicifeval.records import AUTO_OK, NEEDS_REVIEW
from indicifeval.runs.backends.fake_translator import FakeTranslator
from indicifeval.runs.backends.mock import MockBackend
from indicifeval.runs.backends.spec import ModelSpec
from tests.conftest import shared_path

SOURCE = ("data", "indicifeval-en-source", "verified_dataset-en.jsonl")
RELEASE = ("data", "indicifeval-ne", "indicifeval-trans-ne.jsonl")


def _lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _fake(rate=0.0):
    return ModelSpec.of("mock", "fake", {"answers": f"fake:{rate}"})


def _recording(language, asked, rate=0.0):
    """The fake translator as a ready backend that also keeps every text it was asked."""
    translator = FakeTranslator(get_profile(language).default_letters, mangle=rate)

    def script(request):
        asked.append(request.messages[-1]["content"])
        return translator(request.messages[-1]["content"])

    return MockBackend("recording", script=script), translator


def _rows(folder):
    return {r["key"]: r for r in _lines(folder / "trans" / "rows.jsonl")}


def _assert_validator_agrees(folder):
    """Every auto-ok row passes the validator (no error), and the rows load as a dataset."""
    errors = {str(f["key"]) for f in _lines(folder / "trans" / "validation.jsonl") if f["severity"] == "error"}
    status = {str(k): r["status"] for k, r in _rows(folder).items()}
    assert not [k for k, s in status.items() if s == AUTO_OK and k in errors]
    assert not [f for f in validate_rows(folder / "trans" / "rows.jsonl") if f.is_error
                and status[f.row.key] == AUTO_OK]


@pytest.mark.parametrize("protect", ["inline", "placeholder"])
def test_the_490_source_rows_build_with_the_release_instruction_lists(tmp_path, protect):
    source, release = shared_path(*SOURCE), shared_path(*RELEASE)
    folder = tmp_path / f"ne-{protect}"
    done = build_trans(folder, "ne", str(source), _fake(), settings=TransSettings(protect=protect))
    assert done["plan"].counts["instructions dropped"] == 39
    rows = _rows(folder)
    released = {r["key"]: r for r in _lines(release)}
    assert set(rows) == set(released)
    assert all(rows[k]["instruction_id_list"] == released[k]["instruction_id_list"] for k in released)
    assert sum(len(r["instruction_id_list"]) for r in rows.values()) == 743
    dropped = [r for r in rows.values() if r["provenance"].get("dropped_instructions")]
    assert len(dropped) == 39 and all(d["why"] == DROP_REASON and d["kwargs"] == {"language": "en"}
                                      for r in dropped for d in r["provenance"]["dropped_instructions"])
    assert all(r["status"] == AUTO_OK for r in rows.values()), Counter(x for r in rows.values() for x in r["reasons"])
    _assert_validator_agrees(folder)
    # key 13: "For example:" sits between an inline ``` and a fenced block; it is translated now
    assert "For example" not in rows[13]["prompt"] and "```JSON\n{\n...\n}\n```" in rows[13]["prompt"]


def test_stats_against_the_release_shows_matching_instruction_lists(tmp_path):
    """``indicifeval stats BUILD --against RELEASE``: every Trans row's list matches."""
    source, release = shared_path(*SOURCE), shared_path(*RELEASE)
    build_trans(tmp_path / "ne", "ne", str(source), _fake())
    out = tmp_path / "against.json"
    assert main(["stats", str(tmp_path / "ne"), "--against", str(release), "--language", "ne", "--subset", "trans",
                 "--json", str(out), "--quiet"]) == 0
    lists = json.loads(out.read_text(encoding="utf-8"))["instruction_lists"]
    assert (lists["matched"], lists["same"], lists["differ"], lists["only_a"], lists["only_b"]) == (490, 490, 0, 0, 0)


def test_source_instruction_lists_stay_available(tmp_path):
    source = shared_path(*SOURCE)
    build_trans(tmp_path / "b", "ne", str(source), _fake(), settings=TransSettings(instructions="source"))
    assert sum(len(r["instruction_id_list"]) for r in _rows(tmp_path / "b").values()) == 782


@pytest.mark.parametrize("units", ["whole", "lines"])
def test_inline_sends_the_translated_keyword_in_context_and_catches_what_the_engine_did_to_it(tmp_path, units):
    source = shared_path(*SOURCE)
    asked: list[str] = []
    ready, translator = _recording("hi", asked, rate=0.3)
    build_trans(tmp_path / "hi", "hi", str(source), ModelSpec.of("mock", "recording"),
                settings=TransSettings(units=units, protect="inline"), backend=ready)
    table = {i["phrase"]: i["translation"] for i in _lines(tmp_path / "hi" / "trans" / "pretranslations.jsonl")
             if i["role"] == "translate"}
    rows, english = _rows(tmp_path / "hi"), {r.key: r for r in load_rows(source, language="en", subset="trans")}
    # the engine saw the keyword itself, in the English sentence, never a placeholder for it
    assert "adoption" in english[2683].prompt  # Include the keywords "adoption" and "carriage"
    prompts = [text for text in asked if "military insignia" in text]
    assert prompts and all(f'"{table["adoption"]}"' in t and "adoption" not in t for t in prompts)
    phrases, profile = lookup(read_table(tmp_path / "hi" / "trans" / "pretranslations.jsonl")), get_profile("hi")
    hit = []
    for key, row in english.items():
        plan = make_plan(release_instructions(row)[0], units)
        values, _ = span_values(plan, phrases, profile)
        sent = [(u, t) for u, t in zip([u for u in plan.units if u.translate],
                                        engine_texts(plan, phrases, profile, "inline").values())]
        if any(translator.mangled.get((text, word)) in ("inflect", "drop")
               for unit, text in sent for value in inserted(unit, plan.spans, values, "inline")
               for word in value.split()):
            hit.append(key)
    assert hit and all(rows[k]["status"] == NEEDS_REVIEW for k in hit), [k for k in hit if
                                                                        rows[k]["status"] != NEEDS_REVIEW]
    _assert_validator_agrees(tmp_path / "hi")


def test_whole_units_are_prompts_and_the_request_to_repeat_stays_its_own_unit():
    rows = load_rows(shared_path(*SOURCE), language="en", subset="trans")
    whole = [make_plan(r, "whole") for r in rows]
    lines = [make_plan(r, "lines") for r in rows]
    assert sum(len(p.units) for p in whole) < sum(len(p.units) for p in lines)
    for plan, row in zip(whole, rows):
        repeat = [u for u in plan.units if u.repeat]
        assert len([u for u in plan.units if not u.repeat and u.text.strip()]) <= 2, row.key
        assert bool(repeat) == any(kw.get("prompt_to_repeat") for kw in row.kwargs), row.key
    assert all(len(p.units) == 1 for p, r in zip(whole, rows) if not any(kw.get("prompt_to_repeat")
                                                                          for kw in r.kwargs))


def test_inline_problems_and_markup_problems():
    assert inline_problems("यह किताब है", Counter({"किताब": 1})) == []
    assert inline_problems("यह किताबें है", Counter({"किताब": 1})) == ["'किताब' inflected (no longer a whole word)"]
    assert inline_problems("यह है", Counter({"किताब": 1})) == ["'किताब' lost in translation"]
    assert inline_problems("किताब", Counter({"किताब": 2})) == ["'किताब' written 2 times, found 1 times"]
    assert markup_problems("a *b c* d <<t>>", "क *ख ग* घ <<त>>") == []
    lost = markup_problems("use *italic text* here", "यहाँ * इटालिक पाठ का प्रयोग")
    assert lost == ["highlight *…* markup lost (1 in the English, 0 in the translation)"]
    assert markup_problems("<<title>>", "«शीर्षक»")[0].startswith("title <<…>> markup lost")


def test_a_translation_that_breaks_a_title_or_a_highlight_needs_review(tmp_path):
    source = tmp_path / "en.jsonl"
    source.write_text(json.dumps({"key": 7, "prompt": "Write a poem. Use a title in double angular brackets, i.e. "
                                  "<<title>>, and highlight one part with markdown, i.e. *highlighted part*.",
                                  "instruction_id_list": ["detectable_format:title"], "kwargs": [{}],
                                  "tags": ["science"]}) + "\n", encoding="utf-8")
    hindi = FakeTranslator(get_profile("hi").default_letters)
    broken = MockBackend("b", script=lambda r: hindi(r.messages[-1]["content"]).replace("<<", "«").replace(">>", "»"))
    build_trans(tmp_path / "b", "hi", str(source), ModelSpec.of("mock", "b"), backend=broken)
    row = _rows(tmp_path / "b")[7]
    assert row["status"] == NEEDS_REVIEW and any("title <<…>> markup lost" in x for x in row["reasons"])
    build_trans(tmp_path / "ok", "hi", str(source), _fake())
    good = _rows(tmp_path / "ok")[7]
    assert good["status"] == AUTO_OK and good["tags"] == ["science"]  # the source's topic tag is carried


def _strip_settings(folder):
    """The manifest as a folder made before the settings existed records it."""
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    for record in manifest["stages"].values():
        for name in ("units", "protect", "instructions"):
            record["identity"]["params"].pop(name, None)
    manifest["format_version"] = 1  # as an earlier version wrote it
    path.write_text(json.dumps(manifest), encoding="utf-8")


def test_a_folder_made_before_the_settings_goes_on_as_it_was_made(tmp_path):
    folder = tmp_path / "old"
    legacy = TransSettings("lines", "placeholder", "source")
    build_trans(folder, "hi", "sample", _fake(), settings=legacy)
    rows = (folder / "trans" / "rows.jsonl").read_bytes()
    _strip_settings(folder)
    done = build_trans(folder, "hi", "sample", _fake())  # the same command as before: nothing to do
    assert not any(r.ran for r in done.values()) and (folder / "trans" / "rows.jsonl").read_bytes() == rows
    done = build_trans(folder, "hi", "sample", _fake(), settings=TransSettings(units="whole"))
    assert done["plan"].reran_because == "changed: params.units" and done["translate"].ran
    assert BuildFolder(folder).stages()["plan"].identity["params"]["units"] == "whole"


def test_switching_units_asks_only_the_new_pieces_and_switching_back_asks_nothing(tmp_path):
    folder = tmp_path / "b"
    first = build_trans(folder, "hi", "sample", _fake(), settings=TransSettings(units="lines"))
    assert first["translate"].counts["asked"] > 0
    build_trans(folder, "hi", "sample", _fake(), settings=TransSettings(units="whole"))
    back = build_trans(folder, "hi", "sample", _fake(), settings=TransSettings(units="lines"))
    assert back["translate"].ran and back["translate"].counts["asked"] == 0


def test_the_settings_on_the_command_line(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["build", "trans", "--help"])
    text = capsys.readouterr().out
    assert "--protect {inline,placeholder}" in text and "--units {whole,lines}" in text and "Default: inline" in text
    args = ["build", "trans", str(tmp_path / "b"), "--lang", "hi", "--source", "sample", "--backend", "mock",
            "--model", "fake", "--mock-answers", "fake:0", "--quiet", "--protect", "placeholder", "--units", "lines"]
    assert main(args) == 0
    params = BuildFolder(tmp_path / "b").stages()
    assert params["plan"].identity["params"]["units"] == "lines"
    assert params["translate"].identity["params"]["protect"] == "placeholder"
    with pytest.raises(InputError, match="protect must be one of"):
        build_trans(tmp_path / "c", "hi", "sample", _fake(), settings=TransSettings(protect="opaque"))

"""A new language is data: a Maithili profile written as docs/extending.md says (its JSON block
applied to a copy of hi.json, in a profiles folder of the user's) passes `languages --check`
and the profile tests, is identified as Maithili (CLD2's "bh" declared in the profile), and a
Trans and a Ground build in it (mock backends, a corpus of Maithili sentences written here)
publish both splits. A copy that lacks the minimum is named by `--check`, line by line, and a
Ground build in it stops, saying what to add, instead of making nothing. No Maithili corpus
exists in ../shared, so the corpus is written here."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

from indicifeval.builder.ground.rows import taken_for_another
from indicifeval.cli import main
from indicifeval.languages import get_profile, reload_profiles, world_languages
from indicifeval.languages.profile import PROFILE_PATH_ENV
from indicifeval.text.langid import identify
from indicifeval.text.langid_hints import _cld2_to_ours, _langdetect_to_ours
from tests.languages.test_profiles import check_profile

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "extending.md"
HINDI = ROOT / "src" / "indicifeval" / "languages" / "profiles" / "hi.json"

# Written for this test (everyday Maithili: places, festivals, the village, food).
SENTENCES = """मिथिला भारत आ नेपालक एकटा प्राचीन क्षेत्र अछि।
एहि ठामक लोक मैथिली भाषा बजैत छथि।
विद्यापति मैथिलीक सभसँ प्रसिद्ध कवि छलाह।
हुनकर गीत सभ आइयो गाम गाम मे गाओल जाइत अछि।
मधुबनी चित्रकला संसार भरि मे प्रसिद्ध अछि।
ई चित्र सभ पहिने घरक देबाल पर बनाओल जाइत छल।
छठि मिथिलाक सभसँ पैघ पावनि अछि।
एहि पावनि मे लोक सूर्यकें अर्घ दैत छथि।
हमर गाम कोसी नदीक कात मे अछि।
बरखा मे नदीक पानि बढ़ि जाइत अछि आ खेत डूबि जाइत अछि।
किसान सभ धान, गहूम आ मकइक खेती करैत छथि।
माछ आ मखान मिथिलाक भोजनक प्रमुख अंग अछि।
दरभंगा एहि क्षेत्रक एकटा पुरान नगर अछि।
ओतय एकटा पैघ विश्वविद्यालय सेहो अछि।
जनकपुर नेपाल मे अछि आ सीताक जन्मस्थान मानल जाइत अछि।
मैथिली भारतक संविधानक आठम अनुसूची मे सम्मिलित अछि।
एकर अपन लिपि तिरहुता कहल जाइत अछि, मुदा आब बेसी काल देवनागरी मे लिखल जाइत अछि।
हम काल्हि बजार गेल छलहुँ आ ओतय सँ तरकारी अनलहुँ।
अहाँ कतय जा रहल छी?
हमरा लोकनि साँझ मे आङन मे बैसि कऽ गप्प करैत छी।
नेना सभ विद्यालय सँ घुरि कऽ खेलाइत अछि।
दादी हमरा सभकें पुरान खिस्सा सुनबैत छथि।
बिआहक अवसर पर महिला सभ मंगल गीत गबैत छथि।
सामा चकेवा भाइ बहिनक प्रेमक पावनि अछि।
एहि बेर जाड़ बहुत बेसी पड़ल।
भोरे भोर पोखरि मे लोक नहाइत छथि।
गामक हाट मे सप्ताह मे दू दिन भीड़ लगैत अछि।
पाहुनकें पान, मखान आ दही देल जाइत अछि।
हमर पित्ती शिक्षक छथि आ नेना सभकें पढ़बैत छथि।
जँ अहाँ मिथिला आयब तँ मधुबनी अवश्य देखब।
ओ पोथी पढ़बा मे बहुत रुचि रखैत छथि।
पुस्तकालय मे मैथिलीक बहुत रास पोथी राखल अछि।
सरकार गाम मे नव सड़क बनौलक अछि।
आब गाम सँ शहर जाएब सहज भऽ गेल अछि।
मुदा बहुत युवक काजक खोज मे परदेश चलि गेल छथि।
गाम मे बूढ़ पुरान लोक आ नेना सभ रहि गेल छथि।
एहि समस्या पर सभकें मिलि कऽ विचार करबाक चाही।
मिथिलाक भोजन मे तीमन, तरुआ आ दालि भात प्रसिद्ध अछि।
कमला आ बागमती एहि क्षेत्रक प्रमुख नदी सभ अछि।
बाढ़ि सँ बचबाक लेल तटबन्ध बनाओल गेल अछि।""".splitlines()


def docs_block() -> dict:
    """The Maithili JSON block of docs/extending.md, as a user would copy it."""
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"<!-- maithili-profile[^>]*-->\s*```json\n(.*?)\n```", text, re.S)
    assert found, "docs/extending.md lost its Maithili example"
    return json.loads(found.group(1))


def as_docs_say(block: dict) -> dict:
    """hi.json with the block's keys set: in language_names, paper and defaults only the
    entries shown change; every other key is replaced whole."""
    profile = json.loads(HINDI.read_text(encoding="utf-8"))
    for key, value in block.items():
        if key in ("language_names", "paper", "defaults"):
            profile[key] = {**profile[key], **value}
        else:
            profile[key] = copy.deepcopy(value)
    return profile


def corpus(path: Path, documents: int = 200, seed: int = 1) -> Path:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(documents):
            paragraphs = [" ".join(rng.sample(SENTENCES, rng.randint(2, 5))) for _ in range(rng.choice((1, 1, 2, 3)))]
            fh.write(json.dumps({"doc_id": f"mai-{i:04d}", "text": "\n\n".join(paragraphs)}, ensure_ascii=False) + "\n")
    return path


@pytest.fixture
def profiles(tmp_path, monkeypatch):
    """A profiles folder of the user's on $INDICIFEVAL_PROFILE_PATH; write(profile) puts one there."""
    folder = tmp_path / "my-profiles"
    folder.mkdir()
    monkeypatch.setenv(PROFILE_PATH_ENV, str(folder))

    def write(profile: dict, name: str | None = None) -> Path:
        path = folder / f"{name or profile['code']}.json"
        path.write_text(json.dumps(profile, ensure_ascii=False, indent=1), encoding="utf-8")
        reload_profiles()
        return path

    yield write
    monkeypatch.delenv(PROFILE_PATH_ENV)
    reload_profiles()


def _check(capsys, *argv: str) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = main(["languages", "--check", *argv])
    return code, capsys.readouterr().out.splitlines()


def test_the_docs_profile_passes_the_check_and_the_profile_tests(profiles, tmp_path, capsys):
    path = profiles(as_docs_say(docs_block()))
    code, lines = _check(capsys, str(path), "--sample", str(corpus(tmp_path / "mai.jsonl")))
    assert code == 0, lines
    assert not [ln for ln in lines if ln.startswith("error:")]
    warned = {ln.split(":")[1].strip() for ln in lines if ln.startswith("warning:")}
    assert "instructions.templates" in warned  # still Hindi's, as the docs say
    assert warned <= {"instructions.templates", "codes", "langdetect", "profile text"}, lines
    assert "sample: 200 of 200 texts (100%) identified as mai" in lines
    assert lines[-1].startswith("mai.json: 0 errors")
    check_profile("mai")  # the project's own profile test
    assert main(["languages", "--check", "mai"]) == 0  # by code, once it is on the path


def test_a_copy_without_the_minimum_is_named_line_by_line(profiles, capsys):
    hindi = json.loads(HINDI.read_text(encoding="utf-8"))
    path = profiles({**hindi, "code": "mai", "name": "Maithili", "native_name": "मैथिली"})
    code, lines = _check(capsys, str(path))
    assert code == 1
    errors = [ln for ln in lines if ln.startswith("error:")]
    keys = {ln.split(":")[1].strip() for ln in errors}
    assert {"language_names", "function_words", "codes.nllb", "codes.sarvam", "codes.indictrans2"} <= keys
    assert any("has no entry for mai itself" in ln for ln in errors)
    assert any("'hin_Deva' is hi's code" in ln and "translate into Hindi" in ln for ln in errors)
    assert any(ln.startswith("warning: cld2: CLD2 has no code 'mai'") for ln in lines)
    assert any(ln.startswith("warning: stop_words:") and "are hi's" in ln for ln in lines)


def test_no_stop_words_in_a_shared_script_is_an_error(profiles, capsys):
    profile = as_docs_say(docs_block())
    del profile["stop_words"]
    code, lines = _check(capsys, str(profiles(profile)))
    # (without stop words it cannot ask ratio:stop_words either, so Hindi's template for it is named too)
    assert code == 1 and [ln for ln in lines if ln.startswith("error:")] == [
        next(ln for ln in lines if ln.startswith("error: stop_words: none, but hi, mr, ne, sa share")),
        "error: instructions.templates: missing none; unknown ratio:stop_words"]


def test_a_copy_that_keeps_its_old_code_is_one_line_everywhere(profiles, capsys):
    path = profiles(json.loads(HINDI.read_text(encoding="utf-8")), name="mai")  # hi.json copied, not edited
    code, lines = _check(capsys, str(path))
    assert code == 1 and lines[0].startswith("error: code: the code is 'hi' but the file is mai.json")
    capsys.readouterr()
    assert main(["languages"]) == 1  # every command: the one line, no traceback
    err = capsys.readouterr().err
    assert "mai.json" in err and "code" in err and "Traceback" not in err


def test_profile_path_entries(tmp_path, monkeypatch, capsys):
    """Folders or single files, searched before the shipped profiles; one that is not there is an error."""
    hindi = json.loads(HINDI.read_text(encoding="utf-8"))
    own = tmp_path / "hi.json"
    own.write_text(json.dumps({**hindi, "name": "Hindi (mine)"}, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv(PROFILE_PATH_ENV, str(own))
    reload_profiles()
    try:
        assert get_profile("hi").name == "Hindi (mine)" and get_profile("hi").source == str(own)
        monkeypatch.setenv(PROFILE_PATH_ENV, str(tmp_path / "absent"))
        reload_profiles()
        capsys.readouterr()
        assert main(["languages"]) == 1
        assert "INDICIFEVAL_PROFILE_PATH names" in capsys.readouterr().err
    finally:
        monkeypatch.delenv(PROFILE_PATH_ENV)
        reload_profiles()
    assert get_profile("hi").name == "Hindi"


def test_maithili_is_identified_as_maithili(profiles):
    full = as_docs_say(docs_block())
    profiles(full)
    assert _cld2_to_ours()["bh"] == "mai"
    assert [identify(s).language for s in SENTENCES] == ["mai"] * len(SENTENCES)
    assert {identify(s).method for s in SENTENCES} <= {"cld2", "endings"}
    without = {k: v for k, v in full.items() if k not in ("cld2", "distinctive_endings")}
    profiles(without)
    assert "bh" not in _cld2_to_ours()
    by_words = sum(identify(s).language == "mai" for s in SENTENCES)
    assert 0.7 * len(SENTENCES) <= by_words < len(SENTENCES)  # the function words alone miss some
    profiles({**without, "distinctive_endings": full["distinctive_endings"]})
    assert sum(identify(s).language == "mai" for s in SENTENCES) > by_words  # its own endings and words help
    hindi = "भारत एक विशाल देश है। यहाँ कई भाषाएँ बोली जाती हैं और लोग अलग-अलग त्योहार मनाते हैं।"
    assert identify(hindi).language == "hi"


def test_a_profiles_hints_overlay_world_json(profiles):
    """A profile for a language world.json lists keeps world.json's hints it does not declare;
    what it declares wins; langdetect codes it declares are read as it."""
    english = json.loads((HINDI.parent / "en.json").read_text(encoding="utf-8"))
    norwegian = {**english, "code": "no", "name": "Norwegian", "native_name": "norsk",
                 "language_names": {**english["language_names"], "no": "norsk"},
                 "function_words": "ikke og det er som en på", "langdetect": ["no"], "cld2_also": ["nn"]}
    profiles(norwegian)
    entry = world_languages()["no"]
    assert entry["function_words"] == "ikke og det er som en på" and entry["profile"]
    assert entry["markers"]["against"]  # world.json's, kept
    assert _langdetect_to_ours()["no"] == "no" and _cld2_to_ours()["nn"] == "no"


def test_two_profiles_claiming_one_cld2_code(profiles, capsys):
    block = docs_block()
    profiles(as_docs_say(block))
    bho = as_docs_say({**block, "code": "bho", "name": "Bhojpuri", "native_name": "भोजपुरी",
                       "language_names": {"bho": "भोजपुरी"},
                       "function_words": "बा बाड़े बानी रहल रहे हवे ओकरा हमनी रउआ तोहार",
                       "codes": {"flores": "bho_Deva", "nllb": "bho_Deva"}})
    path = profiles(bho)
    assert _cld2_to_ours()["bh"] in ("bho", "mai")
    code, lines = _check(capsys, str(path))
    assert any(ln.startswith("warning: cld2: 'bh' is claimed by") for ln in lines), lines


def test_shipped_profiles_pass_the_check(capsys):
    for code in ("hi", "mr", "ne", "sa", "bn", "as", "ur", "en", "ta"):
        assert main(["languages", "--check", code]) == 0, capsys.readouterr().out


def test_the_stop_counts_only_replies_that_reached_the_language_check():
    wrong = [{"kind": "wrong language", "detail": "hi, not mai"}] * 9
    assert taken_for_another(wrong, 0, "mai") is None  # under 10
    line = taken_for_another(wrong + [{"kind": "wrong language", "detail": "ne, not mai"},
                                      {"kind": "not the JSON asked for", "detail": ""}] * 1, 1, "mai")
    assert line is not None and line.startswith("10 of the 11 prompts were identified as Hindi (hi)")
    assert "function_words" in line and "cld2" in line and "\n" not in line
    assert taken_for_another(wrong + [{"kind": "wrong language", "detail": "hi, not mai"}], 2, "mai") is None  # 83%


def _build_ground(folder: Path, corpus_file: Path, answers: str = "fake:0.2") -> int:
    return main(["build", "ground", str(folder), "--lang", "mai", "--corpus", str(corpus_file),
                 "--corpus-license", "CC-BY-4.0", "--backend", "mock", "--model", "fake", "--mock-answers", answers,
                 "--executor", "serial", "--quiet"])


def test_a_ground_build_that_takes_every_prompt_for_hindi_stops_and_says_why(profiles, tmp_path, capsys):
    hindi = json.loads(HINDI.read_text(encoding="utf-8"))
    profiles({**hindi, "code": "mai", "name": "Maithili", "native_name": "मैथिली",
              "language_names": {**hindi["language_names"], "mai": "मैथिली"}})
    capsys.readouterr()
    assert _build_ground(tmp_path / "g", corpus(tmp_path / "mai.jsonl"), "fake:0") == 1
    err = [line for line in capsys.readouterr().err.strip().splitlines()
           if "warning: shortfall" not in line]  # (a small corpus fills less than the plan asks: said, not fatal)
    assert len(err) == 1 and "were identified as Hindi (hi), not Maithili (mai)" in err[0], err
    assert "function_words" in err[0] and '"cld2"' in err[0] and "languages --check mai" in err[0]
    rejected = (tmp_path / "g" / "ground" / "rejected.jsonl").read_text(encoding="utf-8").splitlines()
    assert rejected and all(json.loads(r)["kind"] == "wrong language" for r in rejected)
    profiles(as_docs_say(docs_block()))  # the profile fixed: the same folder goes on and makes rows
    assert _build_ground(tmp_path / "g", tmp_path / "mai.jsonl", "fake:0") == 0
    assert (tmp_path / "g" / "ground" / "rows.jsonl").read_text(encoding="utf-8").count("\n") > 50


def test_a_trans_build_left_untranslated_stops_and_says_why(tmp_path, capsys):
    capsys.readouterr()
    assert main(["build", "trans", str(tmp_path / "t"), "--lang", "hi", "--source", "sample", "--backend", "mock",
                 "--model", "fake", "--mock-answers", "echo", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "prompts are mostly in the Latn script, not Deva" in err and "did not translate into Hindi" in err


def test_maithili_builds_publish_both_splits(profiles, tmp_path, capsys):
    pytest.importorskip("pyarrow")
    profiles(as_docs_say(docs_block()))
    trans, ground, release = tmp_path / "build" / "mai", tmp_path / "build" / "mai-ground", tmp_path / "release-mai"
    assert main(["build", "trans", str(trans), "--lang", "mai", "--source", "sample", "--backend", "mock",
                 "--model", "fake", "--mock-answers", "fake:0", "--quiet"]) == 0
    assert _build_ground(ground, corpus(tmp_path / "mai-corpus.jsonl")) == 0
    assert main(["build", "finalize", str(trans), str(ground), "--out", str(release), "--accept-unreviewed"]) == 0
    assert main(["build", "publish", str(release)]) == 0
    from indicifeval.dataset import load_dataset

    hub = release / "hub"
    for subset in ("trans", "ground"):
        assert len(list(hub.glob(f"*{subset}*/mai-*.parquet"))) == 1, sorted(p.name for p in hub.rglob("*"))
    rows = load_dataset("trans,ground", "mai", hub).rows  # the published layout, read as the hub's
    subsets = {r.subset for r in rows}
    assert subsets == {"trans", "ground"} and {r.language for r in rows} == {"mai"}
    grounded = [r for r in rows if r.subset == "ground"]
    assert len(grounded) > 50 and all(identify(r.prompt).language == "mai" for r in grounded)

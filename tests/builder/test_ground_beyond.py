"""Ground rows for the instructions beyond the paper: the ``beyond`` plan mines contexts that
hold what each instruction acts on (best what the opposite instruction accepts), the requests
quote the profile's wording, the mock writer's replies become rows that the validator accepts
and that are tagged ``beyond``, and a spoilt reply is rejected, not kept."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from indicifeval.builder.ground import beyond
from indicifeval.builder.ground.pipeline import MiningOptions, build_ground
from indicifeval.builder.ground.requests import constraint_text, templates
from indicifeval.builder.ground.select import load_plan, recheck, scaled
from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.dataset import load_rows
from indicifeval.dataset.validation import validate_rows
from indicifeval.languages import get_profile
from indicifeval.runs.backends.spec import ModelSpec
from tests.conftest import SHARED

INDIC = ("as", "bn", "gu", "hi", "kn", "ml", "mr", "ne", "or", "pa", "sa", "ta", "te", "ur")


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def numeric_corpus(path: Path, language: str, documents: int = 240, seed: int = 0) -> Path:
    """Documents of the sample's words in the language, each with one kind of material the
    plan mines: ASCII or native digits, Indian or international grouping, a lakh or million
    word, a metric or imperial unit word (all from the profile), or none."""
    profile = get_profile(language)
    numerals, units = profile.numerals, profile.units
    assert numerals is not None and units is not None
    rng = random.Random(seed)
    vocab = sorted({w for r in load_rows("sample") if r.language == language for w in r.prompt.split()
                    if w.isalpha() and not w.isascii()})
    native = str.maketrans("0123456789", numerals.digits)
    material = [lambda: str(rng.randint(10, 2000)), lambda: str(rng.randint(10, 2000)).translate(native),
                lambda: "12,34,567", lambda: "1,234,567", lambda: f"5 {sorted(numerals.lakh_crore)[0]}",
                lambda: f"3 {sorted(numerals.million_billion)[0]}",
                lambda: f"{rng.randint(2, 90)} {rng.choice(sorted(units.metric - units.after_number))}",
                lambda: f"{rng.randint(2, 90)} {rng.choice(sorted(units.imperial - units.after_number))}",
                lambda: ""]
    stop = profile.sentence_terminators[0]
    with path.open("w", encoding="utf-8") as fh:
        for i in range(documents):
            sentences = []
            for s in range(rng.randint(2, 4)):
                words = rng.choices(vocab, k=rng.randint(6, 12))
                if s == 0:
                    words.insert(2, material[i % len(material)]())
                sentences.append(" ".join(w for w in words if w) + stop)
            fh.write(json.dumps({"doc_id": f"{language}-n{i:04d}", "text": " ".join(sentences)},
                                ensure_ascii=False) + "\n")
    return path


def test_the_beyond_plan_asks_for_every_new_instruction_and_nothing_else():
    plan = load_plan("beyond")
    assert set(plan.beyond) == set(beyond.IDS) and all(q > 0 for q in plan.beyond.values())
    assert not plan.keyword_frequency and not plan.forbidden_word and not plan.first_word
    assert scaled(plan, 2).beyond == {i: 2 * q for i, q in plan.beyond.items()}
    assert load_plan(None).beyond == {}  # the default plan is as it was


def test_a_bad_beyond_setting_is_a_clear_error(tmp_path):
    for bad in ({"numbers:roman": 3}, {"units:metric": -1}, ["units:metric"], {"units:metric": True}):
        path = tmp_path / "plan.json"
        path.write_text(json.dumps({"beyond": bad}), encoding="utf-8")
        with pytest.raises(InputError) as err:
            load_plan(str(path))
        assert err.value.field == "beyond" and str(path) in str(err.value)


def test_an_instruction_the_language_does_not_define_is_refused():
    with pytest.raises(InputError, match="numbers:native_digits.*not defined for en"):
        beyond.check_language({"numbers:native_digits": 2}, "en")
    beyond.check_language({"numbers:native_digits": 0, "units:metric": 2}, "en")  # a zero quota asks nothing


@pytest.mark.parametrize("text, iid, source", [
    ("सन 1998 में 25 लोग आए।", "numbers:native_digits", "numbers:ascii_digits"),
    ("सन १९९८ में २५ लोग आए।", "numbers:native_digits", "numbers:native_digits"),
    ("सन १९९८ में २५ लोग आए।", "numbers:ascii_digits", "numbers:native_digits"),
    ("आबादी 12,34,567 है।", "numbers:international_system", "numbers:indian_system"),
    ("आबादी 1,234,567 है।", "numbers:international_system", "numbers:international_system"),
    ("दूरी 12 मील है।", "units:metric", "units:imperial"),
    ("दूरी 12 किलोमीटर है।", "units:imperial", "units:metric"),
    ("दूरी 12 किलोमीटर है।", "numbers:spelled_out", "numbers:ascii_digits"),
    ("हम पाँच लोग बाज़ार गए।", "numbers:spelled_out", "numbers:spelled_out"),
])
def test_a_context_holds_what_its_instruction_acts_on(text, iid, source):
    ok, why = recheck("hi", iid, {}, text, 1)
    assert ok and why.startswith(source + ":"), why
    tiers = beyond.Sources("hi", (iid,)).tiers(text)
    assert tiers[iid] == next(n for n, tier in enumerate(beyond.SOURCES[iid]) if source in tier)


def test_a_text_without_the_material_is_no_context():
    text = "हम बाज़ार गए और वहाँ बहुत भीड़ थी।"
    assert beyond.Sources("hi", beyond.IDS[:-1]).tiers(text) == {}
    ok, why = recheck("hi", "units:metric", {}, text, 1)
    assert not ok and "no unit of measurement" in why


def test_the_request_quotes_the_profile_wording_and_the_paper_constraints_are_unchanged():
    wording = get_profile("bn").instruction_texts.templates["numbers:native_digits"][0]
    text = constraint_text("numbers:native_digits", {}, "bn")
    assert "Bengali" in text and "০১২৩৪৫৬৭৮৯" in text and f'"{wording}"' in text and "\n" not in text
    kwargs = {"keyword": "x", "frequency": 2, "relation": "exactly"}
    assert constraint_text("keywords:frequency", kwargs, "bn") == \
        templates()["constraints"]["keywords:frequency"].format(**kwargs)


@pytest.mark.parametrize("language", ["hi", "bn", "ta", "ur"])
def test_build_ground_with_the_beyond_plan_end_to_end(tmp_path, language):
    corpus = numeric_corpus(tmp_path / f"{language}.jsonl", language)
    out = tmp_path / "build"
    done = build_ground(out, language, str(corpus), "beyond", ModelSpec.of("mock", "fake", {"answers": "fake:0.25"}),
                        executor="serial", mining=MiningOptions(top_k=200))
    contexts = _lines(out / "ground" / "contexts.jsonl")
    assert {c["instruction_id"] for c in contexts} == set(beyond.IDS)
    for c in contexts:  # each holds its material, judged again here
        assert recheck(language, c["instruction_id"], {}, c["text"], 1)[0], c["id"]
    rows = load_rows(out / "ground" / "rows.jsonl")
    rejected = _lines(out / "ground" / "rejected.jsonl")
    assert done["rows"].counts["rows"] == len(rows) > 0 and len(rows) + len(rejected) == len(contexts)
    assert rejected, "the writer spoils a quarter of its replies"
    assert all(r.subset == "ground" and "beyond" in r.tags for r in rows)
    findings = validate_rows(rows)
    assert not [f for f in findings if f.is_error or f.check == "beyond_stated"], findings[:3]
    assert {r.instruction_id_list[0] for r in rows} >= set(beyond.IDS) - {r["instruction_id"] for r in rejected}
    assert main(["validate", str(out / "ground" / "rows.jsonl"), "--quiet"]) == 0


@pytest.mark.skipif(not (SHARED / "data" / "indic-corpus").is_dir(), reason="../shared's real corpus is absent")
@pytest.mark.parametrize("language", INDIC)
def test_the_real_corpus_gives_contexts_for_every_new_instruction(tmp_path, language):
    corpus = SHARED / "data" / "indic-corpus" / f"{language}.jsonl"
    out = tmp_path / "build"
    build_ground(out, language, str(corpus), "beyond", ModelSpec.of("mock", "fake", {"answers": "fake:0"}),
                 executor="serial", mining=MiningOptions(top_k=200))
    contexts = _lines(out / "ground" / "contexts.jsonl")
    per = {i: sum(c["instruction_id"] == i for c in contexts) for i in beyond.IDS}
    assert all(n >= 3 for n in per.values()), per
    rows = load_rows(out / "ground" / "rows.jsonl")
    assert len(rows) == len(contexts)
    assert not [f for f in validate_rows(rows) if f.is_error or f.check == "beyond_stated"]


def test_from_the_command_line_to_a_release_scored_in_fixed_mode_only(tmp_path, capsys):
    corpus = numeric_corpus(tmp_path / "hi.jsonl", "hi")
    build, release, run = tmp_path / "build", tmp_path / "release", tmp_path / "run"
    assert main(["build", "ground", str(build), "--lang", "hi", "--corpus", str(corpus), "--plan", "beyond",
                 "--backend", "mock", "--mock-answers", "fake:0", "--executor", "serial", "--quiet",
                 "--corpus-license", "CC-BY-SA-4.0"]) == 0
    assert main(["build", "finalize", str(build), "--out", str(release), "--accept-unreviewed"]) == 0
    assert main(["build", "publish", str(release)]) == 0
    assert main(["run", "--data", str(release / "hub"), "--backend", "mock", "--model", "echo", "--out", str(run),
                 "--quiet"]) == 0
    capsys.readouterr()
    assert main(["score", "--run", str(run)]) == 0
    assert "Numerals and units" in capsys.readouterr().out
    assert main(["score", "--run", str(run), "--scoring", "paper", "--out", str(tmp_path / "paper")]) != 0
    err = capsys.readouterr().err
    assert "is not one of the paper's instructions" in err and "Traceback" not in err

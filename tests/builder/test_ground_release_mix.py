"""Ground builds like the released IndicIFEval: the ``paper`` plan gives the release's mix of
constraints in the final rows (on the shared ne corpus, and on a corpus written here), shipped
plans resolve by name, stop words never become keywords, ``--skip-top`` reruns the ranking, and
the combined "S sentences in P paragraphs" constraint makes two-instruction rows the scorer
judges as the prompt says."""

from __future__ import annotations

import fnmatch
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from indicifeval.builder.ground.mining import stop_keys, tokens
from indicifeval.builder.ground.pipeline import MiningOptions, build_ground
from indicifeval.builder.ground.requests import context_required_ids
from indicifeval.builder.ground.select import SelectionPlan, load_plan, plan_label, plan_names
from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.dataset import load_rows
from indicifeval.languages import get_profile, list_languages, script_ranges
from indicifeval.records import Row
from indicifeval.runs.backends.fake_prompt_writer import FakePromptWriter
from indicifeval.runs.backends.mock import MockBackend
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.scoring.engine import score_row
from indicifeval.text.normalize import match_key
from indicifeval.text.words import words
from tests.builder.corpus_fixture import corpus_path
from tests.conftest import shared_path

# The released ne Ground rows (341): first word 162, keyword frequency 127, forbidden 25,
# sentences 24, paragraphs 3; 46 rows of a context-required style.
RELEASE = {"length_constraints:nth_paragraph_first_word": 162, "keywords:frequency": 127,
           "keywords:forbidden_words": 25, "length_constraints:number_sentences": 24,
           "length_constraints:number_paragraphs": 3}
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _mix(rows: list[dict]) -> dict[str, float]:
    kinds = Counter("+".join(r["instruction_id_list"]) for r in rows)
    return {k: 100 * kinds[k] / len(rows) for k in set(kinds) | set(RELEASE)}


def _assert_release_mix(folder: Path, points: float = 3) -> list[dict]:
    rows = _lines(folder / "ground" / "rows.jsonl")
    release = {k: 100 * v / sum(RELEASE.values()) for k, v in RELEASE.items()}
    mix = _mix(rows)
    assert set(mix) == set(RELEASE), mix  # no other constraint, no combined one
    for kind, share in release.items():
        assert abs(mix[kind] - share) <= points, (kind, round(mix[kind], 1), round(share, 1))
    values = {iid: Counter() for iid in RELEASE}
    for r in rows:
        kw = r["kwargs"][0]
        values[r["instruction_id_list"][0]][kw.get("frequency") or kw.get("num_sentences")
                                            or kw.get("num_paragraphs")] += 1
    assert set(values["keywords:frequency"]) == {1, 2, 3, 4, 5}
    assert set(values["length_constraints:number_sentences"]) <= {1, 2, 3, 4, 5}
    assert len(values["length_constraints:number_sentences"]) >= 4
    assert set(values["length_constraints:number_paragraphs"]) == {1}
    requests = _lines(folder / "ground" / "requests.jsonl")
    assert sum(t["context_required"] for t in requests) == round(0.135 * len(requests))
    return rows


def test_the_paper_plan_on_the_shared_ne_corpus_gives_the_release_mix(tmp_path):
    corpus = shared_path("data", "indic-corpus", "ne.jsonl")
    argv = ["build", "ground", str(tmp_path / "ne"), "--lang", "ne", "--corpus", str(corpus), "--plan", "paper",
            "--backend", "mock", "--mock-answers", "fake:0.2", "--executor", "serial", "--quiet"]
    assert main(argv) == 0
    # 5 points, not 3, since the paper plan's keyword pool (issue 38) chose other words, so the fake
    # writer spoils other requests: the small corpus leaves keyword frequency N = 5 short (3 of 7,
    # reported: 35.6% before spoils), and which 20% are spoiled is chance (here 32.9% keyword-count rows)
    rows = _assert_release_mix(tmp_path / "ne", points=5)
    assert len(rows) >= 60
    manifest = json.loads((tmp_path / "ne" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["stages"]["select"]["identity"]["params"]["plan"] == "paper"
    keywords = {r["kwargs"][0].get("keyword") or r["kwargs"][0].get("first_word") for r in rows} - {None}
    assert not keywords & stop_keys("ne")


def _release_like_corpus(path: Path, documents: int = 900, seed: int = 7) -> Path:
    """Nepali documents made from the bundled sample's words: each about a topic word that
    recurs one to five times and often opens it, of one to six sentences, a few in two
    paragraphs; enough of every kind for the paper plan to fill each quota."""
    rng = random.Random(seed)
    stops = stop_keys("ne")
    vocab = sorted({w for r in load_rows("sample") if r.language == "ne" for w in words(r.prompt)
                    if not w.isascii() and not w.isdigit() and match_key(w) not in stops})
    topics = rng.sample(vocab, 120)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(documents):
            topic, repeats, count = topics[i % len(topics)], 1 + i % 5, 1 + (i // 5) % 6
            sentences = [rng.choices(vocab, k=rng.randint(6, 10)) for _ in range(count)]
            for n in range(repeats):  # every other document opens with its topic word
                sentences[0 if n == 0 and i % 2 == 0 else rng.randrange(count)].insert(
                    0 if n == 0 and i % 2 == 0 else 1, topic)
            text = " ".join(" ".join(s) + "।" for s in sentences)
            if i % 9 == 0 and count > 1:
                text = text.replace("। ", "।\n\n", 1)
            fh.write(json.dumps({"doc_id": f"ne-{i:04d}", "text": text}, ensure_ascii=False) + "\n")
    return path


def test_the_paper_plan_fills_every_quota_and_keeps_the_mix_on_a_corpus_written_here(tmp_path):
    corpus = _release_like_corpus(tmp_path / "ne.jsonl")
    done = build_ground(tmp_path / "b", "ne", str(corpus), "paper", ModelSpec.of("mock", "fake", {"answers": "fake:0"}),
                        executor="serial")
    plan = load_plan("paper")
    select = done["select"].counts
    assert select["keyword_frequency"] == sum(plan.keyword_frequency.values())
    assert select["first_word"] == plan.first_word and select["forbidden_word"] == plan.forbidden_word
    assert select["number_sentences"] == sum(plan.number_sentences.values())
    assert select["number_paragraphs"] == sum(plan.number_paragraphs.values())
    _assert_release_mix(tmp_path / "b")


def test_shipped_plans_resolve_by_name_and_a_path_still_works(tmp_path):
    assert plan_names() == ["beyond", "default", "paper"]
    assert load_plan("default") == SelectionPlan() == load_plan(None)
    paper = load_plan("paper")
    assert paper.context_required_share == 0.135 and paper.number_paragraphs == {1: 1}
    assert set(paper.keyword_frequency) == {1, 2, 3, 4, 5} and len(set(paper.keyword_frequency.values())) == 1
    assert set(paper.number_sentences) == {1, 2, 3, 4, 5} and paper.sentences_and_paragraphs == {}
    own = tmp_path / "mine.json"
    own.write_text(json.dumps({"_note": "a comment", "first_word": 3, "sentences_and_paragraphs": {"4 in 2": 2}}),
                   encoding="utf-8")
    mine = load_plan(str(own))
    assert plan_label(str(own)) == "mine.json" and plan_label(None) == "default"
    assert mine.first_word == 3 and mine.sentences_and_paragraphs == {(4, 2): 2} and mine.forbidden_word == 10
    tomllib = pytest.importorskip("tomllib")
    patterns = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["indicifeval"]
    for name in plan_names():
        assert any(fnmatch.fnmatch(f"builder/ground/plans/{name}.json", p) for p in patterns), name


def test_a_bad_plan_name_is_one_line_naming_the_shipped_plans(tmp_path, capsys):
    argv = ["build", "ground", str(tmp_path / "b"), "--lang", "ne", "--corpus", corpus_path("ne", tmp_path),
            "--plan", "papr", "--quiet"]
    assert main(argv) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "papr" in err and "default, paper" in err
    assert not (tmp_path / "b").exists()  # refused before anything is written


@pytest.mark.parametrize("setting, value, says", [
    ("sentences_and_paragraphs", {"2 in 4": 1}, "S in P"),
    ("sentences_and_paragraphs", {"4x2": 1}, "S in P"),
    ("context_required_share", 1.5, "share from 0 to 1"),
    ("context_required_share", True, "share from 0 to 1"),
])
def test_bad_plan_settings_are_refused(tmp_path, setting, value, says):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps({setting: value}), encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(says)):
        load_plan(str(path))


def test_the_context_required_share_is_exact_and_stable():
    ids = [f"ne-first_word-0-{i:03d}" for i in range(87)]
    needs = context_required_ids(42, ids, 0.135)
    assert len(needs) == 12 and needs <= set(ids)
    more = context_required_ids(42, ids + ["ne-first_word-0-999"], 0.135)
    assert len(more) == 12 and len(needs ^ more) <= 2  # one more context moves at most one across the line
    assert context_required_ids(42, ids, 0.0) == set() and context_required_ids(42, ids, 1.0) == set(ids)


def _keywords(folder: Path) -> list[str]:
    return [k["word"] for k in _lines(folder / "ground" / "keywords.jsonl")]


@pytest.mark.parametrize("language", ["ne", "hi"])
def test_no_stop_word_is_a_keyword(tmp_path, language):
    corpus = corpus_path(language, tmp_path)
    build_ground(tmp_path / "b", language, corpus, None, ModelSpec.of("mock", "fake"), executor="serial", until="vocab")
    stops = stop_keys(language)
    assert _keywords(tmp_path / "b") and not set(_keywords(tmp_path / "b")) & stops
    build_ground(tmp_path / "all", language, corpus, None, ModelSpec.of("mock", "fake"), executor="serial",
                 until="vocab", mining=MiningOptions(stop_words=False))
    assert set(_keywords(tmp_path / "all")[:50]) & stops  # without the list they do rank (the filter is real)


def test_skip_top_changes_the_ranking_and_reruns_vocab(tmp_path):
    corpus, out = corpus_path("ne", tmp_path), tmp_path / "b"
    build_ground(out, "ne", corpus, None, ModelSpec.of("mock", "fake"), executor="serial", until="features")
    first = _keywords(out)
    done = build_ground(out, "ne", corpus, None, ModelSpec.of("mock", "fake"), executor="serial", until="features",
                        mining=MiningOptions(skip_top=5))
    assert done["vocab"].ran and "skip_top" in (done["vocab"].reran_because or "")
    assert done["features"].ran  # the keywords changed, so did what the features count
    assert _keywords(out)[:len(first) - 5] == first[5:] and done["vocab"].counts["skipped_top"] == 5
    argv = ["build", "ground", str(out), "--lang", "ne", "--corpus", corpus, "--until", "vocab", "--skip-top", "5",
            "--quiet"]
    assert main(argv) == 0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["stages"]["vocab"]["identity"]["params"]["skip_top"] == 5 and _keywords(out)[0] == first[5]


def _writer_stating_every_number(request) -> str:
    """The fake prompt writer, with the paragraph count stated too (it states the first number)."""
    user = request.messages[-1]["content"]
    reply = json.loads(FakePromptWriter(0)(user))
    paragraphs = re.search(r"in exactly (\d+) paragraph", user)
    if paragraphs:
        reply["instruction"] += f" {paragraphs.group(1)}"
    return json.dumps(reply, ensure_ascii=False)


def _response(sentences: int, paragraphs: int) -> str:
    """``sentences`` Nepali sentences in ``paragraphs`` ***-separated paragraphs."""
    per = [sentences // paragraphs + (1 if i < sentences % paragraphs else 0) for i in range(paragraphs)]
    return "\n\n***\n\n".join(" ".join(f"यो {i + 1} औं वाक्य हो।" for i in range(n)) for n in per)


def test_the_combined_constraint_makes_rows_the_scorer_judges_as_stated(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"keyword_frequency": {}, "forbidden_word": 0, "number_sentences": {},
                                "number_paragraphs": {}, "first_word": 0,
                                "sentences_and_paragraphs": {"4 in 2": 3, "5 in 2": 3, "6 in 3": 2}}),
                    encoding="utf-8")
    writer, ready = ModelSpec.of("mock", "writer"), MockBackend("writer", script=_writer_stating_every_number)
    done = build_ground(tmp_path / "b", "ne", corpus_path("ne", tmp_path), str(plan), writer, executor="serial",
                        backend=ready)
    assert done["select"].counts["sentences_and_paragraphs"] >= 4 and done["rows"].counts["rows"] >= 4
    contexts = {c["id"]: c for c in _lines(tmp_path / "b" / "ground" / "contexts.jsonl")}
    requests = _lines(tmp_path / "b" / "ground" / "requests.jsonl")
    assert "in exactly 2 paragraph(s)" in requests[0]["messages"][-1]["content"]
    for row in load_rows(tmp_path / "b" / "ground" / "rows.jsonl"):
        assert row.instruction_id_list == ("length_constraints:number_sentences",
                                           "length_constraints:number_paragraphs")
        s, p = row.kwargs[0]["num_sentences"], row.kwargs[1]["num_paragraphs"]
        assert row.kwargs[0]["relation"] == "exactly"
        assert all(score_row(row, _response(s, p)).strict)
        assert not all(score_row(row, _response(s + 1, p)).strict)
        assert not all(score_row(row, _response(s, p + 1)).strict)
    for context in contexts.values():  # each context is itself such a response
        kw = context["kwargs"]
        check = Row("c", "", ("length_constraints:number_sentences", "length_constraints:number_paragraphs"),
                    ({"num_sentences": kw["num_sentences"], "relation": "exactly"},
                     {"num_paragraphs": kw["num_paragraphs"]}), "ne", "ground")
        text = "\n\n***\n\n".join(x for x in context["text"].split("\n\n") if x.strip())
        assert all(score_row(check, text).strict), context["id"]


@pytest.mark.parametrize("code", [c for c in list_languages() if get_profile(c).is_indic])
def test_every_indic_profile_has_stop_words_in_its_own_script(code):
    profile = get_profile(code)
    ranges = script_ranges()[profile.script]
    assert 30 <= len(profile.stop_words) <= 300 and len(set(profile.stop_words)) == len(profile.stop_words)
    for word in profile.stop_words:
        assert all(any(lo <= ord(c) <= hi for lo, hi in ranges) for c in word), (code, word)
        assert tokens(word) == [match_key(word)], (code, word)  # one word, as the keyword matcher sees it


def test_a_folder_made_before_the_new_settings_goes_on_as_it_was_made(tmp_path):
    """A folder whose vocab, select and requests stages ran before stop words, the plan's name
    and the context-required share were recorded: the same command reruns nothing and asks
    nothing (its keywords, contexts and requests stay what they were); naming a setting does."""
    corpus, out = corpus_path("ne", tmp_path), tmp_path / "old"
    gen = ModelSpec.of("mock", "fake", {"answers": "fake:0.2"})
    build_ground(out, "ne", corpus, None, gen, executor="serial", mining=MiningOptions(stop_words=False))
    path = out / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    for stage, names in (("vocab", ("skip_top", "stop_words")), ("select", ("plan",)),
                         ("requests", ("context_required_share",))):
        for name in names:
            manifest["stages"][stage]["identity"]["params"].pop(name)
    manifest["format_version"] = 1  # as an earlier version wrote it
    path.write_text(json.dumps(manifest), encoding="utf-8")
    rows = (out / "ground" / "rows.jsonl").read_bytes()
    done = build_ground(out, "ne", corpus, None, gen, executor="serial")
    assert not any(r.ran for r in done.values()) and (out / "ground" / "rows.jsonl").read_bytes() == rows
    done = build_ground(out, "ne", corpus, None, gen, executor="serial", mining=MiningOptions(skip_top=0))
    assert not done["vocab"].ran  # naming the setting the folder has changes nothing
    done = build_ground(out, "ne", corpus, None, gen, executor="serial", mining=MiningOptions(stop_words=True))
    assert done["vocab"].reran_because and "stop_words" in done["vocab"].reran_because
    assert not set(_keywords(out)) & stop_keys("ne")


def _contexts_asked(plan: SelectionPlan) -> dict[str, int]:
    return {"first_word": plan.first_word, "keyword_frequency": sum(plan.keyword_frequency.values()),
            "forbidden_word": plan.forbidden_word, "number_sentences": sum(plan.number_sentences.values()),
            "number_paragraphs": sum(plan.number_paragraphs.values())}


def test_the_paper_plan_scales_to_the_release_size_with_its_mix(tmp_path):
    from indicifeval.builder.ground.select import scaled

    paper = load_plan("paper")
    big = _contexts_asked(scaled(paper, 3.75))
    assert abs(sum(big.values()) - 341) <= 3
    release = {"first_word": 162, "keyword_frequency": 127, "forbidden_word": 25, "number_sentences": 24,
               "number_paragraphs": 3}
    for kind, count in release.items():
        assert abs(100 * big[kind] / sum(big.values()) - 100 * count / 341) <= 3, kind
    assert scaled(paper, 1) == paper and scaled(paper, 0.01).number_paragraphs == {1: 1}
    with pytest.raises(InputError, match="scale must be above 0"):
        scaled(paper, 0)
    corpus, out = corpus_path("ne", tmp_path), tmp_path / "b"
    base = ["build", "ground", str(out), "--lang", "ne", "--corpus", corpus, "--plan", "paper", "--until", "select",
            "--quiet"]
    assert main(base) == 0
    params = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["stages"]["select"]["identity"]["params"]
    assert "plan_scale" not in params  # recorded only when used
    assert main([*base, "--plan-scale", "0.5"]) == 0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["stages"]["select"]["identity"]["params"]["plan_scale"] == 0.5
    assert manifest["stages"]["select"]["counts"]["contexts"] < sum(_contexts_asked(paper).values()) * 0.6

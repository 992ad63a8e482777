"""Ground keywords chosen as the release chose them (issue 38): the ``paper`` plan draws one small
pool of words per language, shared by the keyword-count, forbidden-word and first-word rows, each
word reused up to 5 times per kind; its defaults are derived here from the released ne rows;
``keywords: {choice: spread}`` keeps the choice before; every plan reports what it asked and what
the corpus filled, and a shortfall is a warning in the stage table; a folder made with the paper
plan before the pool goes on as it was made, asking nothing again."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from indicifeval.builder.ground.pipeline import build_ground
from indicifeval.builder.ground.select import load_plan, scaled
from indicifeval.builder.migrate import RETIRED_PLANS
from indicifeval.builder.project import BuildFolder
from indicifeval.cli import main
from indicifeval.core.files import sha256_of
from indicifeval.dataset import load_rows
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.text.words import words
from tests.conftest import SHARED, shared_path

RELEASE_NE = SHARED / "data" / "indicifeval-ne" / "indicifeval-ground-ne.jsonl"
KINDS = {"keywords:frequency": "keyword_frequency", "keywords:forbidden_words": "forbidden_word",
         "length_constraints:nth_paragraph_first_word": "first_word"}
OLD_PAPER = Path(__file__).parent / "plans" / "paper-before-pool.json"  # the shipped paper.json before the pool


def reuse(rows: list[dict]) -> dict:
    """The keyword reuse of Ground rows: the pool (words of keyword-count, forbidden-word and
    first-word rows), the most uses of one word per kind and per (word, count N), the share of the
    pool in both count and first-word rows, and the keyword rows."""
    uses: dict[str, Counter] = defaultdict(Counter)
    per_count: Counter = Counter()
    for row in rows:
        for iid, kw in zip(row["instruction_id_list"], row["kwargs"]):
            kw = {k: v for k, v in kw.items() if v is not None}
            kind = KINDS.get(iid)
            if kind == "keyword_frequency":
                uses[kind][kw["keyword"]] += 1
                per_count[kw["keyword"], kw["frequency"]] += 1
            elif kind == "forbidden_word":
                for word in kw["forbidden_words"]:
                    uses[kind][word] += 1
            elif kind == "first_word":
                uses[kind][kw["first_word"]] += 1
    pool = set().union(*(set(u) for u in uses.values()))
    both = set(uses["keyword_frequency"]) & set(uses["first_word"])
    return {"pool": len(pool), "max_uses": {k: max(u.values()) for k, u in uses.items()},
            "per_count": max(per_count.values(), default=0), "both": 100 * len(both) / max(1, len(pool)),
            "keyword_rows": sum(sum(u.values()) for u in uses.values()), "rows": len(rows)}


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _contexts_asked(plan) -> int:
    return (sum(plan.keyword_frequency.values()) + plan.forbidden_word + plan.first_word
            + sum(plan.number_sentences.values()) + sum(plan.number_paragraphs.values()))


def test_the_paper_plans_pool_is_derived_from_the_released_ne_rows():
    """48 words for 341 rows (314 keyword rows), at most 5 uses per kind (one per count N, one as
    a forbidden word), 38 of the 48 in both count and first-word rows: the paper plan's pool is the
    same share of its rows, with the same caps."""
    if not RELEASE_NE.is_file():
        pytest.skip("needs ../shared/data/indicifeval-ne")
    release = reuse(_lines(RELEASE_NE))
    assert (release["pool"], release["rows"], release["keyword_rows"]) == (48, 341, 314)
    assert release["max_uses"] == {"keyword_frequency": 5, "forbidden_word": 1, "first_word": 5}
    assert release["per_count"] == 1 and round(release["both"]) == 79
    paper = load_plan("paper")
    assert paper.keywords.choice == "pool" and paper.keywords.max_uses == release["max_uses"]
    assert paper.keywords.per_count == release["per_count"]
    assert paper.keywords.pool_size == round(release["pool"] * _contexts_asked(paper) / release["rows"])
    assert abs(scaled(paper, 3.75).keywords.pool_size - release["pool"]) <= 1  # the release's size, its pool
    assert load_plan("default").keywords.choice == "spread"  # the other plans keep the spread-out choice


def _topic_corpus(path: Path, topics: int = 40, per_topic: int = 15, seed: int = 3) -> Path:
    """Documents about a topic word each: a topic's documents hold it 1 to 5 times, the first
    eight open with it; the rest of each sentence is the bundled sample's Nepali words."""
    rng = random.Random(seed)
    vocab = sorted({w for r in load_rows("sample") if r.language == "ne" for w in words(r.prompt)
                    if not w.isascii() and not w.isdigit() and len(w) >= 4})
    chosen = rng.sample(vocab, topics)
    filler = [w for w in vocab if w not in chosen]
    with path.open("w", encoding="utf-8") as fh:
        for t, topic in enumerate(chosen):
            for j in range(per_topic):
                sentences = [rng.sample(filler, rng.randint(6, 9)) for _ in range(rng.randint(2, 5))]
                repeats, opens = 1 + j % 5, j < 8
                for n in range(repeats):
                    where = sentences[0] if n == 0 and opens else rng.choice(sentences)
                    where.insert(0 if n == 0 and opens else 1 + rng.randrange(len(where) - 1), topic)
                text = " ".join(" ".join(s) + "।" for s in sentences)
                fh.write(json.dumps({"doc_id": f"ne-{t:02d}-{j:02d}", "text": text}, ensure_ascii=False) + "\n")
    return path


def test_on_a_corpus_written_here_the_paper_plan_reuses_a_small_pool_like_the_release(tmp_path):
    corpus = _topic_corpus(tmp_path / "ne.jsonl")
    gen = ModelSpec.of("mock", "fake", {"answers": "fake:0"})
    build_ground(tmp_path / "pool", "ne", str(corpus), "paper", gen, executor="serial")
    pool = reuse(_lines(tmp_path / "pool" / "ground" / "rows.jsonl"))
    paper = load_plan("paper")
    assert abs(pool["pool"] - paper.keywords.pool_size) <= 3, pool  # 48 x 91/341 words
    assert pool["max_uses"] == {"keyword_frequency": 5, "forbidden_word": 1, "first_word": 5}, pool
    assert pool["per_count"] == 1 and pool["both"] >= 79 - 10, pool
    fill = json.loads((tmp_path / "pool" / "ground" / "select-fill.json").read_text(encoding="utf-8"))
    assert fill["keyword_choice"]["choice"] == "pool" and fill["kinds"]["first_word"]["asked"] == 42
    # the same plan with the choice before: many words, each used at most per_keyword times in all
    build_ground(tmp_path / "spread", "ne", str(corpus), "paper", gen, executor="serial", keyword_choice="spread")
    spread = reuse(_lines(tmp_path / "spread" / "ground" / "rows.jsonl"))
    assert spread["pool"] > 2 * pool["pool"], (spread, pool)
    params = json.loads((tmp_path / "spread" / "manifest.json").read_text(encoding="utf-8"))
    assert params["stages"]["select"]["identity"]["params"]["keyword_choice"] == "spread"
    plan = tmp_path / "spread.json"
    plan.write_text(json.dumps({**json.loads(OLD_PAPER.read_text(encoding="utf-8")),
                                "keywords": {"choice": "spread"}}), encoding="utf-8")
    build_ground(tmp_path / "file", "ne", str(corpus), str(plan), gen, executor="serial")
    assert reuse(_lines(tmp_path / "file" / "ground" / "rows.jsonl")) == spread  # the plan setting does the same


def test_the_paper_plan_on_the_shared_ne_corpus_reuses_a_pool_like_the_release(tmp_path):
    """The shared ne corpus has 314 documents, only 48 of them opening with a keyword (43 words,
    at most 2 each): whole documents alone would need some 40 first-word words, most with no
    keyword-count context (50% of the pool in both kinds at most). First-word contexts may also
    begin at a later sentence (157 documents, 117 words), so the first-word rows share their words
    with the count rows as the release's do: 75% of 28 words in both kinds (release 79% of 48),
    against 3% for the spread-out choice; keyword frequency N = 5 is short, and said so."""
    corpus = shared_path("data", "indic-corpus", "ne.jsonl")
    base = ["build", "ground", "--lang", "ne", "--corpus", str(corpus), "--plan", "paper", "--backend", "mock",
            "--mock-answers", "fake:0.2", "--executor", "serial", "--quiet"]
    assert main([*base[:2], str(tmp_path / "pool"), *base[2:]]) == 0
    assert main([*base[:2], str(tmp_path / "spread"), *base[2:], "--keyword-choice", "spread"]) == 0
    pool = reuse(_lines(tmp_path / "pool" / "ground" / "rows.jsonl"))
    spread = reuse(_lines(tmp_path / "spread" / "ground" / "rows.jsonl"))
    release_both = reuse(_lines(RELEASE_NE))["both"] if RELEASE_NE.is_file() else 79.2
    assert abs(pool["both"] - release_both) <= 6, pool
    assert all(n <= cap for n, cap in zip(pool["max_uses"].values(), (5, 1, 5))) and pool["per_count"] == 1
    assert pool["max_uses"]["first_word"] == 5 and spread["both"] < 10 and pool["pool"] < spread["pool"] / 2
    record = BuildFolder(tmp_path / "pool").stages()["select"]
    assert record.counts["short: keyword_frequency"] == 4  # N = 5: the corpus has three such (word, document)
    contexts = _lines(tmp_path / "pool" / "ground" / "contexts.jsonl")
    passages = [c for c in contexts if c["features"].get("start")]
    assert passages and all(c["instruction_id"].endswith("first_word") for c in passages)


def test_a_plan_the_corpus_cannot_fill_says_so_in_the_stage_table(tmp_path, capsys):
    corpus = _topic_corpus(tmp_path / "ne.jsonl", topics=6, per_topic=10)
    out = tmp_path / "b"
    argv = ["build", "ground", str(out), "--lang", "ne", "--corpus", str(corpus), "--plan", "paper",
            "--plan-scale", "3.75", "--until", "select"]
    assert main(argv) == 0
    said = capsys.readouterr()
    assert "warning: shortfall: the corpus filled" in said.err + said.out
    record = BuildFolder(out).stages()["select"]
    fill = json.loads((out / "ground" / "select-fill.json").read_text(encoding="utf-8"))
    assert fill["kinds"]["first_word"]["asked"] == 158 and fill["shortfall"]["first_word"] > 0
    assert record.counts["short: first_word"] == fill["shortfall"]["first_word"]
    assert record.counts["contexts_asked"] == sum(k["asked"] for k in fill["kinds"].values())
    assert main(["build", "status", str(out)]) == 0
    table = capsys.readouterr().out
    assert "shortfall" in table and "first_word" in table
    row = BuildFolder(out).status_rows()[3]
    assert row["stage"] == "select" and any("first_word" in w for w in row["warnings"])


def test_a_plan_the_corpus_fills_warns_of_nothing(tmp_path):
    corpus = _topic_corpus(tmp_path / "ne.jsonl")
    done = build_ground(tmp_path / "b", "ne", str(corpus), "paper", None, executor="serial", until="select")
    fill = json.loads((tmp_path / "b" / "ground" / "select-fill.json").read_text(encoding="utf-8"))
    assert fill["kinds"]["keyword_frequency"] == {"asked": 35, "filled": 35,
                                                  "values": {str(n): {"asked": 7, "filled": 7} for n in range(1, 6)}}
    assert fill["kinds"]["first_word"]["filled"] == 42 and fill["kinds"]["forbidden_word"]["filled"] == 7
    keyword_kinds = ("keyword_frequency", "forbidden_word", "first_word")
    assert not [n for n in done["select"].notes if n.startswith("warning:") and any(k in n for k in keyword_kinds)]
    # its documents have two sentences at least: the one-sentence context is short, and said so
    assert fill["shortfall"] == {"number_sentences": 1} and len(done["select"].notes) == 1


def test_a_folder_made_with_the_paper_plan_before_the_pool_goes_on_asking_nothing(tmp_path):
    """Its select stage recorded the old paper.json: the migration gives it today's file with
    keyword_choice spread, which selects exactly what the old file did, so the same command runs
    no stage and asks the writer nothing; naming the pool changes its keywords."""
    assert sha256_of(OLD_PAPER) in RETIRED_PLANS
    old_sha, (name, new_sha, settings) = next(iter(RETIRED_PLANS.items()))
    paper = Path(__file__).resolve().parents[2] / "src" / "indicifeval" / "builder" / "ground" / "plans" / "paper.json"
    assert (name, settings) == ("paper", {"keyword_choice": "spread"}) and sha256_of(paper) == new_sha
    corpus = _topic_corpus(tmp_path / "ne.jsonl")
    gen = ModelSpec.of("mock", "fake", {"answers": "fake:0.2"})
    out = tmp_path / "old"
    build_ground(out, "ne", str(corpus), str(OLD_PAPER), gen, executor="serial")
    path = out / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["stages"]["select"]["identity"]["params"]["plan"] = "paper"  # as `--plan paper` recorded it
    assert manifest["stages"]["select"]["identity"]["inputs"]["plan"]["sha256"] == old_sha
    path.write_text(json.dumps(manifest), encoding="utf-8")
    rows = (out / "ground" / "rows.jsonl").read_bytes()
    generations = (out / "ground" / "generations.jsonl").read_bytes()
    done = build_ground(out, "ne", str(corpus), "paper", gen, executor="serial")
    assert not any(r.ran for r in done.values()), {k: r.reran_because for k, r in done.items() if r.ran}
    assert (out / "ground" / "rows.jsonl").read_bytes() == rows
    assert (out / "ground" / "generations.jsonl").read_bytes() == generations  # nothing asked again
    fresh = tmp_path / "fresh"  # what the migration claims: today's paper plan, spread, selects the same
    build_ground(fresh, "ne", str(corpus), "paper", gen, executor="serial", keyword_choice="spread")
    assert (fresh / "ground" / "contexts.jsonl").read_bytes() == (out / "ground" / "contexts.jsonl").read_bytes()
    assert (fresh / "ground" / "rows.jsonl").read_bytes() == rows
    done = build_ground(out, "ne", str(corpus), "paper", gen, executor="serial", keyword_choice="pool")
    assert done["select"].ran and "keyword_choice" in (done["select"].reran_because or "")

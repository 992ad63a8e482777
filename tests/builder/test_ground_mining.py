"""Ground mining has the scorer's semantics: words counted where the authors' " KEYWORD "
substring search misses them, first words matched whole, the authors' ranking formula, and
every selected context passing the checker it was selected for (on real text)."""

from __future__ import annotations

import json
import math
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from indicifeval.builder.ground.corpus import Shard, iter_documents, list_shards
from indicifeval.builder.ground.mining import (
    FeatureTask,
    VocabTask,
    features_of,
    map_features,
    map_vocab,
    rank_keywords,
    tokens,
)
from indicifeval.builder.ground.select import SelectionPlan, load_plan, recheck, select_contexts
from indicifeval.core.errors import InputError
from indicifeval.records import Row
from indicifeval.scoring.engine import score_row
from indicifeval.text.keywords import count_keyword
from indicifeval.text.normalize import match_key
from tests.builder.corpus_fixture import corpus_path

# Where " KEYWORD " (spaces on both sides) finds nothing or too little, the scorer counts.
MISSED_BY_SUBSTRINGS = [
    ("भारत एक देश है", "भारत", 1),  # at the start
    ("यह देश भारत", "भारत", 1),  # at the end
    ("मैंने भारत। फिर भारत, और भारत?", "भारत", 3),  # next to danda, comma, question mark
    ("भारत भारत भारत", "भारत", 3),  # back to back: " भारत " overlaps
    ("भारतीय लोग", "भारत", 0),  # an inflected word is another word
]


@pytest.mark.parametrize("text, word, n", MISSED_BY_SUBSTRINGS)
def test_keyword_counts_are_the_scorers(text, word, n):
    assert Counter(tokens(text))[word] == n == count_keyword(match_key(text), word)
    assert features_of(text, "hi", frozenset([word]))["counts"].get(word, 0) == n


def test_first_word_is_a_whole_word_not_a_prefix():
    assert features_of("भारतीय टीम जीत गई।", "hi", frozenset())["first_word"] == "भारतीय"
    ok, _ = recheck("hi", "length_constraints:nth_paragraph_first_word", {"first_word": "भारत", "nth_paragraph": 1},
                    "भारतीय टीम जीत गई।", 1)
    assert not ok


def test_the_authors_ranking_on_a_hand_computed_corpus(tmp_path):
    docs = ["नदी पहाड़ नदी", "नदी जंगल", "पहाड़ पहाड़ पहाड़ जंगल", "समुद्र"]
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps({"doc_id": str(i), "text": t}, ensure_ascii=False) + "\n"
                            for i, t in enumerate(docs)), encoding="utf-8")
    vocab = map_vocab(VocabTask(list_shards(str(path))[0], "hi", min_length=3))
    ranked = {k["word"]: k["score"] for k in rank_keywords(vocab, 10, min_df=1)}
    assert vocab.docs == 4
    assert ranked["पहाड़"] == pytest.approx(4 * math.log10(4 / 2))  # tf 4, df 2
    assert ranked["नदी"] == pytest.approx(3 * math.log10(4 / 2))
    assert ranked["समुद्र"] == pytest.approx(1 * math.log10(4 / 1))
    assert list(ranked)[0] == "पहाड़"


def test_byte_range_shards_read_every_line_once(tmp_path):
    path = tmp_path / "c.jsonl"
    lines = [json.dumps({"doc_id": f"d{i}", "text": "शब्द " * (i % 7 + 1)}, ensure_ascii=False) for i in range(500)]
    path.write_text("\n".join(lines) + "\nnot json\n\n", encoding="utf-8")
    shards = list_shards(str(path), shard_bytes=997)
    assert len(shards) > 5
    stats: dict = {}
    ids = [d.doc_id for s in shards for d in iter_documents(s, stats)]
    assert ids == [f"d{i}" for i in range(500)] and stats["malformed"] == 1


def test_parquet_corpus(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"doc_id": ["a", "b"], "text": ["नदी बहती है।", ""]}), tmp_path / "part.parquet")
    shard = list_shards(str(tmp_path))[0]
    stats: dict = {}
    assert [d.doc_id for d in iter_documents(shard, stats)] == ["a"]
    assert stats == {"no_text": 1, "first_no_text": "part.parquet, row 2"}  # counted from 1, as rows are elsewhere


def test_plans_are_checked_field_by_field(tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text("seed: 7\nkeyword_frequency: {1: 3}\nfirst_word: 2\n", encoding="utf-8")
    loaded = load_plan(plan)
    assert loaded.seed == 7 and loaded.keyword_frequency == {1: 3} and loaded.first_word == 2
    plan.write_text("seed: 7\nkeyword_frequncy: {1: 3}\n", encoding="utf-8")
    with pytest.raises(InputError, match="unknown setting"):
        load_plan(plan)
    plan.write_text("!!python/object/apply:os.system ['true']\n", encoding="utf-8")
    with pytest.raises(InputError, match="not a valid plan"):
        load_plan(plan)


_SYNTHETIC = Path(tempfile.mkdtemp(prefix="indicifeval-corpus-"))


def _contexts(language: str, plan: SelectionPlan):
    """Contexts from ../shared's real text, or from a corpus of the sample's words without it."""
    shard = list_shards(corpus_path(language, _SYNTHETIC))[0]
    vocab = map_vocab(VocabTask(shard, language))
    keywords = tuple(k["word"] for k in rank_keywords(vocab, 500))
    records = [json.loads(x) for x in map_features(FeatureTask(shard, language, keywords))["jsonl"].splitlines()]
    return select_contexts(records, plan, language, keywords), records, keywords


@pytest.mark.parametrize("language", ["hi", "ta", "ur", "bn"])
def test_every_context_passes_its_checker(language):
    contexts, _, _ = _contexts(language, SelectionPlan())
    assert len(contexts) >= 60
    assert {c.features["kind"] for c in contexts} == {"keyword_frequency", "forbidden_word", "number_sentences",
                                                      "number_paragraphs", "first_word"}
    docs = [c.doc_id for c in contexts]
    assert len(docs) == len(set(docs))
    for c in contexts:
        if c.instruction_id == "keywords:forbidden_words":  # the context is the temptation: it holds the word
            assert count_keyword(match_key(c.text), c.kwargs["forbidden_words"][0]) >= 2
            continue
        text = c.text
        if c.instruction_id == "length_constraints:number_paragraphs":
            text = "\n\n***\n\n".join(p.strip() for p in c.text.split("\n\n"))
        row = Row("k", "", (c.instruction_id,), (c.kwargs,), language, "ground")
        assert score_row(row, text).strict == [True], (c.id, c.kwargs)


def test_selection_does_not_depend_on_document_order():
    plan = SelectionPlan(seed=3)
    first, records, keywords = _contexts("hi", plan)
    again = select_contexts(list(reversed(records)), plan, "hi", keywords)
    assert [(c.id, c.doc_id, c.kwargs) for c in first] == [(c.id, c.doc_id, c.kwargs) for c in again]
    other = select_contexts(records, SelectionPlan(seed=4), "hi", keywords)
    assert [c.doc_id for c in other] != [c.doc_id for c in first]


def test_a_shard_record_round_trips():
    shard = Shard("00001", "/x.jsonl", "jsonl", 10, 20)
    assert Shard.from_json(json.loads(json.dumps(shard.to_json()))) == shard

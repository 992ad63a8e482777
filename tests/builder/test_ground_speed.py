"""The fast ways of Ground mining give what the plain ways gave, byte for byte: one sentence
pass per document, words by the stdlib, the text hash by a replace, places hashed once; and
shards are sized so that a small corpus still keeps every worker busy, and a worker streams its
shard within a bounded memory budget (checked by allocation, not by time)."""

from __future__ import annotations

import hashlib
import io
import json
import random
import sys
import tracemalloc
import weakref
from collections import Counter
from contextlib import contextmanager

import regex

from indicifeval.builder.ground import mining
from indicifeval.builder.ground.corpus import (
    MIN_SHARD_BYTES,
    SHARDS_WANTED,
    Document,
    Shard,
    iter_documents,
    list_shards,
    shard_size,
)
from indicifeval.builder.ground.mining import (
    FeatureTask,
    VocabPart,
    VocabTask,
    features_of,
    map_features,
    map_vocab,
    text_hash,
    tokens,
    vocab_json,
    write_features,
    write_vocab,
)
from indicifeval.builder.ground.select import SelectionPlan, _Offers, _queries
from indicifeval.checkers.rules import get_rules
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.text import sentences
from indicifeval.text.normalize import match_key_of_nfc, nfc
from indicifeval.text.paragraphs import leading_words, paragraphs

SEPARATORS = ["\n\n", "\n\n\n", "\n \n", "\n\xa0\n", "\r\n\r\n", "\n", " \n\n ", "\n\u2028\n", "\n\t\n", "\n\x0b\n",
              "\n\x1c\n", "\n\u3000\n", "  ", " "]
STARTS = ["", "* ", "1. ", "# ", "  ", "\u200c", "— ", '"', "...", "- ", "क. ", "डॉ. "]
PIECES = ["भारत एक देश है।", "यह 3.5 किलो है.", "क्या? हाँ!", "www.example.org पर देखें", "नदी… फिर", "A. K. शर्मा आए।",
          "विश्व-शान्ति, न्याय।", "Il-76s उतरे.", "“कहा।”", "ज़िंदगी क़रीब", "நதி ஓடுகிறது.", "دریا بہتا ہے۔", "***"]


def _texts(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        parts = [rng.choice(STARTS) + " ".join(rng.choices(PIECES, k=rng.randint(1, 4)))
                 for _ in range(rng.randint(1, 4))]
        text = parts[0]
        for part in parts[1:]:
            text += rng.choice(SEPARATORS) + part
        out.append(rng.choice(["", " ", "\n"]) + text + rng.choice(["", " ", "\n\n"]))
    return out


def _plain_features(text: str, language: str, keywords: frozenset[str]) -> dict:
    """features_of as it was: two sentence passes, every word counted, the whole paragraph read."""
    rules = get_rules(language, "ground", "fixed")
    paras = paragraphs(text)
    words = Counter(regex.findall(r"[\p{L}\p{M}\p{N}]+", match_key_of_nfc(nfc(text))))
    first = leading_words(paras[0], 1) if paras else []
    return {"chars": len(text), "paragraphs": len(paras), "sentences": rules.count_sentences(text),
            "sentences_per_paragraph": [rules.count_sentences(p) for p in paras],
            "first_word": first[0] if first else None,
            "counts": {w: n for w, n in sorted(words.items()) if w in keywords}}


def test_one_sentence_pass_counts_what_two_did():
    keywords = frozenset(["भारत", "देश", "नदी", "फिर", "शान्ति"])
    for text in _texts(3000):
        for t in (text, nfc(text.strip())):
            assert features_of(t, "hi", keywords) == _plain_features(t, "hi", keywords), repr(t)


def test_the_paragraph_break_is_the_sentence_counters():
    assert mining._BLOCK_BREAK.pattern == sentences._BLOCK_BREAK.pattern


def test_stdlib_word_runs_are_the_regex_modules():
    runs = mining._Runs()
    plain = regex.compile(r"[\p{L}\p{M}\p{N}]+")
    rng = random.Random(3)
    alphabet = "".join(chr(c) for c in rng.sample(range(0x20, 0x3000), 600)) + "[]^\\-"
    for _ in range(400):
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 80)))
        assert runs.findall(text) == plain.findall(text), repr(text)
    runs.LIMIT = 10  # past the limit: the regex module, the same runs
    text = "".join(chr(c) for c in range(0x900, 0x980))
    assert runs.findall(text) == plain.findall(text) and tokens("भारत, भारत।") == ["भारत", "भारत"]


def test_text_hash_is_of_the_text_with_its_whitespace_runs_made_one_space():
    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    cases = ["", "a", " a ", "a\n\nb", "a\n\n\nb", "a \n\nb", "a\u200db\n\nc", "\n\na"]
    cases += [f"a{s}b{t}c" for s in spaces for t in [" ", "\n\n", s, s + s]]
    for text in cases + _texts(300):
        assert text_hash(text) == hashlib.sha256(" ".join(text.split()).encode()).hexdigest()[:16], repr(text)


def _old_place(seed, *parts) -> str:
    return hashlib.sha256(json.dumps([seed, *parts], ensure_ascii=False).encode("utf-8")).hexdigest()


def _fits(r: dict, kind: str, n, plan: SelectionPlan, firsts: list[str]) -> bool:
    counts = r["counts"]
    if kind == "keyword_frequency":
        return n in counts.values()
    if kind == "forbidden_word":
        return any(c >= plan.forbidden_min_count for c in counts.values())
    if kind == "number_sentences":
        return r["paragraphs"] == 1 and r["sentences"] == n
    if kind == "number_paragraphs":
        return r["paragraphs"] == n
    if kind == "first_word":
        return r["first_word"] in firsts
    return (r["sentences"], r["paragraphs"]) == n


def test_each_query_keeps_the_lowest_places_as_the_plain_hash_ranks_them():
    plan = SelectionPlan(seed=5, sentences_and_paragraphs={(3, 2): 2})
    rng = random.Random(2)
    words = ["नदी", "पहाड़", 'क"ख', "a\\b", "ग्राम"]
    records = [{"doc_id": rng.choice(["", "d", 'q"', "दस्तावेज़", "\u2028"]) + str(i), "paragraphs": rng.randint(1, 3),
                "sentences": rng.randint(1, 5), "first_word": rng.choice(words + [None]),
                "counts": {w: rng.randint(1, 5) for w in rng.sample(words, rng.randint(0, 4))}} for i in range(3000)]
    queries = _queries(plan)
    offers = _Offers(queries, plan, set(words[:3]), "hi")
    for record in records:
        offers.offer(record)
    for (kind, n), (query, _) in queries.items():
        parts = (list(n),) if isinstance(n, tuple) else (n,) if kind not in ("forbidden_word", "first_word") else ()

        fitting = [r for r in records if _fits(r, kind, n, plan, words[:3])]
        ranked = sorted(fitting, key=lambda r, k=kind, p=parts: _old_place(plan.seed, k, *p, r["doc_id"]))
        best = query.best()
        assert [r["doc_id"] for _, r in best] == [r["doc_id"] for r in ranked[:query.size]], (kind, n)
        for kwargs, r in best:
            word = kwargs.get("keyword") or (kwargs.get("forbidden_words") or [None])[0]
            if word is not None and kind != "first_word":
                options = [w for w, c in r["counts"].items() if (c == n if kind == "keyword_frequency"
                                                                 else c >= plan.forbidden_min_count)]
                assert word == min(options, key=lambda w, k=kind, p=parts, d=r["doc_id"]:
                                   _old_place(plan.seed, k, *p, d, w))


# -- shards ---------------------------------------------------------------------------------------
def test_shard_size_keeps_every_worker_busy_on_a_small_corpus():
    configured = 64 << 20
    assert shard_size(10 << 30, configured) == configured  # a large corpus: the configured size
    assert shard_size(100 << 20, configured) == -(-(100 << 20) // SHARDS_WANTED)  # SHARDS_WANTED shards
    assert shard_size(3 << 20, configured) == MIN_SHARD_BYTES  # never below the floor ...
    assert shard_size(3 << 20, 200_000) == 200_000  # ... unless asked for
    assert shard_size(0, configured) == MIN_SHARD_BYTES


def _corpus(path, documents: int, seed: int = 0):
    rng = random.Random(seed)
    texts = _texts(200, seed)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(documents):
            fh.write(json.dumps({"doc_id": f"d{i}", "text": rng.choice(texts) * rng.randint(1, 3)},
                                ensure_ascii=False) + "\n")
    return path


def test_a_small_corpus_is_cut_for_every_worker_and_read_once(tmp_path):
    path = _corpus(tmp_path / "c.jsonl", 12_000)
    size = path.stat().st_size
    assert 2 * MIN_SHARD_BYTES < size < 64 << 20  # smaller than one configured shard
    shards = list_shards(str(path))
    assert len(shards) == -(-size // MIN_SHARD_BYTES) >= 2
    assert shards == list_shards(str(path))  # the same cut every time, whoever runs it
    ids = [d.doc_id for s in shards for d in iter_documents(s)]
    assert ids == [f"d{i}" for i in range(12_000)]


# -- worker-written parts and the memory budget ---------------------------------------------------
def test_parts_written_by_workers_are_the_parts_sent_back(tmp_path):
    shard = list_shards(str(_corpus(tmp_path / "c.jsonl", 500)))[0]
    keywords = ("भारत", "नदी", "देश")
    out = tmp_path / "f.jsonl"
    assert write_features(FeatureTask(shard, "hi", keywords, out=str(out)))["records"] == 500
    assert out.read_text(encoding="utf-8") == map_features(FeatureTask(shard, "hi", keywords))["jsonl"]
    out = tmp_path / "v.json"
    assert write_vocab(VocabTask(shard, "hi", out=str(out))) == 500
    assert out.read_text(encoding="utf-8") == vocab_json(map_vocab(VocabTask(shard, "hi")))


def test_a_worker_holds_one_document_and_one_batch_of_lines(tmp_path, monkeypatch):
    """The memory budget's logic: streaming, a worker holds the document it reads and at most
    one batch of finished lines, whatever the shard's size (not every document and record)."""
    alive, most = [0], [0]
    texts = _texts(50, 5)

    def gone() -> None:
        alive[0] -= 1

    def documents(shard, stats):
        for i in range(3000):
            doc = Document(f"d{i}", texts[i % 50], shard.id)
            weakref.finalize(doc, gone)
            alive[0] += 1
            most[0] = max(most[0], alive[0])
            yield doc
            del doc

    monkeypatch.setattr(mining, "iter_documents", documents)
    batches: list[int] = []
    real = mining.atomic_writer

    @contextmanager
    def counting(path):
        with real(path) as fh:
            write = fh.write
            fh.write = lambda text: batches.append(text.count("\n")) or write(text)
            yield fh

    monkeypatch.setattr(mining, "atomic_writer", counting)
    out = tmp_path / "f.jsonl"
    assert write_features(FeatureTask(Shard("00000", "-", "jsonl"), "hi", ("भारत",), out=str(out)))["records"] == 3000
    assert most[0] <= 2 and max(batches) <= mining.BATCH and sum(batches) == 3000
    assert out.read_text(encoding="utf-8").count("\n") == 3000


def test_a_vocab_part_streamed_is_the_json_of_it():
    parts = [VocabPart(), VocabPart(3, Counter({"ख": 2, 'क"': 1}), Counter({"ख": 1, 'क"': 1}),
                                    {"malformed": 1, "first_malformed": "c.jsonl, byte 3"}, Counter({"Deva": 3})),
             VocabPart(9, Counter({f"w{i}": i for i in range(700)}), Counter({f"w{i}": 1 for i in range(700)}))]
    for part in parts:
        out = io.StringIO()
        mining._dump_vocab(part, out)
        assert out.getvalue() == vocab_json(part)


def _peak(fn, task) -> int:
    tracemalloc.start()
    try:
        fn(task)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_workers_memory_does_not_grow_with_its_shard(tmp_path):
    """Measured by allocation (not by time): four times the shard, not four times the memory."""
    peaks = {}
    for documents in (300, 1200):
        path = _corpus(tmp_path / f"c{documents}.jsonl", documents)
        task = FeatureTask(list_shards(str(path), shard_bytes=1 << 30)[0], "hi", ("भारत", "नदी"),
                           out=str(tmp_path / "f.jsonl"))
        write_features(task)  # warm: patterns compiled, tables filled, as in a worker after its first shard
        peaks[documents] = _peak(write_features, task)
    assert peaks[1200] < 1.3 * peaks[300] < _peak(map_features, task)


def test_parts_sent_back_to_the_driver_are_the_parts_workers_write(tmp_path, monkeypatch):
    """A Ray of several nodes cannot write into the build folder: its parts come back to the
    driver, which writes them; the bytes are the same."""
    from indicifeval.builder.executors import SerialExecutor
    from indicifeval.builder.ground.pipeline import MiningOptions, build_ground
    from tests.builder.corpus_fixture import corpus_path

    corpus, options = corpus_path("hi", tmp_path), MiningOptions(top_k=100, shard_bytes=200_000)
    build_ground(tmp_path / "direct", "hi", corpus, None, ModelSpec.of("mock", "fake"), executor="serial",
                 mining=options, until="features")
    monkeypatch.setattr(SerialExecutor, "shares_files", False)
    build_ground(tmp_path / "sent", "hi", corpus, None, ModelSpec.of("mock", "fake"), executor="serial",
                 mining=options, until="features")
    parts = sorted(p.relative_to(tmp_path / "direct") for p in (tmp_path / "direct" / "ground").rglob("part-*"))
    assert len(parts) >= 6
    for part in parts:
        assert (tmp_path / "sent" / part).read_bytes() == (tmp_path / "direct" / part).read_bytes(), part

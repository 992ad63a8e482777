"""Mining a corpus shard by shard with the scorer's own text functions: word counts for the
keyword vocabulary, then one feature record per document that every constraint is selected
from. The map functions are pure and top-level (picklable for any executor); their partial
results add up in any order, so serial, process and Ray runs give the same merged result.
A worker that shares the build folder's file system writes its part itself (``write_vocab``,
``write_features``): a shard's records stream to the file, and only counts travel back.

Words follow the scorer's keyword matcher: the text's ``match_key`` (NFC, case-folded,
joiners removed) cut into runs of letters, marks and digits, so a word counted here is a word
``keywords:frequency`` counts, at the start or end of a text, next to ``।`` or ``,``, and back
to back alike. A keyword candidate is such a run written wholly in the language's script, with
a letter in it and at least ``min_length`` characters (the authors kept words longer than
three code points)."""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import regex

from indicifeval.builder.ground.corpus import Shard, iter_documents
from indicifeval.checkers.rules import Rules, get_rules
from indicifeval.core.files import atomic_writer
from indicifeval.languages import get_profile, script_ranges
from indicifeval.text.normalize import match_key_of_nfc, nfc
from indicifeval.text.paragraphs import leading_words, paragraphs
from indicifeval.text.scripts import script_counts

_RUN = regex.compile(r"[\p{L}\p{M}\p{N}]+")
_LETTER = regex.compile(r"\p{L}")
# The paragraph break of the corrected sentence counter (text.sentences; a test holds them equal):
# a text whose pieces between these are exactly its paragraphs has as many sentences as its
# paragraphs together, so one pass over the paragraphs gives both counts.
_BLOCK_BREAK = regex.compile(r"\n[ \t\r\f\v]*\n")
_JSON = json.JSONEncoder(ensure_ascii=False)  # json.dumps(..., ensure_ascii=False) without a new encoder a call
_string = json.encoder.encode_basestring  # a str as that encoder writes it
BATCH = 256  # feature lines a worker holds before it writes them


@lru_cache(maxsize=32)
def _script_word(language: str, min_length: int) -> regex.Pattern:
    ranges = script_ranges()[get_profile(language).script]
    block = "".join(f"\\u{lo:04x}-\\u{hi:04x}" if hi <= 0xFFFF else f"\\U{lo:08x}-\\U{hi:08x}"
                    for lo, hi in ranges)
    return regex.compile(f"[{block}]{{{min_length},}}")


class _Runs:
    """``_RUN.findall`` by a stdlib pattern of the word characters seen so far, each classified
    by ``_RUN`` itself when first met: the same runs, in half the time (the regex module tests
    a character's properties; the stdlib tests membership in a table). A text with a character
    not yet classified is checked by one fast scan first; past LIMIT characters (a corpus of
    many scripts) the regex module does it all."""

    LIMIT = 3000

    def __init__(self) -> None:
        self.known: set[str] = set()
        self.word: set[str] = set()
        self.runs: re.Pattern | None = None
        self.unknown = re.compile(".", re.DOTALL)
        self._lock = threading.Lock()

    def findall(self, text: str) -> list[str]:
        if self.unknown.search(text) is not None:
            if len(self.known) >= self.LIMIT:
                return _RUN.findall(text)
            self._learn(text)
        runs = self.runs
        return runs.findall(text) if runs is not None else []

    def _learn(self, text: str) -> None:
        with self._lock:
            new = set(text) - self.known
            self.word |= {c for c in new if _RUN.fullmatch(c)}
            self.known |= new
            # the runs first: a text that passes the new check finds every word character in them
            self.runs = re.compile(f"[{''.join(map(re.escape, sorted(self.word)))}]+") if self.word else None
            self.unknown = re.compile(f"[^{''.join(map(re.escape, sorted(self.known)))}]")


_runs = _Runs()


def tokens(text: str) -> list[str]:
    """The words of ``text`` as the keyword matcher sees them."""
    return _runs.findall(match_key_of_nfc(nfc(text)))


@dataclass(frozen=True)
class VocabTask:
    shard: Shard
    language: str
    min_length: int = 4
    out: str | None = None  # where write_vocab puts the part


@dataclass
class VocabPart:
    """Word statistics of some documents: term frequency, document frequency, documents."""

    docs: int = 0
    tf: Counter = field(default_factory=Counter)
    df: Counter = field(default_factory=Counter)
    skipped: dict[str, int] = field(default_factory=dict)
    scripts: Counter = field(default_factory=Counter)  # documents by the script most of their letters are in

    def add(self, other: VocabPart) -> VocabPart:
        self.docs += other.docs
        self.tf.update(other.tf)
        self.df.update(other.df)
        self.scripts.update(other.scripts)
        for k, v in other.skipped.items():
            if k.startswith("first_"):
                self.skipped.setdefault(k, v)  # where the first one is, in corpus order
            elif isinstance(v, int):
                self.skipped[k] = self.skipped.get(k, 0) + v
        return self

    def to_json(self) -> dict:
        return {"docs": self.docs, "tf": dict(sorted(self.tf.items())), "df": dict(sorted(self.df.items())),
                "skipped": self.skipped, "scripts": dict(sorted(self.scripts.items()))}

    @classmethod
    def from_json(cls, data: dict) -> VocabPart:
        return cls(data["docs"], Counter(data["tf"]), Counter(data["df"]), dict(data.get("skipped") or {}),
                   Counter(data.get("scripts") or {}))


def map_vocab(task: VocabTask) -> VocabPart:
    """Candidate words of one shard, counted (every document counts towards N, as the
    authors count it, even one without candidate words). Each word is judged once per shard;
    the counting itself is Counter's (C), not a loop over the words of every document."""
    part = VocabPart()
    candidate = _script_word(task.language, task.min_length).fullmatch
    good: set[str] = set()
    bad: set[str] = set()
    for doc in iter_documents(task.shard, part.skipped):
        part.docs += 1
        scripts = script_counts(doc.text, sample=200)
        part.scripts[scripts.most_common(1)[0][0] if scripts else "none"] += 1
        words = tokens(doc.text)
        distinct = set(words)
        for word in distinct - good - bad:
            (good if candidate(word) is not None and _LETTER.search(word) is not None else bad).add(word)
        kept = distinct & good
        part.df.update(kept)
        part.tf.update(words if len(kept) == len(distinct) else [w for w in words if w in kept])
    return part


def vocab_json(part: VocabPart) -> str:
    """A vocab part file's text."""
    return json.dumps(part.to_json(), ensure_ascii=False, indent=1) + "\n"


def write_vocab(task: VocabTask) -> int:
    """``map_vocab`` with its part written to ``task.out`` by the worker; returns the documents."""
    assert task.out is not None, "write_vocab needs the part's path"
    part = map_vocab(task)
    with atomic_writer(task.out) as fh:
        _dump_vocab(part, fh)
    return part.docs


def _dump_vocab(part: VocabPart, fh) -> None:
    """The bytes of ``vocab_json(part)``, written entry by entry in sorted order, so that no
    sorted copy of the shard's word counts (nor their whole text) is held beside them."""
    fh.write(f'{{\n "docs": {json.dumps(part.docs)}')
    for name, table, order in (("tf", part.tf, sorted(part.tf)), ("df", part.df, sorted(part.df)),
                               ("skipped", part.skipped, list(part.skipped)),
                               ("scripts", part.scripts, sorted(part.scripts))):
        fh.write(f',\n "{name}": ')
        if not order:
            fh.write("{}")
            continue
        for start in range(0, len(order), BATCH):
            fh.write("{\n  " if start == 0 else ",\n  ")
            fh.write(",\n  ".join(f"{_string(key)}: {_JSON.encode(table[key])}" for key in order[start:start + BATCH]))
        fh.write("\n }")
    fh.write("\n}\n")


def stop_keys(language: str) -> frozenset[str]:
    """The profile's stop words as the keyword matcher sees words (NFC, case-folded, joiners
    removed), so a listed word is left out however the corpus writes it."""
    return frozenset(t for w in get_profile(language).stop_words for t in tokens(w))


def stop_fingerprint(language: str) -> str:
    """The stop-word list in a stage's identity: its size and a hash (an edited list reruns vocab)."""
    keys = "\n".join(sorted(stop_keys(language)))
    return f"{len(stop_keys(language))}:{hashlib.sha256(keys.encode('utf-8')).hexdigest()[:16]}"


def rank_keywords(vocab: VocabPart, top_k: int, from_k: int = 0, min_df: int = 2, stop: Iterable[str] = (),
                  left_out: Counter | None = None) -> list[dict]:
    """The authors' ranking, TF × log10(N / DF), best first (ties by word), of the words in at
    least ``min_df`` documents (a word seen once is no keyword to build on) that are not
    ``stop`` words; ``from_k`` skips that many of the best (ranks count from the first
    kept word). ``left_out`` counts the words each rule removed."""
    n = max(vocab.docs, 1)
    stop = frozenset(stop)
    left_out = left_out if left_out is not None else Counter()
    scored = []
    for w, tf in vocab.tf.items():
        if vocab.df[w] < min_df:
            left_out["min_df"] += 1
        elif w in stop:
            left_out["stop_words"] += 1
        else:
            scored.append((tf * math.log10(n / vocab.df[w]), w))
    scored.sort(key=lambda item: (-item[0], item[1]))
    left_out["skipped_top"] += min(from_k, len(scored))
    out = []
    for rank, (score, word) in enumerate(scored[from_k:from_k + top_k], start=from_k + 1):
        out.append({"word": word, "rank": rank, "score": round(score, 6), "tf": vocab.tf[word],
                    "df": vocab.df[word]})
    return out


@dataclass(frozen=True)
class FeatureTask:
    shard: Shard
    language: str
    keywords: tuple[str, ...]
    max_chars: int = 1000
    out: str | None = None  # where write_features puts the part


def text_hash(text: str) -> str:
    """Of the text with its whitespace runs made one space. Most texts part their paragraphs
    by one blank line and their words by one space: for them that is a replace, and a check
    that no other whitespace is left (isprintable is false for every whitespace but " ")."""
    flat = text.replace("\n\n", " ")
    if not flat.isprintable() or "  " in flat or flat[:1] == " " or flat[-1:] == " ":
        flat = " ".join(text.split())
    return hashlib.sha256(flat.encode("utf-8")).hexdigest()[:16]


def features_of(text: str, language: str, keywords: frozenset[str]) -> dict:
    """What every constraint is selected by, computed as the scorer computes it."""
    return _features(text, match_key_of_nfc(nfc(text)), get_rules(language, "ground", "fixed"), keywords)


def _features(text: str, key: str, rules: Rules, keywords: frozenset[str]) -> dict:
    """``features_of`` given the text's match key (of an NFC text: the text itself, case-folded)."""
    paras = paragraphs(text)
    per_paragraph = [rules.count_sentences(p) for p in paras]
    if rules.indic_fixed and (paras == [text] if "\n" not in text else _BLOCK_BREAK.split(text) == paras):
        sentences = sum(per_paragraph)  # the count of the text, without a second pass over it
    else:  # a blank line of other whitespace, a stray newline, a paragraph that is not stripped
        sentences = rules.count_sentences(text)
    found = Counter(filter(keywords.__contains__, _runs.findall(key)))  # C loops, no Python one per word
    return {"chars": len(text), "paragraphs": len(paras), "sentences": sentences,
            "sentences_per_paragraph": per_paragraph, "first_word": _first_word(paras[0]) if paras else None,
            "counts": {w: found[w] for w in sorted(found)}}


def _first_word(paragraph: str) -> str | None:
    """``leading_words(paragraph, 1)``, reading the first few tokens, not the whole paragraph."""
    head = paragraph.split(None, 4)
    first = leading_words(" ".join(head[:4]), 1) or (leading_words(paragraph, 1) if len(head) > 4 else [])
    return first[0] if first else None


def _feature_lines(task: FeatureTask, stats: dict[str, int]) -> Iterator[str]:
    """The shard's feature records as JSON lines, one document at a time."""
    keywords = frozenset(task.keywords)
    rules = get_rules(task.language, "ground", "fixed")
    for doc in iter_documents(task.shard, stats):
        text = nfc(doc.text.strip())
        record = {"doc_id": doc.doc_id, "shard": doc.shard, "hash": text_hash(text),
                  **_features(text, match_key_of_nfc(text), rules, keywords)}
        if len(text) <= task.max_chars:
            record["text"] = text
        yield _JSON.encode(record) + "\n"


def _counted(records: int, stats: dict[str, int]) -> dict:
    return {"records": records, "skipped": {k: v for k, v in stats.items() if not k.startswith("first_")}}


def map_features(task: FeatureTask) -> dict:
    """The shard's feature records as JSON lines, one per document (its text kept when it is
    short enough to be a context), their count and what was skipped. Text, not objects: a
    worker's result is pickled back to the driver, and one string costs far less than
    thousands of dicts."""
    stats: dict[str, int] = {}
    lines = list(_feature_lines(task, stats))
    return {"jsonl": "".join(lines), **_counted(len(lines), stats)}


def write_features(task: FeatureTask) -> dict:
    """``map_features`` streamed into ``task.out`` (atomically) by the worker: a few hundred
    documents in memory at a time, whatever the shard's size; returns the counts alone."""
    assert task.out is not None, "write_features needs the part's path"
    stats: dict[str, int] = {}
    records = 0
    batch: list[str] = []
    with atomic_writer(task.out) as fh:
        for line in _feature_lines(task, stats):
            batch.append(line)
            if len(batch) == BATCH:
                fh.write("".join(batch))
                records += len(batch)
                batch.clear()
        fh.write("".join(batch))
    return _counted(records + len(batch), stats)


__all__ = ["FeatureTask", "VocabPart", "VocabTask", "features_of", "map_features", "map_vocab", "rank_keywords",
           "stop_fingerprint", "stop_keys", "text_hash", "tokens", "vocab_json", "write_features", "write_vocab"]

"""Mining a corpus shard by shard with the scorer's own text functions: word counts for the
keyword vocabulary, then one feature record per document that every constraint is selected
from. The map functions are pure and top-level (picklable for any executor); their partial
results add up in any order, so serial, process and Ray runs give the same merged result.

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
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

import regex

from indicifeval.builder.ground.corpus import Shard, iter_documents
from indicifeval.checkers.rules import get_rules
from indicifeval.languages import get_profile, script_ranges
from indicifeval.text.normalize import match_key_of_nfc, nfc
from indicifeval.text.paragraphs import leading_words, paragraphs
from indicifeval.text.scripts import script_counts

_RUN = regex.compile(r"[\p{L}\p{M}\p{N}]+")
_LETTER = regex.compile(r"\p{L}")


@lru_cache(maxsize=32)
def _script_word(language: str, min_length: int) -> regex.Pattern:
    ranges = script_ranges()[get_profile(language).script]
    block = "".join(f"\\u{lo:04x}-\\u{hi:04x}" if hi <= 0xFFFF else f"\\U{lo:08x}-\\U{hi:08x}"
                    for lo, hi in ranges)
    return regex.compile(f"[{block}]{{{min_length},}}")


def tokens(text: str) -> list[str]:
    """The words of ``text`` as the keyword matcher sees them."""
    return _RUN.findall(match_key_of_nfc(nfc(text)))


def is_candidate(word: str, language: str, min_length: int) -> bool:
    return _script_word(language, min_length).fullmatch(word) is not None and _LETTER.search(word) is not None


@dataclass(frozen=True)
class VocabTask:
    shard: Shard
    language: str
    min_length: int = 4


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
    authors count it, even one without candidate words)."""
    part = VocabPart()
    candidate = _script_word(task.language, task.min_length).fullmatch
    seen: dict[str, bool] = {}
    for doc in iter_documents(task.shard, part.skipped):
        part.docs += 1
        scripts = script_counts(doc.text, sample=200)
        part.scripts[scripts.most_common(1)[0][0] if scripts else "none"] += 1
        counts = Counter(tokens(doc.text))
        for word, n in counts.items():
            ok = seen.get(word)
            if ok is None:
                ok = seen[word] = candidate(word) is not None and _LETTER.search(word) is not None
            if ok:
                part.tf[word] += n
                part.df[word] += 1
    return part


def merge_vocab(parts: Iterable[VocabPart]) -> VocabPart:
    total = VocabPart()
    for part in parts:
        total.add(part)
    return total


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


def text_hash(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:16]


def features_of(text: str, language: str, keywords: frozenset[str]) -> dict:
    """What every constraint is selected by, computed as the scorer computes it."""
    rules = get_rules(language, "ground", "fixed")
    paras = paragraphs(text)
    words = Counter(tokens(text))
    first = leading_words(paras[0], 1) if paras else []
    return {"chars": len(text), "paragraphs": len(paras),
            "sentences": rules.count_sentences(text),
            "sentences_per_paragraph": [rules.count_sentences(p) for p in paras],
            "first_word": first[0] if first else None,
            "counts": {w: n for w, n in sorted(words.items()) if w in keywords}}


def map_features(task: FeatureTask) -> dict:
    """The shard's feature records as JSON lines, one per document (its text kept when it is
    short enough to be a context), their count and what was skipped. Text, not objects: a
    worker's result is pickled back to the driver, and one string costs far less than
    thousands of dicts."""
    keywords = frozenset(task.keywords)
    lines: list[str] = []
    stats: dict[str, int] = {}
    for doc in iter_documents(task.shard, stats):
        text = nfc(doc.text.strip())
        record = {"doc_id": doc.doc_id, "shard": doc.shard, "hash": text_hash(text),
                  **features_of(text, task.language, keywords)}
        if len(text) <= task.max_chars:
            record["text"] = text
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    return {"jsonl": "".join(lines), "records": len(lines),
            "skipped": {k: v for k, v in stats.items() if not k.startswith("first_")}}


__all__ = ["FeatureTask", "VocabPart", "VocabTask", "features_of", "is_candidate", "map_features", "map_vocab",
           "merge_vocab", "rank_keywords", "stop_fingerprint", "stop_keys", "text_hash", "tokens"]

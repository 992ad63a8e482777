"""Choosing contexts: the plan's quotas become queries over the feature records, and every
chosen context is checked again with the real checker, so a context satisfies its constraint
exactly as the scorer will judge a response.

The choice is seeded and independent of shard order: each candidate's place is a hash of
(seed, constraint, value, document), and only the best few per query are kept while the
features stream by (memory stays flat however large the corpus). A document is used once, and
two documents with the same text are one."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from indicifeval.builder.ground import beyond
from indicifeval.builder.ground.keyword_pool import KeywordPool, Uses, fill_order, word_of
from indicifeval.builder.ground.places import Place as _Place
from indicifeval.builder.ground.places import json_of as _json
from indicifeval.builder.ground.plan import (
    POOLED,
    KeywordChoice,
    SelectionPlan,
    load_plan,
    plan_label,
    plan_names,
    plan_path,
    scaled,
    value_label,
)
from indicifeval.checkers.registry import REGISTRY
from indicifeval.records import MinedContext, Row
from indicifeval.scoring.engine import score_row

_SENTENCES, _PARAGRAPHS = "length_constraints:number_sentences", "length_constraints:number_paragraphs"
COMBINED = f"{_SENTENCES}+{_PARAGRAPHS}"  # one constraint, two checkers: "exactly S sentences in P paragraphs"
INSTRUCTION = {"keyword_frequency": "keywords:frequency", "forbidden_word": "keywords:forbidden_words",
               "number_sentences": _SENTENCES, "number_paragraphs": _PARAGRAPHS,
               "first_word": "length_constraints:nth_paragraph_first_word", "sentences_and_paragraphs": COMBINED}
_FEATURES = ("chars", "paragraphs", "sentences", "first_word", "start")  # start: where a passage begins in its document
_OVERSAMPLE = 4  # candidates kept per query, per context wanted: room for the re-check and de-duplication


def instructions_of(instruction_id: str, kwargs: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A context's instructions with their own kwargs: one, or for a combined constraint (ids
    joined by "+") each id with the kwargs its checker takes."""
    ids = instruction_id.split("+")
    if len(ids) == 1:
        return [(instruction_id, dict(kwargs))]
    return [(iid, {p.name: kwargs[p.name] for p in REGISTRY[iid].params if p.name in kwargs}) for iid in ids]


class _Query:
    """The best ``size`` candidates by place, kept in a bounded heap; a candidate's kwargs are
    made only once its place would be kept (most are not, once the heap is full)."""

    def __init__(self, size: int, place: _Place):
        self.size = size
        self.place = place
        self.heap: list[tuple[int, str, dict, dict]] = []  # (negated place, doc_id, kwargs, record)

    def wants(self, key: int) -> bool:
        return len(self.heap) < self.size or (self.size > 0 and key > self.heap[0][0])

    def push(self, key: int, kwargs: dict, record: dict) -> None:
        item = (key, record["doc_id"], kwargs, record)
        if len(self.heap) < self.size:
            heapq.heappush(self.heap, item)
        else:
            heapq.heapreplace(self.heap, item)

    def best(self) -> list[tuple[dict, dict]]:
        return [(kw, rec) for _, _, kw, rec in sorted(self.heap, key=lambda x: (x[0], x[1]), reverse=True)]


def _queries(plan: SelectionPlan) -> dict[tuple[str, Any], tuple[_Query, int]]:
    out: dict[tuple[str, Any], tuple[_Query, int]] = {}
    seed = plan.seed

    def query(kind: str, quota: int, *parts: Any) -> tuple[_Query, int]:
        return _Query(quota * _OVERSAMPLE, _Place(seed, kind, *parts)), quota

    for n, q in plan.keyword_frequency.items():
        out["keyword_frequency", n] = query("keyword_frequency", q, n)
    out["forbidden_word", 0] = query("forbidden_word", plan.forbidden_word)
    for n, q in plan.number_sentences.items():
        out["number_sentences", n] = query("number_sentences", q, n)
    for n, q in plan.number_paragraphs.items():
        out["number_paragraphs", n] = query("number_paragraphs", q, n)
    out["first_word", 0] = query("first_word", plan.first_word)
    for pair, q in plan.sentences_and_paragraphs.items():
        out["sentences_and_paragraphs", pair] = query("sentences_and_paragraphs", q, list(pair))
    for iid, q in plan.beyond.items():
        out[beyond.KIND, iid] = query(beyond.KIND, q, iid)
    return out


class _Offers:
    """The queries by what a record must have to be a candidate, so that each record is
    looked at once per kind, not once per query; each with its number as the plan wrote it."""

    def __init__(self, queries: dict[tuple[str, Any], tuple[_Query, int]], plan: SelectionPlan, keywords: set[str],
                 language: str, pool: KeywordPool | None = None):
        def of(kind: str) -> dict[Any, tuple[Any, _Query]]:
            return {n: (n, q) for (k, n), (q, _) in queries.items() if k == kind}

        self.frequency, self.sentences = of("keyword_frequency"), of("number_sentences")
        self.paragraphs, self.pairs = of("number_paragraphs"), of("sentences_and_paragraphs")
        self.forbidden, self.first = queries["forbidden_word", 0][0], queries["first_word", 0][0]
        self.min_count, self.keywords = plan.forbidden_min_count, keywords
        self.beyond = {iid: q for iid, (_, q) in of(beyond.KIND).items() if queries[beyond.KIND, iid][1]}
        self.sources = beyond.Sources(language, tuple(self.beyond)) if self.beyond else None
        self.pool = pool  # the keyword kinds' candidates go to the pool instead (keywords.choice: pool)

    def offer(self, record: dict) -> None:
        doc_json = _json(record["doc_id"])
        if self.pool is not None:
            self.pool.offer(record, doc_json)
        else:
            self._keywords(record, doc_json)
        self._shapes(record, doc_json)

    def _keywords(self, record: dict, doc_json: str) -> None:
        counts: dict[str, int] = record.get("counts") or {}
        by_count: dict[Any, list[str]] = {}
        for w, c in counts.items():
            if c in self.frequency:
                by_count.setdefault(c, []).append(w)
        for c, words in by_count.items():
            n, query = self.frequency[c]
            key = query.place.of(doc_json)
            if query.wants(key):
                word = query.place.best_word(doc_json, words)
                query.push(key, {"keyword": word, "frequency": n, "relation": "exactly"}, record)
        key = self.forbidden.place.of(doc_json)
        if self.forbidden.wants(key):
            options = [w for w, c in counts.items() if c >= self.min_count]
            if options:
                word = self.forbidden.place.best_word(doc_json, options)
                self.forbidden.push(key, {"forbidden_words": [word]}, record)
        if record.get("first_word") in self.keywords:
            self._one(self.first, doc_json, record, lambda: {"first_word": record["first_word"], "nth_paragraph": 1})

    def _shapes(self, record: dict, doc_json: str) -> None:
        sentences, paragraphs = record["sentences"], record["paragraphs"]
        if paragraphs == 1 and sentences in self.sentences:
            n, query = self.sentences[sentences]
            self._one(query, doc_json, record, lambda: {"num_sentences": n, "relation": "exactly"})
        if paragraphs in self.paragraphs:
            n, query = self.paragraphs[paragraphs]
            self._one(query, doc_json, record, lambda: {"num_paragraphs": n})
        if self.pairs and (sentences, paragraphs) in self.pairs:
            pair, query = self.pairs[sentences, paragraphs]
            self._one(query, doc_json, record,
                      lambda: {"num_sentences": pair[0], "relation": "exactly", "num_paragraphs": pair[1]})
        if self.sources is not None:  # checked only where a place could be kept; a lower tier's come last
            places = {iid: query.place.of(doc_json) for iid, query in self.beyond.items()}
            wanted = {iid: max(t for t in range(len(beyond.SOURCES[iid])) if self.beyond[iid].wants(key - (t << 256)))
                      for iid, key in places.items() if self.beyond[iid].wants(key)}
            for iid, tier in (self.sources.tiers(record["text"], wanted) if wanted else {}).items():
                key = places[iid] - (tier << 256)
                if self.beyond[iid].wants(key):
                    self.beyond[iid].push(key, {}, record)

    @staticmethod
    def _one(query: _Query, doc_json: str, record: dict, kwargs: Callable[[], dict]) -> None:
        key = query.place.of(doc_json)
        if query.wants(key):
            query.push(key, kwargs(), record)


def recheck(language: str, instruction_id: str, kwargs: dict, text: str, paragraphs: int) -> tuple[bool, str]:
    """The context judged by the real checker, as a response would be (fixed mode). A forbidden
    word is checked the other way: its context must contain it (that is the temptation); the
    paragraph count with its paragraphs parted by the *** divider the prompt will ask for. A
    combined constraint passes when every one of its checkers does; an instruction beyond the
    paper when the context holds what it acts on (``beyond.recheck``)."""
    if instruction_id in beyond.SOURCES:
        return beyond.recheck(language, instruction_id, text)
    if instruction_id == "keywords:forbidden_words":
        word = kwargs["forbidden_words"][0]
        row = Row("check", "", ("keywords:frequency",), ({"keyword": word, "frequency": 2, "relation": "at least"},),
                  language, "ground")
    else:
        parts = instructions_of(instruction_id, kwargs)
        row = Row("check", "", tuple(i for i, _ in parts), tuple(k for _, k in parts), language, "ground")
    if _PARAGRAPHS in row.instruction_id_list:
        from indicifeval.text.paragraphs import paragraphs as split

        text = "\n\n***\n\n".join(split(text))
    result = score_row(row, text)
    return all(result.strict), "; ".join(result.explanations)


def select_contexts(records: Iterable[dict], plan: SelectionPlan, language: str, keywords: Iterable[str],
                    rejected: list[dict] | None = None, duplicates: list[str] | None = None,
                    fill: dict[str, Any] | None = None) -> list[MinedContext]:
    """The contexts the plan asks for, in the plan's order, each passing its checker. A second
    document with an id already seen is left out (and its id added to ``duplicates``); ``fill``
    gets what was asked and what the corpus filled (``fill_report``)."""
    wanted = set(keywords)
    beyond.check_language(plan.beyond, language)
    queries = _queries(plan)
    pool = KeywordPool(plan, wanted, language) if plan.keywords.choice == "pool" else None
    offers = _Offers(queries, plan, wanted, language, pool)
    seen_ids: set[str] = set()
    for record in records:
        if record["doc_id"] in seen_ids:  # the first document with an id is the one (corpus order)
            if duplicates is not None:
                duplicates.append(record["doc_id"])
            continue
        seen_ids.add(record["doc_id"])
        if "text" in record and plan.min_chars <= record["chars"] <= plan.max_chars:
            offers.offer(record)
    used_docs: set[tuple[str, str]] = set()
    used_hashes: set[tuple[str, str]] = set()
    uses = Uses(plan)
    drawn = pool.draw() if pool is not None else []
    out: list[MinedContext] = []
    order = list(queries) if pool is None else sorted(queries, key=fill_order)  # (stable: the plan's order within)
    for kind, n in order:
        (query, quota), taken = queries[kind, n], 0
        pooled = pool is not None and kind in POOLED
        for kwargs, record in (pool.candidates((kind, n), uses) if pool is not None and pooled else query.best()):
            if taken >= quota:
                break
            within = kind if pooled else ""  # a pool's kinds may share a document (the authors' searches did)
            if (within, record["doc_id"]) in used_docs or (within, record["hash"]) in used_hashes:
                continue
            word = word_of(kwargs)
            if word is not None and not uses.allows(kind, n, word):
                continue
            iid = n if kind == beyond.KIND else INSTRUCTION[kind]
            ok, why = recheck(language, iid, kwargs, record["text"], record["paragraphs"])
            if not ok:
                if rejected is not None:
                    rejected.append({"doc_id": record["doc_id"], "instruction_id": iid, "kwargs": kwargs,
                                     "reason": why})
                continue
            used_docs.add((within, record["doc_id"]))
            used_hashes.add((within, record["hash"]))
            if word is not None:
                uses.took(kind, n, word)
                if pool is not None and pooled:
                    pool.join(word)
            taken += 1
            features = {k: record[k] for k in _FEATURES if k in record}
            label = value_label(n).replace(" ", "").split(":")[-1]  # 3, 4in2 (sentences in paragraphs), native_digits
            out.append(MinedContext(f"{language}-{kind}-{label}-{taken:03d}", language, record["doc_id"],
                                    record["text"], iid, kwargs, record["shard"],
                                    {**features, "check": why, "kind": kind, **({"value": n} if pool else {})}))
    if pool is not None:  # in the plan's order
        rank = {key: i for i, key in enumerate(queries)}
        out.sort(key=lambda c: rank[c.features["kind"], c.features.pop("value")])
    if fill is not None:
        fill.update(fill_report(plan, queries, out, uses, drawn))
    return out


def fill_report(plan: SelectionPlan, queries: dict[tuple[str, Any], tuple[_Query, int]], contexts: list[MinedContext],
                uses: Uses, drawn: list[str]) -> dict[str, Any]:
    """Per constraint kind, the contexts asked and those the corpus filled (with each value the
    plan names), and the words each keyword kind used; a kind filled short is a ``shortfall``."""
    made = Counter((c.features["kind"], c.id.rsplit("-", 2)[-2]) for c in contexts)
    kinds: dict[str, dict[str, Any]] = {}
    for (kind, n), (_, quota) in queries.items():
        entry = kinds.setdefault(kind, {"asked": 0, "filled": 0, "values": {}})
        label = value_label(n).replace(" ", "").split(":")[-1]
        got = made[kind, label]
        entry["asked"] += quota
        entry["filled"] += got
        entry["values"][value_label(n)] = {"asked": quota, "filled": got}
    kinds = {k: v for k, v in kinds.items() if v["asked"]}
    words = {kind: uses.words(kind) for kind in POOLED if kind in kinds}
    return {"keyword_choice": plan.keywords.to_json(), "kinds": kinds,
            "shortfall": {k: v["asked"] - v["filled"] for k, v in kinds.items() if v["filled"] < v["asked"]},
            "pool_drawn": len(drawn), "words": words,
            "pool_words": len({w for used in words.values() for w in used})}


__all__ = ["COMBINED", "INSTRUCTION", "KeywordChoice", "SelectionPlan", "fill_report", "instructions_of", "load_plan",
           "plan_label", "plan_names", "plan_path", "recheck", "scaled", "select_contexts"]

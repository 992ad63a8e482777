"""Choosing contexts: the plan's quotas become queries over the feature records, and every
chosen context is checked again with the real checker, so a context satisfies its constraint
exactly as the scorer will judge a response.

The choice is seeded and independent of shard order: each candidate's place is a hash of
(seed, constraint, value, document), and only the best few per query are kept while the
features stream by (memory stays flat however large the corpus). A document is used once, and
two documents with the same text are one."""

from __future__ import annotations

import hashlib
import heapq
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError
from indicifeval.core.settings_file import read_settings
from indicifeval.records import MinedContext, Row
from indicifeval.scoring.engine import score_row

CONSTRAINTS = ("keyword_frequency", "forbidden_word", "number_sentences", "number_paragraphs", "first_word")
INSTRUCTION = {"keyword_frequency": "keywords:frequency", "forbidden_word": "keywords:forbidden_words",
               "number_sentences": "length_constraints:number_sentences",
               "number_paragraphs": "length_constraints:number_paragraphs",
               "first_word": "length_constraints:nth_paragraph_first_word"}
_OVERSAMPLE = 4  # candidates kept per query, per context wanted: room for the re-check and de-duplication


@dataclass
class Plan:
    """How many contexts of each kind, from documents of which length; ``seed`` decides."""

    seed: int = 42
    min_chars: int = 80
    max_chars: int = 1000
    keyword_frequency: dict[int, int] = field(default_factory=lambda: {1: 10, 2: 10, 3: 10, 4: 5, 5: 5})
    forbidden_word: int = 10
    forbidden_min_count: int = 2  # the forbidden word occurs at least this often in its context
    number_sentences: dict[int, int] = field(default_factory=lambda: {2: 5, 3: 5, 4: 5, 5: 5})
    number_paragraphs: dict[int, int] = field(default_factory=lambda: {1: 5, 2: 5, 3: 5})
    first_word: int = 20
    per_keyword: int = 2  # contexts per keyword at most, so many keywords are tested

    def to_json(self) -> dict[str, Any]:
        return {k: ({str(n): q for n, q in v.items()} if isinstance(v, dict) else v) for k, v in self.__dict__.items()}


def _quota(value: Any, name: str, where: str) -> dict[int, int]:
    if not isinstance(value, dict) or not all(str(k).isdigit() and isinstance(v, int) and v >= 0
                                              for k, v in value.items()):
        raise InputError(f"{name} must map counts to how many contexts, e.g. {{1: 10, 2: 5}}", where, field=name)
    return {int(k): v for k, v in value.items()}


def load_plan(path: str | Path | None) -> Plan:
    """A plan from a YAML or JSON file (safe-loaded), checked field by field; None: defaults."""
    if path is None:
        return Plan()
    where = str(path)
    data = read_settings(path, "plan file")
    if not isinstance(data, dict):
        raise InputError("a plan is a mapping of settings", where)
    plan, known = Plan(), set(Plan().__dict__)
    for name, value in data.items():
        if name not in known:
            raise InputError(f"unknown setting; the settings are {', '.join(sorted(known))}", where, field=str(name))
        default = getattr(plan, name)
        if isinstance(default, dict):
            value = _quota(value, name, where)
        elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InputError(f"{name} must be a whole number >= 0, got {value!r}", where, field=name)
        setattr(plan, name, value)
    if plan.min_chars > plan.max_chars:
        raise InputError("min_chars is above max_chars", where, field="min_chars")
    return plan


def _place(seed: int, *parts: Any) -> str:
    return hashlib.sha256(json.dumps([seed, *parts], ensure_ascii=False).encode("utf-8")).hexdigest()


class _Query:
    """The best ``size`` candidates by place, kept in a bounded heap."""

    def __init__(self, size: int):
        self.size = size
        self.heap: list[tuple[str, str, dict, dict]] = []  # (-place as max-heap key, doc_id, kwargs, record)

    def offer(self, place: str, kwargs: dict, record: dict) -> None:
        if self.size <= 0:
            return
        item = (_neg(place), record["doc_id"], kwargs, record)
        if len(self.heap) < self.size:
            heapq.heappush(self.heap, item)
        elif item[0] > self.heap[0][0]:
            heapq.heapreplace(self.heap, item)

    def best(self) -> list[tuple[dict, dict]]:
        return [(kw, rec) for _, _, kw, rec in sorted(self.heap, key=lambda x: (x[0], x[1]), reverse=True)]


def _neg(place: str) -> str:
    return "".join("0123456789abcdef"[15 - int(c, 16)] for c in place)


def _queries(plan: Plan) -> dict[tuple[str, int], tuple[_Query, int]]:
    out: dict[tuple[str, int], tuple[_Query, int]] = {}
    for n, q in plan.keyword_frequency.items():
        out["keyword_frequency", n] = (_Query(q * _OVERSAMPLE), q)
    out["forbidden_word", 0] = (_Query(plan.forbidden_word * _OVERSAMPLE), plan.forbidden_word)
    for n, q in plan.number_sentences.items():
        out["number_sentences", n] = (_Query(q * _OVERSAMPLE), q)
    for n, q in plan.number_paragraphs.items():
        out["number_paragraphs", n] = (_Query(q * _OVERSAMPLE), q)
    out["first_word", 0] = (_Query(plan.first_word * _OVERSAMPLE), plan.first_word)
    return out


def _offer_record(queries, plan: Plan, record: dict, keywords: set[str]) -> None:
    seed, doc = plan.seed, record["doc_id"]
    counts: dict[str, int] = record.get("counts") or {}
    for (kind, n), (query, _) in queries.items():
        if kind == "keyword_frequency":
            options = sorted(w for w, c in counts.items() if c == n)
            if options:
                word = min(options, key=lambda w: _place(seed, kind, n, doc, w))
                query.offer(_place(seed, kind, n, doc), {"keyword": word, "frequency": n, "relation": "exactly"},
                            record)
        elif kind == "forbidden_word":
            options = sorted(w for w, c in counts.items() if c >= plan.forbidden_min_count)
            if options:
                word = min(options, key=lambda w: _place(seed, kind, doc, w))
                query.offer(_place(seed, kind, doc), {"forbidden_words": [word]}, record)
        elif kind == "number_sentences" and record["paragraphs"] == 1 and record["sentences"] == n:
            query.offer(_place(seed, kind, n, doc), {"num_sentences": n, "relation": "exactly"}, record)
        elif kind == "number_paragraphs" and record["paragraphs"] == n:
            query.offer(_place(seed, kind, n, doc), {"num_paragraphs": n}, record)
        elif kind == "first_word" and record.get("first_word") in keywords:
            query.offer(_place(seed, kind, doc), {"first_word": record["first_word"], "nth_paragraph": 1}, record)


def recheck(language: str, instruction_id: str, kwargs: dict, text: str, paragraphs: int) -> tuple[bool, str]:
    """The context judged by the real checker, as a response would be (fixed mode). A forbidden
    word is checked the other way: its context must contain it (that is the temptation); the
    paragraph count with its paragraphs parted by the *** divider the prompt will ask for."""
    if instruction_id == "keywords:forbidden_words":
        word = kwargs["forbidden_words"][0]
        row = Row("check", "", ("keywords:frequency",), ({"keyword": word, "frequency": 2, "relation": "at least"},),
                  language, "ground")
    else:
        row = Row("check", "", (instruction_id,), (kwargs,), language, "ground")
    if instruction_id == "length_constraints:number_paragraphs":
        from indicifeval.text.paragraphs import paragraphs as split

        text = "\n\n***\n\n".join(split(text))
    result = score_row(row, text)
    return bool(result.strict[0]), result.explanations[0]


def select_contexts(records: Iterable[dict], plan: Plan, language: str, keywords: Iterable[str],
                    rejected: list[dict] | None = None, duplicates: list[str] | None = None) -> list[MinedContext]:
    """The contexts the plan asks for, in the plan's order, each passing its checker. A second
    document with an id already seen is left out (and its id added to ``duplicates``)."""
    wanted = set(keywords)
    queries = _queries(plan)
    seen_ids: set[str] = set()
    for record in records:
        if record["doc_id"] in seen_ids:  # the first document with an id is the one (corpus order)
            if duplicates is not None:
                duplicates.append(record["doc_id"])
            continue
        seen_ids.add(record["doc_id"])
        if "text" in record and plan.min_chars <= record["chars"] <= plan.max_chars:
            _offer_record(queries, plan, record, wanted)
    used_docs: set[str] = set()
    used_hashes: set[str] = set()
    per_keyword: dict[str, int] = {}
    out: list[MinedContext] = []
    for (kind, n), (query, quota) in queries.items():
        taken = 0
        for kwargs, record in query.best():
            if taken >= quota:
                break
            if record["doc_id"] in used_docs or record["hash"] in used_hashes:
                continue
            word = kwargs.get("keyword") or (kwargs.get("forbidden_words") or [None])[0] or kwargs.get("first_word")
            if word is not None and per_keyword.get(word, 0) >= plan.per_keyword:
                continue
            iid = INSTRUCTION[kind]
            ok, why = recheck(language, iid, kwargs, record["text"], record["paragraphs"])
            if not ok:
                if rejected is not None:
                    rejected.append({"doc_id": record["doc_id"], "instruction_id": iid, "kwargs": kwargs,
                                     "reason": why})
                continue
            used_docs.add(record["doc_id"])
            used_hashes.add(record["hash"])
            if word is not None:
                per_keyword[word] = per_keyword.get(word, 0) + 1
            taken += 1
            features = {k: record[k] for k in ("chars", "paragraphs", "sentences", "first_word") if k in record}
            out.append(MinedContext(f"{language}-{kind}-{n}-{taken:03d}", language, record["doc_id"], record["text"],
                                    iid, kwargs, record["shard"], {**features, "check": why, "kind": kind}))
    return out


__all__ = ["CONSTRAINTS", "INSTRUCTION", "Plan", "load_plan", "recheck", "select_contexts"]

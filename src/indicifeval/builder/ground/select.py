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
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from indicifeval.builder.ground import beyond
from indicifeval.checkers.registry import REGISTRY
from indicifeval.core.errors import InputError
from indicifeval.core.settings_file import read_settings
from indicifeval.records import MinedContext, Row
from indicifeval.scoring.engine import score_row

_SENTENCES, _PARAGRAPHS = "length_constraints:number_sentences", "length_constraints:number_paragraphs"
COMBINED = f"{_SENTENCES}+{_PARAGRAPHS}"  # one constraint, two checkers: "exactly S sentences in P paragraphs"
INSTRUCTION = {"keyword_frequency": "keywords:frequency", "forbidden_word": "keywords:forbidden_words",
               "number_sentences": _SENTENCES, "number_paragraphs": _PARAGRAPHS,
               "first_word": "length_constraints:nth_paragraph_first_word", "sentences_and_paragraphs": COMBINED}
_OVERSAMPLE = 4  # candidates kept per query, per context wanted: room for the re-check and de-duplication
_PAIR = re.compile(r"\s*(\d+)\s+in\s+(\d+)\s*")


def instructions_of(instruction_id: str, kwargs: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A context's instructions with their own kwargs: one, or for a combined constraint (ids
    joined by "+") each id with the kwargs its checker takes."""
    ids = instruction_id.split("+")
    if len(ids) == 1:
        return [(instruction_id, dict(kwargs))]
    return [(iid, {p.name: kwargs[p.name] for p in REGISTRY[iid].params if p.name in kwargs}) for iid in ids]


@dataclass
class SelectionPlan:
    """How many contexts of each kind, from documents of which length; ``seed`` decides.
    These defaults are the shipped ``default`` plan (plans/default.json)."""

    seed: int = 42
    min_chars: int = 80
    max_chars: int = 1000
    keyword_frequency: dict[int, int] = field(default_factory=lambda: {1: 10, 2: 10, 3: 10, 4: 5, 5: 5})
    forbidden_word: int = 10
    forbidden_min_count: int = 2  # the forbidden word occurs at least this often in its context
    number_sentences: dict[int, int] = field(default_factory=lambda: {2: 5, 3: 5, 4: 5, 5: 5})
    number_paragraphs: dict[int, int] = field(default_factory=lambda: {1: 5, 2: 5, 3: 5})
    first_word: int = 20
    # "exactly S sentences in P paragraphs" (two instructions in one row): contexts per (S, P)
    sentences_and_paragraphs: dict[tuple[int, int], int] = field(default_factory=dict)
    per_keyword: int = 2  # contexts per keyword at most, so many keywords are tested
    context_required_share: float = 0.1  # of the requests, the share whose style needs the context
    # the instructions beyond the paper (numbers, units, romanised answers): contexts per id
    beyond: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {k: ({_key(n): q for n, q in v.items()} if isinstance(v, dict) else v) for k, v in self.__dict__.items()}


QUOTAS = ("keyword_frequency", "forbidden_word", "number_sentences", "number_paragraphs", "first_word",
          "sentences_and_paragraphs", "beyond")


def scaled(plan: SelectionPlan, factor: float) -> SelectionPlan:
    """``plan`` with every quota multiplied by ``factor`` (rounded; a quota above 0 stays at
    least 1), its mix kept: ``--plan paper --plan-scale 3.75`` asks for the release's 341 rows."""
    if factor <= 0:
        raise InputError(f"the plan's scale must be above 0, got {factor}", field="plan_scale")

    def one(n: int) -> int:
        return max(1, round(n * factor)) if n else 0

    out = replace(plan)
    for name in QUOTAS:
        value = getattr(plan, name)
        setattr(out, name, {k: one(v) for k, v in value.items()} if isinstance(value, dict) else one(value))
    return out


def _key(n: int | tuple[int, int]) -> str:
    return f"{n[0]} in {n[1]}" if isinstance(n, tuple) else str(n)


def _quota(value: Any, name: str, where: str) -> dict[int, int]:
    if not isinstance(value, dict) or not all(str(k).isdigit() and isinstance(v, int) and not isinstance(v, bool)
                                              and v >= 0 for k, v in value.items()):
        raise InputError(f"{name} must map counts to how many contexts, e.g. {{1: 10, 2: 5}}", where, field=name)
    return {int(k): v for k, v in value.items()}


def _pairs(value: Any, name: str, where: str) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for k, v in (value.items() if isinstance(value, dict) else [(None, None)]):
        match = _PAIR.fullmatch(str(k))
        if match is None or not isinstance(v, int) or isinstance(v, bool) or v < 0 or int(match[2]) < 1 \
                or int(match[1]) < int(match[2]):
            raise InputError(f'{name} must map "S in P" (S sentences in P paragraphs, S >= P >= 1) to how many '
                             f'contexts, e.g. {{"4 in 2": 5}}', where, field=name)
        out[int(match[1]), int(match[2])] = v
    return out


def _setting(plan: SelectionPlan, name: str, value: Any, where: str) -> Any:
    default = getattr(plan, name)
    if name == "sentences_and_paragraphs":
        return _pairs(value, name, where)
    if name == "beyond":
        return beyond.quotas(value, name, where)
    if isinstance(default, dict):
        return _quota(value, name, where)
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise InputError(f"{name} must be a share from 0 to 1, got {value!r}", where, field=name)
        return float(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InputError(f"{name} must be a whole number >= 0, got {value!r}", where, field=name)
    return value


def load_plan(path: str | Path | None) -> SelectionPlan:
    """A plan by name (a shipped one, see ``plan_path``) or from a YAML or JSON file
    (safe-loaded), checked field by field; None: the default plan. Keys starting with "_"
    are comments."""
    file = plan_path(path)
    where = str(path if path is not None else file)
    data = read_settings(file, "plan file")
    if not isinstance(data, dict):
        raise InputError("a plan is a mapping of settings", where)
    plan, known = SelectionPlan(), set(SelectionPlan().__dict__)
    for name, value in data.items():
        if str(name).startswith("_"):
            continue
        if name not in known:
            raise InputError(f"unknown setting; the settings are {', '.join(sorted(known))}", where, field=str(name))
        setattr(plan, name, _setting(plan, name, value, where))
    if plan.min_chars > plan.max_chars:
        raise InputError("min_chars is above max_chars", where, field="min_chars")
    return plan


def _shipped() -> Path:
    return Path(str(resources.files("indicifeval.builder.ground").joinpath("plans")))


def plan_names() -> list[str]:
    """The plans shipped in the package (``plans/NAME.json``)."""
    return sorted(p.stem for p in _shipped().glob("*.json"))


def plan_path(plan: str | Path | None) -> Path:
    """The file of ``--plan``: a shipped plan's name (None: ``default``), else a YAML or JSON
    file; one that is neither is one line naming the shipped plans."""
    name = "default" if plan is None else str(plan)
    if name in plan_names():
        return _shipped() / f"{name}.json"
    path = Path(name)
    if path.is_file():
        return path
    what = "no such plan file" if path.suffix or len(path.parts) > 1 else "no such plan"
    raise InputError(f"{what}; the shipped plans are {', '.join(plan_names())} (or give a .yaml or .json file)",
                     name, field="plan")


def plan_label(plan: str | Path | None) -> str:
    """How a build records its plan: a shipped plan's name, else the file's name."""
    name = "default" if plan is None else str(plan)
    return name if name in plan_names() else Path(name).name


_string = json.encoder.encode_basestring  # a str as json.dumps(..., ensure_ascii=False) writes it (C)


def _json(value: Any) -> str:
    return _string(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class _Place:
    """A candidate's place: the sha256 of ``json.dumps([seed, *parts, doc(, word)])``, the JSON
    of the query's parts written once (``[seed, kind, n``), each document's and word's appended,
    as the number it is, negated (so that a min-heap keeps the lowest places)."""

    def __init__(self, seed: int, *parts: Any):
        self.prefix = json.dumps([seed, *parts], ensure_ascii=False)[:-1] + ", "

    def of(self, doc_json: str, word: str | None = None) -> int:
        """The place of a document (its id as JSON), or of a word in it."""
        text = self.prefix + doc_json + ("]" if word is None else ", " + _json(word) + "]")
        return -int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")

    def best_word(self, doc_json: str, words: list[str]) -> str:
        """The word with the lowest place (highest negated place), independent of their order."""
        return max(words, key=lambda w: self.of(doc_json, w))


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
                 language: str):
        def of(kind: str) -> dict[Any, tuple[Any, _Query]]:
            return {n: (n, q) for (k, n), (q, _) in queries.items() if k == kind}

        self.frequency, self.sentences = of("keyword_frequency"), of("number_sentences")
        self.paragraphs, self.pairs = of("number_paragraphs"), of("sentences_and_paragraphs")
        self.forbidden, self.first = queries["forbidden_word", 0][0], queries["first_word", 0][0]
        self.min_count, self.keywords = plan.forbidden_min_count, keywords
        self.beyond = {iid: q for iid, (_, q) in of(beyond.KIND).items() if queries[beyond.KIND, iid][1]}
        self.sources = beyond.Sources(language, tuple(self.beyond)) if self.beyond else None

    def offer(self, record: dict) -> None:
        doc_json = _json(record["doc_id"])
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
        sentences, paragraphs = record["sentences"], record["paragraphs"]
        if paragraphs == 1 and sentences in self.sentences:
            n, query = self.sentences[sentences]
            self._one(query, doc_json, record, lambda: {"num_sentences": n, "relation": "exactly"})
        if paragraphs in self.paragraphs:
            n, query = self.paragraphs[paragraphs]
            self._one(query, doc_json, record, lambda: {"num_paragraphs": n})
        if record.get("first_word") in self.keywords:
            self._one(self.first, doc_json, record, lambda: {"first_word": record["first_word"], "nth_paragraph": 1})
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
                    rejected: list[dict] | None = None, duplicates: list[str] | None = None) -> list[MinedContext]:
    """The contexts the plan asks for, in the plan's order, each passing its checker. A second
    document with an id already seen is left out (and its id added to ``duplicates``)."""
    wanted = set(keywords)
    beyond.check_language(plan.beyond, language)
    queries = _queries(plan)
    offers = _Offers(queries, plan, wanted, language)
    seen_ids: set[str] = set()
    for record in records:
        if record["doc_id"] in seen_ids:  # the first document with an id is the one (corpus order)
            if duplicates is not None:
                duplicates.append(record["doc_id"])
            continue
        seen_ids.add(record["doc_id"])
        if "text" in record and plan.min_chars <= record["chars"] <= plan.max_chars:
            offers.offer(record)
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
            iid = n if kind == beyond.KIND else INSTRUCTION[kind]
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
            label = _key(n).replace(" ", "").split(":")[-1]  # 3, 4in2 (sentences in paragraphs), native_digits
            out.append(MinedContext(f"{language}-{kind}-{label}-{taken:03d}", language, record["doc_id"],
                                    record["text"], iid, kwargs, record["shard"],
                                    {**features, "check": why, "kind": kind}))
    return out


__all__ = ["COMBINED", "INSTRUCTION", "SelectionPlan", "instructions_of", "load_plan", "plan_label",
           "plan_names", "plan_path", "recheck", "select_contexts"]

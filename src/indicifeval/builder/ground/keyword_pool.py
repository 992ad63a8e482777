"""The keyword choice of a plan whose ``keywords.choice`` is ``pool``: as the released IndicIFEval
rows do, one small pool of words per language serves the keyword-count, forbidden-word and
first-word contexts, each word reused up to ``max_uses`` times per kind (and ``per_count`` times
per count N of the keyword-count constraint).

The pool is drawn from what the corpus's contexts can fill: while the feature records stream by,
each (kind, N, word) keeps its best few candidates by seeded place and counts all of them. A
word's capacity is the uses its candidates could give under the caps; words are ranked by
the kinds it can serve and its capacity, ties by a seeded place of the word, and the pool is the
first ``pool_size`` of them. Each quota is filled from the pool's candidates in seeded order;
where the corpus gives the pool's words too few contexts (a small corpus), the re-check fails or a
document was used already, the next words in rank order join the pool, one at a time."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterator

from indicifeval.builder.ground.mining import features_of, text_hash
from indicifeval.builder.ground.places import Place, json_of
from indicifeval.builder.ground.plan import POOLED, SelectionPlan
from indicifeval.languages import get_profile
from indicifeval.text.paragraphs import leading_words
from indicifeval.text.sentences import split_sentences

_KEEP = 4  # candidates kept per (kind, N, word), per use a word may have there: room for re-checks
Key = tuple[str, int]  # (kind, N): N is the keyword count for keyword_frequency, else 0
_LATER = 1 << 256  # a passage from a later sentence comes after every document's own start (places are above -2**256)


def kwargs_of(kind: str, n: int, word: str) -> dict:
    """The constraint's kwargs for ``word`` (as the spread choice writes them)."""
    if kind == "keyword_frequency":
        return {"keyword": word, "frequency": n, "relation": "exactly"}
    if kind == "forbidden_word":
        return {"forbidden_words": [word]}
    return {"first_word": word, "nth_paragraph": 1}


def word_of(kwargs: dict) -> str | None:
    """The keyword a context's kwargs test, if any."""
    return kwargs.get("keyword") or (kwargs.get("forbidden_words") or [None])[0] or kwargs.get("first_word")


class Uses:
    """How often each word was used: ``spread`` caps a word at the plan's ``per_keyword`` over all
    kinds; ``pool`` at ``max_uses[kind]`` per kind and ``per_count`` per keyword count N."""

    def __init__(self, plan: SelectionPlan):
        self.plan, self.pooled = plan, plan.keywords.choice == "pool"
        self.total: Counter[str] = Counter()
        self.by_kind: Counter[tuple[str, str]] = Counter()
        self.by_count: Counter[tuple[str, str]] = Counter()

    def allows(self, kind: str, n: object, word: str) -> bool:
        if not self.pooled or kind not in POOLED:
            return self.total[word] < self.plan.per_keyword
        choice = self.plan.keywords
        if self.by_kind[kind, word] >= choice.max_uses[kind]:
            return False
        return kind != "keyword_frequency" or self.by_count[f"{kind}:{n}", word] < choice.per_count

    def took(self, kind: str, n: object, word: str) -> None:
        self.total[word] += 1
        self.by_kind[kind, word] += 1
        self.by_count[f"{kind}:{n}", word] += 1

    def words(self, kind: str) -> dict[str, int]:
        """Each word used for ``kind``, with its uses."""
        return {w: n for (k, w), n in sorted(self.by_kind.items()) if k == kind}


class KeywordPool:
    """The candidates of the pooled kinds, per word, and the pool drawn from them."""

    def __init__(self, plan: SelectionPlan, keywords: set[str], language: str = ""):
        self.choice, self.keywords, self.min_count = plan.keywords, keywords, plan.forbidden_min_count
        self.language, self.min_chars = language, plan.min_chars
        self.profile = get_profile(language) if plan.keywords.first_word_from == "sentence" and language else None
        quotas: dict[Key, int] = {("keyword_frequency", n): q for n, q in plan.keyword_frequency.items()}
        quotas["forbidden_word", 0], quotas["first_word", 0] = plan.forbidden_word, plan.first_word
        self.quotas = {k: q for k, q in quotas.items() if q > 0}
        self.places = {k: Place(plan.seed, "pool", k[0], k[1]) for k in self.quotas}
        self.word_place = Place(plan.seed, "pool")
        self.frequencies = {n for kind, n in self.quotas if kind == "keyword_frequency"}
        self.heaps: dict[Key, dict[str, list[tuple[int, str, dict]]]] = {k: {} for k in self.quotas}
        self.available: dict[Key, Counter[str]] = {k: Counter() for k in self.quotas}
        self.order: list[str] = []  # every word with a candidate, ranked (``draw``)
        self.members: dict[str, None] = {}  # the pool, in the order its words joined

    def cap(self, key: Key) -> int:
        """The most uses one word may have for ``key``."""
        return self.choice.per_count if key[0] == "keyword_frequency" else self.choice.max_uses[key[0]]

    def offer(self, record: dict, doc_json: str) -> None:
        counts: dict[str, int] = record.get("counts") or {}
        forbidden = ("forbidden_word", 0) in self.quotas
        for word, c in counts.items():
            if c in self.frequencies:
                self._add(("keyword_frequency", c), word, doc_json, record)
            if forbidden and c >= self.min_count:
                self._add(("forbidden_word", 0), word, doc_json, record)
        if ("first_word", 0) not in self.quotas:
            return
        first = record.get("first_word")
        if first in self.keywords:
            self._add(("first_word", 0), first, doc_json, record)
        if self.profile is not None:
            for word, passage in self.passages(record, first):
                self._add(("first_word", 0), word, json_of([record["doc_id"], passage["start"]]), passage, _LATER)

    def passages(self, record: dict, first: str | None) -> Iterator[tuple[str, dict]]:
        """The passages of the record's text from a later sentence to its end that open with a
        keyword (one per word: its earliest), each with its own features, long enough to be a context."""
        text, profile = record["text"], self.profile
        assert profile is not None
        seen, at = {first}, 0
        for sentence in split_sentences(text, profile.sentence_terminators, profile.abbreviations)[1:]:
            start = text.find(sentence, at)
            if start < 0:
                continue
            at = start + len(sentence)
            if len(text) - start < self.min_chars:
                break
            opening = leading_words(sentence, 1)
            word = opening[0] if opening else None
            if word is not None and word in self.keywords and word not in seen:
                seen.add(word)
                passage = text[start:]
                yield word, {**record, **features_of(passage, self.language, frozenset()), "text": passage,
                             "hash": text_hash(passage), "start": start}

    def _add(self, key: Key, word: str, doc_json: str, record: dict, later: int = 0) -> None:
        self.available[key][word] += 1
        heap = self.heaps[key].setdefault(word, [])
        item = (self.places[key].of(doc_json, word) - later, record["doc_id"], record)
        if len(heap) < self.cap(key) * _KEEP:
            heapq.heappush(heap, item)
        elif item[:2] > heap[0][:2]:
            heapq.heapreplace(heap, item)

    def _capacity(self, word: str, supply: dict[Key, int]) -> tuple[int, float]:
        """(the kinds ``word`` can serve, the uses it can give in all under the caps, each weighed
        by how scarce its key is: the key's quota over the words that can serve it, at most 1)."""
        per_kind: Counter[str] = Counter()
        weighed = 0.0
        for key, available in self.available.items():
            uses = min(available[word], self.cap(key))
            per_kind[key[0]] += uses
            weighed += uses * min(1.0, self.quotas[key] / supply[key]) if uses else 0.0
        return len([n for n in per_kind.values() if n]), weighed

    def ranked(self) -> list[str]:
        """Every word with a candidate: those serving more kinds first, then those that can give
        more of the uses the corpus has few words for, then by the word's seeded place."""
        words = {w for available in self.available.values() for w in available}
        supply = {key: max(1, len(available)) for key, available in self.available.items()}
        capacity = {w: self._capacity(w, supply) for w in words}
        return sorted(words, key=lambda w: (-capacity[w][0], -capacity[w][1], -self.word_place.of(json_of(w)), w))

    def draw(self) -> list[str]:
        """The pool to begin with: the first ``pool_size`` ranked words. A word that fills a
        context joins it (``join``), so a later kind reuses the words an earlier one drew in."""
        self.order = self.ranked()
        self.members = dict.fromkeys(self.order[:self.choice.pool_size])
        return list(self.members)

    def join(self, word: str) -> None:
        self.members.setdefault(word)

    def candidates(self, key: Key, uses: Uses) -> Iterator[tuple[dict, dict]]:
        """(kwargs, record) for ``key``: the pool's candidates, those of words another kind used
        first (the kinds share their words, as the release's do: the authors searched every kind
        for each of their keywords), and of those first the words this kind has not used that
        have no candidate for a later key of the kind (``fill_order``: their last chance); the
        rest of the pool after them (each group in seeded order); then, where the pool cannot fill
        the quota, the next ranked words' (each word's in seeded order)."""
        heaps = self.heaps.get(key, {})
        pool = list(self.members)
        later = [k for k in self.quotas if k[0] == key[0] and fill_order(k) > fill_order(key)]

        def group(word: str) -> int:
            if not any(n for (kind, w), n in uses.by_kind.items() if w == word and kind != key[0]):
                return 2
            last = not uses.by_kind[key[0], word] and not any(word in self.heaps[k] for k in later)
            return 0 if last else 1

        groups = {w: group(w) for w in pool}
        mine = sorted((item + (w,) for w in pool for item in heaps.get(w, ())),
                      key=lambda x: (-groups[x[3]], x[0], x[1]), reverse=True)
        for _, _, record, word in mine:
            yield kwargs_of(key[0], key[1], word), record
        for word in self.order:
            if word in pool:
                continue
            for _, _, record in sorted(heaps.get(word, ()), key=lambda x: (x[0], x[1]), reverse=True):
                yield kwargs_of(key[0], key[1], word), record


def fill_order(key: tuple[str, object]) -> tuple[int, int]:
    """The order a pool fills its quotas in: first words first (the scarcest contexts: a document
    opens with one word), then the keyword counts from the rarest (a word occurs five times in
    few documents, once in many), then the rest."""
    kind, n = key
    if kind == "first_word":
        return 0, 0
    return (1, -n) if kind == "keyword_frequency" and isinstance(n, int) else (2, 0)


__all__ = ["KeywordPool", "Uses", "fill_order", "kwargs_of", "word_of"]

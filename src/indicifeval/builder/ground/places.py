"""A candidate context's place in a seeded order: a hash of (seed, query, document, word), so
that the choice is reproducible and independent of the order the corpus's shards come in."""

from __future__ import annotations

import hashlib
import json
from typing import Any

_string = json.encoder.encode_basestring  # a str as json.dumps(..., ensure_ascii=False) writes it (C)


def json_of(value: Any) -> str:
    """``value`` as ``json.dumps(value, ensure_ascii=False)`` writes it (a str the fast way)."""
    return _string(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class Place:
    """A candidate's place: the sha256 of ``json.dumps([seed, *parts, doc(, word)])``, the JSON
    of the query's parts written once (``[seed, kind, n``), each document's and word's appended,
    as the number it is, negated (so that a min-heap keeps the lowest places)."""

    def __init__(self, seed: int, *parts: Any):
        self.prefix = json.dumps([seed, *parts], ensure_ascii=False)[:-1] + ", "

    def of(self, doc_json: str, word: str | None = None) -> int:
        """The place of a document (its id as JSON), or of a word in it."""
        text = self.prefix + doc_json + ("]" if word is None else ", " + json_of(word) + "]")
        return -int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")

    def best_word(self, doc_json: str, words: list[str]) -> str:
        """The word with the lowest place (highest negated place), independent of their order."""
        return max(words, key=lambda w: self.of(doc_json, w))


__all__ = ["Place", "json_of"]

"""Which writing system each character belongs to, from the ranges in scripts.json."""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache

from indicifeval.languages import script_ranges


@lru_cache(maxsize=65536)
def script_of(ch: str) -> str | None:
    cp = ord(ch)
    for code, ranges in script_ranges().items():
        for lo, hi in ranges:
            if lo <= cp <= hi:
                return code
    return None


def script_counts(text: str, sample: int = 600) -> Counter[str]:
    """Letters (and marks) per script; digits, punctuation and unknown characters are ignored.
    Long texts are read at ``sample`` evenly spaced positions (a fixed stride, so the result
    is deterministic), which estimates the script shares closely at a fraction of the cost."""
    if len(text) > sample:
        text = text[:: -(-len(text) // sample)]
    counts: Counter[str] = Counter()
    for ch, n in Counter(text).items():
        if not ch.isalpha() and not _is_mark(ch):
            continue
        script = script_of(ch)
        if script is not None:
            counts[script] += n
    return counts


@lru_cache(maxsize=65536)
def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")

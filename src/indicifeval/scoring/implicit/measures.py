"""The counts the implicit constraints compare with their thresholds (words, the most common
word, repeated word 4-grams, the answer's words inside the prompt's 4-grams, lines, letter
trigrams), counted in one pass by the optional compiled kernel (``_kernel``, see chars.py)
or, where it is not built, from the answer's words in Python: the same numbers either way
(tests/scoring/test_implicit_kernel.py). The kernel compares 64-bit hashes of words and
4-grams where Python compares the strings."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from indicifeval.languages import script_ranges
from indicifeval.scoring.implicit.chars import class_table, kernel
from indicifeval.scoring.implicit.compared import Compared
from indicifeval.scoring.implicit.view import N_GRAM, AnswerView, script_words

TRIGRAM = 3


@dataclass(frozen=True)
class Measures:
    words: int
    letters: int
    top_word: str  # the most common word (the first seen of equals)
    top_count: int
    grams: int  # word 4-grams
    distinct_grams: int
    own_covered: int  # the answer's words inside one of its 4-grams found in ``own``
    stated_covered: int  # ... in ``stated``
    whole_found: int  # distinct 4-grams of ``whole`` in the answer
    only_given: bool  # every word is one the instructions require
    keyword_words: int  # words that are keywords
    lines: int  # lines with a letter or digit
    distinct_lines: int


def measure(view: AnswerView, compared: Compared) -> Measures:
    if kernel is not None:
        lowered = view.lowered
        (n, letters, top_count, top_start, top_end, grams, distinct, own, stated, whole, only_given, keyword_words,
         lines, distinct_lines) = kernel.measure(lowered, class_table(), *compared.hashed)
        return Measures(n, letters, lowered[top_start:top_end], top_count, grams, distinct, own, stated, whole,
                        only_given, keyword_words, lines, distinct_lines)
    return measure_python(view, compared)


def measure_python(view: AnswerView, compared: Compared) -> Measures:
    words = view.words
    top_word, top_count = Counter(words).most_common(1)[0] if words else ("", 0)
    grams = view.grams
    lines = view.lines
    return Measures(len(words), sum(map(len, words)), top_word, top_count, len(grams), len(set(grams)),
                    covered_words(grams, compared.own), covered_words(grams, compared.stated),
                    len(compared.whole.intersection(grams)), all(w in compared.given for w in words),
                    sum(1 for w in words if w in compared.keywords), len(lines), len(set(lines)))


def covered_words(grams: list[tuple[str, ...]], found: set | frozenset) -> int:
    """The words inside one of ``grams`` that is in ``found``: a run of found grams covers its
    words and the next n-1, or fewer where the next run starts sooner (so the n-grams that
    straddle two copied sentences do not hide the copy)."""
    covered = 0
    n = len(grams)
    i = 0
    while i < n:
        if grams[i] not in found:
            i += 1
            continue
        j = i
        while j < n and grams[j] in found:
            j += 1
        k = j
        while k < n and grams[k] not in found:
            k += 1
        tail = k - j if k < n else N_GRAM - 1
        covered += (j - i) + min(N_GRAM - 1, tail)
        i = k
    return covered


def trigrams(words: list[str]) -> list[str]:
    """Character trigrams of words with a space on either side."""
    padded = [f" {word} " for word in words]
    return [p[i:i + TRIGRAM] for p in padded for i in range(len(p) - TRIGRAM + 1)]


@lru_cache(maxsize=64)
def _ranges(script: str) -> bytes:
    return array("I", [x for lo, hi in script_ranges().get(script, ()) for x in (lo, hi)]).tobytes()


@lru_cache(maxsize=64)
def _codes(known: frozenset[str]) -> bytes:
    """The trigrams as the kernel's hash set of their code points, 21 bits each."""
    assert kernel is not None
    codes = sorted(ord(t[0]) << 42 | ord(t[1]) << 21 | ord(t[2]) for t in known if len(t) == TRIGRAM)
    return kernel.table_of(array("Q", codes).tobytes())


def prepare_tables(known: Iterable[frozenset[str] | None]) -> None:
    """The kernel's class table and the trigram tables, made now rather than when first read."""
    if kernel is not None:
        class_table()
        for table in known:
            if table is not None:
                _codes(table)


def trigram_counts(view: AnswerView, max_words: int, script: str, known: frozenset[str]) -> tuple[int, int]:
    """The letter trigrams of the first ``max_words`` words that begin with a letter of
    ``script``, and how many of them are in ``known``."""
    if kernel is not None:
        return kernel.trigram_share(view.lowered, class_table(), max_words, _ranges(script), _codes(known))
    grams = trigrams(script_words(view, max_words, script))
    return len(grams), sum(map(known.__contains__, grams))


__all__ = ["Measures", "covered_words", "measure", "measure_python", "prepare_tables",
           "trigram_counts", "trigrams"]

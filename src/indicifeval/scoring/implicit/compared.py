"""What an answer is compared with, for one row and prompt: the prompt's word 4-grams (an
echo), its instructions' descriptions (an answer that restates them), and the words the
instructions require (an answer made only of them, or stuffed with them). Made once per row
and prompt (an RL batch asks each many times), as strings for Python and as the kernel's
sorted hashes."""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import regex

from indicifeval.checkers.describe import PLACEHOLDER, DescriptionError, render_description, templates_of
from indicifeval.checkers.registry import KwargError
from indicifeval.core.caches import bounded_cache
from indicifeval.scoring.implicit.chars import class_table, kernel
from indicifeval.scoring.implicit.expect import Allowance, profile_of
from indicifeval.scoring.implicit.view import N_GRAM, AnswerView, word_ngrams, words_of

QUOTED_MIN_CHARS = 40  # a quoted passage: at least this long between quotation marks


def _unquoted(prompt: str, quotes: tuple[tuple[str, str], ...]) -> str:
    """The prompt without its quoted passages (the text a rewrite may copy)."""
    for opening, closing in quotes:
        prompt = regex.sub(f"{regex.escape(opening)}[^{regex.escape(closing)}]{{{QUOTED_MIN_CHARS},}}"
                           f"{regex.escape(closing)}", " ", prompt)
    return prompt


@bounded_cache(maxsize=4096)  # keyed by kwargs a client sends: by their size too
def _descriptions(language: str, iid: str, kwargs: str) -> tuple[str, ...]:
    """The instruction's description in the language, rendered with the row's kwargs (JSON
    text), and its templates (placeholders left out): what an answer restating the
    instruction is made of."""
    profile = profile_of(language)
    if profile is None:
        return ()
    try:
        texts = [PLACEHOLDER.sub(" ", t) for t in templates_of(iid, profile)]
    except DescriptionError:
        return ()
    try:
        texts.append(render_description(iid, json.loads(kwargs), profile))
    except (DescriptionError, KwargError, KeyError, ValueError):
        pass
    return tuple(texts)


def _grams(texts: Iterable[str]) -> frozenset[tuple[str, ...]]:
    return frozenset(g for t in texts for g in word_ngrams(words_of(t), N_GRAM))


def _sorted_bytes(keys: Iterable[int]) -> bytes:
    return array("Q", sorted(set(keys))).tobytes()


def _union(parts: Iterable[bytes]) -> bytes:
    keys: set[int] = set()
    for part in parts:
        keys.update(array("Q", part))
    return _sorted_bytes(keys)


def _table(keys: bytes) -> bytes:
    assert kernel is not None
    return kernel.table_of(keys)


@dataclass(frozen=True)
class Compared:
    """The prompt's word 4-grams without its quoted passages (``own``) and with them
    (``whole``), those and its instructions' descriptions' (``stated``), and the words the
    instructions require (``given``; of them, the keywords), each with the texts it was read
    from."""

    own_texts: tuple[str, ...]
    stated_texts: tuple[str, ...]  # beside own's
    whole_texts: tuple[str, ...]
    given_texts: tuple[str, ...]
    keyword_texts: tuple[str, ...]

    @cached_property
    def own(self) -> frozenset[tuple[str, ...]]:
        return _grams(self.own_texts)

    @cached_property
    def stated(self) -> frozenset[tuple[str, ...]]:
        return self.own | _grams(self.stated_texts)

    @cached_property
    def whole(self) -> frozenset[tuple[str, ...]]:
        return _grams(self.whole_texts)

    @cached_property
    def given(self) -> frozenset[str]:
        return frozenset(w for t in self.given_texts for w in words_of(t))

    @cached_property
    def keywords(self) -> frozenset[str]:
        return frozenset(w for t in self.keyword_texts for w in words_of(t))

    @cached_property
    def _kernel_sets(self) -> tuple[tuple[bytes, bytes, bytes, bytes, bytes], int]:
        """own, stated, whole, given and keywords as the kernel's hash sets, and how many
        distinct 4-grams whole has (so that no Python set of them is made)."""
        assert kernel is not None
        table = class_table()

        def grams(texts: Iterable[str]) -> bytes:
            return _union(kernel.gram_hashes(AnswerView(t).lowered, table) for t in texts)

        def words(texts: Iterable[str]) -> bytes:
            return _union(kernel.word_hashes(AnswerView(t).lowered, table) for t in texts)

        own, whole = grams(self.own_texts), grams(self.whole_texts)
        stated = _union((own, grams(self.stated_texts)))
        given, keywords = words(self.given_texts), words(self.keyword_texts)
        return (_table(own), _table(stated), _table(whole), _table(given), _table(keywords)), len(whole) // 8

    @property
    def hashed(self) -> tuple[bytes, bytes, bytes, bytes, bytes]:
        return self._kernel_sets[0]

    @property
    def whole_size(self) -> int:
        """How many distinct word 4-grams the prompt has."""
        return self._kernel_sets[1] if kernel is not None else len(self.whole)

    def approximate_bytes(self) -> int:
        """What remembering it costs, roughly (its texts' sets and tables, generously)."""
        chars = sum(len(t) for texts in (self.own_texts, self.stated_texts, self.whole_texts, self.given_texts,
                                         self.keyword_texts) for t in texts)
        return 1024 + 40 * chars


def compared(allowance: Allowance, prompt: str, language: str) -> Compared:
    descriptions = [text for iid, kw in zip(allowance.ids, allowance.kwargs)
                    for text in _descriptions(language, iid, json.dumps(kw, sort_keys=True, ensure_ascii=False))]
    return Compared((_unquoted(prompt, allowance.quotes),), tuple(descriptions), (prompt,), allowance.given,
                    allowance.keywords)


__all__ = ["Compared", "compared"]

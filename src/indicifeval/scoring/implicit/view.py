"""What an answer says once its wrapping is taken away: the text without invisible characters,
its words, lines, bullets and sentences, and the content of a JSON or code-fence wrapper
(the values, not the keys: ``{"answer": ""}`` says nothing). Every step is one pass over the
answer, so the implicit constraints stay linear in its length."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import regex

from indicifeval.core.caches import bounded_cache
from indicifeval.scoring.implicit.chars import HAS_LETTER, LETTER, WORD, invisible
from indicifeval.text.normalize import nfc
from indicifeval.text.scripts import script_of

N_GRAM = 4  # the word n-grams an answer's echo and padding are measured in (the kernel's too)
_BULLET = regex.compile(r"^\s*(?:[*\-+•●◦▪–]|\d{1,3}[.)])(?:\s+|$)(.*)$")
_FENCE = regex.compile(r"^\s*```[^\n]*\n?(.*?)\n?```\s*$", regex.DOTALL)


def _json_values(value: object) -> Iterator[str]:
    """The strings and numbers of a JSON value, depth first, without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, str):
            yield item
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            yield str(item)


def unwrapped(text: str) -> str:
    """A code fence's inside; of JSON, its values only."""
    fenced = _FENCE.match(text) if text.lstrip().startswith("```") else None
    inner = fenced.group(1) if fenced else text
    stripped = inner.strip()
    if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
        try:
            data = json.loads(stripped)
        except (ValueError, RecursionError):
            return inner
        return "\n".join(_json_values(data))
    return inner


@dataclass
class AnswerView:
    """One answer, seen the ways the implicit constraints need (each computed once)."""

    raw: str
    terminators: str = ".!?।॥"

    @cached_property
    def text(self) -> str:
        """NFC, invisible characters gone, wrappers opened (and NFC again where either changed
        it: a mark can meet its letter once a zero-width character between them goes)."""
        normal = nfc(self.raw)
        text = unwrapped(invisible(normal)[1])
        return text if text is normal else nfc(text)

    @cached_property
    def lowered(self) -> str:
        return self.text.lower()

    @cached_property
    def words(self) -> list[str]:
        return WORD.findall(self.lowered)

    @cached_property
    def grams(self) -> list[tuple[str, ...]]:
        """Word 4-grams (echo and padding share them)."""
        return word_ngrams(self.words, N_GRAM)

    @cached_property
    def lines(self) -> list[str]:
        """Lines with a letter or digit, stripped and lower-cased."""
        return [line.strip().lower() for line in self.text.split("\n") if HAS_LETTER.search(line)]

    @cached_property
    def bullets(self) -> list[str]:
        """The items of bulleted or numbered lines (empty items included)."""
        return [m.group(1).strip().lower() for m in map(_BULLET.match, self.text.split("\n")) if m]

    @cached_property
    def sentences(self) -> list[str]:
        """Sentences with a letter, as their words joined (punctuation, case and digits ignored:
        "Point 1: X. Point 2: X." repeats one sentence)."""
        kept = _punctuation(self.terminators).sub(" ", self.text.lower())  # one pass: terminators stay
        return [" ".join(part.split()) for part in _splitter(self.terminators).split(kept) if LETTER.search(part)]


@lru_cache(maxsize=64)
def _punctuation(terminators: str) -> regex.Pattern:
    """What a sentence's words ignore: all but letters, marks, joiners, apostrophes and the
    terminators and line breaks that end sentences."""
    return regex.compile(f"[^\\p{{L}}\\p{{M}}\u200c\u200d'’\n{regex.escape(terminators)}]+")


@lru_cache(maxsize=64)
def _splitter(terminators: str) -> regex.Pattern:
    return regex.compile(f"[{regex.escape(terminators)}\n]+")


@bounded_cache(maxsize=8192)  # by the size of the texts too: a server is sent any prompt
def words_of(text: str) -> tuple[str, ...]:
    """The words of a short text the instructions give (a prompt, a keyword), remembered: an RL
    batch asks each prompt many times."""
    return tuple(AnswerView(text).words)


def script_words(view: AnswerView, max_words: int, script: str) -> list[str]:
    """The answer's first ``max_words`` words that begin with a letter of ``script`` (what its
    plausibility is judged on)."""
    return [w for w in view.words[:max_words] if script_of(w[0]) == script]


def word_ngrams(words: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """The word n-grams, made by ``zip`` (in C: this is the constraints' hottest loop)."""
    return list(zip(*(words[i:] for i in range(n))))


__all__ = ["N_GRAM", "AnswerView", "script_words", "unwrapped", "word_ngrams", "words_of"]

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

from indicifeval.text.normalize import nfc

# Characters that show nothing: format characters (zero-width space, word joiner, BOM, the
# directional marks) and the blank "letters" used as invisible padding. ZWNJ and ZWJ touching
# a letter or mark are spelling (Malayalam chillus, a Kannada or Odia virama at a word's end,
# Persian-script Urdu, Bengali ya-phala) and stay; alone, or three and more in a row, they are
# invisible.
_INVISIBLE = regex.compile(
    r"[\u200c\u200d]{3,}"  # a run of joiners (spelling needs one, or a ZWJ and a ZWNJ)
    r"|(?<![\p{L}\p{M}\u200c\u200d])[\u200c\u200d]{1,2}(?![\p{L}\p{M}\u200c\u200d])"  # joiners touching no letter
    r"|[\p{Cf}--[\u200c\u200d]]|[\u115f\u1160\u3164\uffa0\u2800]",  # format characters, blank letters
    regex.VERSION1)
_WORD = regex.compile(r"[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}\u200c\u200d'’]*")
_BULLET = regex.compile(r"^\s*(?:[*\-+•●◦▪–]|\d{1,3}[.)])(?:\s+|$)(.*)$")
_FENCE = regex.compile(r"^\s*```[^\n]*\n?(.*?)\n?```\s*$", regex.DOTALL)
_HAS_LETTER = regex.compile(r"[\p{L}\p{N}]")


def invisible_count(text: str) -> int:
    """Invisible characters outside words."""
    return sum(1 for _ in _INVISIBLE.finditer(text))


def visible(text: str) -> str:
    """The text without its invisible characters (joiners inside words kept)."""
    return _INVISIBLE.sub("", text)


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
        """NFC, invisible characters gone, wrappers opened."""
        return unwrapped(visible(nfc(self.raw)))

    @cached_property
    def words(self) -> list[str]:
        return _WORD.findall(self.text.lower())

    @cached_property
    def grams(self) -> list[tuple[str, ...]]:
        """Word 4-grams (echo and padding share them)."""
        return word_ngrams(self.words, 4)

    @cached_property
    def lines(self) -> list[str]:
        """Lines with a letter or digit, stripped and lower-cased."""
        return [line.strip().lower() for line in self.text.split("\n") if _HAS_LETTER.search(line)]

    @cached_property
    def bullets(self) -> list[str]:
        """The items of bulleted or numbered lines (empty items included)."""
        out = []
        for line in self.text.split("\n"):
            m = _BULLET.match(line)
            if m:
                out.append(m.group(1).strip().lower())
        return out

    @cached_property
    def sentences(self) -> list[str]:
        """Sentences with a letter, as their words joined (punctuation and case ignored)."""
        kept = _punctuation(self.terminators).sub(" ", self.text.lower())  # one pass: terminators stay
        return [" ".join(part.split()) for part in _splitter(self.terminators).split(kept) if _HAS_LETTER.search(part)]


@lru_cache(maxsize=64)
def _punctuation(terminators: str) -> regex.Pattern:
    """What a sentence's words ignore: all but letters, marks, digits, joiners, apostrophes and
    the terminators and line breaks that end sentences."""
    return regex.compile(f"[^\\p{{L}}\\p{{M}}\\p{{N}}\u200c\u200d'’\n{regex.escape(terminators)}]+")


@lru_cache(maxsize=64)
def _splitter(terminators: str) -> regex.Pattern:
    return regex.compile(f"[{regex.escape(terminators)}\n]+")


@lru_cache(maxsize=8192)
def words_of(text: str) -> tuple[str, ...]:
    """The words of a short text the instructions give (a prompt, a keyword), remembered: an RL
    batch asks each prompt many times."""
    return tuple(AnswerView(text).words)


def word_ngrams(words: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """The word n-grams, made by ``zip`` (in C: this is the constraints' hottest loop)."""
    return list(zip(*(words[i:] for i in range(n))))


__all__ = ["AnswerView", "invisible_count", "unwrapped", "visible", "word_ngrams", "words_of"]

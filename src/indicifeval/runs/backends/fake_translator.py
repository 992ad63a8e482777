"""A deterministic stand-in for a machine translator, for tests and demos of the Trans pipeline.

It "translates" by spelling every Latin word in the target alphabet (so the output is in the
right script and language identification sees the target language), and keeps digits,
punctuation, markup and placeholders. With ``mangle`` it damages placeholders the way real
engines do, each placeholder by a seeded draw: ``spaces`` ({{ 3 }}), ``single`` ({3}),
``square`` ([[3]]), ``native`` (the digits in the target script), ``glue`` (a letter stuck to
it), ``drop`` (gone) and ``duplicate`` (twice). The first four a careful restorer can undo;
the last three must be caught.

Words already in the target script (the translated keywords the paper's method writes into
the English before translation) are damaged the same way, at the same rate: ``inflect`` (a
letter glued on, as an engine adds a case ending) or ``drop``; both must be caught."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence

import regex

PLACEHOLDER = re.compile(r"\{\{(\d+)\}\}")
MANGLINGS = ("spaces", "single", "square", "native", "glue", "drop", "duplicate")
_NATIVE = regex.compile(r"[\p{L}\p{M}]+")
WORD_MANGLINGS = ("inflect", "drop")


def native_digits(alphabet: Sequence[str]) -> str:
    """The ten digits of the alphabet's script ("" if it has none), found from its first letter."""
    if not alphabet:
        return ""
    name = unicodedata.name(alphabet[0], "")
    script = name.split(" ")[0]
    digits = []
    for d in range(10):
        try:
            digits.append(unicodedata.lookup(f"{script} DIGIT {unicodedata.name(str(d)).split()[-1]}"))
        except KeyError:
            return ""
    return "".join(digits)


class FakeTranslator:
    """``FakeTranslator(alphabet)(text)`` -> the fake translation; ``mangled`` records what was
    done to which placeholder of which text (for tests to check every one was caught)."""

    def __init__(self, alphabet: Sequence[str], mangle: float = 0.0, modes: Sequence[str] = MANGLINGS,
                 seed: int = 0):
        if not alphabet:
            raise ValueError("the fake translator needs the target alphabet")
        self.alphabet = list(alphabet)
        self.mangle, self.modes, self.seed = mangle, tuple(modes), seed
        self.digits = native_digits(self.alphabet)
        self.script = unicodedata.name(self.alphabet[0], "").split(" ")[0]  # DEVANAGARI, TAMIL, ...
        self.mangled: dict[tuple[str, str], str] = {}  # (text, placeholder) -> mode
        # each Latin letter spelt as a letter of the alphabet: one str.translate, not a join per word
        # (the loopback server translates every request with it, and must not be what is measured)
        self._letters = {ord(ch): self.alphabet[(ord(ch.lower()) - 97) % len(self.alphabet)]
                         for ch in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"}

    def _word(self, word: str) -> str:
        return word.translate(self._letters)

    def _hit(self, text: str, what: str) -> int | None:
        """A seeded draw for ``what`` in ``text``: None (left alone) or a number picking how."""
        digest = hashlib.sha256(f"{self.seed}|{text}|{what}".encode()).digest()
        return None if self.mangle <= 0 or digest[0] / 256 >= self.mangle else digest[1]

    def _draw(self, text: str, placeholder: str) -> str | None:
        hit = self._hit(text, placeholder)
        return None if hit is None else self.modes[hit % len(self.modes)]

    def _placeholder(self, text: str, match: re.Match) -> str:
        whole, number = match.group(0), match.group(1)
        mode = self._draw(text, whole)
        if mode is None:
            return whole
        if mode == "native" and not self.digits:
            mode = "spaces"
        self.mangled[(text, whole)] = mode
        if mode == "native":
            return "{{" + "".join(self.digits[int(d)] for d in number) + "}}"
        return {
            "spaces": f"{{{{ {number} }}}}",
            "single": f"{{{number}}}",
            "square": f"[[{number}]]",
            "glue": whole + self.alphabet[0],
            "drop": "",
            "duplicate": whole + " " + whole,
        }[mode]

    def _native(self, text: str, match: regex.Match) -> str:
        word = match.group(0)
        if not all(unicodedata.name(ch, "").startswith(self.script + " ") for ch in word):
            return word  # only words in the target's script: the ones written in before translation
        hit = self._hit(text, "word:" + word)
        if hit is None:
            return word
        mode = WORD_MANGLINGS[hit % len(WORD_MANGLINGS)]
        self.mangled[(text, word)] = mode
        return word + self.alphabet[0] if mode == "inflect" else ""

    def _prose(self, text: str, piece: str) -> str:
        if self.mangle > 0 and self.script != "LATIN":  # Latin: English and inserted words look alike
            piece = _NATIVE.sub(lambda m: self._native(text, m), piece)
        return piece.translate(self._letters)  # every Latin letter; all else as it is

    def __call__(self, text: str) -> str:
        pieces, at = [], 0
        for match in PLACEHOLDER.finditer(text):
            pieces.append(self._prose(text, text[at:match.start()]))
            pieces.append(self._placeholder(text, match))
            at = match.end()
        pieces.append(self._prose(text, text[at:]))
        return "".join(pieces)


__all__ = ["MANGLINGS", "WORD_MANGLINGS", "FakeTranslator", "native_digits"]

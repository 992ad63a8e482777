"""langdetect 1.0.9's n-gram extraction, per text rather than per character.

``Detector._extract_ngrams`` feeds every character through ``NGram.normalize`` and an
``NGram`` buffer. The same n-grams come out of: normalising the whole text (by bytes and two
regular expressions where no character needs a per-block mapping, else ``str.translate``
through a table filled from ``NGram.normalize``), splitting at spaces, and looking each word
up in a table of its n-grams' profile vectors, built once per word by the buffer's rules
(including the one that emits nothing for an upper-case letter after an upper-case one).
``tests/text/test_langdetect_fast.py`` compares the result with langdetect itself.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable
from functools import reduce
from itertools import chain
from operator import add, itemgetter, or_

import regex

from indicifeval.core.kernels import optional_kernel

# The optional compiled kernel's line_words (a line's word lookups), word_grams (a new word's
# n-grams) and gram_entry (a new n-gram's vector); None: the Python versions
_kernel = optional_kernel("indicifeval.text._langdetect_kernel")
_word_grams = getattr(_kernel, "word_grams", None)  # (None in a kernel built before it)
_gram_entry = getattr(_kernel, "gram_entry", None)
_WORD_TABLE_LIMIT = 200_000  # words; the tables are cleared when they grow past this
_LINE_CHARS = 500_000  # characters of lines remembered (about 25 bytes each with their n-grams), then cleared
_WORD_MAX_LEN = 40  # longer "words" (e.g. unspaced CJK runs) are not kept
# A letter str.isupper() calls upper case (the Uppercase property; tests/text check every code point)
_ANY_UPPER = regex.compile(r"\p{Uppercase}")

# Basic Latin, as NGram.normalize has it: every byte below 0x80 that is not A-Z or a-z is a space.
_ASCII_RULE = bytes(b if (0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A or b >= 0x80) else 0x20 for b in range(256))

Entry = tuple[list[float] | bytes, int]  # an n-gram's profile vector and the bitmask of its languages
_VECTOR, _MASK = itemgetter(0), itemgetter(1)
Lookup = Callable[[str], Entry | None] | dict  # a GramTable (the kernel looks n-grams up in it), or a function


class _NormalizeTable(dict):
    """ord(ch) -> NGram.normalize(ch), filled on first sight; used with ``str.translate``."""

    __slots__ = ("_normalize",)

    def __init__(self, normalize: Callable[[str], str]):
        super().__init__()
        self._normalize = normalize

    def __missing__(self, code: int) -> str:
        value = self._normalize(chr(code))
        self[code] = value
        return value


def _char_class(chars: str, ranges: list[tuple[int, int]]) -> re.Pattern:
    spans = "".join(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in ranges)
    return re.compile(f"[{''.join(re.escape(c) for c in chars)}{spans}]")


class CharNormalizer:
    """``NGram.normalize`` of every character of a text."""

    def __init__(self) -> None:
        from langdetect.utils import unicode_block as ub
        from langdetect.utils.ngram import NGram

        blocks = {name: (start, end) for name, start, end in ub._unicode_blocks}
        self._table = _NormalizeTable(NGram.normalize)
        # Characters NGram.normalize makes a space outside Basic Latin.
        self._to_space = _char_class(NGram.LATIN1_EXCLUDED, [blocks[ub.UNICODE_GENERAL_PUNCTUATION]])
        # Characters it maps to something else: Romanian comma-below, Farsi yeh, Vietnamese,
        # kana, bopomofo, kanji and Hangul. A text with any of them goes through the table.
        self._mapped = _char_class("\u0219\u021b\u06cc", [blocks[b] for b in (
            ub.UNICODE_LATIN_EXTENDED_ADDITIONAL, ub.UNICODE_HIRAGANA, ub.UNICODE_KATAKANA, ub.UNICODE_BOPOMOFO,
            ub.UNICODE_BOPOMOFO_EXTENDED, ub.UNICODE_CJK_UNIFIED_IDEOGRAPHS, ub.UNICODE_HANGUL_SYLLABLES)])

    def __call__(self, text: str) -> str:
        if self._mapped.search(text):
            return text.translate(self._table)
        text = text.encode("utf-8", "surrogatepass").translate(_ASCII_RULE).decode("utf-8", "surrogatepass")
        return self._to_space.sub(" ", text)


def word_grams(word: str, trailing_space: bool, lookup: Lookup) -> tuple[tuple, int]:
    """Profile vectors of the n-grams NGram emits for ' ' + word (+ ' '), in order, and the
    bitmask of the languages any of them has: the kernel's, where it is built."""
    if _word_grams is not None:
        return _word_grams(word, trailing_space, lookup)
    return word_grams_python(word, trailing_space, lookup.__getitem__ if isinstance(lookup, dict) else lookup)


def word_grams_python(word: str, trailing_space: bool, lookup: Callable[[str], Entry | None]) -> tuple[tuple, int]:
    """``word_grams`` in Python."""
    s = " " + word + " " if trailing_space else " " + word
    if _ANY_UPPER.search(word) is None:
        # No capital letter, so no character is skipped: per position k the letter, the
        # bigram and (from k = 2) the trigram ending there, less the lone trailing space.
        # (the three runs zipped together: the loop stays in C)
        bigrams = list(map(add, s, s[1:]))
        grams = [s[1], bigrams[0], *chain.from_iterable(zip(s[2:], bigrams[1:], map(add, bigrams, s[2:])))]
        if trailing_space:
            del grams[-3]
        found = list(filter(None, map(lookup, grams)))  # (an entry is a non-empty tuple)
        return tuple(map(_VECTOR, found)), reduce(or_, map(_MASK, found), 0)
    return grams_by_character(s, lookup)


def grams_by_character(s: str, lookup: Callable[[str], Entry | None]) -> tuple[tuple, int]:
    """``word_grams`` of ``s`` (the word with its spaces) one character at a time, as NGram
    reads it: the general way, for words with capitals."""
    out = []
    mask = 0
    prev_upper = False  # s[0] is the space
    for k in range(1, len(s)):
        ch = s[k]
        upper = ch.isupper()
        if upper and prev_upper:
            continue  # NGram.capitalword: nothing emitted for this character
        prev_upper = upper
        for g in ((ch, s[k - 1:k + 1], s[k - 2:k + 1]) if k >= 2 else (ch, s[k - 1:k + 1])):
            if g == " ":
                continue
            entry = lookup(g)
            if entry is not None:
                out.append(entry[0])
                mask |= entry[1]
    return tuple(out), mask


class GramTable(dict):
    """n-gram -> (vector, bitmask of the languages where it is not 0), or None for an n-gram in
    no profile: ``word_lang_prob_map[gram]`` as add_profile fills it, built on first use (a
    dict, so that looking up known n-grams stays in C). The vector is a list of floats, or,
    ``packed``, the same doubles as bytes, which the compiled estimation reads where they are.
    A vector of zeros only (a count of 0 in a profile) gets the bit just past the languages."""

    def __init__(self, profiles: list[tuple[dict, list]], n_langs: int, packed: bool = False):
        super().__init__()
        self._profiles = profiles
        self._n_langs = n_langs  # langdetect's vector length: its profile folder's listing
        self._by_first: dict[str, tuple] | None = None  # built on first use
        self.packed = packed  # vectors as bytes of native doubles, which the compiled estimation reads as they are

    def __missing__(self, gram: str) -> Entry | None:
        by_first = self._by_first
        if by_first is None:
            by_first = self._by_first = _by_first_letter(self._profiles)
        having = by_first.get(gram[gram[0] == " " and len(gram) > 1], ())
        entry = NotImplemented if _gram_entry is None else _gram_entry(gram, having, self._n_langs, self.packed)
        if entry is NotImplemented:
            entry = self.entry_python(gram, having)
        self[gram] = entry
        return entry

    def entry_python(self, gram: str, having: tuple) -> Entry | None:
        """The entry of ``gram`` from the profiles ``having`` n-grams with its first letter (the
        other profiles have none: 0 there), or None where none has it: the kernel's gram_entry
        in Python."""
        if not any(gram in freq for _, freq, _ in having):
            return None
        vector = [0.0] * self._n_langs
        length = len(gram)
        mask = 0
        for index, freq, n_words in having:
            count = freq.get(gram)
            if count is not None:
                vector[index] = value = 1.0 * count / n_words[length - 1]
                if value:
                    mask |= 1 << index
        packed = array("d", vector).tobytes() if self.packed else vector
        return packed, mask or 1 << self._n_langs  # the bit past the languages: an all-zero vector


def _by_first_letter(profiles: list[tuple[dict, list]]) -> dict[str, tuple]:
    """For each first letter of an n-gram (after a leading space), the profiles (index, n-gram
    counts, n-grams per length) that have n-grams starting with it: an n-gram is looked up
    only in those, fewest for a script few profiles cover."""
    found: dict[str, list] = {}
    for index, (freq, n_words) in enumerate(profiles):
        for letter in {gram[gram[0] == " " and len(gram) > 1] for gram in freq}:
            found.setdefault(letter, []).append((index, freq, n_words))
    return {letter: tuple(group) for letter, group in found.items()}


class _WordTable(dict):
    """word -> its n-grams' vectors (followed by a space); ``masks`` holds each word's bitmask."""

    def __init__(self, lookup: Lookup):
        super().__init__()
        self._lookup = lookup
        self.masks: dict[str, int] = {}

    def __missing__(self, word: str) -> tuple:
        grams, mask = word_grams(word, True, self._lookup) if word else ((), 0)
        self.masks[word] = mask
        if len(word) <= _WORD_MAX_LEN:
            self[word] = grams
        return grams


class Features:
    """A prepared text's n-grams: the bitmask of every language any of them has (0: none at
    all) and their profile vectors in langdetect's order, held in runs (a line's words, each
    word's n-grams: ``runs``, which the compiled estimation reads as they are) and joined into
    one list on first use of ``vectors``."""

    __slots__ = ("mask", "_parts", "_vectors")

    def __init__(self, parts: list[tuple[tuple, ...]], mask: int):
        self.mask = mask
        self._parts = parts
        self._vectors: list | None = None

    def runs(self) -> tuple[tuple[tuple, ...], ...]:
        return tuple(self._parts)

    @property
    def vectors(self) -> list:
        if self._vectors is None:
            self._vectors = list(chain.from_iterable(chain.from_iterable(self._parts)))
        return self._vectors


class Extractor:
    """``Features`` of prepared texts, through one table of words and one of lines: a line
    break is a space to the n-grams, so a text's n-grams are its lines' in order (only the
    last word of the last line has no space after it), and IFEval's loose variants (the
    answer less its first or last line, less its asterisks) share most lines with the answer."""

    def __init__(self, lookup: Lookup):
        self._lookup = lookup
        self._normalize = CharNormalizer()
        self._words = _WordTable(lookup)
        self._lines: dict[str, tuple[tuple[tuple, ...], int, str]] = {}
        self._line_chars = 0

    def __call__(self, text: str) -> Features:
        table = self._words
        if len(table.masks) > _WORD_TABLE_LIMIT:
            table.clear()
            table.masks.clear()
        parts: list[tuple[tuple, ...]] = []
        mask = 0
        known = self._lines
        last = ""
        for line in text.split("\n"):
            if last:  # the last word of the line before: a line break follows it
                parts.append((table[last],))
                mask |= table.masks[last]
            found = known.get(line)
            if found is None:
                found = self._line(line)
            body, body_mask, last = found
            parts.append(body)
            mask |= body_mask
        if last:  # nothing follows the text's last word
            grams, last_mask = word_grams(last, False, self._lookup)
            parts.append((grams,))
            mask |= last_mask
        return Features(parts, mask)

    def _line(self, line: str) -> tuple[tuple[tuple, ...], int, str]:
        """A line's words' n-gram vectors (a tuple per word, in order) but its last word's, their
        languages, and that last word (remembered within ``_LINE_CHARS`` characters of lines)."""
        words = self._normalize(line).split(" ")
        last = words.pop()
        table = self._words
        if _kernel is not None:  # the same, one lookup of each table a word
            grams, mask = _kernel.line_words(words, table, table.masks)
            found = (grams, mask, last)
        else:
            found = (tuple(map(table.__getitem__, words)), reduce(or_, set(map(table.masks.__getitem__, words)), 0),
                     last)
        if self._line_chars + len(line) > _LINE_CHARS:
            self._lines.clear()
            self._line_chars = 0
        self._lines[line] = found
        self._line_chars += len(line)
        return found

"""``unicodedata.normalize("NFC", text)`` of long texts, a word at a time from a table.

``unicodedata`` is quick on text its quick check passes, but one character whose check says
"Maybe" (Tamil ா, Bengali া, Malayalam ാ, Kannada ೂ, Odia ା, the Devanagari nukta: the
second halves of compositions) makes it normalise the whole text. The space never composes
with or reorders against anything on either side, so the NFC of a text is the NFC of its
space-separated pieces joined by spaces; the pieces (words, mostly) repeat from answer to
answer, and their forms are kept in a bounded table. Where such characters are few (a
nukta here and there), only the words that hold one are looked up and the stretches between
them are normalised directly; texts with none in the Indic blocks (where they are common)
are normalised directly. Before any of that, the optional compiled kernel
(``_scripts_kernel.nfc_clear``) tells in one pass whether a text of the characters it covers
(ASCII, Latin-1, Arabic, the Indic blocks, general punctuation, currency signs) is its own NFC, as
model answers mostly are: then the text is returned as it is.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from functools import lru_cache

from indicifeval.core.kernels import optional_kernel

_SHORT = 64  # characters; shorter texts are normalised directly
_PROBE = 400  # characters at the start that tell how common such characters are
_TABLE_LIMIT = 200_000  # pieces; the table is cleared when it grows past this


def _second_halves(lo: int, hi: int) -> str:
    """Characters of lo..hi that end a canonical composition (NFC quick check: Maybe)."""
    found = set()
    for cp in range(lo, hi + 1):
        d = unicodedata.decomposition(chr(cp))
        if d and not d.startswith("<") and len(d.split()) == 2:
            first, second = (chr(int(x, 16)) for x in d.split())
            if unicodedata.normalize("NFC", first + second) == chr(cp):  # not a composition exclusion
                found.add(second)
    return "".join(sorted(found))


_INDIC_MAYBE = re.compile(f"[{re.escape(_second_halves(0x0900, 0x0DFF))}]")

_kernel = optional_kernel("indicifeval.text._scripts_kernel")  # None: every text takes the paths below
# The characters the kernel judges (any other makes it say "unknown"): no composition outside
# them has a second half inside them (tests/text/test_nfc_clear.py checks every code point)
COVERED = ((0x0000, 0x00FF), (0x0600, 0x06FF), (0x0900, 0x0DFF), (0x2000, 0x206F), (0x20A0, 0x20CF))
_NOT_COVERED, _SECOND_HALF, _FIRST_HALF = 1, 2, 4


@lru_cache(maxsize=1)
def nfc_tables() -> tuple[bytes, bytes]:
    """The kernel's tables, from ``unicodedata``: the combining class of the first and of the
    last character of each covered code point's decomposition, its flags, and the compositions
    (first << 16 | second, sorted) whose second half is covered. A character NFC changes on its
    own (a singleton, an exclusion) is not covered."""
    size = 0x10000
    lead, trail, flags = bytearray(size), bytearray(size), bytearray([_NOT_COVERED]) * size
    pairs = []
    for lo, hi in COVERED:
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            if unicodedata.normalize("NFC", ch) != ch:
                continue
            nfd = unicodedata.normalize("NFD", ch)
            lead[cp], trail[cp] = unicodedata.combining(nfd[0]), unicodedata.combining(nfd[-1])
            flags[cp] = 0
            parts = unicodedata.decomposition(ch).split()
            if len(parts) == 2 and not parts[0].startswith("<"):
                first, second = (int(x, 16) for x in parts)
                pairs.append((first, second))
    for first, second in pairs:
        flags[second] |= _SECOND_HALF
        if first < size:
            flags[first] |= _FIRST_HALF
    packed = array("I", sorted(first << 16 | second for first, second in pairs))
    return bytes(lead + trail + flags), packed.tobytes()


def nfc_clear(text: str) -> bool:
    """Whether the kernel finds ``text`` certainly its own NFC (False also where it is not built)."""
    if _kernel is None:
        return False
    return _kernel.nfc_clear(text, *nfc_tables())


class _PieceTable(dict):
    """piece -> its NFC, computed on first sight."""

    def __missing__(self, piece: str) -> str:
        value = unicodedata.normalize("NFC", piece)
        if len(self) >= _TABLE_LIMIT:
            self.clear()
        self[piece] = value
        return value


_pieces = _PieceTable()


# The last long text and its NFC: a reward scores an answer and then reads it for its implicit
# constraints, two readers of one string (compared by identity: no cost when it is another)
_last: tuple[str, str] = ("", "")


def nfc(text: str) -> str:
    if len(text) < _SHORT or text.isascii():
        return unicodedata.normalize("NFC", text)
    global _last
    last = _last
    if text is last[0]:
        return last[1]
    value = _nfc(text)
    _last = (text, value)
    return value


def _nfc(text: str) -> str:
    if nfc_clear(text):
        return text
    seen = len(_INDIC_MAYBE.findall(text, 0, _PROBE))  # how common they are, from the start
    if seen * _SPARSE > min(len(text), _PROBE):
        return " ".join(map(_pieces.__getitem__, text.split(" ")))
    if not seen and _INDIC_MAYBE.search(text, _PROBE) is None:
        return unicodedata.normalize("NFC", text)
    return _around_maybes(text)


_SPARSE = 40  # characters per such character below which only the words holding one are looked up


def _around_maybes(text: str) -> str:
    """Where few words hold such a character (a nukta in Hindi): those words from the table,
    the stretches between them by ``unicodedata`` at once (quick where its check passes). Every
    cut is next to a space, as in the table's pieces."""
    out: list[str] = []
    normalize = unicodedata.normalize
    done = 0  # text[:done] is in out; text[done] is a space or the end
    for m in _INDIC_MAYBE.finditer(text):
        at = m.start()
        if at < done:
            continue  # in the word just looked up
        start = text.rfind(" ", done, at) + 1 or done
        end = text.find(" ", at)
        if end < 0:
            end = len(text)
        if start > done:
            out.append(normalize("NFC", text[done:start]))
        out.append(_pieces[text[start:end]])
        done = end
    out.append(normalize("NFC", text[done:]))
    return "".join(out)

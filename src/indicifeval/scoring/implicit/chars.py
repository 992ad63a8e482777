"""What each character of an answer is to the implicit constraints: part of a word, or
invisible (format characters, blank letters, joiners touching no letter). The same classes
make view.py's regular expressions and the table the optional compiled kernel (``_kernel``,
see core.kernels) reads; where it is not built, or turned off, the expressions do its work
(tests/scoring/test_implicit_kernel.py holds the two to the same results)."""

from __future__ import annotations

from array import array
from functools import lru_cache

import regex

from indicifeval.core.kernels import optional_kernel

WORD_START = r"\p{L}\p{M}\p{N}"  # a word begins with a letter, mark or digit
JOINERS = "\u200c\u200d"  # ZWNJ, ZWJ: inside words, spelling
APOSTROPHES = "'’"  # inside words ("don't")
# Characters that show nothing: format characters (zero-width space, word joiner, BOM, the
# directional marks) and the blank "letters" used as invisible padding. ZWNJ and ZWJ touching
# a letter or mark are spelling (Malayalam chillus, a Kannada or Odia virama at a word's end,
# Persian-script Urdu, Bengali ya-phala) and stay; alone, or three and more in a row, they are
# invisible.
INVISIBLE_FORMAT = f"[\\p{{Cf}}--[{JOINERS}]]"
BLANK_LETTERS = "\u115f\u1160\u3164\uffa0\u2800"

INVISIBLE = regex.compile(
    f"[{JOINERS}]{{3,}}"  # a run of joiners (spelling needs one, or a ZWJ and a ZWNJ)
    f"|(?<![\\p{{L}}\\p{{M}}{JOINERS}])[{JOINERS}]{{1,2}}(?![\\p{{L}}\\p{{M}}{JOINERS}])"  # joiners touching no letter
    f"|{INVISIBLE_FORMAT}|[{BLANK_LETTERS}]",  # format characters, blank letters
    regex.VERSION1)
WORD = regex.compile(f"[{WORD_START}][{WORD_START}{JOINERS}{APOSTROPHES}]*")
HAS_LETTER = regex.compile(r"[\p{L}\p{N}]")
LETTER = regex.compile(r"\p{L}")

kernel = optional_kernel("indicifeval.scoring.implicit._kernel")  # None: the Python version here


@lru_cache(maxsize=1)
def class_table() -> bytes:
    """A byte per code point whose bits are its classes, as the kernel's C_* constants number
    them (letter 1, mark 2, digit 4, joiner 8, apostrophe 16, format 32, blank letter 64)."""
    every = array("I", [*range(0xD800), *range(0xE000, 0x110000)]).tobytes().decode("utf-32-le")
    table = bytearray(0x110000)
    classes = ((1, r"\p{L}"), (2, r"\p{M}"), (4, r"\p{N}"), (8, f"[{JOINERS}]"), (16, f"[{APOSTROPHES}]"),
               (32, INVISIBLE_FORMAT), (64, f"[{BLANK_LETTERS}]"))
    for bit, pattern in classes:
        for ch in regex.findall(pattern, every, flags=regex.VERSION1):
            table[ord(ch)] |= bit
    return bytes(table)


def invisible(text: str) -> tuple[int, str]:
    """How many invisible stretches ``text`` has outside words, and the text without them."""
    if text.isascii():
        return 0, text
    if kernel is not None:
        return kernel.invisible(text, class_table())
    count = sum(1 for _ in INVISIBLE.finditer(text))
    return count, INVISIBLE.sub("", text) if count else text


__all__ = ["HAS_LETTER", "INVISIBLE", "LETTER", "WORD", "class_table", "invisible", "kernel"]

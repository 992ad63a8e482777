"""Which writing system each character belongs to, from the ranges in scripts.json. The
letters per script of a text are counted by the optional compiled kernel (``_scripts_kernel``,
built by ``setup.py``; ``INDICIFEVAL_PURE_PYTHON=1`` turns it off) or by ``str.translate``:
the same counts in the same order (tests/text/test_fast_paths.py)."""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache

from indicifeval.core.kernels import optional_kernel
from indicifeval.languages import script_ranges

_kernel = optional_kernel("indicifeval.text._scripts_kernel")  # None: the Python version here
_BMP = 0x10000


@lru_cache(maxsize=65536)
def script_of(ch: str) -> str | None:
    cp = ord(ch)
    for code, ranges in script_ranges().items():
        for lo, hi in ranges:
            if lo <= cp <= hi:
                return code
    return None


class _Tags(dict):
    """ord(ch) -> one private-use character standing for its script, or None for a character
    that is not counted (not a letter or mark, or in no script); filled on first sight, for
    ``str.translate``."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: dict[str, str] = {}  # tag -> script code

    def __missing__(self, cp: int) -> str | None:
        ch = chr(cp)
        tag = None
        if ch.isalpha() or _is_mark(ch):
            script = script_of(ch)
            if script is not None:
                tag = next((t for t, code in self.scripts.items() if code == script), None)
                if tag is None:
                    tag = chr(0xF0000 + len(self.scripts))
                    self.scripts[tag] = script
        self[cp] = tag
        return tag


_tags = _Tags()
_ASCII_NOT_LETTERS = bytes(b for b in range(128) if not chr(b).isalpha())
_ascii_script: tuple[str | None, ...] | None = None  # (the script of every ASCII letter,) or () if several


def _script_of_ascii_letters() -> tuple[str | None, ...]:
    global _ascii_script
    if _ascii_script is None:
        found = {script_of(chr(b)) for b in range(128) if chr(b).isalpha()}
        _ascii_script = (found.pop(),) if len(found) == 1 else ()
    return _ascii_script


def script_counts(text: str, sample: int = 600) -> Counter[str]:
    """Letters (and marks) per script; digits, punctuation and unknown characters are ignored.
    Long texts are read at ``sample`` evenly spaced positions (a fixed stride, so the result
    is deterministic), which estimates the script shares closely at a fraction of the cost."""
    stride = -(-len(text) // sample) if len(text) > sample else 1
    table = _kernel_table() if _kernel is not None else None
    if table is not None:
        counted = _kernel.counts(text, table[0], stride)  # type: ignore[union-attr]
        return Counter({table[1][script]: n for script, _, n in counted})
    if stride > 1:
        text = text[::stride]
    if text.isascii() and (ascii_script := _script_of_ascii_letters()):
        letters = len(text.encode("ascii").translate(None, _ASCII_NOT_LETTERS))  # (no ASCII mark)
        script = ascii_script[0]
        return Counter({script: letters}) if letters and script is not None else Counter()
    tagged = text.translate(_tags)
    counts: Counter[str] = Counter()
    if tagged:
        found = [(at, tag) for tag in _tags.scripts if (at := tagged.find(tag)) >= 0]
        found.sort()  # in order of each script's first letter
        for _, tag in found:
            counts[_tags.scripts[tag]] = tagged.count(tag)
    return counts


@lru_cache(maxsize=1)
def _kernel_table() -> tuple[bytes, tuple[str, ...]] | None:
    """The kernel's table (a byte per BMP code point: 0 where the character is not counted,
    else its script's number + 1) and the scripts by number; None where a script has letters
    beyond the BMP or there are too many scripts (the Python count then serves)."""
    ranges = script_ranges()
    scripts = tuple(ranges)
    if len(scripts) > 255 or any(hi >= _BMP for spans in ranges.values() for _, hi in spans):
        return None
    table, claimed = bytearray(_BMP), bytearray(_BMP)  # claimed: by an earlier script (script_of's first match)
    for number, code in enumerate(scripts, 1):
        for lo, hi in ranges[code]:
            for cp in range(lo, hi + 1):
                if not claimed[cp]:
                    claimed[cp] = 1
                    ch = chr(cp)
                    if ch.isalpha() or unicodedata.category(ch)[0] == "M":
                        table[cp] = number
    return bytes(table), scripts


@lru_cache(maxsize=65536)
def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")

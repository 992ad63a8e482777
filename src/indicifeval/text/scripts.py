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
    if len(text) > sample:
        text = text[:: -(-len(text) // sample)]
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


@lru_cache(maxsize=65536)
def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")

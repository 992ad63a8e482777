"""paragraphs:paragraphs, paragraphs:paragraphs2, detectable_format:bigram_wrapping — how the
answer is laid out: two paragraphs (split by *** or by a blank line), every two words wrapped
in << >>."""

from __future__ import annotations

import re

from indicifeval.checkers.length import divider_pieces, paragraph_count
from indicifeval.checkers.open_instruct.copy_text import shown
from indicifeval.checkers.registry import checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.words import words

_SUITE = "open-instruct"
_BLANK = re.compile(r"\n\n")
_WANTED = 2


def _split_count(pieces: list[str], separator: str):
    """Non-blank pieces; a blank one is allowed only before the first separator or after the last."""
    count, empty = paragraph_count(pieces)
    if empty is not None:
        return False, f"an empty paragraph between two {separator} (piece {empty + 1})"
    return count == _WANTED, f"{count} paragraphs separated by {separator}, needed {_WANTED}"


@checker("paragraphs:paragraphs", category="Paragraphs", table_row=109, fixed_only=True, suite=_SUITE,
         conflicts=("paragraphs:paragraphs2", "length_constraints:number_paragraphs",
                    "length_constraints:nth_paragraph_first_word"))
def paragraphs_divider(view: TextView, args: dict, rules: Rules):
    """Two paragraphs separated by the markdown divider ***, in every language (no script has
    its own divider)."""
    return _split_count(divider_pieces(view.text), "***")


@checker("paragraphs:paragraphs2", category="Paragraphs", table_row=110, fixed_only=True, suite=_SUITE,
         conflicts=("length_constraints:number_paragraphs", "length_constraints:nth_paragraph_first_word"))
def paragraphs_blank_line(view: TextView, args: dict, rules: Rules):
    """Two paragraphs separated by a blank line. English splits at "\\n\\n" as the reference does
    (so four newlines make an empty paragraph, three do not); elsewhere a blank line may hold
    spaces or a carriage return, and several blank lines are one break."""
    if rules.ifeval:
        return _split_count(_BLANK.split(view.text), "a blank line")
    count = len(view.paragraphs)
    return count == _WANTED, f"{count} paragraphs separated by blank lines, needed {_WANTED}"


@checker("detectable_format:bigram_wrapping", category="Format", table_row=113, fixed_only=True, suite=_SUITE,
         conflicts=("detectable_format:title",))
def bigram_wrapping(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return _bigrams_reference(view.text)
    return _bigrams_indic(view.nfc)


def _bigrams_reference(text: str):
    """Whitespace tokens in pairs: the first of each opens with <<, the second closes with >>
    (an odd last token is free)."""
    tokens = text.split()
    for i in range(0, len(tokens) - 1, 2):
        if not (tokens[i].startswith("<<") and tokens[i + 1].endswith(">>")):
            return False, f"tokens {i + 1} and {i + 2} ({tokens[i]!r} {tokens[i + 1]!r}) are not wrapped as <<… …>>"
    return True, f"{len(tokens) // 2} bigrams wrapped in << >>"


def _bigrams_indic(text: str):
    """Every word inside a << >> group and every group two words (the last may hold one, when
    the count is odd). Words are the language's: punctuation around or between the groups (a
    danda after >>) and spaces inside the brackets do not matter."""
    groups, outside = [], []
    pos = 0
    start = text.find("<<")
    while start != -1:
        end = text.find(">>", start + 2)
        if end == -1:
            break
        outside.append(text[pos:start])
        groups.append(text[start + 2 : end])
        pos = end + 2
        start = text.find("<<", pos)
    outside.append(text[pos:])
    stray = [w for piece in outside for w in words(piece)]
    if stray:
        return False, f"{len(stray)} word(s) outside << >>, first {stray[0]!r}"
    sizes = [(len(found), group) for group in groups if (found := words(group))]
    total = sum(size for size, _ in sizes)
    if total < 2:
        return False, f"{total} word(s) in << >>, needed word pairs"
    for i, (size, group) in enumerate(sizes, 1):
        if size != 2 and not (size == 1 and i == len(sizes)):
            return False, f"group {i} <<{shown(group.strip(), 30)[1:-1]}>> holds {size} words, needed 2"
    return True, f"{total} words in {len(sizes)} << >> groups of two"

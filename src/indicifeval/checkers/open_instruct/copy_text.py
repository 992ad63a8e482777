"""Text helpers of the copying and word-position ids: open-instruct's own English sentence
splitter (its checkers do not use Punkt), a linear finder for its ``first .*? last`` phrase
pattern, aksharas, and the words and sentences of an Indic answer as its profile defines them."""

from __future__ import annotations

import bisect
import re
import unicodedata
from functools import lru_cache

import regex

from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.normalize import match_key
from indicifeval.text.sentences import split_sentences
from indicifeval.text.words import words

# --- English: the reference's regex splitter ("split_into_sentences") ---------------------------
# It marks full stops that do not end a sentence as <prd> and the ends as <stop>, then cuts at
# <stop>. Every step below is a substitution of bounded width (linear), run in the reference's
# order, with its marker strings: an answer that contains "<stop>" is cut there too, as there.
_ALPHA = "([A-Za-z])"
_STARTERS = (r"(Mr|Mrs|Ms|Dr|Prof|Capt|Cpt|Lt|He\s|She\s|It\s|They\s|Their\s|Our\s|We\s|But\s|However\s|That\s"
             r"|This\s|Wherever)")
_SUFFIXES = "(Inc|Ltd|Jr|Sr|Co)"
_STEPS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p), r) for p, r in (
    ("(Mr|St|Mrs|Ms|Dr)[.]", r"\1<prd>"),  # titles
    ("[.](com|net|org|io|gov|edu|me)", r"<prd>\1"),  # web addresses
    ("([0-9])[.]([0-9])", r"\1<prd>\2"),  # decimals
))
_DOTS = re.compile(r"\.{2,}")
_LATE_STEPS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"\s" + _ALPHA + "[.] ", r" \1<prd> "),  # an initial
    ("([A-Z][.][A-Z][.](?:[A-Z][.])?) " + _STARTERS, r"\1<stop> \2"),  # an acronym ending a sentence
    (_ALPHA + "[.]" + _ALPHA + "[.]" + _ALPHA + "[.]", r"\1<prd>\2<prd>\3<prd>"),
    (_ALPHA + "[.]" + _ALPHA + "[.]", r"\1<prd>\2<prd>"),
    (" " + _SUFFIXES + "[.] " + _STARTERS, r" \1<stop> \2"),
    (" " + _SUFFIXES + "[.]", r" \1<prd>"),
    (" " + _ALPHA + "[.]", r" \1<prd>"),
))
# closing quotes move before the stop that precedes them
_QUOTE_SWAPS = ((".”", "”."), ('."', '".'), ('!"', '"!'), ('?"', '"?'))


def reference_sentences(text: str) -> list[str]:
    """The sentences open-instruct's first/last-word checkers see (its ``split_into_sentences``)."""
    text = " " + text.replace("\n", " ") + "  "
    for pattern, repl in _STEPS:
        text = pattern.sub(repl, text)
    text = _DOTS.sub(lambda m: "<prd>" * len(m.group(0)) + "<stop>", text)
    text = text.replace("Ph.D.", "Ph<prd>D<prd>")
    for pattern, repl in _LATE_STEPS:
        text = pattern.sub(repl, text)
    for old, new in _QUOTE_SWAPS:
        text = text.replace(old, new)
    for stop in ".?!":
        text = text.replace(stop, stop + "<stop>")
    pieces = [p.strip() for p in text.replace("<prd>", ".").split("<stop>")]
    if pieces and not pieces[-1]:
        pieces.pop()
    return pieces


def phrase_matches(text: str, first: str, last: str) -> list[str]:
    """What ``re.findall(first + " .*? " + last, text)`` finds, with both words literal, in
    linear time: the regex retried every occurrence of ``first`` up to the line's end."""
    head, tail = first + " ", " " + last
    tails: list[int] = []  # every start of " last", overlapping ones too
    i = text.find(tail)
    while i != -1:
        tails.append(i)
        i = text.find(tail, i + 1)
    found: list[str] = []
    if not tails:
        return found
    newlines = [m.start() for m in re.finditer("\n", text)]
    pos = 0
    while True:
        p = text.find(head, pos)
        if p == -1:
            return found
        body = p + len(head)  # where ".*?" starts; the nearest " last" at or after it ends the match
        k = bisect.bisect_left(tails, body)
        line_end = newlines[b] if (b := bisect.bisect_left(newlines, body)) < len(newlines) else len(text)
        if k < len(tails) and tails[k] < line_end:
            end = tails[k] + len(tail)
            found.append(text[p:end])
            pos = end
        else:
            pos = p + 1


# --- aksharas ------------------------------------------------------------------------------------
_CLUSTER = regex.compile(r"\X")
_VISIBLE_VIRAMA = frozenset("\u0bcd")  # Tamil's pulli shows: its consonant is an akshara of its own


def aksharas(text: str) -> list[str]:
    """Grapheme clusters, with a consonant, its virama and the consonant it joins kept together
    where Unicode's clusters stop at the virama (Kannada, Gurmukhi): an index, a reversal or a
    count never separates a vowel sign or a virama from its consonant."""
    out: list[str] = []
    for cluster in _CLUSTER.findall(text):
        if out and _joins(out[-1][-1], cluster[0]):
            out[-1] += cluster
        else:
            out.append(cluster)
    return out


@lru_cache(maxsize=4096)
def _joins(before: str, first: str) -> bool:
    return (before not in _VISIBLE_VIRAMA and unicodedata.combining(before) == 9
            and unicodedata.category(first) == "Lo")


# --- an Indic answer's words and sentences -------------------------------------------------------
def key_words(text: str) -> list[str]:
    """The words of ``text`` in their comparison form (NFC, case-folded, joiners removed): runs
    of letters, marks and digits, so punctuation is never a word and never part of one."""
    return words(match_key(text))


def indic_sentences(view: TextView, rules: Rules) -> list[str]:
    """The answer's sentences as the language's profile ends them (danda, ۔, ?, !, a full stop
    that is not an abbreviation's; blank lines, list items and headings)."""
    profile = rules.profile
    return split_sentences(view.nfc, profile.sentence_terminators, profile.abbreviations)


def shown(text: str, width: int = 40) -> str:
    """A piece of the answer quoted in a reason, cut to ``width`` characters."""
    return repr(text if len(text) <= width else text[:width] + "…")


def same_text(a: str, b: str) -> bool:
    """Equal after NFC, case folding, joiner removal and whitespace collapsing (the fixed-mode
    comparison of copied text)."""
    return " ".join(match_key(a).split()) == " ".join(match_key(b).split())

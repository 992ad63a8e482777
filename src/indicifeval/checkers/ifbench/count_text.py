"""Text facts the IFBench count, ratio and repeat checkers share, computed once per answer.

Two kinds: English exactly as IFBench's reference reads it (``str.split`` tokens stripped of
ASCII punctuation, stdlib ``re``'s ``\\w+`` as NLTK 3.9's ``RegexpTokenizer`` runs it, Punkt
sentences), and the language's own rules for Indic answers (the project's words and sentences,
aksharas for "characters"). Each is cached on the ``TextView``, so the loose variants and the
other instructions of a row reuse it."""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import regex

from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text import sentences as sent
from indicifeval.text import words as wd
from indicifeval.text.normalize import match_key, match_key_of_nfc

# --- English, as the reference ----------------------------------------------------------------
REF_STRIP = string.punctuation + " "  # what the reference strips from each str.split token
_REF_WORD = re.compile(r"\w+")  # NLTK 3.9's RegexpTokenizer(r"\w+") runs on stdlib re


def cached(view: TextView, name: str, fn: Callable[[str], Any]) -> Any:
    """``fn(view.text)`` computed once per view (our own cache slot name)."""
    return view._get("ifbench-count:" + name, fn)


def ref_words(view: TextView) -> list[str]:
    """The reference's ``\\w+`` tokens (word counts and stop words)."""
    return cached(view, "ref-words", _REF_WORD.findall)


def ref_sentences(view: TextView) -> list[str]:
    """``nltk.sent_tokenize``: Punkt with the English tables."""
    from indicifeval.text.punkt_en import sent_tokenize_en

    return cached(view, "ref-sentences", sent_tokenize_en)


# --- Indic, by the language's rules -------------------------------------------------------------
def words_of(view: TextView) -> list[str]:
    """The answer's words (letters, marks, digits, joiners; see text/words.py), on NFC."""
    return view._get("ifbench-count:words", lambda _text: wd.words(view.nfc))


def word_keys(view: TextView) -> list[str]:
    """Each word's comparison key: case-folded, joiners removed."""
    return view._get("ifbench-count:keys", lambda _text: [match_key_of_nfc(w) for w in words_of(view)])


def sentences_of(view: TextView, rules: Rules) -> list[str]:
    """The sentences as the profile's terminators and abbreviations end them."""
    profile = rules.profile
    return view._get("ifbench-count:sentences", lambda _text: sent.split_sentences(
        view.nfc, profile.sentence_terminators, profile.abbreviations))


_CLOSING = "\"'”’»)]}*_ \t\n\r\u200c\u200d"
QUESTION_MARKS = frozenset("?\u061f")  # ? and the Arabic-script ؟
EXCLAMATION_MARKS = frozenset("!")


def sentence_end(sentence: str) -> str:
    """The last character of a sentence before closing quotes, brackets and markdown."""
    core = sentence.rstrip(_CLOSING)
    return core[-1] if core else ""


def full_stops(rules: Rules) -> frozenset[str]:
    """The terminators that end a statement: the profile's, less the question and exclamation marks."""
    return frozenset(t for t in rules.profile.sentence_terminators if len(t) == 1) - QUESTION_MARKS - EXCLAMATION_MARKS


def sentence_kinds(view: TextView, rules: Rules) -> tuple[int, int, int]:
    """(statements, questions, exclamations) among the sentences, by the mark they end with."""
    stops = full_stops(rules)
    declarative = interrogative = exclamatory = 0
    for sentence in sentences_of(view, rules):
        end = sentence_end(sentence)
        if end in stops:
            declarative += 1
        elif end in QUESTION_MARKS:
            interrogative += 1
        elif end in EXCLAMATION_MARKS:
            exclamatory += 1
    return declarative, interrogative, exclamatory


_CLUSTER = regex.compile(r"\X")


@lru_cache(maxsize=65536)
def _ends_in_virama(cluster: str) -> bool:
    return unicodedata.combining(cluster[-1]) == 9


@lru_cache(maxsize=65536)
def _joins_conjunct(cluster: str) -> bool:
    """A cluster that starts with a consonant letter a virama before it joins to (not Tamil,
    whose pulli shows a dead consonant as a letter of its own)."""
    first = cluster[0]
    return unicodedata.category(first) == "Lo" and not "\u0b80" <= first <= "\u0bff"


def aksharas(text: str) -> list[str]:
    """User-perceived characters: extended grapheme clusters, with a virama-joined conjunct
    (क्ष, স্ত) one akshara, so no vowel sign or virama is ever cut from its consonant."""
    out: list[str] = []
    parts: list[str] = []  # the clusters of the akshara being read (joined once: no quadratic +=)
    for cluster in _CLUSTER.findall(text):
        if parts and _ends_in_virama(parts[-1]) and _joins_conjunct(cluster):
            parts.append(cluster)
            continue
        if parts:
            out.append("".join(parts))
        parts = [cluster]
    if parts:
        out.append("".join(parts))
    return out


def collapsed(text: str) -> str:
    """NFC, case-folded, joiners removed, whitespace runs made one space: phrase comparison."""
    return " ".join(match_key(text).split())


def phrase_key(text: str) -> str:
    """``collapsed`` without the sentence-final marks and closing quotes around it, so that a
    copied sentence is the same whether it ends in a danda, a full stop or nothing."""
    return collapsed(text).strip(" .।॥۔?!\u061f\"'”’")

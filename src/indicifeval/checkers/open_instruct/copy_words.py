"""first_word:*, last_word:*, keywords:start_end, keywords:keyword_specific_position — which
word comes first or last, in a sentence or in the answer. English is split and tokenised as
open-instruct does it; in an Indic language a sentence ends where the profile says (danda, ۔),
punctuation is never a word nor part of one ("फिर," starts with फिर), and words compare after
NFC, case folding and joiner removal."""

from __future__ import annotations

import random
import re

from indicifeval.checkers.open_instruct.copy_text import indic_sentences, key_words, reference_sentences, shown
from indicifeval.checkers.registry import Param, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.paragraphs import leading_words
from indicifeval.text.punkt_en import word_tokenize_en
from indicifeval.text.words import words

_SUITE = "open-instruct"
_WORDS = "Words"
_NOT_WORD = re.compile(r"[^\w\s]")  # what the reference strips from a last word (stdlib: marks too)


def _keyword(rng: random.Random, profile: LanguageProfile, drawn: dict) -> str:
    return rng.choice(profile.default_keywords)


def _word(name: str) -> Param:
    return Param(name, "str", role="lexical", sample=_keyword)


def _leading(wanted: str) -> list[str]:
    """The kwarg as ``leading_words`` gives a paragraph's first words (tokens without edge punctuation)."""
    return leading_words(wanted, max(1, len(wanted.split())))


# -- first words ---------------------------------------------------------------------------------
@checker("first_word:first_word_sent", _word("first_word"), category=_WORDS, table_row=105, fixed_only=True,
         suite=_SUITE, conflicts=("startend:quotation",))
def first_word_sent(view: TextView, args: dict, rules: Rules):
    wanted = args["first_word"]
    if rules.ifeval:
        sentences = reference_sentences(view.text)
        for i, sentence in enumerate(sentences, 1):
            if not sentence.strip():
                return False, f"sentence {i} is empty"
            first = sentence.split()[0]
            if first.lower() != wanted.lower():
                return False, f"sentence {i} starts with {first!r}, needed {wanted!r}"
    else:
        target = _leading(wanted)
        if not target:
            return False, "no first word given"
        sentences = indic_sentences(view, rules)
        for i, sentence in enumerate(sentences, 1):
            got = leading_words(sentence, len(target))
            if got != target:
                return False, f"sentence {i} starts with {' '.join(got) or 'no word'!r}, needed {wanted!r}"
    if not sentences:
        return False, "no sentence"
    return True, f"all {len(sentences)} sentences start with {wanted!r}"


@checker("first_word:first_word_answer", _word("first_word"), category=_WORDS, table_row=106, fixed_only=True,
         suite=_SUITE, conflicts=("startend:quotation",))
def first_word_answer(view: TextView, args: dict, rules: Rules):
    wanted = args["first_word"]
    if rules.ifeval:
        tokens = view.text.split(maxsplit=1)
        got = tokens[0] if tokens else ""
        ok = bool(tokens) and got.lower() == wanted.lower()
    else:
        target = _leading(wanted)
        got = " ".join(leading_words(view.nfc, len(target) or 1))
        ok = bool(target) and got == " ".join(target)
    return ok, f"starts with {got or 'no word'!r}" + ("" if ok else f", needed {wanted!r}")


# -- last words ----------------------------------------------------------------------------------
def _last_reference(token: str) -> str:
    return _NOT_WORD.sub("", token).lower()


@checker("last_word:last_word_sent", _word("last_word"), category=_WORDS, table_row=107, fixed_only=True,
         suite=_SUITE, conflicts=("startend:end_checker", "detectable_content:postscript"))
def last_word_sent(view: TextView, args: dict, rules: Rules):
    wanted = args["last_word"]
    if rules.ifeval:
        sentences = reference_sentences(view.text)
        for i, sentence in enumerate(sentences, 1):
            if not sentence.strip():
                return False, f"sentence {i} is empty"
            last = _last_reference(sentence.split()[-1])
            if last != wanted.lower():
                return False, f"sentence {i} ends with {last!r}, needed {wanted!r}"
    else:
        target = key_words(wanted)
        if not target:
            return False, "no last word given"
        sentences = indic_sentences(view, rules)
        for i, sentence in enumerate(sentences, 1):
            got = key_words(sentence)[-len(target):]
            if got != target:
                return False, f"sentence {i} ends with {' '.join(got) or 'no word'!r}, needed {wanted!r}"
    if not sentences:
        return False, "no sentence"
    return True, f"all {len(sentences)} sentences end with {wanted!r}"


@checker("last_word:last_word_answer", _word("last_word"), category=_WORDS, table_row=108, fixed_only=True,
         suite=_SUITE, conflicts=("startend:end_checker", "detectable_content:postscript"))
def last_word_answer(view: TextView, args: dict, rules: Rules):
    wanted = args["last_word"]
    if rules.ifeval:
        tokens = view.text.rsplit(maxsplit=1)
        got = _last_reference(tokens[-1]) if tokens else ""
        ok = bool(tokens) and got == wanted.lower()
    else:
        target = key_words(wanted)
        found = words(view.matchable)[-len(target):] if target else []
        got = " ".join(found)
        ok = bool(target) and found == target
    return ok, f"ends with {got or 'no word'!r}" + ("" if ok else f", needed {wanted!r}")


# -- the same word at both ends; a keyword at a position --------------------------------------------
@checker("keywords:start_end", category="Keyword", table_row=111, fixed_only=True, suite=_SUITE,
         conflicts=("startend:end_checker", "startend:quotation", "detectable_content:postscript"))
def start_end(view: TextView, args: dict, rules: Rules):
    """The first and the last word the same, nothing after the last (not even a full stop)."""
    if rules.ifeval:  # NLTK's tokens: a closing full stop is a token of its own, so it fails
        tokens = word_tokenize_en(view.text)
        if len(tokens) < 2:
            return False, f"{len(tokens)} token(s), needed a first and a last word"
        first, last = tokens[0], tokens[-1]
        ok = first.lower() == last.lower()
    else:
        found = words(view.matchable)
        if len(found) < 2:
            return False, f"{len(found)} word(s), needed a first and a last word"
        first, last = found[0], found[-1]
        tail = view.matchable.rstrip()
        if not tail.endswith(last):
            after = tail[tail.rfind(last) + len(last):]
            return False, f"{shown(after, 20)} after the last word {last!r}: nothing may follow it"
        ok = first == last
    return ok, f"starts with {first!r} and ends with {last!r}" + ("" if ok else ", needed the same word")


def _position(rng: random.Random, profile: LanguageProfile, drawn: dict) -> int:
    return rng.randint(1, 5)  # (generation: a short answer; the reference draws up to 20 and 30)


@checker("keywords:keyword_specific_position", _word("keyword"),
         Param("n", "int", sample=_position), Param("m", "int", sample=lambda rng, p, d: rng.randint(1, 10)),
         category="Keyword", table_row=112, fixed_only=True, suite=_SUITE)
def keyword_specific_position(view: TextView, args: dict, rules: Rules):
    """The keyword as word ``m`` of sentence ``n``. English counts NLTK's tokens (a comma is
    one) and compares case-sensitively, as the reference; an Indic sentence counts its words."""
    keyword, n, m = args["keyword"], args["n"], args["m"]
    if n < 1 or m < 1:
        return False, f"positions count from 1 (sentence {n}, word {m})"
    if rules.ifeval:
        sentences = reference_sentences(view.text)
        if len(sentences) < n:
            return False, f"{len(sentences)} sentences, needed at least {n}"
        tokens = word_tokenize_en(sentences[n - 1])
        if len(tokens) < m:
            return False, f"sentence {n} has {len(tokens)} tokens, needed at least {m}"
        got, ok = tokens[m - 1], tokens[m - 1] == keyword
    else:
        target = key_words(keyword)
        if not target:
            return False, "no keyword given"
        sentences = indic_sentences(view, rules)
        if len(sentences) < n:
            return False, f"{len(sentences)} sentences, needed at least {n}"
        found = key_words(sentences[n - 1])
        if len(found) < m:
            return False, f"sentence {n} has {len(found)} words, needed at least {m}"
        got = " ".join(found[m - 1 : m - 1 + len(target)])
        ok = found[m - 1 : m - 1 + len(target)] == target
    return ok, f"word {m} of sentence {n} is {got!r}" + ("" if ok else f", needed {keyword!r}")

"""IFBench's sentence:keyword, sentence:increment and sentence:alliteration_increment: rules
about each sentence in turn. Sentences and words are the language's (English: the reference's
Punkt sentences and whitespace words, so its verdicts match IFBench's)."""

from __future__ import annotations

import re
import string
from functools import lru_cache

from indicifeval.checkers.ifbench.custom_common import SENTENCE, SUITE, base_letter, sentences
from indicifeval.checkers.registry import Param, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.keywords import has_keyword
from indicifeval.text.normalize import match_key_of_nfc
from indicifeval.text.words import words

_NO_PUNCTUATION = str.maketrans("", "", string.punctuation)
_LEADING = string.punctuation + " "


@lru_cache(maxsize=1024)
def _bounded(word: str) -> re.Pattern:
    """The reference's match: the keyword between word boundaries, case-blind."""
    return re.compile(rf"\b{re.escape(word)}\b", re.IGNORECASE)


@checker(
    "sentence:keyword",
    Param("word", "str", role="lexical", sample=lambda rng, p, drawn: rng.choice(p.default_keywords)),
    Param("N", "int", sample=lambda rng, p, drawn: rng.randint(1, 20)),
    category=SENTENCE, table_row=273, fixed_only=True, suite=SUITE,
)
def sentence_keyword(view: TextView, args: dict, rules: Rules):
    word, n = args["word"], args["N"]
    found = sentences(view, rules)
    if n < 1:
        return False, f"no sentence {n}: sentences are counted from 1"
    if len(found) < n:
        return False, f"{len(found)} sentences, needed at least {n} (the keyword goes in sentence {n})"
    sentence = found[n - 1]
    if rules.ifeval:
        ok = _bounded(word).search(sentence) is not None
    else:
        ok = has_keyword(match_key_of_nfc(sentence), word)
    shown = sentence if len(sentence) <= 60 else sentence[:57] + "..."
    return ok, f"sentence {n} {'contains' if ok else 'lacks'} {word!r}: {shown!r}"


def _word_count(sentence: str, rules: Rules) -> int:
    if rules.ifeval:  # the reference: ASCII punctuation deleted, then whitespace-separated pieces
        return len(sentence.translate(_NO_PUNCTUATION).split())
    return len(words(sentence))


@checker(
    "sentence:increment",
    Param("small_n", "int", sample=lambda rng, p, drawn: rng.randint(1, 5)),
    category=SENTENCE, table_row=272, fixed_only=True, suite=SUITE,
)
def sentence_increment(view: TextView, args: dict, rules: Rules):
    step = args["small_n"]
    found = sentences(view, rules)
    if not found:
        return False, "no sentence"
    counts = [_word_count(s, rules) for s in found]
    for i in range(1, len(counts)):
        if counts[i] != counts[i - 1] + step:
            return False, (f"sentence {i + 1} has {counts[i]} words, needed {counts[i - 1] + step} "
                           f"({step} more than sentence {i}'s {counts[i - 1]})")
    shown = ", ".join(map(str, counts[:8])) + (", ..." if len(counts) > 8 else "")
    return True, f"{len(counts)} sentences of {shown} words, each {step} more than the one before"


def _initials(sentence: str, rules: Rules) -> list[str]:
    if rules.ifeval:  # the reference: whitespace words, leading ASCII punctuation dropped, first character
        cleaned = (w.lstrip(_LEADING) for w in sentence.lower().split())
        return [w[0] for w in cleaned if w]
    return [base_letter(w) for w in words(sentence)]


def alliteration(initials: list[str]) -> int:
    """The words that stand in a run of two or more beginning with the same letter."""
    total, run = 0, False
    for a, b in zip(initials, initials[1:]):
        if a and a == b:
            total += 1 if run else 2
            run = True
        else:
            run = False
    return total


@checker(
    "sentence:alliteration_increment",
    category=SENTENCE, table_row=271, fixed_only=True, suite=SUITE,
)
def alliteration_increment(view: TextView, args: dict, rules: Rules):
    found = sentences(view, rules)
    previous = -1
    scores: list[int] = []
    for i, sentence in enumerate(found):
        score = alliteration(_initials(sentence, rules))
        if score <= previous:
            return False, (f"sentence {i + 1} has {score} alliterative words, needed more than sentence {i}'s "
                           f"{previous}")
        scores.append(score)
        previous = score
    if not scores:
        return False, "no sentence"
    shown = ", ".join(map(str, scores[:8])) + (", ..." if len(scores) > 8 else "")
    return True, f"alliterative words per sentence rise: {shown}"

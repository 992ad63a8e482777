"""copy:* and new:copy_span_idx — repeat the request, a span of it, or a phrase with one word
changed. English is judged as open-instruct judges it; an Indic answer is compared after NFC,
case folding and joiner removal with whitespace collapsed, its words and its character
indices (aksharas) as the language has them."""

from __future__ import annotations

import random
import unicodedata

from indicifeval.checkers.open_instruct.copy_text import aksharas, phrase_matches, shown
from indicifeval.checkers.registry import Param, all_but, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.normalize import collapse, nfc
from indicifeval.text.words import words

_COPY = "Copy"
_SUITE = "open-instruct"
_SEPARATOR = "******"


def _sample_phrase(rng: random.Random, profile: LanguageProfile, drawn: dict) -> str:
    phrases = profile.word_list("proverbs")
    if not phrases:
        raise ValueError(f"profile {profile.code} lists no phrases to draw from (word_lists.proverbs)")
    return rng.choice(phrases)


def _two_or_three(name: str):
    return Param(name, "int", sample=lambda rng, profile, drawn: rng.randint(2, 3))


def _request() -> Param:
    return Param("prompt_to_repeat", "str", role="copy_of_prompt", copy_of="request")


@checker("copy:repeat_phrase",
         Param("phrase", "str", role="copy_of_prompt", copy_of="phrase", lexical=True, sample=_sample_phrase),
         _two_or_three("small_n"),
         category=_COPY, table_row=100, fixed_only=True, suite=_SUITE)
def repeat_phrase(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return _repeat_phrase_reference(view.text, args["phrase"], args["small_n"])
    return _repeat_phrase_indic(view, args["phrase"], args["small_n"])


def _repeat_phrase_reference(text: str, phrase: str, wanted: int):
    """A repetition runs from the phrase's first word to the nearest last word on its line; there
    must be ``wanted`` of them, each as long as the phrase and differing from it in one word.
    (The words are literal: the reference put them into a regex unescaped.)"""
    ref = phrase.split()
    if not ref:
        return False, "no phrase given"
    found = phrase_matches(text, ref[0], ref[-1])
    if len(found) != wanted:
        return False, f"{len(found)} repetitions from {ref[0]!r} to {ref[-1]!r}, needed exactly {wanted}"
    changed = 0
    for i, piece in enumerate(found, 1):
        got = piece.split()
        if len(got) != len(ref):
            return False, f"repetition {i} {shown(piece)} has {len(got)} words, the phrase {len(ref)}"
        differences = sum(a != b for a, b in zip(got, ref))
        if differences > 1:
            return False, f"repetition {i} {shown(piece)} changes {differences} words, needed one"
        changed += differences == 1
    if changed != wanted:
        return False, f"{wanted - changed} of {wanted} repetitions unchanged, each must replace one word"
    return True, f"{wanted} repetitions, each with one word replaced"


def _repeat_phrase_indic(view: TextView, phrase: str, wanted: int):
    """A repetition is a run of the answer's words as long as the phrase, with its first and
    its last word, and one word between them replaced; an unchanged copy or one with more words
    replaced is a repetition that failed. Punctuation is not a word (a danda after the last word
    is fine); runs do not overlap."""
    ref = words(collapse(phrase))
    size = len(ref)
    if size < 3:
        return False, f"the phrase {phrase!r} has {size} word(s): no word between its first and last to replace"
    got = words(view.matchable)
    first, last = ref[0], ref[-1]
    good = unchanged = overdone = 0
    i, end = 0, len(got) - size
    while i <= end:
        if got[i] == first and got[i + size - 1] == last:
            differences = 0
            for a, b in zip(got[i + 1 : i + size - 1], ref[1:-1]):
                if a != b:
                    differences += 1
                    if differences > 1:
                        break
            if differences == 1:
                good += 1
            elif differences == 0:
                unchanged += 1
            else:
                overdone += 1
            i += size
        else:
            i += 1
    if unchanged or overdone:
        what = [f"{unchanged} unchanged"] * bool(unchanged) + [f"{overdone} with more than one word replaced"] * bool(
            overdone)
        return False, f"{good} repetitions with one word replaced, and {' and '.join(what)}; needed exactly {wanted}"
    return good == wanted, f"{good} repetitions with one word replaced, needed exactly {wanted}"


def _same_as(view: TextView, rules: Rules, wanted: str) -> bool:
    if rules.ifeval:
        return view.text.strip().lower() == wanted.strip().lower()
    return view.collapsed == collapse(wanted)


def _copied(view: TextView, rules: Rules, wanted: str, what: str):
    if not wanted.strip():
        return False, f"no {what} given"
    if _same_as(view, rules, wanted):
        return True, f"the {what} verbatim"
    answer = view.text.strip()
    at = _first_difference(answer.lower(), wanted.strip().lower())
    while at > 0 and unicodedata.category(answer[at : at + 1] or "x")[0] == "M":
        at -= 1  # (not from the middle of an akshara)
    return False, (f"not the {what} verbatim: from character {at + 1} the answer reads {shown(answer[at:], 30)}, "
                   f"the {what} {shown(wanted.strip()[at:], 30)}")


def _first_difference(a: str, b: str) -> int:
    """Where two strings first differ (bisecting on prefix equality: no Python step per character)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


@checker("copy:copy", _request(), category=_COPY, table_row=101, fixed_only=True, suite=_SUITE, conflicts=all_but())
def copy(view: TextView, args: dict, rules: Rules):
    return _copied(view, rules, args["prompt_to_repeat"], "request")


@checker("copy:copying_simple", _request(), category=_COPY, table_row=102, fixed_only=True, suite=_SUITE,
         conflicts=all_but())
def copying_simple(view: TextView, args: dict, rules: Rules):
    return _copied(view, rules, args["prompt_to_repeat"], "request")


@checker("copy:copying_multiple", _request(), _two_or_three("N"),
         category=_COPY, table_row=103, fixed_only=True, suite=_SUITE, conflicts=all_but())
def copying_multiple(view: TextView, args: dict, rules: Rules):
    """The request ``N`` times, separated by six asterisks (a piece before the first separator
    or after the last one is a copy too, so the answer neither starts nor ends with one)."""
    wanted, n = args["prompt_to_repeat"], args["N"]
    if not wanted.strip():
        return False, "no request given"
    pieces = (view.text if rules.ifeval else view.nfc).split(_SEPARATOR)
    if len(pieces) != n:
        return False, f"{len(pieces)} pieces separated by {_SEPARATOR}, needed {n} copies"
    if rules.ifeval:
        target = wanted.strip().lower()
        bad = [i for i, p in enumerate(pieces, 1) if p.strip().lower() != target]
    else:
        key = collapse(wanted)
        bad = [i for i, p in enumerate(pieces, 1) if collapse(p) != key]
    if bad:
        return False, f"copy {bad[0]} of {n} is not the request verbatim ({shown(pieces[bad[0] - 1].strip(), 30)})"
    return True, f"the request {n} times, separated by {_SEPARATOR}"


def _prompt_length(profile: LanguageProfile, prompt: str) -> int:
    return len(aksharas(nfc(prompt))) if profile.is_indic else len(prompt)


def _sample_start(rng: random.Random, profile: LanguageProfile, drawn: dict) -> int:
    return rng.randint(0, max(0, _prompt_length(profile, drawn["prompt_to_repeat"]) - 2))


def _sample_end(rng: random.Random, profile: LanguageProfile, drawn: dict) -> int:
    start = drawn["n_start"]
    return rng.randint(start + 1, max(start + 1, _prompt_length(profile, drawn["prompt_to_repeat"]) - 1))


@checker("new:copy_span_idx", _request(),
         Param("n_start", "int", sample=_sample_start), Param("n_end", "int", sample=_sample_end),
         category=_COPY, table_row=104, fixed_only=True, suite=_SUITE, conflicts=all_but())
def copy_span_idx(view: TextView, args: dict, rules: Rules):
    """The request's characters from ``n_start`` up to, not including, ``n_end`` (a slice, as the
    reference takes it). In an Indic language a character is an akshara: an index never falls
    between a consonant and its vowel sign or virama."""
    prompt, start, end = args["prompt_to_repeat"], args["n_start"], args["n_end"]
    if rules.ifeval:
        span, unit = prompt[start:end], "characters"
    else:
        span, unit = "".join(aksharas(nfc(prompt))[start:end]), "aksharas"
    if not span.strip():
        return False, f"{unit} {start} to {end} of the request are empty: nothing to copy"
    if _same_as(view, rules, span):
        return True, f"the span of {unit} {start} to {end}, verbatim"
    return False, f"not the span of {unit} {start} to {end} ({shown(span.strip(), 30)}); the answer is " \
                  f"{shown(view.text.strip(), 30)}"

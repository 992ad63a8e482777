"""open-instruct's letter instructions: how many letters an answer has, how often one letter
appears, how many lower-case words it has.

A letter of an Indic script is an akshara (a consonant with its signs, a conjunct whole), so
"answer with at least 50 letters" counts what a reader of the script counts; one named letter
is counted where it is written, as a letter of its own or inside a conjunct (not with a nukta:
क़ is not क). Letter case exists only where the alphabet has it."""

from __future__ import annotations

import re
from string import ascii_letters

from indicifeval.checkers.open_instruct.counts_text import count_letter, letter_count
from indicifeval.checkers.registry import Param, checker, counted
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.normalize import match_key

_SUITE = "open-instruct"
_RELATIONS = ("less than", "at least")


def _sample_letter(rng, profile: LanguageProfile, drawn: dict) -> str:
    if not profile.default_letters:
        raise ValueError(f"profile {profile.code} lists no letters to draw from (defaults.letters)")
    return rng.choice(profile.default_letters)


@checker("letters:letter_counting",
         Param("N", "int", sample=lambda rng, p, drawn: rng.randrange(50, 501, 10)),
         Param("relation", "relation", sample=lambda rng, p, drawn: rng.choice(_RELATIONS)),
         category="Letters", table_row=120, fixed_only=True, suite=_SUITE)
def letter_counting(view: TextView, args: dict, rules: Rules):
    if rules.indic_fixed:
        n, noun = letter_count(view.nfc), "letters (aksharas)"
    else:
        n, noun = sum(map(view.text.count, ascii_letters)), "letters a-z"  # the reference's [a-zA-Z]
    return counted(n, noun, args["relation"], args["N"])


@checker("letters:letter_counting2",
         Param("letter", "str", role="letter", sample=_sample_letter),
         Param("let_frequency", "int", sample=lambda rng, p, drawn: rng.randint(1, 10)),
         Param("let_relation", "relation", sample=lambda rng, p, drawn: rng.choice(_RELATIONS)),
         category="Letters", table_row=121, fixed_only=True, suite=_SUITE)
def letter_counting2(view: TextView, args: dict, rules: Rules):
    letter = args["letter"]
    if rules.indic_fixed:
        n = count_letter(view.matchable, match_key(letter))  # NFC, case-folded, joiners removed
    else:
        n = view.lower.count(letter.lower()) if letter else 0  # the reference counts characters of lower()
    return counted(n, f"× {letter!r}", args["let_relation"], args["let_frequency"])


def _cased(profile: LanguageProfile) -> str | None:
    if any(ch.lower() != ch.upper() for ch in profile.default_letters):
        return None
    return (f"count:lowercase_counting means nothing in {profile.name}: its script has no lower and upper case "
            f"(the {profile.code} profile's letters have none)")


# The reference's \b[a-z]+\b, in one pass: a run of a-z with no word character (re's \w)
# on either side. Only a run's first letter passes the look-behind, and the possessive run
# is never retried shorter, so no answer makes it quadratic.
_LOWER_WORD = re.compile(r"(?<!\w)[a-z]++(?!\w)")


@checker("count:lowercase_counting",
         Param("N", "int", sample=lambda rng, p, drawn: rng.randint(2, 3)),
         category="Count", table_row=122, fixed_only=True, suite=_SUITE, requires=_cased)
def lowercase_counting(view: TextView, args: dict, rules: Rules):
    n = sum(1 for _ in _LOWER_WORD.finditer(view.text))
    return n <= args["N"], f"{n} lower-case words, needed at most {args['N']}"

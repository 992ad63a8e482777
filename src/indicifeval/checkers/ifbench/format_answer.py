"""IFBench format:* shapes of the whole answer: one of the given options and nothing else, a
template's three labels, title case.

The labels and the word that joins two options ("or") are each language's, from its profile
(``word_lists``: ``output_template``, ``or_words``, ``option_sets`` to draw options from); title
case is defined only where the script has capital letters."""

from __future__ import annotations

import re
import string
from functools import lru_cache

import regex

from indicifeval.checkers.registry import Param, all_but, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.normalize import collapse, match_key
from indicifeval.text.paragraphs import strip_edges

_SUITE = "ifbench"
_SHOWN = 40
_EDGES = string.punctuation + " "
_LETTER_OPTIONS = re.compile(r"\W*[aA]\W*[bB]\W*[cC]\W*")  # IFBench: a), b), c) are matched exactly
_IFBENCH_OPTIONS = ("yes/no/maybe", "I know or I don't know", "a), b), c), d)")


# -- options -------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _or_pattern(words: tuple[str, ...]) -> regex.Pattern:
    """The language's "or" as a whole word (IFBench splits at the letters "or" anywhere, so
    "Correct, Incorrect" became "C", "rect, Inc", "rect")."""
    alternatives = "|".join(regex.escape(w) for w in sorted(words, key=len, reverse=True))
    return regex.compile(rf"(?<![\w\p{{M}}])(?:{alternatives})(?![\w\p{{M}}])")


def split_options(options: str, profile: LanguageProfile) -> list[str]:
    """IFBench's order: at '/', else at the word "or", else at commas (the profile's too)."""
    if "/" in options:
        parts = options.split("/")
    else:
        words = profile.word_list("or_words") or ("or",)
        pattern = _or_pattern(tuple(words))
        if pattern.search(options):
            parts = pattern.split(options)
        else:
            commas = "".join(re.escape(c) for c in dict.fromkeys(("," , *profile.comma_chars)))
            parts = re.split(f"[{commas}]", options)
    return [p.strip() for p in parts]


def _sample_options(rng, profile: LanguageProfile, drawn: dict) -> str:
    return rng.choice(profile.word_list("option_sets") or _IFBENCH_OPTIONS)


def _option_key(text: str) -> str:
    """Compared as phrases are: case-folded, joiners removed, whitespace runs one space; without
    the punctuation and symbols at its edges (हाँ। is हाँ, (ख) is ख). Not cached: it is the answer."""
    return " ".join(match_key(strip_edges(text)).split())


@checker(
    "format:options",
    Param("options", "str", role="copy_of_prompt", copy_of="phrase", lexical=True, sample=_sample_options),
    category="Format", table_row=246, fixed_only=True, suite=_SUITE, conflicts=all_but(),
)
def options(view: TextView, args: dict, rules: Rules):
    given = args["options"]
    choices = split_options(given, rules.profile)  # (IFBench keeps an empty one: "yes/no/")
    if not rules.ifeval:
        choices = [c for c in choices if c]
    if not any(choices):
        return False, f"no option in {given!r}"
    shown = " / ".join(repr(c) for c in choices)
    if rules.ifeval:
        text = view.text
        if _LETTER_OPTIONS.match(given):  # IFBench: a letter option exactly as written
            return text in choices, f"answered {text[:_SHOWN]!r}, needed exactly one of {shown}"
        answer = text.strip(_EDGES).lower()
        ok = any(c.strip(_EDGES).lower() == answer for c in choices)
        return ok, f"answered {answer[:_SHOWN]!r}, needed one of {shown}"
    answer = _option_key(view.nfc)
    ok = any(_option_key(c) == answer for c in choices)
    return ok, f"answered {answer[:_SHOWN]!r}, needed one of {shown} and nothing else"


# -- a template's labels -------------------------------------------------------------------------------
def _needs_labels(profile: LanguageProfile) -> str | None:
    labels = profile.word_list("output_template")
    if labels is None or len(labels) != 3:
        return (f"format:output_template needs the template's three labels in {profile.name}: the {profile.code} "
                f"profile has no word_lists.output_template")
    return None


@lru_cache(maxsize=64)
def _label_pattern(label: str) -> regex.Pattern:
    """A label as compared in Indic answers: case-folded, any whitespace, a space allowed
    before its colon (उत्तर :)."""
    body = collapse(label).rstrip(":：").strip()
    colon = r" ?[:：]" if label.rstrip().endswith((":", "：")) else ""
    return regex.compile(regex.escape(body) + colon)


@checker("format:output_template", category="Format", table_row=247, fixed_only=True, suite=_SUITE,
         requires=_needs_labels)
def output_template(view: TextView, args: dict, rules: Rules):
    labels = rules.profile.word_list("output_template") or ()
    if rules.ifeval:  # IFBench: each label as written, anywhere
        missing = [label for label in labels if label not in view.text]
    else:
        missing = [label for label in labels if _label_pattern(label).search(view.collapsed) is None]
    if missing:
        return False, "missing the template's " + ", ".join(repr(label) for label in missing)
    return True, "the template's labels " + ", ".join(repr(label) for label in labels)


# -- title case ----------------------------------------------------------------------------------------
def _needs_case(profile: LanguageProfile) -> str | None:
    if any(letter.upper() != letter.lower() for letter in profile.default_letters):
        return None
    return (f"format:title_case is not defined for {profile.code}: the {profile.script} script of {profile.name} "
            f"has no capital letters")


@checker("format:title_case", category="Format", table_row=253, fixed_only=True, suite=_SUITE, requires=_needs_case)
def title_case(view: TextView, args: dict, rules: Rules):
    """IFBench's check on nltk.word_tokenize tokens that start with a letter: a one-letter token
    is a capital, a longer one does not start with a small letter followed by small letters only
    or capitals only (so "The", "NASA", "iPhone" pass; "the", "a", "eBAY" fail)."""
    from indicifeval.text.punkt_en import word_tokenize_en

    tokens = word_tokenize_en(view.text)
    for token in tokens:
        if not token or not token[0].isalpha():
            continue
        if len(token) == 1:
            if token.islower():
                return False, f"{token!r} is not capitalised"
            continue
        if token[0].islower() and (token[1:].islower() or token[1:].isupper()):
            return False, f"{token!r} is not capitalised"
    return True, f"every word of {len(tokens)} tokens starts with a capital"

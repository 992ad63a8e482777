"""open-instruct's keyword instructions: a keyword once, a keyword a number of times, two
keywords once and twice, a keyword left out, a palindrome, unique words, and no adjacent words
on consecutive letters of the alphabet.

Indic answers use the language's words and whole-word keyword matching (text/keywords.py);
English answers are judged as the reference judges them (substring counts, whitespace tokens)."""

from __future__ import annotations

from indicifeval.checkers.open_instruct.counts_text import aksharas, alphabet_places
from indicifeval.checkers.registry import Param, checker, counted
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.punkt_en import word_tokenize_en
from indicifeval.text.words import words

_SUITE = "open-instruct"
_SHOWN = 60  # characters of the answer a reason quotes at most


def _keyword(rng, profile: LanguageProfile, drawn: dict) -> str:
    return rng.choice(profile.default_keywords)


def _other_keyword(rng, profile: LanguageProfile, drawn: dict) -> str:
    """A keyword other than keyword1 (two instructions about one word contradict each other)."""
    return rng.choice([k for k in profile.default_keywords if k != drawn.get("keyword1")] or profile.default_keywords)


def _needs_alphabet(profile: LanguageProfile) -> str | None:
    if not profile.word_list("alphabet_taught"):
        return (f"keywords:no_adjacent_consecutive needs the order of the {profile.name} alphabet: "
                f"the {profile.code} profile has no word_lists.alphabet_taught")
    return None


@checker("keywords:no_adjacent_consecutive", category="Keyword", table_row=115, fixed_only=True, suite=_SUITE,
         requires=_needs_alphabet)
def no_adjacent_consecutive(view: TextView, args: dict, rules: Rules):
    if not rules.indic_fixed:
        return _no_adjacent_consecutive_reference(view.text)
    # the language's words; a word's letter is its first code point (क्षमा starts with क),
    # and its place is the place of that letter in the language's alphabet
    places = alphabet_places(rules.profile)
    tokens = [w.lstrip("\u200c\u200d") for w in words(view.matchable)]
    firsts = [places.get(w[0]) if w else None for w in tokens]
    for i in range(len(firsts) - 1):
        a, b = firsts[i], firsts[i + 1]
        if a is not None and b is not None and b - a == 1:
            return False, _consecutive(tokens[i], tokens[i + 1])
    return True, f"no two adjacent words of {len(tokens)} start with consecutive letters"


def _consecutive(first: str, second: str) -> str:
    return f"{f'{first} {second}'[:_SHOWN]!r} start with consecutive letters of the alphabet, needed no such neighbours"


def _no_adjacent_consecutive_reference(text: str):
    """The reference: whitespace tokens, their first characters in lower case compared by code
    point ("1 2" and "- ." are consecutive too), and a first character that is not one character
    in lower case (İ) fails the answer."""
    tokens = text.split()
    firsts = [t[0].lower() for t in tokens]
    for i in range(len(firsts) - 1):
        a, b = firsts[i], firsts[i + 1]
        if len(a) != 1 or len(b) != 1:
            return False, f"{(a if len(a) != 1 else b)!r} is not one letter in lower case (the reference fails it)"
        if ord(b) - ord(a) == 1:
            return False, _consecutive(tokens[i], tokens[i + 1])
    return True, f"no two adjacent words of {len(tokens)} start with consecutive letters"


@checker("keywords:word_once", Param("keyword", "str", role="lexical", sample=_keyword),
         category="Keyword", table_row=116, fixed_only=True, suite=_SUITE)
def word_once(view: TextView, args: dict, rules: Rules):
    keyword = args["keyword"]
    n = rules.keyword_count(view, keyword)
    return n == 1, f"{n} × {keyword!r}, needed exactly 1"


@checker("keywords:word_count_different_numbers",
         Param("keyword", "str", role="lexical", sample=_keyword),
         Param("frequency", "int", sample=lambda rng, p, drawn: rng.randint(1, 3)),
         Param("relation", "relation", sample=lambda rng, p, drawn: rng.choice(("less than", "at least"))),
         category="Keyword", table_row=117, fixed_only=True, suite=_SUITE)
def word_count_different_numbers(view: TextView, args: dict, rules: Rules):
    n = rules.keyword_count(view, args["keyword"])
    return counted(n, f"× {args['keyword']!r}", args["relation"], args["frequency"])


@checker("keywords:exclude_word_harder",
         # a word of the request itself, which the description quotes
         Param("keyword", "str", role="copy_of_prompt", copy_of="phrase", lexical=True, sample=_keyword),
         category="Keyword", table_row=118, fixed_only=True, suite=_SUITE)
def exclude_word_harder(view: TextView, args: dict, rules: Rules):
    keyword = args["keyword"]
    if rules.indic_fixed:
        found = rules.forbidden_present(view, keyword)  # as a whole word, whatever touches it
    else:
        found = f" {keyword} " in view.text  # the reference: between two spaces, as written
    return (not found), (f"used {keyword!r}" if found else f"{keyword!r} not used")


@checker("keywords:palindrome", category="Keyword", table_row=119, fixed_only=True, suite=_SUITE)
def palindrome(view: TextView, args: dict, rules: Rules):
    if rules.indic_fixed:
        # a word of at least two aksharas that reads the same akshara by akshara backwards
        # (जहाज, मामा, விகடகவி); a one-letter word is no palindrome, nor is a number
        for word in words(view.matchable):
            if len(word) < 2 or not any(ch.isalpha() for ch in word):
                continue
            units = aksharas(word)
            if len(units) >= 2 and units == units[::-1]:
                return True, f"palindrome {word[:_SHOWN]!r}"
        return False, "no word of two or more letters reads the same backwards"
    for token in view.text.split():  # the reference: any whitespace token, "a" and "." too
        if token == token[::-1]:
            return True, f"palindrome {token[:_SHOWN]!r}"
    return False, "no word reads the same backwards"


@checker("count:count_unique", category="Count", table_row=124, fixed_only=True, suite=_SUITE)
def count_unique(view: TextView, args: dict, rules: Rules):
    if rules.indic_fixed:
        tokens = words(view.matchable)  # inflected forms are other words; case and joiners are not
    else:
        tokens = word_tokenize_en(view.text)  # the reference's tokens: punctuation marks too
    seen: set[str] = set()
    for token in tokens:
        if token in seen:
            return False, f"{token[:_SHOWN]!r} repeated, needed every word once"
        seen.add(token)
    return True, f"all {len(tokens)} words unique"


@checker("count:count_increment_word",
         Param("keyword1", "str", role="lexical", sample=_keyword),
         Param("keyword2", "str", role="lexical", sample=_other_keyword),
         category="Count", table_row=125, fixed_only=True, suite=_SUITE)
def count_increment_word(view: TextView, args: dict, rules: Rules):
    first, second = args["keyword1"], args["keyword2"]
    n1, n2 = rules.keyword_count(view, first), rules.keyword_count(view, second)
    return (n1 == 1 and n2 == 2), f"{n1} × {first!r} and {n2} × {second!r}, needed 1 and 2"

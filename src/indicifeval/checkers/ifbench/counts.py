"""IFBench's count:* instructions (words in a range, distinct words, conjunctions, person
names, pronouns, numbers, punctuation marks, keywords at set frequencies, Japanese words).

English reads the answer exactly as the reference scorer does; an Indic answer by the
language's own words and its profile's word lists (``word_lists`` in the profile JSON). Fixed
mode only; the rules, and where the English reading differs, are in docs/scoring.md."""

from __future__ import annotations

import re
import string

from indicifeval.checkers.ifbench.count_text import REF_STRIP, cached, ref_words, word_keys
from indicifeval.checkers.registry import Param, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text import keywords as kw
from indicifeval.text.normalize import match_key
from indicifeval.text.numerals import numbers_in
from indicifeval.text.paragraphs import strip_edges

_SUITE = "ifbench"
_SHOWN = 5  # items an explanation quotes


def _quote(items: list[str]) -> str:
    shown = ", ".join(items[:_SHOWN])
    return shown + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")


def _needs(name: str, what: str):
    """``requires=``: the instruction is defined where the profile has the word list ``name``."""
    def requires(profile: LanguageProfile) -> str | None:
        if profile.word_list(name) is None:
            return f"needs {what}: the {profile.code} profile has no word_lists.{name}"
        return None

    return requires


# --- words --------------------------------------------------------------------------------------
def _max_words(rng, profile, drawn) -> int:
    low = drawn["min_words"]
    return low + rng.randint(int(low * 0.05), int(low * 0.1))


@checker(
    "count:word_count_range",
    Param("min_words", "int", sample=lambda rng, p, drawn: rng.randint(100, 500)),
    Param("max_words", "int", sample=_max_words),
    category="Count", table_row=200, fixed_only=True, suite=_SUITE,
)
def word_count_range(view: TextView, args: dict, rules: Rules):
    n = len(ref_words(view)) if rules.ifeval else view.word_count
    low, high = args["min_words"], args["max_words"]
    return low <= n <= high, f"{n} words, needed between {low} and {high}"


def _ref_unique(text: str) -> set[str]:
    return {w.strip(REF_STRIP) for w in text.lower().split()}


@checker(
    "count:unique_word_count",
    Param("N", "int", sample=lambda rng, p, drawn: rng.randint(100, 500)),
    category="Count", table_row=201, fixed_only=True, suite=_SUITE,
)
def unique_word_count(view: TextView, args: dict, rules: Rules):
    # the reference: lower-cased whitespace tokens without ASCII punctuation at either end
    n = len(cached(view, "ref-unique", _ref_unique)) if rules.ifeval else len(set(word_keys(view)))
    return n >= args["N"], f"{n} different words, needed at least {args['N']}"


# --- words from the profile's lists -------------------------------------------------------------
@checker(
    "count:conjunctions",
    Param("small_n", "int", sample=lambda rng, p, drawn: rng.randint(2, min(6, len(p.word_list(
        "coordinating_conjunctions") or ()) or 2))),
    category="Count", table_row=202, fixed_only=True, suite=_SUITE,
    requires=_needs("coordinating_conjunctions", "the language's coordinating conjunctions"),
)
def conjunctions(view: TextView, args: dict, rules: Rules):
    listed = rules.profile.word_list("coordinating_conjunctions") or ()
    if rules.ifeval:
        # the reference keeps each matching token as written: "and" and "And," are two
        wanted = {c.lower() for c in listed}
        found = sorted({w for w in view.text.split() if w.strip(REF_STRIP).lower() in wanted})
    else:
        # an entry's spellings are separated by "|" (परंतु|परन्तु): one conjunction
        keys = set(word_keys(view))
        found = [entry.split("|")[0] for entry in listed
                 if any(match_key(c) in keys if " " not in c else kw.has_keyword(view.matchable, c)
                        for c in entry.split("|"))]
    ok = len(found) >= args["small_n"]
    shown = f" ({_quote(found)})" if found else ""
    return ok, f"{len(found)} different coordinating conjunctions{shown}, needed at least {args['small_n']}"


@checker(
    "count:pronouns",
    Param("N", "int", sample=lambda rng, p, drawn: rng.randint(1, 25)),
    category="Count", table_row=204, fixed_only=True, suite=_SUITE,
    requires=_needs("pronouns", "the language's pronouns"),
)
def pronouns(view: TextView, args: dict, rules: Rules):
    listed = rules.profile.word_list("pronouns") or ()
    if rules.ifeval:
        from indicifeval.text.punkt_en import word_tokenize_en

        wanted = frozenset(listed)
        tokens = cached(view, "ref-pronoun-tokens", lambda t: word_tokenize_en(t.replace("/", " ").lower()))
        n = sum(1 for t in tokens if t in wanted)
    else:
        single = frozenset(match_key(p) for p in listed if " " not in p)
        n = sum(1 for k in word_keys(view) if k in single)
        n += sum(kw.count_keyword(view.matchable, p) for p in listed if " " in p)
    return n >= args["N"], f"{n} pronouns, needed at least {args['N']}"


_NAME_PATTERNS: dict[str, re.Pattern] = {}


def _english_name(name: str) -> re.Pattern:
    """The reference: ``\\bName\\b``, case-sensitive."""
    pattern = _NAME_PATTERNS.get(name)
    if pattern is None:
        pattern = _NAME_PATTERNS[name] = re.compile(rf"\b{re.escape(name)}\b")
    return pattern


@checker(
    "count:person_names",
    Param("N", "int", sample=lambda rng, p, drawn: rng.randint(1, len(p.word_list("person_names") or ()) or 1)),
    category="Count", table_row=203, fixed_only=True, suite=_SUITE,
    requires=_needs("person_names", "a list of person names written in the language"),
)
def person_names(view: TextView, args: dict, rules: Rules):
    listed = rules.profile.word_list("person_names") or ()
    # an Indic name is a whole word, as keywords are: an inflected form (रवीने, ரவியின்) is another word
    found = [name for name in dict.fromkeys(listed)
             if (_english_name(name).search(view.text) if rules.ifeval else kw.has_keyword(view.matchable, name))]
    ok = len(found) >= args["N"]
    shown = f" ({_quote(found)})" if found else ""
    return ok, f"{len(found)} different names from the list{shown}, needed at least {args['N']}"


# --- numbers, punctuation, keywords ------------------------------------------------------------
_NO_PUNCTUATION = str.maketrans("", "", string.punctuation)
_DIGITS = re.compile(r"\d+")


def _count_numbers(text: str) -> int:
    """A number in digits (any script's); a list grouped as no number is (1,2,3) is one each."""
    n = 0
    for number in numbers_in(text):
        n += number.text.count(",") + 1 if number.grouping == "neither" else 1
    return n


@checker(
    "count:numbers",
    Param("N", "int", sample=lambda rng, p, drawn: rng.randint(1, 6)),
    category="Count", table_row=205, fixed_only=True, suite=_SUITE,
)
def numbers(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        # the reference deletes ASCII punctuation first: 3.5, 1,000 and 12:30 are one number each
        n = cached(view, "ref-numbers", lambda t: len(_DIGITS.findall(t.translate(_NO_PUNCTUATION))))
    else:
        n = _count_numbers(view.nfc)
    return n == args["N"], f"{n} numbers, needed exactly {args['N']}"


_INTERROBANGS = ("?!", "!?", "\u203d", "\u061f!", "!\u061f")


@checker(
    "count:punctuation",
    category="Count", table_row=206, fixed_only=True, suite=_SUITE,
    requires=_needs("punctuation_marks", "the language's standard punctuation marks"),
)
def punctuation(view: TextView, args: dict, rules: Rules):
    text = view.text if rules.ifeval else view.nfc
    bang = next((b for b in (_INTERROBANGS[:3] if rules.ifeval else _INTERROBANGS) if b in text), None)
    if bang is None:
        return False, "no interrobang (?! or ‽)"
    # as the reference: one ?! (else one !?) is taken out, so ? and ! must occur besides it
    rest = text.replace("?!", "", 1)
    if len(rest) == len(text):
        rest = text.replace("!?", "", 1)
    if not rules.ifeval and len(rest) == len(text) and bang != "\u203d":
        rest = text.replace(bang, "", 1)
    marks = rules.profile.word_list("punctuation_marks") or ()
    missing = [m.split()[0] for m in marks if not any(alt in rest for alt in m.split())]
    if missing:
        return False, f"missing {' '.join(missing)}; needed every one of {' '.join(m.split()[0] for m in marks)}"
    return True, f"all {len(marks)} punctuation marks and an interrobang"


_TIMES = (1, 2, 3, 5, 7)


def _another_keyword(rng, profile: LanguageProfile, drawn: dict) -> str:
    """One of the profile's keywords not drawn yet for this instruction."""
    fresh = [k for k in profile.default_keywords if k not in drawn.values()]
    return rng.choice(fresh or list(profile.default_keywords))


@checker(
    "count:keywords_multiple",
    *(Param(f"keyword{i}", "str", role="lexical", sample=_another_keyword) for i in range(1, 6)),
    category="Count", table_row=207, fixed_only=True, suite=_SUITE,
)
def keywords_multiple(view: TextView, args: dict, rules: Rules):
    wrong = []
    for i, times in enumerate(_TIMES, 1):
        keyword = args[f"keyword{i}"]
        if rules.ifeval:  # the reference counts substrings: "river" is found in "rivers"
            n = view.lower.count(keyword.lower())
        else:
            n = kw.count_keyword(view.matchable, keyword)
        if n != times:
            wrong.append(f"{keyword!r} {n}× (needed {times})")
    if wrong:
        return False, "; ".join(wrong)
    return True, "each keyword as often as asked (1, 2, 3, 5, 7 times)"


# --- Japanese words ------------------------------------------------------------------------------
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana and the CJK ideographs, as the reference


@checker(
    "count:words_japanese",
    Param("N", "int", sample=lambda rng, p, drawn: rng.randint(2, 30)),
    category="Count", table_row=208, fixed_only=True, suite=_SUITE,
)
def words_japanese(view: TextView, args: dict, rules: Rules):
    n = args["N"]
    if n < 1:
        return False, f"a word at every {n}-th place is no place"
    if rules.ifeval:
        # the reference: str.split tokens less ASCII punctuation; an empty or all-digit one passes
        tokens = view.text.split()
        positions = [t.strip(REF_STRIP) for t in tokens[n - 1::n]]
        bad = [w for w in positions if w and not w.isdigit() and not _JAPANESE.search(w)]
    else:
        # the answer's words (tokens with a letter or digit); a number is in no language
        tokens = [w for w in (strip_edges(t) for t in view.nfc.split()) if w]
        positions = tokens[n - 1::n]
        if not positions:
            return False, f"{len(tokens)} words, so no word at place {n} to write in Japanese"
        bad = [w for w in positions if not words_of_number(w) and not _JAPANESE.search(w)]
    if bad:
        return False, f"{len(bad)} of the words at every {n}-th place are not Japanese ({_quote(bad)})"
    return True, f"the words at every {n}-th place are Japanese ({len(positions)} words)"


def words_of_number(token: str) -> bool:
    """A token that is a number (digits of any script, with separators)."""
    return bool(numbers_in(token)) and not any(ch.isalpha() for ch in token)


"""IFBench's list answers: custom:multiples (the multiples of 7 from 10 to 50),
custom:date_format_list (YYYY-MM-DD dates, comma-separated), custom:european_capitals_sort (the
27 capitals north of 45°, by latitude) and custom:reverse_newline (Africa's countries, one a
line, in reverse alphabetical order).

Digits of any script are read by value; a language's comma is a comma; capitals are matched
against the names its profile lists (``word_lists.european_capitals``, variants separated by
"|") or the English ones; "alphabetical" is the language's dictionary order
(``word_lists.dictionary_order``)."""

from __future__ import annotations

import re
import string
import unicodedata
from functools import lru_cache

import regex

from indicifeval.checkers.ifbench.custom_common import (
    CUSTOM,
    SUITE,
    as_urdu,
    collation_key,
    requires_lists,
    word_list,
)
from indicifeval.checkers.registry import all_but, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.normalize import match_key
from indicifeval.text.paragraphs import strip_edges

_SHOWN = 4
_DIGITS = re.compile(r"\d+")  # (stdlib: every script's decimal digits, as the reference's)
_MULTIPLES = [str(i) for i in range(14, 51, 7)]


def _ascii(number: str) -> str:
    return "".join(str(unicodedata.digit(c)) for c in number)


def _quote(items: list[str]) -> str:
    shown = ", ".join(items[:_SHOWN])
    return shown + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")


@checker("custom:multiples", category=CUSTOM, table_row=267, fixed_only=True, suite=SUITE, conflicts=all_but())
def multiples(view: TextView, args: dict, rules: Rules):
    found = _DIGITS.findall(view.text)
    # The reference compares the digit strings as written; other languages may write their own digits.
    numbers = found if rules.ifeval else [_ascii(n) for n in found]
    if numbers == _MULTIPLES:
        return True, f"printed {', '.join(found)}"
    if not found:
        return False, f"no number; needed {', '.join(_MULTIPLES)}"
    return False, f"printed the numbers {_quote(found)}; needed exactly {', '.join(_MULTIPLES)}"


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DAYS = {1: 31, 3: 31, 5: 31, 7: 31, 8: 31, 10: 31, 12: 31, 4: 30, 6: 30, 9: 30, 11: 30, 2: 29}


def _bad_date(item: str) -> str | None:
    """Why ``item`` is not a YYYY-MM-DD date of Napoleon's lifetime (1769-1821), or None. Month
    and day 00 are no dates (the reference lets them through)."""
    if not _DATE.match(item):
        return "is not YYYY-MM-DD"
    year, month, day = (int(part) for part in item.split("-"))
    if not 1769 <= year <= 1821:
        return f"has the year {year}, outside Napoleon's lifetime (1769-1821)"
    if not 1 <= month <= 12:
        return f"has no month {month}"
    if not 1 <= day <= _DAYS[month]:
        return f"has no day {day} in month {month}"
    return None


@checker("custom:date_format_list", category=CUSTOM, table_row=264, fixed_only=True, suite=SUITE,
         conflicts=all_but())
def date_format_list(view: TextView, args: dict, rules: Rules):
    value = view.text.strip()
    if not rules.ifeval:  # a list may end as a sentence does (।, ۔) and use the language's comma
        value = value.rstrip("".join(rules.profile.sentence_terminators)).strip()
        for comma in rules.comma_chars:
            value = value.replace(comma, ",")
    items = [item.strip() for item in value.split(",")]
    for item in items:
        why = _bad_date(item)
        if why is not None:
            return False, f"{item[:30]!r} {why}"
    return True, f"{len(items)} dates in YYYY-MM-DD, separated by commas"


_CAPITALS = ("Reykjavik", "Helsinki", "Oslo", "Tallinn", "Stockholm", "Riga", "Moscow", "Copenhagen", "Vilnius",
             "Minsk", "Dublin", "Berlin", "Amsterdam", "Warsaw", "London", "Brussels", "Prague", "Luxembourg",
             "Paris", "Vienna", "Bratislava", "Budapest", "Vaduz", "Chisinau", "Bern", "Ljubljana", "Zagreb")
_NUKTA = regex.compile(r"[\u093c\u09bc\u0a3c\u0abc\u0b3c\u0c3c\u0cbc]")


def _latin(text: str) -> str:
    """The reference's form: decomposed, and every character outside ASCII dropped (São -> Sao)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def _name_key(text: str) -> str:
    """How two spellings of a name compare: match form, without nukta, Arabic vowel marks and
    inner whitespace."""
    return "".join(as_urdu(_NUKTA.sub("", match_key(text))).split())


@lru_cache(maxsize=32)
def _capital_keys(listed: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """For each capital in order: its spellings in the language, and the English name."""
    out = []
    for i, english in enumerate(_CAPITALS):
        names = listed[i].split("|") if i < len(listed) else []
        out.append(frozenset(_name_key(n) for n in [*names, english] if n.strip()))
    return tuple(out)


@checker(
    "custom:european_capitals_sort",
    category=CUSTOM, table_row=265, fixed_only=True, suite=SUITE, conflicts=all_but(),
    requires=requires_lists("custom:european_capitals_sort", "european_capitals"),
)
def european_capitals_sort(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:  # the reference: ASCII forms, split at commas, each exactly the name in order
        items = [item.strip() for item in _latin(view.text).split(",") if item.strip()]
        keys = [frozenset([name]) for name in _CAPITALS]
        got = items
    else:
        text = view.nfc
        for comma in rules.comma_chars:
            text = text.replace(comma, ",")
        items = [s for item in text.split(",") if (s := strip_edges(item))]
        keys = list(_capital_keys(word_list(rules, "european_capitals")))
        got = [_name_key(item) for item in items]
    if len(items) != len(_CAPITALS):
        return False, f"{len(items)} comma-separated names, needed the {len(_CAPITALS)} capitals"
    for i, (item, key) in enumerate(zip(got, keys)):
        if item not in key:
            return False, f"name {i + 1} is {items[i][:30]!r}, needed {_CAPITALS[i]} (by latitude, north first)"
    return True, f"the {len(_CAPITALS)} capitals from {items[0]!r} to {items[-1]!r}, in order"


_LINE_EDGES = string.punctuation + " "
_LIST_MARKER = regex.compile(r"^\s*(?:[-*•+]\s+|\(?\p{Nd}+[.)]\s*)")
_MIN_COUNTRIES = 52  # the reference's: Africa has 54, two may be counted differently
_ANCHOR = "Zimbabwe"


def _reference_reverse_newline(text: str) -> tuple[bool, str]:
    lines = [s for line in text.split("\n") if (s := line.strip(_LINE_EDGES))]
    start = next((i for i, line in enumerate(lines) if _ANCHOR in line), None)
    if start is None:
        return False, "no line with 'Zimbabwe' (the first country in reverse order)"
    listed = [_latin(line) for line in lines[start:]]
    if len(listed) < _MIN_COUNTRIES:
        return False, f"{len(listed)} lines from 'Zimbabwe' on, needed at least {_MIN_COUNTRIES}"
    for i in range(1, len(listed)):
        if listed[i] > listed[i - 1]:
            return False, f"{listed[i][:30]!r} comes after {listed[i - 1][:30]!r}: not in reverse alphabetical order"
    return True, f"{len(listed)} lines from 'Zimbabwe' on, in reverse alphabetical order"


@checker(
    "custom:reverse_newline",
    category=CUSTOM, table_row=268, fixed_only=True, suite=SUITE, conflicts=all_but(),
    requires=requires_lists("custom:reverse_newline", "dictionary_order"),
)
def reverse_newline(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return _reference_reverse_newline(view.text)
    # The list is the run of lines at the end in reverse dictionary order (lines before it, such
    # as an introduction, are not part of it); list numbers and bullets are not part of a name.
    order = word_list(rules, "dictionary_order")
    lines = [s for line in view.nfc.split("\n") if (s := strip_edges(_LIST_MARKER.sub("", line, count=1)))]
    if not lines:
        return False, "no line"
    run = 1
    after = collation_key(lines[-1], order)
    for line in reversed(lines[:-1]):
        key = collation_key(line, order)
        if key < after:
            break
        run, after = run + 1, key
    if run < _MIN_COUNTRIES:
        stop = len(lines) - run
        where = f"; {lines[stop - 1][:30]!r} comes before {lines[stop][:30]!r}" if stop > 0 else ""
        return False, f"the last {run} lines are in reverse alphabetical order, needed at least {_MIN_COUNTRIES}{where}"
    return True, f"{run} lines in reverse alphabetical order, from {lines[-run][:30]!r} to {lines[-1][:30]!r}"

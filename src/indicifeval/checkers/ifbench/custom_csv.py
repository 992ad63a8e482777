"""IFBench's CSV answers: custom:csv_city (5 named columns, 7 rows), custom:csv_special_character
(14 rows, a quoted field with a special character) and custom:csv_quotes (tab-delimited, 3
rows, every field quoted).

The column names are the reference's English ones or, in another language, those its profile
gives (``word_lists.csv_city_columns``, ``csv_product_columns``, ``csv_student_columns``): a
translated prompt may keep the names or translate them. A special character is one that is no
letter, vowel sign, digit or space in any script, nor a zero-width (non-)joiner inside a word
(the reference's ``\\w`` takes a vowel sign for one)."""

from __future__ import annotations

import csv
import io
import re
from functools import lru_cache

import regex

from indicifeval.checkers.ifbench.custom_common import CUSTOM, SUITE, requires_lists, word_list
from indicifeval.checkers.registry import all_but, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.normalize import nfc

CITY = ("ID", "Country", "City", "Year", "Count")
PRODUCT = ("ProductID", "Category", "Brand", "Price", "Stock")
STUDENT = ("StudentID", "Subject", "Grade", "Semester", "Score")
_REFERENCE_SPECIAL_CHAR = re.compile(r"[^\d\w\s]")
_SPECIAL = regex.compile(r"[^\p{L}\p{M}\p{N}\s\u200c\u200d]")


def _rows(text: str, delimiter: str = ",") -> list[list[str]] | None:
    """The CSV records of ``text`` (None when Python's reader refuses it: a field over its size limit)."""
    try:
        return list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error:
        return None


def _headers(rules: Rules, english: tuple[str, ...], listed: str) -> list[tuple[str, ...]]:
    """The column names a header may have: the English ones, and in another language its own."""
    if rules.ifeval:
        return [english]
    own = word_list(rules, listed)
    return [english, tuple(nfc(name) for name in own)] if len(own) == len(english) else [english]


@lru_cache(maxsize=64)
def _header_pattern(names: tuple[str, ...], separator: str) -> re.Pattern:
    """The reference's header line: each name bare or in double quotes, one separator between."""
    return re.compile("^" + separator.join(f'({re.escape(n)}|"{re.escape(n)}")' for n in names) + "$")


@checker(
    "custom:csv_city",
    category=CUSTOM, table_row=261, fixed_only=True, suite=SUITE, conflicts=all_but(),
    requires=requires_lists("custom:csv_city", "csv_city_columns"),
)
def csv_city(view: TextView, args: dict, rules: Rules):
    data = _rows(view.text if rules.ifeval else view.nfc)
    if data is None:
        return False, "not CSV that Python's reader accepts (a field over its size limit)"
    if len(data) != 8:
        return False, f"{len(data)} CSV records, needed a header and 7 rows"
    headers = _headers(rules, CITY, "csv_city_columns")
    header = data[0] if rules.ifeval else [field.strip() for field in data[0]]
    if tuple(header) not in headers:
        return False, f"the header is {', '.join(data[0])[:80]!r}, needed {', '.join(headers[-1])}"
    for i, row in enumerate(data[1:], 1):
        if len(row) != 5:
            return False, f"row {i} has {len(row)} fields, needed 5"
    return True, "a header and 7 rows of 5 comma-separated fields"


def _quoted_rows(text: str, delimiter: str) -> list[list[str]] | None:
    """The reference's reading: every double quote tripled, so that a quoted field keeps its
    quotes (a quoted comma stays inside its field)."""
    return _rows(text.replace('"', '"""'), delimiter)


@checker(
    "custom:csv_special_character",
    category=CUSTOM, table_row=263, fixed_only=True, suite=SUITE, conflicts=all_but(),
    requires=requires_lists("custom:csv_special_character", "csv_product_columns"),
)
def csv_special_character(view: TextView, args: dict, rules: Rules):
    text = view.text if rules.ifeval else view.nfc
    header = text.split("\n", 1)[0].strip()
    names = _headers(rules, PRODUCT, "csv_product_columns")
    if not any(_header_pattern(n, ",[ \t]*").match(header) for n in names):
        return False, f"the first line is {header[:80]!r}, needed the header {','.join(names[-1])}"
    data = _quoted_rows(text, ",")
    if data is None:
        return False, "not CSV that Python's reader accepts (a field over its size limit)"
    if len(data) != 15:
        return False, f"{len(data)} CSV records, needed a header and 14 rows"
    special = None
    for i, row in enumerate(data[1:], 1):
        # every row is checked (the reference stops at the first with a special field)
        if len(row) != 5:
            return False, f"row {i} has {len(row)} fields, needed 5"
        if special is None:
            special = next((f for f in row if _is_special(f, rules)), None)
    if special is None:
        return False, "no field in double quotes with a special character in it"
    return True, f"a header and 14 rows of 5 fields; {special[:40]} is quoted and has a special character"


def reference_special(field: str) -> bool:
    """The reference's ``re.match(r'".*[^\\d\\w\\s].*"', field)`` in linear time (the pattern
    backtracks quadratically on a quote and a long run of symbols): on the field's first line,
    a quote first, then a character neither digit, word nor space, then a quote."""
    line = field.split("\n", 1)[0]
    end = line.rfind('"')
    return line[:1] == '"' and end >= 2 and _REFERENCE_SPECIAL_CHAR.search(line, 1, end) is not None


def _is_special(field: str, rules: Rules) -> bool:
    if rules.ifeval:
        return reference_special(field)
    inner = field.strip()
    return len(inner) >= 2 and inner[0] == inner[-1] == '"' and _SPECIAL.search(inner, 1, len(inner) - 1) is not None


@checker(
    "custom:csv_quotes",
    category=CUSTOM, table_row=262, fixed_only=True, suite=SUITE, conflicts=all_but(),
    requires=requires_lists("custom:csv_quotes", "csv_student_columns"),
)
def csv_quotes(view: TextView, args: dict, rules: Rules):
    text = view.text if rules.ifeval else view.nfc
    header = text.split("\n", 1)[0].strip()
    names = _headers(rules, STUDENT, "csv_student_columns")
    if not any(_header_pattern(n, "\t *").match(header) for n in names):
        return False, f"the first line is {header[:80]!r}, needed the tab-separated header {' '.join(names[-1])}"
    data = _quoted_rows(text, "\t")
    if data is None:
        return False, "not CSV that Python's reader accepts (a field over its size limit)"
    if len(data) != 4:
        return False, f"{len(data)} tab-separated records, needed a header and 3 rows"
    for i, row in enumerate(data):
        if len(row) != 5:
            return False, f"{'the header' if i == 0 else f'row {i}'} has {len(row)} fields, needed 5"
        bare = next((f for f in row if not (f.strip()[:1] == '"' and f.strip()[-1:] == '"')), None)
        if bare is not None:
            # (an empty field: the reference fails on it, raising IndexError)
            where = "the header" if i == 0 else f"row {i}"
            return False, f"{where} has the field {bare[:30]!r} without double quotes around it"
    return True, "a header and 3 rows of 5 tab-separated fields, each in double quotes"

"""punctuation:no_comma."""

from __future__ import annotations

from indicifeval.checkers.registry import checker
from indicifeval.checkers.rules import Rules, TextView


@checker("punctuation:no_comma", category="Keyword", table_row=13)
def no_comma(view: TextView, args: dict, rules: Rules):
    n = sum(view.text.count(c) for c in rules.comma_chars)
    return n == 0, ("no commas" if n == 0 else f"{n} commas ({' '.join(rules.comma_chars)})")

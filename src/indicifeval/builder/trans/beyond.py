"""The values the instructions beyond the paper are about, protected like keywords when a row
is translated: the grouped numbers and 0-9 of a numbers:/units: row stay as written (1,00,000
must not become 100,000), and its unit words (units:*) or lakh/million words (the number
systems) go through the phrase table, so that a translation carries them."""

from __future__ import annotations

import re

from indicifeval.records import Row
from indicifeval.text.numerals import scale_words, unit_words

SOURCE = "beyond.en.jsonl"  # the English prompts for them, shipped beside this module
_GROUPED = re.compile(r"(?<![\w,.])\d{1,3}(?:,\d{2,3})+(?![\w,])|\b0-9\b")
_WORD = re.compile(r"[A-Za-z]+")


def _ids(row: Row) -> list[str]:
    return [iid for iid in row.instruction_id_list if iid.startswith(("numbers:", "units:"))]


def kept_numbers(row: Row) -> list[tuple[int, int]]:
    """Where the prompt's grouped numbers (and 0-9) stand, for a numbers:/units: row."""
    return [m.span() for m in _GROUPED.finditer(row.prompt)] if _ids(row) else []


def value_words(row: Row) -> list[tuple[int, int]]:
    """Where the prompt's unit words (units:*) and lakh/million words (number systems) stand."""
    ids = _ids(row)
    words: set[str] = set()
    if any(iid.startswith("units:") for iid in ids):
        words.update(*unit_words("en"))
    if any(iid.endswith("_system") for iid in ids):
        words.update(*scale_words("en"))
    return [m.span() for m in _WORD.finditer(row.prompt) if m.group(0).casefold() in words] if words else []

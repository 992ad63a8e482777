"""The instructions beyond the paper (numbers, units, romanised answers): the row's language
must define them (an error: fixed-mode scoring stops on the row), and the prompt must state
them, by showing what they ask for (a digit of the script, 1,00,000, a lakh or million word, a
unit word), by the profile's own description of the instruction as a whole (a Ground prompt
often quotes it), or by a word that description uses and no other does (formats.described).
What is not stated is a warning, as for the formats."""

from __future__ import annotations

from collections.abc import Iterator

from indicifeval.checkers import REGISTRY
from indicifeval.dataset.validation.findings import ERROR, WARNING, Finding, finding
from indicifeval.dataset.validation.formats import BEYOND_IDS, described
from indicifeval.dataset.validation.lexical import instructions
from indicifeval.dataset.validation.prompt import Prompt
from indicifeval.text.normalize import match_key
from indicifeval.text.numerals import scale_words, tokens, unit_words

_WHAT = {
    "numbers:native_digits": "the script's digits", "numbers:ascii_digits": "the digits 0-9",
    "numbers:spelled_out": "numbers in words", "numbers:indian_system": "the Indian number system (lakh, crore)",
    "numbers:international_system": "the international number system (million, billion)",
    "units:metric": "metric units", "units:imperial": "imperial units", "language:romanized": "Latin letters",
}


def _shown(p: Prompt, iid: str) -> bool:
    """Whether the prompt shows what the instruction asks for."""
    language, text = p.row.language, p.row.prompt
    numbers, words = tokens(text)
    keys = {w.key for w in words}
    if iid == "numbers:native_digits":
        numerals = p.profile.numerals
        return numerals is not None and any(d in text for d in numerals.digits)
    if iid == "numbers:ascii_digits":
        return "0-9" in text or "0–9" in text
    if iid in ("numbers:indian_system", "numbers:international_system"):
        indian = iid == "numbers:indian_system"
        grouping = "indian" if indian else "international"
        return any(n.grouping == grouping for n in numbers) or bool(keys & scale_words(language)[0 if indian else 1])
    if iid in ("units:metric", "units:imperial"):
        return bool(keys & unit_words(language)[0 if iid == "units:metric" else 1])
    return False


def _worded(p: Prompt, iid: str) -> bool:
    """Whether the prompt contains the profile's description of the instruction, whole."""
    texts = p.profile.instruction_texts
    return texts is not None and any(match_key(t).strip() in p.key for t in texts.templates.get(iid, ()))


def beyond_stated(p: Prompt) -> Iterator[Finding]:
    for index, iid, _ in instructions(p):
        if iid not in BEYOND_IDS:
            continue
        why = REGISTRY[iid].unavailable(p.profile, paper=False)
        if why is not None:
            yield finding(p.row, "beyond_stated", ERROR, why, None, index)
        elif not _shown(p, iid) and not _worded(p, iid) and not described(p, iid):
            yield finding(p.row, "beyond_stated", WARNING,
                          f"the prompt neither shows nor names {_WHAT[iid]}", None, index)

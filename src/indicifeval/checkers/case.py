"""change_case:* — capital words, all capitals, all lower case (English answers)."""

from __future__ import annotations

from indicifeval.checkers.registry import Param, checker, counted, int_default, relation_default
from indicifeval.checkers.rules import Rules, TextView, not_detected
from indicifeval.text.words import words


@checker(
    "change_case:capital_word_frequency",
    Param("capital_frequency", "int", paper_default=int_default("capital_frequency", 1, 20)),
    Param("capital_relation", "relation", paper_default=relation_default("capital_relation")),
    category="English", table_row=1,
    conflicts=("change_case:english_capital", "change_case:english_lowercase"),
)
def capital_word_frequency(view: TextView, args: dict, rules: Rules):
    if rules.indic_fixed:
        n = sum(1 for t in words(view.nfc) if t.isupper())  # as word_count, on the NFC form
    else:
        from indicifeval.text.punkt_en import count_upper_words_en

        n = count_upper_words_en(view.text)  # nltk.word_tokenize tokens that are all capitals
    return counted(n, "all-capital words", args["capital_relation"], args["capital_frequency"])


def _english_case(view: TextView, rules: Rules, cased: bool, what: str):
    if not cased:
        return False, f"not all {what}"
    others = view.other_languages("en")
    if others is not None:
        return False, f"all {what}; {not_detected('en', others)}"
    lang = view.language
    if lang is None:
        if rules.undetectable_passes:
            return True, f"all {what}; language undetectable (counted as followed)"
        return False, f"all {what}, but language undetectable"
    return lang == "en", f"all {what}; detected {lang}, needed en"


@checker("change_case:english_capital", category="English", table_row=2)
def english_capital(view: TextView, args: dict, rules: Rules):
    return _english_case(view, rules, view.text.isupper(), "capitals")


@checker("change_case:english_lowercase", category="English", table_row=3, conflicts=("change_case:english_capital",))
def english_lowercase(view: TextView, args: dict, rules: Rules):
    return _english_case(view, rules, view.text.islower(), "lower case")

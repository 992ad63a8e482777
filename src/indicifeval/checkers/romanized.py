"""language:romanized — the answer in the prompt's language, typed in Latin letters (the
paper's §7 leaves romanisation to future work). Fixed mode only; the evidence is a character
n-gram model of romanised text, or, for a language it lacks, ``romanized.words`` (text.romanized)."""

from __future__ import annotations

from indicifeval.checkers.registry import checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.romanized import evidence, verdict


def _needs_words(profile: LanguageProfile) -> str | None:
    if profile.romanized is None or not profile.romanized.words:
        return (f"language:romanized is not defined for {profile.code}: its profile has no romanized.words"
                + (" (English is written in Latin letters already)" if profile.code == "en" else ""))
    return None


@checker("language:romanized", category="Script", table_row=33, fixed_only=True, requires=_needs_words,
         conflicts=("language:response_language", "change_case:english_capital", "change_case:english_lowercase",
                    "change_case:capital_word_frequency", "numbers:native_digits"))
def romanized(view: TextView, args: dict, rules: Rules):
    return verdict(evidence(view.nfc, rules.profile.code), rules.profile.code)

"""numbers:* and units:* — the numeral formats, number systems and units the paper leaves to
future work (its §7). Fixed mode only; the rules are in docs/scoring.md, the language facts
in each profile's ``numerals`` and ``units``."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from indicifeval.checkers.registry import checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.numerals import ASCII_DIGITS, numbers_in, scales_in, spelled_words, units_in

_NUMERALS = "Numerals and units"
_SHOWN = 4  # numbers or words an explanation quotes


def _needs_digits(profile: LanguageProfile) -> str | None:
    if profile.numerals is None or not profile.numerals.digits:
        return (f"numbers:native_digits is not defined for {profile.code}: {profile.name} writes ASCII digits "
                f"(its profile has no numerals.digits)")
    return None


def _needs_words(profile: LanguageProfile) -> str | None:
    if profile.numerals is None or not profile.numerals.words:
        return f"numbers:spelled_out needs number words: the {profile.code} profile has no numerals.words"
    return None


def _needs_scales(profile: LanguageProfile) -> str | None:
    if profile.numerals is None:
        return f"the number systems need the {profile.code} profile's numerals (lakh_crore, million_billion)"
    return None


def _needs_units(profile: LanguageProfile) -> str | None:
    if profile.units is None:
        return f"units:* need the {profile.code} profile's units (metric and imperial unit words)"
    return None


def _count(numbers: Sequence) -> str:
    return f"{len(numbers)} number{'' if len(numbers) == 1 else 's'}"


def _quote(items: list[str]) -> str:
    shown = ", ".join(items[:_SHOWN])
    return shown + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")


def _not_all(numbers: Sequence, ok: Callable[[str], bool]) -> list[str]:
    """The numbers (as written) that are not ``ok``, each way of writing one judged once."""
    judged = {t: ok(t) for t in {n.text for n in numbers}}
    return [n.text for n in numbers if not judged[n.text]]


def _digits_name(digits: str) -> str:
    """As Unicode names the digits: Devanagari, Bengali, Extended Arabic-Indic."""
    return unicodedata.name(digits[0], "native").removesuffix(" DIGIT ZERO").title()


@checker("numbers:native_digits", category=_NUMERALS, table_row=26, fixed_only=True, requires=_needs_digits,
         conflicts=("numbers:ascii_digits", "numbers:spelled_out"))
def native_digits(view: TextView, args: dict, rules: Rules):
    numerals = rules.profile.numerals
    assert numerals is not None
    own = set(numerals.digits)
    numbers = numbers_in(view.nfc)
    if not numbers:
        return False, "no number written in digits"
    other = _not_all(numbers, lambda t: all(c in own or not c.isdecimal() for c in t))
    script = _digits_name(numerals.digits)
    if other:
        ascii_only = all(c in ASCII_DIGITS for t in other for c in t if c.isdecimal())
        kind = "ASCII digits" if ascii_only else "digits of another script"
        return False, f"found {kind} {_quote(other)}, needed {script}"
    return True, f"{_count(numbers)} in {script} digits ({_quote([n.text for n in numbers])})"


@checker("numbers:ascii_digits", category=_NUMERALS, table_row=27, fixed_only=True,
         conflicts=("numbers:native_digits", "numbers:spelled_out"))
def ascii_digits(view: TextView, args: dict, rules: Rules):
    numbers = numbers_in(view.nfc)
    if not numbers:
        return False, "no number written in digits"
    other = _not_all(numbers, lambda t: all(c in ASCII_DIGITS for c in t if c.isdecimal()))
    if other:
        return False, f"found digits other than ASCII: {_quote(other)}, needed 0-9"
    return True, f"{_count(numbers)} in ASCII digits ({_quote([n.text for n in numbers])})"


@checker("numbers:spelled_out", category=_NUMERALS, table_row=28, fixed_only=True, requires=_needs_words,
         conflicts=("numbers:native_digits", "numbers:ascii_digits"))
def spelled_out(view: TextView, args: dict, rules: Rules):
    numbers = numbers_in(view.nfc)
    if numbers:
        return False, f"found numbers in digits: {_quote([n.text for n in numbers])}; needed words"
    if any(map(str.isdecimal, view.nfc)):
        return False, f"found the digit {next(ch for ch in view.nfc if ch.isdecimal())}; needed words"
    spelled = list(spelled_words(view.nfc, rules.profile.code))
    if not spelled:
        return False, f"no number written in {rules.profile.name} words"
    return True, f"numbers as words: {_quote(spelled)}"


def _system(view: TextView, rules: Rules, mine: str, theirs: str, threshold: str):
    numbers = numbers_in(view.nfc)
    scales = scales_in(view.nfc, rules.profile.code)
    wrong = [n.text for n in numbers if n.grouping == theirs]
    wrong_words = [text for text, system in scales if system == theirs]
    label = {"indian": "the Indian system", "international": "the international system"}
    if wrong:
        return False, f"{_quote(wrong)} grouped as in {label[theirs]}; needed {label[mine]}"
    if wrong_words:
        return False, f"{_quote(wrong_words)}: a word of {label[theirs]}; needed {label[mine]}"
    # a number of a lakh (100,000) or more in digits, grouped this way or not at all, or a scale word
    evidence = [n.text for n in numbers if n.grouping == mine or (n.grouping == "none" and n.value >= 100_000)]
    evidence += [text for text, system in scales if system == mine]
    if not evidence:
        return False, f"no number of {threshold} or more in digits, nor a word of {label[mine]}"
    return True, f"{label[mine]}: {_quote(evidence)}"


@checker("numbers:indian_system", category=_NUMERALS, table_row=29, fixed_only=True, requires=_needs_scales,
         conflicts=("numbers:international_system", "numbers:spelled_out"))
def indian_system(view: TextView, args: dict, rules: Rules):
    return _system(view, rules, "indian", "international", "a lakh (1,00,000)")


@checker("numbers:international_system", category=_NUMERALS, table_row=30, fixed_only=True,
         requires=_needs_scales, conflicts=("numbers:indian_system", "numbers:spelled_out"))
def international_system(view: TextView, args: dict, rules: Rules):
    return _system(view, rules, "international", "indian", "100,000")


def _units(view: TextView, rules: Rules, wanted: str, other: str):
    found = units_in(view.nfc, rules.profile.code)
    if not found:
        return False, "no unit of measurement"
    wrong = list(dict.fromkeys(u for u, system in found if system == other))
    if wrong:
        return False, f"{_quote(wrong)} {'is' if len(wrong) == 1 else 'are'} not {wanted}"
    return True, f"{wanted} units: {_quote(list(dict.fromkeys(u for u, _ in found)))}"


@checker("units:metric", category=_NUMERALS, table_row=31, fixed_only=True, requires=_needs_units,
         conflicts=("units:imperial",))
def metric(view: TextView, args: dict, rules: Rules):
    return _units(view, rules, "metric", "imperial")


@checker("units:imperial", category=_NUMERALS, table_row=32, fixed_only=True, requires=_needs_units,
         conflicts=("units:metric",))
def imperial(view: TextView, args: dict, rules: Rules):
    return _units(view, rules, "imperial", "metric")


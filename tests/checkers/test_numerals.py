"""numbers:*, units:* and language:romanized — the instructions beyond the paper: their rules
on English and on each script family, the errors for a mode or language that lacks them, and
the same verdict for any answer however long (linear, never raising)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indicifeval.checkers import REGISTRY, TextView, get_rules
from indicifeval.core.errors import InputError
from indicifeval.scoring.engine import score_row
from indicifeval.text.numerals import _grouping, tokens
from tests.conftest import make_row

NEW = ("numbers:native_digits", "numbers:ascii_digits", "numbers:spelled_out", "numbers:indian_system",
       "numbers:international_system", "units:metric", "units:imperial", "language:romanized")


def check(iid: str, text: str, language: str = "en") -> tuple[bool, str]:
    rules = get_rules(language, "trans", "fixed")
    return REGISTRY[iid].fn(TextView(text, rules), {}, rules)


@pytest.mark.parametrize("written,grouping", [
    ("1,00,000", "indian"), ("12,34,567", "indian"), ("1,23,45,678", "indian"),
    ("100,000", "international"), ("1,234,567", "international"), ("123,456", "international"),
    ("1,000", "either"), ("12,345", "either"), ("2024", "none"), ("1,2,3", "neither"), ("12,3456", "neither"),
    ("१२,३४,५६७", "indian"), ("۱۲٬۳۴٬۵۶۷", "indian"),
])
def test_digit_groups(written, grouping):
    number = tokens(written)[0][0]
    assert number.grouping == grouping
    assert _grouping(written.split(".")[0]) == grouping


def test_values_of_every_script():
    numbers = tokens("१२,३४,५६७ and ১০০ and ۱۲۳ and 3.5")[0]
    assert [n.value for n in numbers] == [1234567, 100, 123, 3]


@pytest.mark.parametrize("iid,text,ok,why", [
    ("numbers:ascii_digits", "In 2024 there were 12 cats.", True, "2 numbers in ASCII digits"),
    ("numbers:ascii_digits", "There were twelve cats.", False, "no number written in digits"),
    ("numbers:ascii_digits", "In २०२४ there were 12 cats.", False, "found digits other than ASCII: २०२४"),
    ("numbers:spelled_out", "Twelve cats and a hundred dogs.", True, "numbers as words: Twelve, hundred"),
    ("numbers:spelled_out", "There were 12 cats.", False, "found numbers in digits: 12"),
    ("numbers:spelled_out", "There were many cats.", False, "no number written in English words"),
    ("numbers:spelled_out", "Thousands came.", True, "numbers as words: Thousands"),
    ("numbers:indian_system", "The city has 12,34,567 people.", True, "the Indian system: 12,34,567"),
    ("numbers:indian_system", "About 12 lakh people.", True, "the Indian system: lakh"),
    ("numbers:indian_system", "The city has 1,234,567 people.", False, "grouped as in the international system"),
    ("numbers:indian_system", "About 1.2 million, or 12 lakh.", False, "million: a word of the international"),
    ("numbers:indian_system", "Only 12,345 people.", False, "no number of a lakh (1,00,000) or more"),
    ("numbers:international_system", "The city has 1,234,567 people.", True, "the international system"),
    ("numbers:international_system", "It has 100,000 trees.", True, "100,000"),
    ("numbers:international_system", "About 2 billion.", True, "billion"),
    ("numbers:international_system", "It has 1,00,000 trees.", False, "grouped as in the Indian system"),
    ("numbers:international_system", "About 12 crore.", False, "crore: a word of the Indian system"),
    ("units:metric", "It is 5 km away, weighs 3.5 kg, at 37°C.", True, "metric units: km, kg, °C"),
    ("units:metric", "It is five kilometres away.", True, "kilometres"),
    ("units:metric", "It is 5 miles away.", False, "miles is not metric"),
    ("units:metric", "Distances here are measured in kilometres.", True, "metric units: kilometres"),
    ("units:metric", "It was 100°F (38°C) at noon.", False, "°F is not metric"),
    ("units:imperial", "It was 100°F (38°C) at noon.", False, "°C is not imperial"),
    ("units:metric", "A gas meter and a pound of flesh, 5 kg.", True, "metric units: kg"),
    ("units:metric", "We walked 3 km and then 2 miles.", False, "miles is not metric"),
    ("numbers:indian_system", "In 2024 the city grew.", False, "no number of a lakh"),
    ("numbers:indian_system", "Only 1,000 people came.", False, "no number of a lakh"),
    ("numbers:indian_system", "Then 1,00,000 people came.", True, "1,00,000"),
    ("numbers:international_system", "Then 1,000 people came.", False, "no number of 100,000"),
    ("numbers:indian_system", "About 150000 people came.", True, "150000"),
    ("numbers:international_system", "About 150000 people came.", True, "150000"),
    ("units:metric", "It is 5km and 2 ft.", False, "ft is not metric"),
    ("units:imperial", "It is five miles and 10 ft, 98 °F.", True, "imperial units: miles, ft, °F"),
    ("units:imperial", "It is 5 km.", False, "km is not imperial"),
    ("units:imperial", "At the foot of the hill, a pound of care.", False, "no unit of measurement"),
    ("units:imperial", "It is 6 feet tall and weighs 150 pounds.", True, "imperial units: feet, pounds"),
])
def test_english_rules(iid, text, ok, why):
    got, explanation = check(iid, text)
    assert got is ok and why in explanation, explanation


@pytest.mark.parametrize("iid", NEW)
def test_paper_mode_refuses_them_naming_the_row(iid):
    row = make_row(iid, {}, "hi")
    with pytest.raises(InputError, match="not one of the paper's instructions"):
        score_row(row, "anything", "paper")


@pytest.mark.parametrize("iid,why", [("numbers:native_digits", "writes ASCII digits"),
                                      ("language:romanized", "written in Latin letters already")])
def test_not_defined_for_english(iid, why):
    with pytest.raises(InputError, match=why):
        score_row(make_row(iid, {}, "en"), "anything", "fixed")


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123456789,.٬٫ km mi°CF\n१२lakhmillion-"), max_size=200))
def test_never_raises(text):
    for iid in NEW[1:-1]:
        ok, why = check(iid, text)
        assert isinstance(ok, bool) and why


def test_degenerate_answers_stay_linear():
    """A megabyte of digits and commas, or of spaces between a number and a unit."""
    for text in ("1," * 500_000, "5" + " " * 1_000_000 + "km", "km " * 300_000, "1 " * 500_000):
        for iid in NEW[1:-1]:
            check(iid, text)

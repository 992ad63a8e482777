"""The validator on the instructions beyond the paper: defined for the row's language (an
error where not), and stated by the prompt (a warning where it neither shows nor names it)."""

import pytest

from indicifeval.dataset.validation.api import validate_rows
from tests.conftest import make_row


def _beyond(iid: str, prompt: str, language: str = "en") -> list[tuple[str, str]]:
    found = validate_rows([make_row(iid, {}, language, prompt=prompt)])
    return [(f.severity, f.message) for f in found if f.check == "beyond_stated"]


@pytest.mark.parametrize("iid,prompt", [
    ("numbers:indian_system", "How many people live in Mumbai? Use lakh and crore."),
    ("numbers:indian_system", "How many people live in Mumbai? Write numbers like 12,34,567."),
    ("numbers:international_system", "How many people live in Mumbai? Answer in millions."),
    ("numbers:ascii_digits", "How many people live in Mumbai? Use the digits 0-9."),
    ("units:metric", "How far is Delhi from Agra? Answer in kilometres."),
    ("units:imperial", "How far is Delhi from Agra? Use imperial units."),
])
def test_a_prompt_that_states_it_passes(iid, prompt):
    assert _beyond(iid, prompt) == []


@pytest.mark.parametrize("iid", ["numbers:indian_system", "numbers:international_system", "units:metric",
                                 "units:imperial", "numbers:spelled_out"])
def test_a_prompt_that_does_not_is_a_warning(iid):
    assert [s for s, _ in _beyond(iid, "How far is Delhi from Agra, and how many people live there?")] == ["warning"]


def test_an_instruction_the_language_lacks_is_an_error():
    assert _beyond("numbers:native_digits", "Write every number in native digits.") == [
        ("error", "numbers:native_digits is not defined for en: English writes ASCII digits (its profile has no "
                  "numerals.digits)")]


def test_an_instruction_the_language_does_not_define_is_an_error_naming_why(tmp_path):
    """An open-instruct or IFBench id that means nothing in the row's language (letter case in
    Hindi): validate flags it with the registry's own reason, as score and the verifier refuse it."""
    import json

    from indicifeval.dataset.validation import validate

    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"key": 1, "prompt": "उत्तर लिखिए।", "instruction_id_list": ["count:lowercase_counting"],
                                "kwargs": [{"N": 3}], "language": "hi", "subset": "trans"}) + "\n", encoding="utf-8")
    found = [f for f in validate(path).findings if f.check == "instruction_defined"]
    assert len(found) == 1 and found[0].is_error and "no lower and upper case" in found[0].message

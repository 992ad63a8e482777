"""`build trans --source beyond`: the bundled English prompts for the instructions beyond the
paper translate end to end against the mock backend, their grouped numbers stay as written,
their unit and lakh/million words go through the phrase table, and the validator accepts the
rows (no error: warnings only where the fake translation hides a cue)."""

from __future__ import annotations

import json

import pytest

from indicifeval.builder.trans.pipeline import build_trans
from indicifeval.dataset import load_rows
from indicifeval.dataset.validation.api import validate_rows
from indicifeval.runs.backends.spec import ModelSpec

BEYOND = ("numbers:native_digits", "numbers:ascii_digits", "numbers:spelled_out", "numbers:indian_system",
          "numbers:international_system", "units:metric", "units:imperial", "language:romanized")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("beyond") / "hi"
    build_trans(out, "hi", "beyond", ModelSpec.of("mock", "fake", {"answers": "fake:0"}))
    return out


def _source():
    from importlib import resources
    text = resources.files("indicifeval.builder.trans").joinpath("beyond.en.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_the_source_has_ten_to_twenty_prompts_per_type_some_combined():
    source = _source()
    for iid in BEYOND:
        mine = [r for r in source if iid in r["instruction_id_list"]]
        assert 10 <= len(mine) <= 20, iid
    assert sum(len(r["instruction_id_list"]) > 1 for r in source) >= len(source) // 4


def test_every_row_translated_and_accepted(built):
    rows = load_rows(built / "trans" / "rows.jsonl")
    assert len(rows) == len(_source())
    assert all("beyond" in r.tags for r in rows)  # as the sample's and Ground's: --tags not:beyond leaves them out
    findings = validate_rows(rows)
    errors = [f for f in findings if f.severity == "error"]
    assert not errors, errors[:3]


def test_grouped_numbers_stay_and_unit_words_are_phrases(built):
    source = {r["key"]: r for r in _source()}
    rows = {int(r.key): r for r in load_rows(built / "trans" / "rows.jsonl")}
    for key, row in rows.items():
        for number in ("1,00,000", "12,34,567", "100,000", "1,234,567", "0-9"):
            if number in source[key]["prompt"]:
                assert number in row.prompt, (key, number)
    table = built / "trans" / "pretranslations.jsonl"
    phrases = {json.loads(line)["phrase"] for line in table.open(encoding="utf-8")}
    assert {"lakh", "million"} <= phrases
    assert any(p in phrases for p in ("kilometres", "kilograms", "kilometers"))
    assert any(p in phrases for p in ("miles", "pounds", "gallons"))

"""The bundled sample-ifbench rows of the custom part (<lang>.ifbench.custom.*.jsonl): one a
language and id where the id is defined, each with an answer that follows it, strict."""

from __future__ import annotations

from indicifeval.checkers import REGISTRY, available_ids
from indicifeval.dataset import load_responses, load_rows
from indicifeval.languages import get_profile, list_languages
from indicifeval.scoring.engine import score_row

IDS = {"custom:character_reverse", "custom:csv_city", "custom:csv_quotes", "custom:csv_special_character",
       "custom:date_format_list", "custom:european_capitals_sort", "custom:mcq_count_length", "custom:multiples",
       "custom:reverse_newline", "custom:sentence_alphabet", "custom:word_reverse", "sentence:alliteration_increment",
       "sentence:increment", "sentence:keyword"}


def test_the_part_s_ids_are_registered():
    assert IDS <= {iid for iid, spec in REGISTRY.items() if spec.suite == "ifbench"}


def test_every_custom_sample_answer_follows_its_instruction():
    rows = [r for r in load_rows("sample-ifbench") if str(r.key).startswith("custom-")]
    responses = load_responses("sample-ifbench")
    wanted = {(code, iid) for code in list_languages() for iid in IDS if iid in available_ids(get_profile(code))}
    assert {(r.language, r.instruction_id_list[0]) for r in rows} == wanted
    assert len(rows) == len(wanted)
    failed = []
    for row in rows:
        s = score_row(row, responses.lookup(row), "fixed")
        if not s.prompt_strict:
            failed.append((row.language, row.key, s.explanations))
    assert not failed, failed

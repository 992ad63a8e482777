"""English: every per-instruction verdict equals the official IFEval scorer's (GPT-4 responses)."""

import json

import pytest

from indicifeval.scoring.api import score
from tests.conftest import shared_path


@pytest.fixture(scope="module")
def english():
    folder = shared_path("data", "ifeval-en")
    rows = [json.loads(line) for line in (folder / "input_data_gpt4_20231107_145030.jsonl").open(encoding="utf-8")]
    reference = {
        kind: [json.loads(line) for line in (folder / f"reference_verdicts_gpt4_{kind}.jsonl").open(encoding="utf-8")]
        for kind in ("strict", "loose")
    }
    return rows, folder / "input_response_data_gpt4_20231107_145030.jsonl", reference


@pytest.mark.parametrize("mode", ["fixed", "paper"])
def test_all_541_verdicts_match_official(english, mode):
    rows, responses, reference = english
    result = score(rows, responses, language="en", scoring=mode)
    assert len(result.scores) == 541
    for kind in ("strict", "loose"):
        mismatches = [
            (s.key, s.instruction_id_list, getattr(s, kind), ref["follow_instruction_list"])
            for s, ref in zip(result.scores, reference[kind])
            if getattr(s, kind) != ref["follow_instruction_list"]
        ]
        assert not mismatches, f"{mode}/{kind}: {mismatches[:5]}"
    o = result.summary["overall"]
    assert (round(o["prompt_level_strict_acc"] * 541), round(o["inst_level_strict_acc"] * 834)) == (417, 698)
    assert (round(o["prompt_level_loose_acc"] * 541), round(o["inst_level_loose_acc"] * 834)) == (431, 714)

"""The bundled sample: every language, every instruction id, pass and fail responses, and
verdicts that match the hand-checked expectations in tests/fixtures/sample_expected."""

import json
from collections import defaultdict

import pytest

from indicifeval.checkers import INSTRUCTION_IDS, REGISTRY, available_ids
from indicifeval.core.errors import InputError
from indicifeval.dataset import load_responses, load_rows
from indicifeval.languages import get_profile, list_languages
from indicifeval.scoring.api import score
from tests.conftest import FIXTURES

SAMPLES = ("sample", "sample-beyond")  # (the second: the instructions beyond the paper, fixed mode only)


@pytest.fixture(scope="module")
def fixed_scores():
    return {s.key: s for name in SAMPLES for s in score(name, name).scores}


def _expected():
    out = {}
    for path in sorted((FIXTURES / "sample_expected").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                out[record["key"]] = record
    return out


@pytest.mark.parametrize("suite", ["beyond", "open-instruct", "ifbench"])
def test_every_instruction_of_a_suite_is_covered_where_it_is_defined(suite):
    """sample-<suite> (fixed mode only) has rows for every id of the suite in every language
    that defines it, and none for an id a language does not define."""
    ids = {iid for iid in INSTRUCTION_IDS if REGISTRY[iid].suite == suite}
    by_lang = defaultdict(set)
    for r in (load_rows(f"sample-{suite}") if ids else []):
        by_lang[r.language].update(r.instruction_id_list)
    paper_ids = {iid for iid in INSTRUCTION_IDS if REGISTRY[iid].suite == "ifeval"}
    for lang in list_languages():
        wanted = set(available_ids(get_profile(lang))) & ids
        assert wanted <= by_lang[lang], (lang, wanted - by_lang[lang])
        assert not by_lang[lang] - wanted - paper_ids, (lang, by_lang[lang] - wanted - paper_ids)


def test_every_language_and_instruction_is_covered():
    rows = load_rows("sample")
    ids_by_lang = defaultdict(set)
    for r in rows:
        ids_by_lang[r.language].update(r.instruction_id_list)
    assert set(ids_by_lang) == set(list_languages())
    paper_ids = {iid for iid in INSTRUCTION_IDS if not REGISTRY[iid].fixed_only}  # (it is scored in paper mode too)
    for lang, ids in ids_by_lang.items():
        assert ids == paper_ids, (lang, paper_ids - ids)
    subsets = {(r.language, r.subset) for r in rows}
    assert all((lang, "ground") in subsets for lang in list_languages() if lang != "en")


def test_pass_and_fail_responses(fixed_scores):
    keys = set(fixed_scores)
    assert keys == {r.key for name in SAMPLES for r in load_rows(name)}
    assert all(load_responses(name).lookup(r) for name in SAMPLES for r in load_rows(name))
    for key, s in fixed_scores.items():
        if key.endswith("-fail"):
            assert not s.prompt_strict, key
            assert key.removesuffix("-fail") + "-pass" in keys


def test_verdicts_match_hand_checked_expectations(fixed_scores):
    expected = _expected()
    assert set(expected) == set(fixed_scores)
    wrong = [(k, s.strict, expected[k]["strict"], s.loose, expected[k]["loose"], s.explanations)
             for k, s in fixed_scores.items()
             if (s.strict, s.loose) != (expected[k]["strict"], expected[k]["loose"])]
    assert not wrong, wrong[:5]


def test_paper_mode_scores_the_sample_and_refuses_the_rows_beyond_the_paper():
    refused = r"as\.beyond\.rows\.jsonl, line 1.*is not one of the paper.s instructions.*--scoring fixed"
    with pytest.raises(InputError, match=refused):
        score("sample-beyond", "sample-beyond", scoring="paper")
    result = score("sample", "sample", scoring="paper")
    assert result.summary["scoring"] == "paper"
    assert all("checker error" not in e for s in result.scores for e in s.explanations)

"""The real Nepali rows of both subsets: they load, validate and score in both modes."""

import json

import pytest

from indicifeval.checkers import TextView, get_rules
from indicifeval.dataset import load_rows
from indicifeval.scoring.api import score_rows
from tests.conftest import shared_path


@pytest.fixture(scope="module", params=["trans", "ground"])
def subset_rows(request):
    path = shared_path("data", "indicifeval-ne", f"indicifeval-{request.param}-ne.jsonl")
    return request.param, path, load_rows(path, language="ne", subset=request.param)


def test_rows_load_with_hub_kwargs(subset_rows):
    subset, path, rows = subset_rows
    assert len(rows) == {"trans": 490, "ground": 341}[subset]
    raw = [json.loads(line) for line in path.open(encoding="utf-8")]
    assert all(len(k) == 24 for r in raw for k in r["kwargs"])  # all 24 names, unused null


@pytest.mark.parametrize("mode", ["fixed", "paper"])
def test_scores_without_error_in_both_modes(subset_rows, mode):
    _, _, rows = subset_rows
    scores = score_rows([(r, r.prompt) for r in rows], mode)
    assert all("checker error" not in e for s in scores for e in s.explanations)
    assert all(s.loose[i] or not s.strict[i] for s in scores for i in range(len(s.strict)))


def test_every_forbidden_word_is_detectable_in_fixed_mode(subset_rows):
    subset, _, rows = subset_rows
    words = [w for r in rows for iid, kw in zip(r.instruction_id_list, r.kwargs)
             if iid == "keywords:forbidden_words" for w in kw["forbidden_words"]]
    fixed, paper = get_rules("ne", subset, "fixed"), get_rules("ne", subset, "paper")
    found_fixed = sum(fixed.forbidden_present(TextView(f"यो {w} हो।", fixed), w) for w in words)
    found_paper = sum(paper.forbidden_present(TextView(f"यो {w} हो।", paper), w) for w in words)
    assert found_fixed == len(words)
    # the reference document counts 48/107 (Trans) and 12/25 (Ground) undetectable for the authors
    assert len(words) - found_paper == {"trans": 48, "ground": 12}[subset]


def test_constrained_prompts_show_the_profile_phrases(subset_rows):
    subset, _, rows = subset_rows
    phrases = get_rules("ne", subset, "fixed").constrained_responses
    prompts = [r.prompt for r in rows if "detectable_format:constrained_response" in r.instruction_id_list]
    assert all(all(p in prompt for p in phrases) for prompt in prompts)
    if subset == "trans":
        assert len(prompts) == 10


def test_ground_relation_is_missing_and_means_exactly(subset_rows):
    subset, _, rows = subset_rows
    if subset != "ground":
        pytest.skip("Ground only")
    freq = [(r, kw) for r in rows for iid, kw in zip(r.instruction_id_list, r.kwargs) if iid == "keywords:frequency"]
    assert freq and all("relation" not in kw for _, kw in freq)
    row, kw = freq[0]
    response = " ".join([kw["keyword"]] * kw["frequency"]) + "।"
    assert score_rows([(row, response)], "fixed")[0].strict == [True]
    response = " ".join([kw["keyword"]] * (kw["frequency"] + 1)) + "।"
    assert score_rows([(row, response)], "fixed")[0].strict == [False]

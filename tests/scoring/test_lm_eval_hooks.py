"""The lm-eval hooks score a doc exactly as score_row does, on the answer only, and never raise."""

import json
import math

import pytest

from indicifeval.checkers import KWARG_NAMES
from indicifeval.dataset import Source, parse_row, sample_path
from indicifeval.lmeval import hooks
from indicifeval.scoring.engine import score_row
from tests.conftest import shared_path

METRICS = ("prompt_level_strict_acc", "inst_level_strict_acc", "prompt_level_loose_acc", "inst_level_loose_acc")


def hub_doc(record: dict) -> dict:
    """A record as the hub serves it: no language/subset fields, all 24 kwarg names, unused ones null."""
    doc = {k: v for k, v in record.items() if k not in ("language", "subset")}
    doc["kwargs"] = [{name: kw.get(name) for name in KWARG_NAMES} for kw in record["kwargs"]]
    return doc


def sample_pairs():
    """(record, response) for every row of the bundled sample."""
    pairs = []
    for rows_path in sample_path("rows"):
        responses_path = rows_path.with_name(rows_path.name.replace(".rows.", ".responses."))
        responses = {r["key"]: r["response"] for r in map(json.loads, responses_path.open(encoding="utf-8"))}
        for record in map(json.loads, rows_path.open(encoding="utf-8")):
            pairs.append((record, responses[record["key"]]))
    return pairs


def expected(record, response, mode="fixed"):
    row = parse_row(record, Source("<test>", 1))
    s = score_row(row, response, mode)
    return {"prompt_level_strict_acc": s.prompt_strict, "inst_level_strict_acc": s.strict,
            "prompt_level_loose_acc": s.prompt_loose, "inst_level_loose_acc": s.loose}


def hook(record):
    return getattr(hooks, f"process_results_{record['subset']}_{record['language']}")


def test_one_hook_per_hub_split():
    names = hooks.hook_names()
    assert len(names) == 29
    assert {"process_results_trans_en", "process_results_trans_hi", "process_results_ground_ur"} <= set(names)
    assert "process_results_ground_en" not in names
    assert hooks.process_results_ground_hi.__name__ == "process_results_ground_hi"
    with pytest.raises(AttributeError):
        hooks.process_results_ground_en  # noqa: B018 - English has no Ground split


def test_sample_docs_score_as_score_row():
    pairs = sample_pairs()
    assert len(pairs) > 300
    passes = 0
    for record, response in pairs:
        got = hook(record)(hub_doc(record), [response])
        assert set(got) == set(METRICS)
        assert got == expected(record, response), record["key"]
        assert isinstance(got["inst_level_strict_acc"], list) and isinstance(got["prompt_level_strict_acc"], bool)
        passes += got["prompt_level_strict_acc"]
    assert 0 < passes < len(pairs)  # the sample has passing and failing responses


@pytest.mark.parametrize("subset", ["trans", "ground"])
@pytest.mark.parametrize("mode", ["fixed", "paper"])
def test_real_nepali_hub_rows(subset, mode, monkeypatch):
    """Real hub rows (24 kwarg names, nulls): same verdicts as score_row, in both modes."""
    path = shared_path("data", "indicifeval-ne", f"indicifeval-{subset}-ne.jsonl")
    monkeypatch.setenv(hooks.SCORING_ENV, mode)
    fn = getattr(hooks, f"process_results_{subset}_ne")
    docs = [json.loads(line) for line in path.open(encoding="utf-8")][:120]
    assert all(len(kw) == 24 for d in docs for kw in d["kwargs"])
    for doc in docs:
        response = doc["prompt"] + "\n\n" + doc["prompt"].upper()
        record = {**doc, "language": "ne", "subset": subset}
        assert fn(doc, [response]) == expected(record, response, mode), doc["key"]


def test_the_task_fixes_language_and_subset():
    record, response = next((r, x) for r, x in sample_pairs() if r["language"] == "hi" and r["subset"] == "trans")
    doc = {**hub_doc(record), "language": "bn", "subset": "ground"}  # a doc cannot re-route itself
    assert hooks.process_results_trans_hi(doc, [response]) == expected(record, response)


def test_reasoning_is_not_scored():
    pairs = [(r, x) for r, x in sample_pairs() if r["language"] in ("hi", "en", "ta")]
    changed = 0
    for record, response in pairs:
        doc, fn, want = hub_doc(record), hook(record), expected(record, response)
        # reasoning that would change the verdict if scored: long, lower-case, English, with commas
        thought = "okay, let me think about this, step by step, in english, with commas, and *stars*.\n" * 5
        assert fn(doc, [f"<think>{thought}</think>\n{response}"]) == want
        assert fn(doc, [f"{thought}</think>{response}"]) == want  # template opened the block
        changed += fn(doc, [thought + response]) != want
    assert changed  # the same text left inline does change verdicts: the split matters


def test_unterminated_reasoning_scores_as_empty():
    record, response = sample_pairs()[0]
    got = hook(record)(hub_doc(record), ["<think>still thinking " + response])
    assert got["prompt_level_loose_acc"] is False
    assert not any(got["inst_level_loose_acc"])


@pytest.mark.parametrize("results", [
    [""], ["   \n\t"], [None], [], None, ["\x00\x00"], ["\ud800 lone surrogate"], ["</think>"],
    ["<think></think>"], ["*" * 5000], ["\n" * 300], ["।॥۔؟" * 200], [b"bytes \xe0\xa4"], [42], [["nested"]],
    ["\u200d\u200c\ufeff" * 50], ["<think>a</think><think>b</think>c"], ["word " * 20000],
])
def test_odd_responses_never_raise(results):
    for record, _ in sample_pairs()[::7]:
        got = hook(record)(hub_doc(record), results)
        n = len(record["instruction_id_list"])
        assert len(got["inst_level_strict_acc"]) == len(got["inst_level_loose_acc"]) == n
        assert got["prompt_level_strict_acc"] <= got["prompt_level_loose_acc"]


def test_paper_mode_from_environment(monkeypatch):
    monkeypatch.delenv(hooks.SCORING_ENV, raising=False)
    assert hooks.scoring_mode().value == "fixed"
    monkeypatch.setenv(hooks.SCORING_ENV, " Paper ")
    assert hooks.scoring_mode().value == "paper"
    record, response = sample_pairs()[3]
    assert hook(record)(hub_doc(record), [response]) == expected(record, response, "paper")
    monkeypatch.setenv(hooks.SCORING_ENV, "lenient")
    with pytest.raises(ValueError, match="INDICIFEVAL_SCORING"):
        hooks.scoring_mode()


def test_agg_inst_level_acc_flattens():
    assert hooks.agg_inst_level_acc([[True, False, True], [True], [False, False]]) == 3 / 6
    assert hooks.agg_inst_level_acc([[True]]) == 1.0
    assert math.isnan(hooks.agg_inst_level_acc([]))

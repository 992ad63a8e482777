"""The in-process rewards agree with ``indicifeval score`` verdict for verdict, read what
``export`` writes, and never raise for an answer; a bad item names itself and its field."""

from __future__ import annotations

import json

import pytest

from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.dataset import load_rows
from indicifeval.rewards import RewardScorer, score_batch, trl, verl_compute_score
from indicifeval.rewards.export import ground_truth, trl_record

DATASETS = ("sample", "sample-beyond")


def _responses(name: str) -> dict:
    from indicifeval.dataset.rows import sample_path

    return {json.loads(line)["key"]: json.loads(line)["response"] for p in sample_path("responses", name)
            for line in p.read_text(encoding="utf-8").splitlines() if line.strip()}


def _cli_scores(tmp_path, name: str, scoring: str = "fixed") -> dict:
    out = tmp_path / f"{name}-{scoring}"
    assert main(["score", "--data", name, "--scoring", scoring, "--out", str(out), "--quiet"]) == 0
    return {(s["language"], s["subset"], s["key"]): s for s in map(json.loads, (out / "scores.jsonl").open())}


def _items(rows, responses, keep_key=True):
    return [{**ground_truth(r), "response": responses[r.key], **({} if keep_key else {"key": None})} for r in rows]


@pytest.mark.parametrize("name, scoring", [("sample", "fixed"), ("sample", "paper"), ("sample-beyond", "fixed")])
def test_score_batch_agrees_with_score_on_every_sample_row(tmp_path, name, scoring):
    rows, responses = load_rows(name), _responses(name)
    expected = _cli_scores(tmp_path, name, scoring)
    verdicts = score_batch(_items(rows, responses), scoring=scoring)
    assert len(verdicts) == len(rows) > 100
    for row, v in zip(rows, verdicts):
        s = expected[row.language, row.subset, row.key]
        assert (list(v.strict), list(v.loose), list(v.explanations)) == (s["strict"], s["loose"], s["explanations"])
        assert v.reward == float(s["prompt_strict"])


def test_the_three_rewards():
    rows, responses = load_rows("sample"), _responses("sample")
    items = _items(rows, responses)
    for kind, expect in (("all", lambda v: float(all(v.strict))), ("fraction", lambda v: sum(v.strict) / len(v.strict)),
                         ("loose-fraction", lambda v: sum(v.loose) / len(v.loose))):
        plain = score_batch(items, reward=kind, implicit=None)
        assert [v.reward for v in plain] == [expect(v) for v in score_batch(items)]
        guarded = score_batch(items, reward=kind)  # the implicit constraints: the plain reward, or 0 with a reason
        assert [0.0 if v.implicit else p.reward for v, p in zip(guarded, plain)] == [v.reward for v in guarded]


def test_the_trl_function_reads_the_exported_columns_and_conversational_completions():
    rows, responses = load_rows("sample")[:40], _responses("sample")
    records = [trl_record(r) for r in rows]
    columns = {c: [rec[c] for rec in records] for c in ("key", "language", "subset", "instruction_id_list", "kwargs")}
    plain = [responses[r.key] for r in rows]
    chat = [[{"role": "assistant", "content": [{"type": "text", "text": t}]}] for t in plain]
    fn = trl(reward="fraction")
    assert fn.__name__ == "indicifeval_fraction"
    expected = [v.reward for v in score_batch(_items(rows, responses), reward="fraction")]
    prompts = [rec["prompt"] for rec in records]
    assert fn(prompts=prompts, completions=plain, **columns) == expected
    assert fn(prompts=prompts, completions=chat, trainer_state=None, completion_ids=[[1]] * 40, **columns) == expected


def test_the_trl_function_by_key_against_a_dataset():
    rows, responses = load_rows("sample"), _responses("sample")
    fn = trl(data="sample", name="ifeval")
    assert fn.__name__ == "ifeval"
    picked = rows[::25]
    got = fn(prompts=[r.prompt for r in picked], completions=[responses[r.key] for r in picked],
             key=[r.key for r in picked], language=[r.language for r in picked])
    assert got == [v.reward for v in score_batch(_items(picked, responses))]


def test_verl_compute_score_reads_the_ground_truth_it_is_given():
    rows, responses = load_rows("sample-beyond"), _responses("sample-beyond")
    for row in rows[::10]:
        truth = json.dumps(ground_truth(row), ensure_ascii=False)
        got = verl_compute_score("indicifeval", responses[row.key], truth, {"index": 0})
        v = score_batch(_items([row], responses))[0]
        assert got["score"] == v.reward and got["instruction_strict"] == sum(v.strict) / len(v.strict)
        assert verl_compute_score("indicifeval", responses[row.key], ground_truth(row), reward="loose-fraction")[
            "score"] == sum(v.loose) / len(v.loose)


def test_reasoning_is_stripped_unless_kept():
    item = {"language": "en", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}
    answer = "<think>first, then, finally</think>The answer has no commas at all."
    assert score_batch([{**item, "response": answer}])[0].reward == 1.0
    assert score_batch([{**item, "response": answer}], strip_reasoning=False)[0].reward == 0.0
    unterminated = score_batch([{**item, "response": "<think>it ran out of tokens"}])[0]
    assert unterminated.reward == 0.0


def test_the_first_spelling_of_the_reasoning_setting_is_still_read():
    """verl configs and serve command lines written for 0.1 say ``think: strip|keep``."""
    truth = {"language": "en", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}
    answer = "<think>first, then, finally</think>The answer has no commas at all."
    assert verl_compute_score("x", answer, truth, think="keep")["score"] == 0.0
    assert verl_compute_score("x", answer, truth, think="strip")["score"] == 1.0
    assert verl_compute_score("x", answer, truth, strip_reasoning=False)["score"] == 0.0
    with pytest.raises(InputError, match="think must be one of strip, keep"):
        verl_compute_score("x", answer, truth, think="drop")
    from indicifeval.cli import build_parser
    from indicifeval.rewards.verdicts import legacy_think

    parser = build_parser("serve")
    for argv, strip in (([], True), (["--keep-reasoning"], False), (["--think", "keep"], False),
                        (["--think", "strip"], True)):
        args = parser.parse_args(["serve", *argv])
        assert legacy_think(args.think, not args.keep_reasoning) is strip, argv


@pytest.mark.parametrize("response", [None, "", "   ", 42, {"content": None}, [], [{"role": "user"}], "\ud800 lone",
                                      "ऀ" * 100_000, "*" * 50_000 + "\n" * 50_000, "<<" * 30_000])
def test_an_answer_never_raises(response):
    item = {"language": "hi", "instruction_id_list": ["detectable_format:title", "length_constraints:number_words",
                                                      "numbers:native_digits"],
            "kwargs": [{}, {"num_words": 5, "relation": "at least"}, {}], "response": response}
    v = score_batch([item])[0]
    assert v.reward in (0.0, 1.0) and len(v.explanations) == 3


@pytest.mark.parametrize("item, field", [
    ({"language": "hi", "instruction_id_list": ["no:such"], "kwargs": [{}]}, "instruction_id_list"),
    ({"language": "xx", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}, "language"),
    ({"language": "hi", "instruction_id_list": ["length_constraints:number_words"], "kwargs": [{"num_words": "x"}]},
     "kwargs[0].num_words"),
    ({"language": "hi", "instruction_id_list": ["punctuation:no_comma"], "kwargs": "[{"}, "kwargs"),
    ({"language": "en", "instruction_id_list": ["numbers:native_digits"], "kwargs": [{}]}, "instruction_id_list[0]"),
    ({"response": "x"}, "instruction_id_list"),
    ({"key": 3, "response": "x"}, "key"),
])
def test_a_bad_item_is_an_input_error_naming_its_field(item, field):
    with pytest.raises(InputError) as err:
        RewardScorer().score([{"response": "a", **item}])
    assert err.value.field == field and err.value.line == 1


def test_paper_mode_refuses_the_instructions_beyond_the_paper():
    with pytest.raises(InputError, match="not one of the paper's instructions"):
        score_batch([{"language": "hi", "instruction_id_list": ["units:metric"], "kwargs": [{}], "response": "5 km"}],
                    scoring="paper")

"""``indicifeval export``: the rows as TRL, verl and NeMo Gym prompt datasets, which the
rewards read back to the same verdicts; --exclude and --holdout; files replaced together."""

from __future__ import annotations

import json
import random

import pytest

from indicifeval.cli import main
from indicifeval.core.errors import Source
from indicifeval.dataset import load_rows
from indicifeval.rewards import RewardScorer, score_batch, trl, verl_compute_score
from indicifeval.rewards.export import export_rows, split_of
from indicifeval.rewards.nemo_gym import verify
from tests.rewards.test_rewards_api import _responses

pq = pytest.importorskip("pyarrow.parquet")


def _expected(rows, responses, reward="all"):
    items = [{"language": r.language, "subset": r.subset, "key": r.key, "kwargs": list(r.kwargs),
              "instruction_id_list": list(r.instruction_id_list), "response": responses[r.key]} for r in rows]
    return [v.reward for v in score_batch(items, reward=reward)]


def test_verl_rows_score_back_through_compute_score(tmp_path):
    assert main(["export", "sample-beyond", "--format", "verl", "--out", str(tmp_path)]) == 0
    table = pq.read_table(tmp_path / "train.parquet").to_pylist()
    rows, responses = load_rows("sample-beyond"), _responses("sample-beyond")
    assert len(table) == len(rows) and not (tmp_path / "test.parquet").exists()
    first = table[0]
    assert first["data_source"] == "indicifeval" and first["ability"] == "instruction_following"
    assert first["prompt"] == [{"role": "user", "content": rows[0].prompt}]
    assert first["reward_model"]["style"] == "rule" and first["extra_info"]["key"] == str(rows[0].key)
    got = [verl_compute_score(r["data_source"], responses[row.key], r["reward_model"]["ground_truth"],
                              r["extra_info"])["score"] for r, row in zip(table, rows)]
    assert got == _expected(rows, responses)


def test_trl_rows_load_as_a_dataset_and_feed_the_reward(tmp_path):
    datasets = pytest.importorskip("datasets")
    assert main(["export", "sample", "--format", "trl", "--out", str(tmp_path), "--holdout", "0.25",
                 "--languages", "hi,ta,en"]) == 0
    data = datasets.load_dataset(str(tmp_path))
    assert set(data) == {"train", "test"} and 0 < len(data["test"]) < len(data["train"])
    rows = {str(r.key): r for r in load_rows("sample") if r.language in ("hi", "ta", "en")}
    assert len(data["train"]) + len(data["test"]) == len(rows)
    responses = _responses("sample")
    train = data["train"]
    columns = {c: train[c] for c in train.column_names if c != "prompt"}
    completions = [responses[k] for k in train["key"]]
    got = trl(reward="fraction")(prompts=train["prompt"], completions=completions, **columns)
    assert got == _expected([rows[k] for k in train["key"]], responses, "fraction")


def test_nemo_gym_examples_are_verify_requests(tmp_path):
    assert main(["export", "sample", "--format", "nemo-gym", "--out", str(tmp_path), "--languages", "bn"]) == 0
    lines = [json.loads(x) for x in (tmp_path / "train.jsonl").read_text(encoding="utf-8").splitlines()]
    rows, responses = [r for r in load_rows("sample") if r.language == "bn"], _responses("sample")
    assert len(lines) == len(rows)
    scorer = RewardScorer()
    for line, row in zip(lines, rows):
        assert line["responses_create_params"]["input"][0]["content"] == row.prompt
        body = {**line, "response": {"output": [{"type": "message", "content": [
            {"type": "output_text", "text": responses[row.key]}]}]}}
        answer = verify(scorer, body, Source("test", None))
        assert answer["reward"] == _expected([row], responses)[0]


def test_exclude_leaves_out_the_evaluation_rows_by_key_and_by_prompt(tmp_path):
    rows = load_rows("sample")
    bench = tmp_path / "bench.jsonl"
    moved = [{"key": f"other-{i}", "language": r.language, "subset": r.subset, "prompt": "  " + r.prompt + "\n",
              "instruction_id_list": list(r.instruction_id_list), "kwargs": list(r.kwargs)}
             for i, r in enumerate(rows[:10])]  # the same prompts under other keys
    same = [{**r.to_record(), "kwargs": list(r.kwargs)} for r in rows[10:15]]
    bench.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in moved + same), encoding="utf-8")
    assert main(["export", "sample", "--format", "verl", "--out", str(tmp_path / "out"), "--exclude", str(bench)]) == 0
    kept = {r["extra_info"]["key"] for r in pq.read_table(tmp_path / "out" / "train.parquet").to_pylist()}
    excluded = {r.key for r in rows[:15]} | {r.key for r in rows if r.prompt in {x.prompt for x in rows[:15]}}
    assert kept == {str(r.key) for r in rows if r.key not in excluded}


def test_the_holdout_split_does_not_depend_on_the_rows_order(tmp_path):
    rows = load_rows("sample")
    shuffled = rows[:]
    random.Random(3).shuffle(shuffled)
    assert [split_of(r, 0.2, 7) for r in rows] == [split_of(r, 0.2, 7) for r in rows]
    a = export_rows(rows, "nemo-gym", tmp_path / "a", holdout=0.2, seed=7)
    b = export_rows(shuffled, "nemo-gym", tmp_path / "b", holdout=0.2, seed=7)
    assert a == b and 0.1 < a["test"] / len(rows) < 0.3

    def keys(folder):
        return sorted(json.loads(x)["id"] for x in (folder / "test.jsonl").read_text(encoding="utf-8").splitlines())

    assert keys(tmp_path / "a") == keys(tmp_path / "b")
    export_rows(rows, "nemo-gym", tmp_path / "a")  # no holdout now: no stale test split beside it
    assert not (tmp_path / "a" / "test.jsonl").exists()


def test_paper_scoring_leaves_out_what_it_cannot_score_and_errors_are_one_line(tmp_path, capsys):
    assert main(["export", "sample-beyond", "--format", "verl", "--out", str(tmp_path / "p"),
                 "--scoring", "paper"]) == 1
    assert "paper scoring cannot score" in capsys.readouterr().err
    assert main(["export", "sample", "--format", "verl", "--out", str(tmp_path / "p"), "--exclude", "sample"]) == 1
    err = capsys.readouterr().err
    assert "no rows left to export" in err and "Traceback" not in err

"""One score record, one writer, one reader: ``scores.jsonl`` lines of score and run folders,
old and new, read back and written again byte for byte; a reward's verdict is the same line
with its reward."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.records import RowScore, read_scores, score_line
from indicifeval.rewards import score_batch
from indicifeval.scoring.output import dumps_line

LEGACY = Path(__file__).resolve().parents[1] / "fixtures" / "legacy"


@pytest.mark.parametrize("folder", ["run-mock", "run-openai"])
def test_lines_written_by_0_1_read_and_write_back_unchanged(folder):
    path = LEGACY / folder / "scores.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert [score_line(s) for s in read_scores(path)] == lines


def test_a_score_folder_and_a_run_folder_write_the_same_line(tmp_path):
    assert main(["score", "--data", "sample", "--out", str(tmp_path / "s"), "--quiet"]) == 0
    assert main(["run", "--backend", "mock", "--model", "m", "--data", "sample", "--out", str(tmp_path / "r"),
                 "--quiet"]) == 0
    for folder in ("s", "r"):
        path = tmp_path / folder / "scores.jsonl"
        scores = list(read_scores(path))
        assert "".join(score_line(s) for s in scores) == path.read_text(encoding="utf-8")
        assert all(score_line(s) == dumps_line(s.to_json()) and s.reward is None for s in scores)
        assert {tuple(json.loads(line)) for line in path.open(encoding="utf-8")} == {tuple(scores[0].to_json())}


def test_a_rewards_verdict_is_the_score_line_with_its_reward(tmp_path):
    assert main(["score", "--data", "sample", "--out", str(tmp_path), "--quiet"]) == 0
    lines = {(s.language, s.subset, s.key): s for s in read_scores(tmp_path / "scores.jsonl")}
    rows = [json.loads(line) for line in (tmp_path / "rows.jsonl").open(encoding="utf-8")][:40]
    answers = {(r["language"], r["subset"], r["key"]): r["response"]
               for r in map(json.loads, (tmp_path / "responses.jsonl").open(encoding="utf-8"))}
    items = [{**{k: r[k] for k in ("key", "language", "subset", "instruction_id_list", "kwargs")},
              "response": answers[(r["language"], r["subset"], r["key"])]} for r in rows]
    for verdict in score_batch(items, reward="fraction"):
        line = verdict.to_json()
        assert line.pop("reward") == verdict.reward
        assert line.pop("implicit") == verdict.implicit  # the implicit constraints' findings, a reward's only
        assert line == lines[(verdict.language, verdict.subset, verdict.key)].to_json()
        again = RowScore.from_json(verdict.to_json())
        assert (again.reward, again.implicit) == (verdict.reward, verdict.implicit)


def test_a_bad_line_names_its_file_line_and_field(tmp_path):
    good = score_line(RowScore(1, "hi", "trans", ["punctuation:no_comma"], [True], [True], True, True, ["ok"],
                               False, "fixed", "0"))
    path = tmp_path / "scores.jsonl"
    path.write_text(good + good.replace('"strict": [true]', '"strict": true'), encoding="utf-8")
    with pytest.raises(InputError, match="must be a list, got bool") as caught:
        list(read_scores(path))
    assert (caught.value.file, caught.value.line, caught.value.field) == (str(path), 2, "strict")
    with pytest.raises(InputError, match="needs this field") as caught:
        RowScore.from_json({"key": 1})
    assert caught.value.field == "language"

"""``indicifeval reward-profile`` end to end (answers files and run folders), and
``indicifeval export --keep CLASS PROFILE`` writing only the rows of those classes."""

from __future__ import annotations

import json

import pytest

from indicifeval.cli import main
from indicifeval.rewards.profile import read_profile
from tests.rewards.test_reward_profile import PLAN, _answers_file

pq = pytest.importorskip("pyarrow.parquet")


def _profile(tmp_path, capsys, *extra: str, plan=PLAN):
    out = tmp_path / "profile.json"
    answers = _answers_file(tmp_path / "a.jsonl", plan)
    assert main(["reward-profile", "sample", "--answers", str(answers), "--out", str(out), *extra]) == 0
    return out, capsys.readouterr()


def test_the_table_and_the_profile(tmp_path, capsys):
    out, printed = _profile(tmp_path, capsys)
    profile = read_profile(out)
    assert profile.data == "sample" and profile.reward == "all" and profile.scoring == "fixed" and profile.implicit
    table = printed.out
    assert "Which prompts teach anything" in table and "mixed %" in table
    mixed = sum(1 for _, c, _ in PLAN if c == "mixed")
    share = f"{100 * mixed / len(PLAN):.1f}"
    hi = [line for line in table.splitlines() if " hi " in line][0]
    assert " 4 " in hi
    assert f"{mixed} mixed ({share}%)" in table and f"--keep mixed {out}" in table
    assert printed.err == ""  # every row answered
    _, printed = _profile(tmp_path, capsys, plan=PLAN[:100])
    assert f"{416 - 100} of the 416 rows have no answer" in printed.err


def test_quiet_and_the_settings(tmp_path, capsys):
    out, printed = _profile(tmp_path, capsys, "--quiet", "--reward", "fraction", "--implicit", "none")
    assert printed.out == "" and printed.err == ""
    profile = read_profile(out)
    assert profile.reward == "fraction" and profile.implicit == ()


def test_help_shows_the_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["reward-profile", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: all)" in text and "(default: fixed)" in text and "--answers FILE" in text


def test_run_folders_are_one_sample_each(tmp_path, capsys):
    folders = []
    for answers in ("sample", "echo"):  # the passing answers, and the prompt echoed back
        folder = tmp_path / answers
        assert main(["run", "--backend", "mock", "--mock-answers", answers, "--data", "sample", "--languages", "hi",
                     "--out", str(folder), "--quiet"]) == 0
        folders += ["--answers", str(folder)]
    out = tmp_path / "p.json"
    assert main(["reward-profile", "sample", *folders, "--out", str(out), "--quiet"]) == 0
    profile = read_profile(out)
    assert len(profile.prompts) == 28 and {p.language for p in profile.prompts} == {"hi"}
    assert all(len(p.rewards) == 2 and p.rewards[1] == 0.0 for p in profile.prompts)
    assert {p.cls for p in profile.prompts} <= {"mixed", "zero"}
    capsys.readouterr()
    assert main(["reward-profile", "sample-beyond", *folders, "--out", str(out), "--quiet"]) == 1
    assert "generations.jsonl, field 'uid': the run answered hi/trans/" in capsys.readouterr().err


def test_export_keeps_only_the_mixed_rows(tmp_path, capsys):
    plan = PLAN[:200]  # the other rows are in no profile: left out, and said so
    profile, _ = _profile(tmp_path, capsys, "--quiet", plan=plan)
    out = tmp_path / "trl"
    assert main(["export", "sample", "--format", "trl", "--out", str(out), "--keep", "mixed", str(profile)]) == 0
    mixed = {(r.language, r.subset, str(r.key)) for r, c, _ in plan if c == "mixed"}
    table = pq.read_table(out / "train.parquet").to_pylist()
    assert {(t["language"], t["subset"], t["key"]) for t in table} == mixed and len(table) == len(mixed)
    said = capsys.readouterr().out
    assert f"kept the {len(mixed)} mixed ones, {len(plan) - len(mixed)} of other classes and " \
           f"{416 - len(plan)} not in the profile left out" in said
    assert main(["export", "sample", "--format", "nemo-gym", "--out", str(out), "--keep", "mixed", str(profile),
                 "--keep", "one", str(profile)]) == 0
    kept = [json.loads(x) for x in (out / "train.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(kept) == sum(1 for _, c, _ in plan if c in ("mixed", "one")) < len(plan)


def test_export_refuses_a_profile_of_another_dataset_or_class(tmp_path, capsys):
    profile, _ = _profile(tmp_path, capsys, "--quiet")
    out = str(tmp_path / "trl")
    assert main(["export", "sample-beyond", "--format", "trl", "--out", out, "--keep", "mixed", str(profile)]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert f"{profile}: none of the" in err and "made on 'sample'" in err and "another dataset" in err
    assert main(["export", "sample", "--format", "trl", "--out", out, "--keep", "some", str(profile)]) == 1
    assert "--keep CLASS must be one of zero, one, flat, mixed, got 'some'" in capsys.readouterr().err
    assert main(["export", "sample", "--format", "trl", "--out", out, "--keep", "flat", str(profile)]) == 1
    assert "the profile puts none of them in flat" in capsys.readouterr().err

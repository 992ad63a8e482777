"""The leaderboard's numbers (``reports.leaderboard``) over mock runs of the bundled sample:
one entry per model identity, the report's own numbers for a one-sample run, the mean over
samples, ties between models that are not significantly apart, the paper's rows, provenance
without secrets or local paths, and the command."""

from __future__ import annotations

import json
import shutil

import pytest

from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.reports.analyses import Analyses, paper_tables
from indicifeval.reports.leaderboard import leaderboard
from indicifeval.reports.loading import load_runs
from indicifeval.reports.units.disparity import delta_language
from indicifeval.reports.units.languages import trans_languages
from tests.reports.leaderboard_runs import make_runs

ORDER = ["good", "near-a", "near-b", "echo", "split-hi", "split-bn", "twice"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return make_runs(tmp_path_factory.mktemp("runs"))


@pytest.fixture(scope="module")
def board(runs):
    return leaderboard(load_runs([runs[k] for k in ORDER]), n_boot=300, paper_rows=True)


def _model(board, label):
    return next(m for m in board["models"] if m["label"] == label)


def test_one_row_per_model_identity_and_split_runs_merge(board):
    runs = [m for m in board["models"] if m["kind"] == "run"]
    assert [m["label"] for m in runs] == ["good", "near-a", "near-b", "echo", "split", "twice"]
    split = _model(board, "split")
    assert split["provenance"]["runs"] == ["split-hi", "split-bn"]
    cells = split["cells"]["prompt"]
    assert {"trans|hi|loose", "trans|bn|loose", "trans|en|loose"} <= set(cells) and "trans|as|loose" not in cells


def test_runs_answering_the_same_prompts_are_refused(runs, tmp_path):
    again = shutil.copytree(runs["good"], tmp_path / "good-again")
    with pytest.raises(InputError, match="same model identity"):
        leaderboard(load_runs([runs["good"], again]), n_boot=0)


def test_one_sample_runs_show_the_reports_numbers(runs, board):
    loaded = load_runs([runs["near-a"], runs["echo"]])
    ctx = Analyses(loaded, "prompt_loose", n_boot=0)
    table, deltas = trans_languages.compute(ctx), delta_language.compute(ctx)
    for run, label in zip(loaded, ("near-a", "echo")):
        cells = _model(board, label)["cells"]["prompt"]
        row = next(r for r in table.rows if r.name == run.info.name)
        for column, estimate in zip(table.columns[1:], row[1:]):
            lang = "avg" if column.kind == "avg" else str(column)
            assert cells[f"trans|{lang}|loose"][0] == pytest.approx(estimate.value)
        delta = next(r for r in deltas.rows if r.name == run.info.name)[-1]
        assert cells["trans|delta|loose"][0] == pytest.approx(delta.value)
        low, value, high = cells["trans|avg|loose"][1], cells["trans|avg|loose"][0], cells["trans|avg|loose"][2]
        assert low <= value <= high


def test_samples_are_averaged(board):
    twice = _model(board, "twice")
    assert twice["samples"] == 2 and twice["provenance"]["manifest_samples"] == 2
    # sample 0 passes every prompt, sample 1 about half: the mean of the two
    good = _model(board, "good")["cells"]["prompt"]["trans|hi|loose"][0]
    value, low, high, n = twice["cells"]["prompt"]["trans|hi|loose"]
    assert good == 1.0 and 0.65 < value < 0.85 and low < value < high and n == 22  # n counts prompts, not answers


def test_adjacent_models_not_significantly_apart(board):
    labels = [m["label"] for m in board["models"]]
    pairs = board["pairs"]["prompt"]["trans|avg|loose"]

    def pair(a, b):
        i, j = sorted((labels.index(a), labels.index(b)))
        return pairs[f"{i}|{j}"]

    assert pair("near-a", "near-b")[3] is False  # they spoil different prompts: the interval holds 0
    assert pair("good", "near-a")[3] is True and pair("near-b", "echo")[3] is True
    assert set(board["pairs"]) == {"prompt", "inst"}
    assert {"trans|avg|strict", "ground|avg|loose"} <= set(board["pairs"]["inst"])


def test_paper_rows_are_the_reports_data(board):
    tables = paper_tables()
    papers = [m for m in board["models"] if m["kind"] == "paper"]
    assert {m["label"] for m in papers} == set(tables["trans"]["models"]) | set(tables["ground"]["models"])
    qwen = _model(board, "Qwen/Qwen3-8B")["cells"]["prompt"]
    published = tables["trans"]["models"]["Qwen/Qwen3-8B"]
    assert qwen["trans|hi|loose"] == [published["hi"] / 100, None, None, None]
    assert qwen["trans|delta|loose"][0] == pytest.approx((published["en"] - published["avg"]) / 100)
    assert "trans|hi|strict" not in qwen and not _model(board, "Qwen/Qwen3-8B")["cells"]["inst"]


def test_provenance_without_secrets_or_local_paths(board):
    prov = _model(board, "twice")["provenance"]
    assert prov["provenance"] == {"machine": {"cpu": "test"}, "weights": "…/w.bin"}
    assert prov["identity"]["model"] == "mock/twice" and prov["scoring"] == "fixed" and prov["scorer_version"]
    text = json.dumps(board)
    assert "sk-secret" not in text and "/home/" not in text and "/tmp" not in text


def test_command_writes_the_site(runs, tmp_path, capsys):
    out = tmp_path / "site"
    assert main(["leaderboard", str(runs["good"]), str(runs["echo"]), "--out", str(out), "--bootstrap", "50",
                 "--paper-rows"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "leaderboard.json", "manifest.json"]
    data = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    assert [m["label"] for m in data["models"] if m["kind"] == "run"] == ["good", "echo"]
    page = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="leaderboard-data"' in page and "fetch(" not in page and "Noto Sans Devanagari" in page
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["tool"] == "leaderboard" and manifest["runs"] == ["good", "echo"]
    assert main(["leaderboard", str(runs["good"]), "--out", str(out), "--quiet"]) == 0  # its own folder: replaced
    # a run folder is never written
    assert main(["leaderboard", str(runs["good"]), "--out", str(runs["echo"])]) != 0
    assert not (runs["echo"] / "index.html").exists()
    assert "not made by `indicifeval leaderboard`" in capsys.readouterr().err

"""A language the package does not ship, added as one profile in $INDICIFEVAL_PROFILE_PATH with
a local hub-layout split, goes through `run --backend mock`, `score` and `report` and shows
up as a column (and in the Indic averages); lm-eval gets a task for it. No code changes."""

import json
from pathlib import Path

import pytest

from indicifeval.cli import main
from indicifeval.dataset import load_dataset, load_rows, write_hub_layout
from indicifeval.languages import composition, indic_codes, reload_profiles

pytest.importorskip("pyarrow")
PROFILES = Path(__file__).resolve().parents[1] / "src" / "indicifeval" / "languages" / "profiles"


@pytest.fixture
def bhojpuri(tmp_path, monkeypatch):
    profile = json.loads((PROFILES / "hi.json").read_text(encoding="utf-8"))
    profile.update(code="bho", name="Bhojpuri", native_name="भोजपुरी")
    folder = tmp_path / "profiles"
    folder.mkdir()
    (folder / "bho.json").write_text(json.dumps(profile, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv("INDICIFEVAL_PROFILE_PATH", str(folder))
    reload_profiles()
    yield tmp_path
    monkeypatch.delenv("INDICIFEVAL_PROFILE_PATH")
    reload_profiles()


def _hub(tmp_path):
    """A local hub layout holding Hindi and Bhojpuri rows (the sample's Hindi rows, relabelled)."""
    rows = [r for r in load_rows("sample") if r.language == "hi"]
    bho = [r.__class__(**{**r.__dict__, "language": "bho", "key": f"bho-{r.key}", "source": None}) for r in rows]
    write_hub_layout(tmp_path / "hub", rows + bho)
    return tmp_path / "hub"


def test_a_profile_alone_makes_a_language_of_the_benchmark(bhojpuri):
    comp = composition()
    assert comp.languages[-1] == "bho" and "bho" in indic_codes()
    assert comp.subsets_of("bho") == ("trans", "ground")
    hub = _hub(bhojpuri)
    ds = load_dataset("trans,ground", "bho", hub)
    assert {r.language for r in ds.rows} == {"bho"} and len(ds.rows) > 10


def test_run_score_report_and_lm_eval_with_a_new_language(bhojpuri, capsys):
    hub = _hub(bhojpuri)
    out = bhojpuri / "run"
    assert main(["run", "--backend", "mock", "--model", "mock-model", "--data", str(hub), "--languages", "hi,bho",
                 "--out", str(out), "--quiet"]) == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert {"bho/trans", "bho/ground", "hi/trans"} <= set(summary["per_language_subset"])
    assert "bho" in summary["indic"]["languages"] and summary["indic"]["average"]["trans"]["languages"] == 2

    responses = bhojpuri / "responses.jsonl"
    lines = [json.loads(x) for x in (out / "generations.jsonl").read_text(encoding="utf-8").splitlines()]
    responses.write_text("".join(json.dumps({"key": g["key"], "language": g["language"], "subset": g["subset"],
                                             "response": g["answer"]}, ensure_ascii=False) + "\n" for g in lines),
                         encoding="utf-8")
    assert main(["score", "--data", str(hub), "--responses", str(responses), "--languages", "bho",
                 "--out", str(bhojpuri / "scored"), "--quiet"]) == 0
    scored = json.loads((bhojpuri / "scored" / "summary.json").read_text(encoding="utf-8"))
    assert list(scored["per_language"]) == ["bho"]

    assert main(["report", str(out), "--out", str(bhojpuri / "rep"), "--no-plots", "--bootstrap", "0",
                 "--quiet"]) == 0
    header = (bhojpuri / "rep" / "tables" / "trans_languages.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "bho" in header and "hi" in header

    capsys.readouterr()
    assert main(["lm-eval-path", "--data", str(hub), "--dest", str(bhojpuri / "tasks")]) == 0
    tasks = bhojpuri / "tasks"
    assert (tasks / "indicifeval_trans_bho.yaml").is_file() and (tasks / "indicifeval_ground_bho.yaml").is_file()
    assert "indicifeval_trans_bho" in (tasks / "_indicifeval_trans.yaml").read_text(encoding="utf-8")
    from indicifeval.lmeval import hooks

    assert callable(hooks.process_results_trans_bho)


def test_the_renamed_copy_is_scored_but_the_check_names_what_it_lacks(bhojpuri, capsys):
    """Scoring needs no more than the renamed copy above; `languages --check` says what a build
    in it would need: its own name in language_names, function words of its own (it shares
    Devanagari with hi), engine codes that are not Hindi's (the full walk-through, with
    Maithili, is tests/languages/test_new_language_data.py)."""
    capsys.readouterr()
    assert main(["languages", "--check", "bho"]) == 1
    errors = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("error:")]
    assert {ln.split(":")[1].strip() for ln in errors} >= {"language_names", "function_words", "codes.nllb"}

"""The analyses on constructed runs whose answers are known."""

import json

import pytest

from indicifeval.cli import main
from indicifeval.reports.api import build_report
from indicifeval.reports.families import guess_family

IDS = ["keywords:existence", "keywords:forbidden_words", "length_constraints:number_words"]


def _write_run(folder, model, thinking, passes: dict[str, int]):
    """Trans rows 1..20 in en/hi/ta (1..10 tagged correct+parallel, 1..4 answered in English)
    and Ground rows 1..6 in hi. ``passes[lang]`` parallel prompts pass (keys 1..n); every
    non-parallel Trans prompt fails, so a table that ignored the parallel filter would show it."""
    folder.mkdir(parents=True)
    manifest = {"generation": {"model": model, "backend": "openai", "max_tokens": 1280, "temperature": 0.0,
                               "top_p": 1.0, "seed": 0, "thinking": thinking, "system_prompt": None}}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    rows, scores = [], []
    for lang in ("en", "hi", "ta"):
        for key in range(1, 21):
            tags = ["correct", "parallel"] if key <= 10 else ["correct"]
            iid = IDS[key % 3]
            ok = key <= passes[lang]
            rows.append({"key": key, "language": lang, "subset": "trans", "prompt": f"{lang} {key}",
                         "instruction_id_list": [iid], "kwargs": [{}], "tags": tags,
                         "resp_lang": "en" if key <= 4 else "src"})
            scores.append({"key": key, "language": lang, "subset": "trans", "instruction_id_list": [iid],
                           "strict": [ok], "loose": [ok], "prompt_strict": ok, "prompt_loose": ok,
                           "explanations": ["x"], "scoring": "fixed"})
    for key in range(1, 7):
        ok = key <= passes.get("ground", 3)
        rows.append({"key": key, "language": "hi", "subset": "ground", "prompt": f"g {key}",
                     "instruction_id_list": [IDS[0]], "kwargs": [{}], "tags": ["gold prompt"], "resp_lang": "src"})
        scores.append({"key": key, "language": "hi", "subset": "ground", "instruction_id_list": [IDS[0]],
                       "strict": [ok], "loose": [ok], "prompt_strict": ok, "prompt_loose": ok,
                       "explanations": ["x"], "scoring": "fixed"})
    (folder / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (folder / "scores.jsonl").write_text("".join(json.dumps(s) + "\n" for s in scores))
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    a = _write_run(root / "a", "org/Model-7B-Instruct", False, {"en": 10, "hi": 5, "ta": 8, "ground": 3})
    b = _write_run(root / "b", "org/Model-7B-Instruct", True, {"en": 10, "hi": 8, "ta": 9, "ground": 5})
    return [a, b]


def _row(table, name):
    return next(r for r in table.rows if r[0] == name)


def _col(table, row, column):
    return row[table.columns.index(column)]


def test_language_table_on_the_parallel_subset(runs):
    rep = build_report(runs, n_boot=200)
    t = rep.tables["trans_languages"]
    a = _row(t, "Model-7B-Instruct (no thinking)")
    assert _col(t, a, "en").value == 1.0 and _col(t, a, "hi").value == 0.5 and _col(t, a, "ta").value == 0.8
    assert _col(t, a, "Avg").value == pytest.approx(0.65)  # mean over the Indic languages present
    assert _col(t, a, "hi").n == 10  # the parallel subset only
    assert _col(t, a, "hi").low <= 0.5 <= _col(t, a, "hi").high
    assert "parallel subset" in t.note
    assert any(str(r[0]).startswith("paper: ") for r in t.rows)  # published numbers beside the runs
    g = rep.tables["ground_languages"]
    assert _col(g, _row(g, "Model-7B-Instruct (no thinking)"), "hi").value == 0.5


def test_delta(runs):
    t = build_report(runs, n_boot=200).tables["delta_language"]
    a = _row(t, "Model-7B-Instruct (no thinking)")
    assert _col(t, a, "hi").value == pytest.approx(0.5) and _col(t, a, "ta").value == pytest.approx(0.2)
    assert _col(t, a, "Avg").value == pytest.approx(0.35)
    assert _col(t, a, "bn").value is None


def test_delta_by_category_and_family(runs):
    rep = build_report(runs, n_boot=100)
    cat = rep.tables["delta_category"]
    keyword = next(r for r in cat.rows if r[0] == "Model-7B-Instruct (no thinking)" and r[1] == "Keyword")
    # Keyword instructions are keys with key % 3 in (0, 1): hi passes 1..5 of them
    en_kw = [k for k in range(1, 11) if k % 3 in (0, 1)]
    hi_rate = sum(k <= 5 for k in en_kw) / len(en_kw)
    assert _col(cat, keyword, "hi").value == pytest.approx(1 - hi_rate)
    fam = rep.tables["delta_family"]
    assert guess_family("org/Model-7B-Instruct") == ("Model", 7.0)
    assert [r[0] for r in fam.rows] == ["Model"]
    assert _col(fam, fam.rows[0], "hi").value == pytest.approx((0.5 + 0.2) / 2)  # mean of the two runs' Δ


def test_keywords_cross_lingual_and_per_instruction(runs):
    rep = build_report(runs, metric="inst_loose", n_boot=100)
    kw = rep.tables["keywords"]
    row = next(r for r in kw.rows if r[0] == "Model-7B-Instruct (no thinking)" and r[1] == "trans")
    inc_keys = [k for k in range(1, 11) if k % 3 == 0]  # keywords:existence, parallel, hi and ta pooled
    exc_keys = [k for k in range(1, 11) if k % 3 == 1]
    inc = (sum(k <= 5 for k in inc_keys) + sum(k <= 8 for k in inc_keys)) / (2 * len(inc_keys))
    exc = (sum(k <= 5 for k in exc_keys) + sum(k <= 8 for k in exc_keys)) / (2 * len(exc_keys))
    assert row[2].value == pytest.approx(inc) and row[3].value == pytest.approx(exc)
    x = rep.tables["cross_lingual"]
    xrow = _row(x, "Model-7B-Instruct (no thinking)")
    assert xrow[1].value == 1.0 and xrow[2].value == 1.0 and xrow[4] == 8  # keys 1..4 pass in hi and ta
    assert "paper: " not in "".join(str(r[0]) for r in rep.tables["trans_languages"].rows)  # not the paper's metric
    inst = rep.tables["per_instruction"]
    assert {r[0] for r in inst.rows} == set(IDS)


def test_thinking_pair_and_comparison(runs):
    rep = build_report(runs, n_boot=200)
    t = rep.tables["thinking"]
    assert len(t.rows) == 1
    row = t.rows[0]
    assert row[0] == "org/Model-7B-Instruct" and row[1] == 7.0
    assert row[2].value == pytest.approx(0.65) and row[3].value == pytest.approx(0.85)
    assert row[4].value == pytest.approx(0.2)
    assert row[5] == pytest.approx(2 * 0.5**4)  # 4 prompts only pass with thinking: exact McNemar
    assert row[6].value == pytest.approx(0.35) and row[7].value == pytest.approx(0.15)
    assert row[8].value == pytest.approx(-0.2)
    cmp = rep.tables["comparison"]
    trans = next(r for r in cmp.rows if r[1] == "trans")
    assert (_col(cmp, trans, "hi").value == pytest.approx(0.3)
            and _col(cmp, trans, "p (McNemar)") == pytest.approx(2 * 0.5**4))


def test_report_command_writes_everything(runs, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "report"
    assert main(["report", *map(str, runs), "--out", str(out), "--bootstrap", "100", "--quiet"]) == 0
    assert (out / "report.md").exists() and (out / "report.json").exists() and (out / "report.html").exists()
    assert (out / "tables" / "trans_languages.csv").exists()
    header = (out / "tables" / "trans_languages.csv").read_text().splitlines()[0].split(",")
    assert header[:5] == ["run", "as (%)", "as low (%)", "as high (%)", "as n"]
    md = (out / "report.md").read_text()
    assert "Disparity Δ" in md and "Thinking vs non-thinking" in md
    data = json.loads((out / "report.json").read_text())
    assert data["tables"]["delta_language"]["rows"]


def test_reproducible(runs):
    a = build_report(runs, n_boot=200, seed=5).to_json()
    b = build_report(runs, n_boot=200, seed=5).to_json()
    assert a == b

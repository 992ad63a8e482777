"""Languages and fonts from data: a language profile added in $INDICIFEVAL_PROFILE_PATH becomes
a column of the language tables (and joins the Indic averages), English is the composition's
reference language, the plots' and the page's fonts come from scripts.json, and the page's CSS
and scripts are package assets."""

from __future__ import annotations

import fnmatch
import json
from importlib import resources
from pathlib import Path

import pytest

from indicifeval.languages import reload_profiles, script_fonts
from indicifeval.reports import api, fonts, html
from indicifeval.reports.analyses import column_languages, reference_language
from indicifeval.reports.model import Report

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


@pytest.fixture
def bhojpuri(tmp_path, monkeypatch):
    """A test-only Indic profile (Hindi's rules) under the code bho."""
    folder = tmp_path / "profiles"
    folder.mkdir()
    data = json.loads(resources.files("indicifeval.languages").joinpath("profiles", "hi.json")
                      .read_text(encoding="utf-8"))
    data.update(code="bho", name="Bhojpuri", native_name="भोजपुरी")
    (folder / "bho.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv("INDICIFEVAL_PROFILE_PATH", str(folder))
    reload_profiles()
    yield "bho"
    monkeypatch.undo()
    reload_profiles()


def _write_run(folder: Path, model: str, passes: dict[str, int]) -> Path:
    """Trans rows 1..10 (tagged correct and parallel) in each language of ``passes`` and Ground
    rows 1..10 in its Indic ones; keys 1..passes[lang] pass."""
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({"generation": {"model": model, "backend": "openai"}}))
    rows, scores = [], []
    for subset in ("trans", "ground"):
        for lang, n in passes.items():
            if subset == "ground" and lang == "en":
                continue
            for key in range(1, 11):
                ok = key <= n
                iid = "keywords:existence" if key % 2 else "keywords:forbidden_words"
                rows.append({"key": key, "language": lang, "subset": subset, "prompt": f"{lang} {key}",
                             "instruction_id_list": [iid], "kwargs": [{}], "tags": ["correct", "parallel"],
                             "resp_lang": "src"})
                scores.append({"key": key, "language": lang, "subset": subset, "instruction_id_list": [iid],
                               "strict": [ok], "loose": [ok], "prompt_strict": ok, "prompt_loose": ok,
                               "explanations": ["x"], "scoring": "fixed"})
    (folder / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (folder / "scores.jsonl").write_text("".join(json.dumps(s) + "\n" for s in scores))
    return folder


def _row(table, name):
    return dict(zip(table.columns, next(r for r in table.rows if r[0] == name)))


def test_an_added_profile_is_a_column_and_joins_the_indic_average(bhojpuri, tmp_path):
    assert column_languages()[-2:] == ("bho", "en") and reference_language() == "en"
    run = _write_run(tmp_path / "run", "org/Model-7B", {"en": 10, "hi": 5, "bho": 8})
    out = tmp_path / "report"
    rep = api.report([run], out, n_boot=20, plots=False)
    trans, ground = rep.tables["trans_languages"], rep.tables["ground_languages"]
    assert [str(c) for c in trans.columns][-3:] == ["bho", "en", "Avg"] and trans.columns[-3].kind == "language"
    assert "bho" in ground.columns and "en" not in ground.columns
    row = _row(trans, "Model-7B")
    assert row["bho"].value == 0.8 and row["en"].value == 1.0
    assert row["Avg"].value == pytest.approx((0.5 + 0.8) / 2)  # bho is Indic: in the average, English is not
    assert _row(ground, "Model-7B")["Avg"].value == pytest.approx((0.5 + 0.8) / 2)
    delta = _row(rep.tables["delta_language"], "Model-7B")
    assert delta["bho"].value == pytest.approx(0.2) and delta["Avg"].value == pytest.approx((0.5 + 0.2) / 2)
    header = (out / "tables" / "trans_languages.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "bho (%)" in header
    page = (out / "report.html").read_text(encoding="utf-8")
    assert '<th class="num" title="Bhojpuri (भोजपुरी)" aria-sort="none"><button type="button">bho</button></th>' in page


def test_without_the_profile_there_is_no_such_column():
    assert "bho" not in column_languages()


def test_font_lists_come_from_the_scripts_data(monkeypatch):
    families = list(dict.fromkeys(f for fs in script_fonts().values() for f in fs))
    assert list(fonts.FONT_FALLBACK) == [*families, "DejaVu Sans"]  # matplotlib's own font last
    stack = fonts.css_font_stack()
    assert stack.startswith("system-ui, -apple-system") and stack.endswith(", sans-serif")
    assert all(f'"{f}"' in stack for f in families)
    monkeypatch.setattr(fonts, "script_fonts", lambda: {**script_fonts(), "Sinh": ("Noto Sans Sinhala",)})
    assert '"Noto Sans Sinhala", "Nirmala UI"' in fonts.css_font_stack()  # a new script: its font, in one place
    assert "Noto Sans Sinhala" in html.stylesheet()


def test_assets_ship_with_the_package():
    tomllib = pytest.importorskip("tomllib")
    folder = resources.files("indicifeval.reports").joinpath("assets")
    for name in html.ASSETS:
        assert folder.joinpath(name).is_file() and html.asset(name).strip(), name
    patterns = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["indicifeval"]
    for name in html.ASSETS:
        assert any(fnmatch.fnmatch(f"reports/assets/{name}", p) for p in patterns), name


def test_page_inlines_the_assets_as_they_are():
    page = html.render_html(Report("prompt_loose", [], {}, [], 0, 0), [])
    for name in html.ASSETS:
        assert html.asset(name) in page, name
    assert f"--report-fonts:{fonts.css_font_stack()}" in page
    assert "var(--report-fonts" in html.asset("report.css") and "__" not in html.asset("report.css")

"""The leaderboard page in a real browser (headless Chromium via playwright, from file://):
no script errors, one row per model, sorting by a header, filtering by model name, language
and subset, the ≈ mark between models not significantly apart, the provenance panel, and the
Indic languages' native names as column labels. Skips without playwright or Chromium."""

from __future__ import annotations

import os
import shutil

import pytest

from indicifeval.reports.leaderboard_page import write_leaderboard
from tests.reports.leaderboard_runs import make_runs

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = os.environ.get("INDICIFEVAL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("no Chromium executable (Debian: apt-get install chromium)", allow_module_level=True)

MODELS = ["good", "near-a", "near-b", "echo", "split", "twice"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    runs = make_runs(tmp_path_factory.mktemp("runs"))
    out = tmp_path_factory.mktemp("site")
    data, _ = write_leaderboard([runs[k] for k in ("good", "near-a", "near-b", "echo", "split-hi", "split-bn",
                                                   "twice")], out, n_boot=200, paper_rows=True)
    return data, out / "index.html"


@pytest.fixture(scope="module")
def page(site):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1400, "height": 900})
        problems: list[str] = []
        tab.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        tab.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
        tab.goto(site[1].resolve().as_uri())
        tab.problems = problems  # type: ignore[attr-defined]
        yield tab
        browser.close()


def _rows(tab, kind: str = "run") -> list[str]:
    return tab.eval_on_selector_all(f"#board tbody tr.{kind}", "rs => rs.map(r => r.getAttribute('data-model'))")


def _column(tab, col: str) -> list[float]:
    return [float(v) for v in tab.eval_on_selector_all(f'#board tbody tr.run td[data-col="{col}"]',
                                                       "cs => cs.map(c => c.getAttribute('data-v'))") if v]


def test_opens_without_errors_one_row_per_model(page):
    assert page.url.startswith("file://")
    assert page.text_content("#js-errors") == "0" and page.problems == []
    assert sorted(_rows(page)) == sorted(MODELS)
    assert len(_rows(page, "paper")) == 22
    assert page.text_content("#board tbody tr.paper .badge") == "reported, not re-run"


def test_indic_labels_are_native_names(page):
    heads = page.eval_on_selector_all("#board thead th .native[lang]", "s => s.map(e => [e.lang, e.textContent])")
    names = dict(heads)
    assert names["hi"] == "हिन्दी" and names["bn"] == "বাংলা" and names["ta"] == "தமிழ்" and names["ur"] == "اردو"
    assert "Hindi (हिन्दी)" in page.eval_on_selector_all("#board thead th[title]", "s => s.map(e => e.title)")


def test_default_order_and_ties(page):
    order = _rows(page)
    values = _column(page, "trans|avg|loose")
    assert values == sorted(values, reverse=True)
    a, b = order.index("near-a"), order.index("near-b")
    assert abs(a - b) == 1  # equal averages, next to each other
    lower = order[max(a, b)]
    mark = page.locator(f'#board tbody tr.run[data-model="{lower}"] td.tie')
    assert mark.text_content() == "≈" and "not significantly different" in mark.get_attribute("title")
    assert page.locator('#board tbody tr.run[data-model="echo"] td.tie').text_content() == ""


def test_sorting_by_a_header(page):
    page.locator('#board thead th[data-col="trans|hi|strict"]').click()  # the header is drawn again
    assert page.locator('#board thead th[data-col="trans|hi|strict"]').get_attribute("aria-sort") == "descending"
    desc = _column(page, "trans|hi|strict")
    page.locator('#board thead th[data-col="trans|hi|strict"]').click()
    assert page.locator('#board thead th[data-col="trans|hi|strict"]').get_attribute("aria-sort") == "ascending"
    asc = _column(page, "trans|hi|strict")
    assert desc == sorted(desc, reverse=True) and asc == sorted(asc) and len(asc) == len(MODELS)
    page.locator('#board thead th[data-col="model"]').click()
    names = _rows(page)
    assert names == sorted(names)


def test_filtering(page):
    page.fill("#f-q", "near")
    assert sorted(_rows(page)) == ["near-a", "near-b"] and _rows(page, "paper") == []
    page.fill("#f-q", "qwen3-8")
    assert _rows(page) == [] and _rows(page, "paper") == ["Qwen/Qwen3-8B"]
    page.fill("#f-q", "")
    page.select_option("#f-lang", "hi")
    cols = page.eval_on_selector_all("#board thead th[data-col]", "s => s.map(e => e.getAttribute('data-col'))")
    assert {c.split("|")[1] for c in cols if c != "model"} == {"hi", "avg", "delta"}
    page.select_option("#f-subset", "ground")
    page.select_option("#f-kind", "loose")
    cols = page.eval_on_selector_all("#board thead th[data-col]", "s => s.map(e => e.getAttribute('data-col'))")
    assert cols == ["model", "ground|hi|loose", "ground|avg|loose"]
    page.select_option("#f-level", "inst")
    assert len(_column(page, "ground|hi|loose")) == len(MODELS)
    for select, value in (("#f-lang", ""), ("#f-subset", ""), ("#f-kind", ""), ("#f-level", "prompt")):
        page.select_option(select, value)
    assert page.problems == []


def test_provenance_panel(page, site):
    assert page.is_hidden("#prov")
    page.click('#board tbody tr.run[data-model="twice"] td.model button')
    assert page.is_visible("#prov") and page.text_content("#prov-title") == "twice"
    assert '"mock/twice"' in page.text_content('#prov-body dd[data-key="identity"]')
    assert page.text_content('#prov-body dd[data-key="scoring"]') == "fixed"
    assert page.text_content('#prov-body dd[data-key="samples"]') == "2"
    assert "sk-secret" not in page.text_content("#prov-body")
    page.click("#prov-close")
    assert page.is_hidden("#prov")
    page.click('#board tbody tr.paper td.model button')
    assert "reported, not re-run" in page.text_content("#prov-title")
    page.keyboard.press("Escape")
    assert page.is_hidden("#prov") and page.text_content("#js-errors") == "0" and page.problems == []

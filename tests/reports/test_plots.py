"""Report figures: every expected PNG and SVG is written, deterministically; Indic text is drawn
with real glyphs (no tofu) by the configured font fallback list."""

from __future__ import annotations

import logging
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")
import matplotlib.image  # noqa: E402
import numpy as np  # noqa: E402

from indicifeval.reports import fonts  # noqa: E402
from indicifeval.reports.api import build_report  # noqa: E402
from indicifeval.reports.figures import write_plots  # noqa: E402
from indicifeval.reports.model import Report  # noqa: E402
from tests.reports.demo_runs import make_demo_runs  # noqa: E402

INDIC_TEXT = "नमस्ते দুনিয়া வணக்கம் سلام"
UNASSIGNED = "\u0378"  # no font has a glyph for an unassigned code point: drawn as tofu
EXPECTED = [
    "trans_languages", "ground_languages", "paper_reference_trans", "paper_reference_ground", "delta_language",
    "delta_category_llama-3-2-3b-instruct", "delta_category_qwen3-8b-no-thinking",
    "delta_category_qwen3-8b-thinking", "delta_category_gemma-3-27b-it", "indic_average", "keywords", "thinking",
]


def _require_indic_fonts():
    gaps = fonts.missing_scripts()
    if gaps:
        pytest.skip(f"no installed font for the script of {', '.join(sorted(gaps))}: {fonts.INSTALL_HINT}")


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Report:
    runs = make_demo_runs(tmp_path_factory.mktemp("runs"))
    return build_report(runs, n_boot=200)


@pytest.fixture(scope="module")
def written(report, tmp_path_factory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("plots")
    return out, write_plots(report, out)


# -- the figures ---------------------------------------------------------------------------------
def test_every_figure_in_both_formats(written):
    out, files = written
    assert sorted(p.name for p in files) == sorted(f"{n}.{ext}" for n in EXPECTED for ext in ("png", "svg"))
    for name in EXPECTED:
        png, svg = out / f"{name}.png", out / f"{name}.svg"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        image = matplotlib.image.imread(png)
        assert image.shape[0] > 300 and image.shape[1] > 600, name
        assert image[..., :3].std() > 0.05, f"{name}.png looks blank"
        assert png.stat().st_size > 20_000, name
        text = svg.read_text(encoding="utf-8")
        root = ET.fromstring(text)
        assert root.tag.endswith("svg")
        assert svg.stat().st_size > 20_000, name
        assert "<text" not in text, f"{name}.svg: text must be drawn as paths"
        assert "<dc:date>" not in text, f"{name}.svg carries a date"


def test_rcparams_left_alone(report, tmp_path):
    before = dict(matplotlib.rcParams)
    write_plots(Report(report.metric, report.runs, {"thinking": report.tables["thinking"]}, [], 0, 0), tmp_path)
    after = dict(matplotlib.rcParams)
    assert {k for k in before if before[k] != after[k]} == set()


def test_deterministic(report, tmp_path):
    small = Report(report.metric, report.runs,
                   {k: report.tables[k] for k in ("delta_language", "thinking")}, [], 0, 0)
    a, b = write_plots(small, tmp_path / "a"), write_plots(small, tmp_path / "b")
    assert [p.name for p in a] == [p.name for p in b] == ["delta_language.png", "delta_language.svg",
                                                         "thinking.png", "thinking.svg"]
    for x, y in zip(a, b):
        assert x.read_bytes() == y.read_bytes(), x.name


def test_missing_or_empty_tables_are_skipped(report, tmp_path):
    assert write_plots(Report(report.metric, [], {}, [], 0, 0), tmp_path / "none") == []
    trans = report.tables["trans_languages"]
    only_paper = type(trans)(trans.name, trans.title, trans.columns,
                             [r for r in trans.rows if str(r[0]).startswith("paper: ")])
    files = write_plots(Report(report.metric, report.runs, {"trans_languages": only_paper}, [], 0, 0), tmp_path / "p")
    assert [p.name for p in files] == ["paper_reference_trans.png", "paper_reference_trans.svg"]


# -- fonts -----------------------------------------------------------------------------------------
def test_fallback_list():
    families = fonts.installed_fonts()
    assert families[-1] == "DejaVu Sans"  # bundled with matplotlib: always there, always last
    assert families == [f for f in fonts.FONT_FALLBACK if f in families]


def test_missing_glyphs_basics():
    assert fonts.missing_glyphs("") == set()
    assert fonts.missing_glyphs(f"abc {UNASSIGNED}\u200c") == {UNASSIGNED}  # ZWNJ: consumed by the shaper
    assert "न" in fonts.missing_glyphs("नमस्ते", ["DejaVu Sans"])  # DejaVu alone has no Devanagari


def test_every_language_and_sample_text_has_glyphs():
    _require_indic_fonts()
    from indicifeval.dataset import load_responses, load_rows
    from indicifeval.languages import get_profile, list_languages

    for code in list_languages():
        assert fonts.missing_glyphs(get_profile(code).native_name) == set(), code
    responses = load_responses("sample")
    rows = [r for r in load_rows("sample") if r.language != "en"]
    assert {r.language for r in rows} >= {"hi", "bn", "ta", "ur", "ml", "or"}
    text = "".join(r.prompt + (responses.lookup(r) or "") for r in rows)
    assert fonts.missing_glyphs(text) == set()
    assert fonts.missing_glyphs(INDIC_TEXT) == set()


def test_warns_once_with_install_hint(monkeypatch):
    monkeypatch.setattr(fonts, "installed_fonts", lambda: ["DejaVu Sans"])
    monkeypatch.setattr(fonts, "_warned", False)
    with matplotlib.rc_context():
        with pytest.warns(UserWarning, match="apt-get install fonts-noto-core") as record:
            assert fonts.configure_matplotlib() == ["DejaVu Sans"]
        assert "hi" in str(record[0].message)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            fonts.configure_matplotlib()  # once per process


def _render(text: str, families: list[str]) -> np.ndarray:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 1), dpi=100)
    canvas = FigureCanvasAgg(fig)
    fig.text(0.02, 0.5, text, fontsize=20, va="center", family=families)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].astype(float) / 255


def test_indic_text_renders_without_tofu(caplog):
    _require_indic_fonts()
    with matplotlib.rc_context():
        families = fonts.configure_matplotlib()
        with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING, logger="matplotlib"):
            warnings.simplefilter("always")
            indic = _render(INDIC_TEXT, families)
        messages = [str(w.message) for w in caught] + [r.getMessage() for r in caplog.records]
        assert not [m for m in messages if "missing from font" in m or "not found" in m], messages
        n = len([c for c in INDIC_TEXT if not c.isspace()])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tofu = _render(UNASSIGNED * n, families)
        assert any("missing from font" in str(w.message) for w in caught)  # the check can see tofu
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            dejavu_only = _render(INDIC_TEXT, ["DejaVu Sans"])
    assert indic.std() > 0.05 and tofu.std() > 0.05  # both drew something
    # a drawn text and a row of boxes differ on a good share of the pixels
    for other in (tofu, dejavu_only):
        changed = (np.abs(indic - other).max(axis=-1) > 0.25).mean()
        assert changed > 0.03, changed

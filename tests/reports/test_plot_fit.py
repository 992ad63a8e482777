"""Nothing in a figure is cut off at its edge: every title lies inside the figure, and so does
everything drawn (labels, legends, colour-bar labels), for the demo runs and for long run
names, one run (the narrowest bar charts), six runs and a single keyword panel."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicifeval.reports.api import build_report
from indicifeval.reports.figures import write_plots
from indicifeval.reports.model import Report
from tests.reports.demo_runs import make_demo_runs
from tests.reports.system import require_indic_fonts
from tests.reports.test_analyses import _write_run

pytest.importorskip("matplotlib")


@pytest.fixture(autouse=True)
def _indic_fonts():
    """The measured layouts are those of real glyphs: fallback fonts lay text out otherwise."""
    require_indic_fonts()

LONG = ("org/A-Really-Quite-Long-Model-Name-For-Testing-Purposes-7B-Instruct-v0.3",
        "org/Another-Extremely-Verbose-Model-Identifier-13B-Chat-Preview", "org/Short-1B")
SLACK = 0.5  # pixels


def _long_runs(root: Path, n: int) -> list[Path]:
    """``n`` runs, pairs of one long-named model without and with thinking."""
    return [_write_run(root / f"r{i}", f"{LONG[(i // 2) % 3]}-v{i // 2}", bool(i % 2),
                       {"en": 10, "hi": 5 + i % 4, "ta": 8, "ground": 3}) for i in range(n)]


def _overflows(fig) -> list[str]:
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    titles = [fig._suptitle] + [t for ax in fig.axes for t in (ax.title, ax._left_title, ax._right_title)]
    out = []
    for text in titles:
        if text is None or not text.get_visible() or not text.get_text():
            continue
        e = text.get_window_extent(renderer)
        if e.x0 < -SLACK or e.y0 < -SLACK or e.x1 > width + SLACK or e.y1 > height + SLACK:
            out.append(f"title {text.get_text()!r}: {e.bounds} outside {width:.0f}x{height:.0f}")
    tight = fig.get_tightbbox(renderer).transformed(fig.dpi_scale_trans)  # everything drawn, in pixels
    if tight.x0 < -SLACK or tight.y0 < -SLACK or tight.x1 > width + SLACK or tight.y1 > height + SLACK:
        out.append(f"drawn content {tight.bounds} outside {width:.0f}x{height:.0f}")
    return out


@pytest.fixture
def probe(monkeypatch):
    """Figure stem -> what runs past its edge, measured on the layout its files were written with."""
    from indicifeval.reports import figures

    found: dict[str, list[str]] = {}
    write_figure = figures.write_figure

    def measured(fig, out_dir, name):
        files = write_figure(fig, out_dir, name)
        found[name] = _overflows(fig)
        if name == "thinking":  # long names beside the lines must not squeeze the panels
            found["thinking"] += [f"panel {ax.bbox.width:.0f} px wide" for ax in fig.axes
                                  if ax.bbox.width < 0.3 * fig.bbox.width]
        return files

    monkeypatch.setattr(figures, "write_figure", measured)
    return found


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory):
    return build_report(make_demo_runs(tmp_path_factory.mktemp("runs")), n_boot=50)


def _check(report, out: Path, probe: dict, expected: set[str]) -> None:
    files = write_plots(report, out)
    assert {p.stem for p in files} == set(probe) and expected <= set(probe)
    assert {stem: bad for stem, bad in probe.items() if bad} == {}


def test_demo_figures_fit(demo_report, tmp_path, probe):
    _check(demo_report, tmp_path, probe, {"indic_average", "keywords", "thinking", "delta_language"})


@pytest.mark.parametrize("n_runs", [1, 6])  # one run: the narrowest bar charts
def test_long_run_names_fit(n_runs, tmp_path, probe):
    report = build_report(_long_runs(tmp_path / "runs", n_runs), n_boot=50)
    expected = {"indic_average", "delta_language", "trans_languages"} | ({"thinking"} if n_runs > 1 else set())
    _check(report, tmp_path / "plots", probe, expected)


def test_single_keyword_panel_fits(tmp_path, probe):
    report = build_report(_long_runs(tmp_path / "runs", 2), n_boot=50)
    keywords = report.tables["keywords"]
    keywords.rows = [r for r in keywords.rows if r[1] == "trans"]  # one panel: the narrowest figure
    _check(Report(report.metric, report.runs, {"keywords": keywords}, [], 0, 0), tmp_path / "plots", probe,
           {"keywords"})

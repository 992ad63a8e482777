"""Heatmaps drawn for speed show what a plain draw would: a refilled (reused) per-run heatmap
writes the same bytes as a fresh one, the PNG drawn over a kept background has the pixels of a
full draw, the PNG encoder is lossless, and each cell says its value."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")
from PIL import Image  # noqa: E402

from indicifeval.reports import figures, heatmaps, plots  # noqa: E402
from indicifeval.reports.api import build_report  # noqa: E402
from indicifeval.reports.model import Report  # noqa: E402
from tests.reports.demo_runs import make_demo_runs  # noqa: E402


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Report:
    return build_report(make_demo_runs(tmp_path_factory.mktemp("runs")), n_boot=50)


def _only(report: Report, *names: str) -> Report:
    return Report(report.metric, report.runs, {k: report.tables[k] for k in names}, [], 0, 0)


def test_refilled_heatmaps_write_what_fresh_ones_do(report, tmp_path, monkeypatch):
    small = _only(report, "delta_category")
    refills = []
    refill = heatmaps._Kept.refill

    def counted(self, *args):
        refills.append(refill(self, *args))
        return refills[-1]

    monkeypatch.setattr(heatmaps._Kept, "refill", counted)
    reused = figures.write_plots(small, tmp_path / "reused")
    assert len(reused) == 2 * len(report.runs) and refills.count(True) == len(report.runs) - 1
    heatmap = heatmaps.heatmap

    def fresh(*args, **kwargs):
        heatmaps._drop()  # nothing kept: every figure built and laid out anew
        return heatmap(*args, **kwargs)

    monkeypatch.setattr(heatmaps, "heatmap", fresh)
    figures.write_plots(small, tmp_path / "fresh")
    for path in reused:
        assert path.read_bytes() == (tmp_path / "fresh" / path.name).read_bytes(), path.name


def test_png_over_the_kept_background_is_a_full_draw(report, tmp_path, monkeypatch):
    render, seen = heatmaps.render, []

    def compared(fig):
        fast = render(fig).copy()
        fig.canvas.draw()
        seen.append(np.array_equal(fast, np.asarray(fig.canvas.buffer_rgba())))
        return fast

    monkeypatch.setattr(heatmaps, "render", compared)
    figures.write_plots(_only(report, "trans_languages", "delta_language", "delta_category"), tmp_path)
    assert len(seen) > len(report.runs) and all(seen)  # every heatmap, the per-run ones refilled


@pytest.mark.parametrize("opaque", [True, False])
def test_png_encoder_is_lossless(opaque):
    rgba = np.random.default_rng(0).integers(0, 256, (23, 41, 4), dtype=np.uint8)
    if opaque:
        rgba[..., 3] = 255
    image = Image.open(io.BytesIO(figures.png_bytes(rgba)))
    assert image.mode == ("RGB" if opaque else "RGBA")
    assert round(image.info["dpi"][0]) == plots.DPI
    assert np.array_equal(np.asarray(image), rgba[..., :3] if opaque else rgba)


def test_cell_numbers():
    assert [heatmaps.cell_text(v, True) for v in (0.034, -0.021, -0.001, 0.0, float("nan"))] == [
        "+3", "−2", "0", "0", "–"]
    assert [heatmaps.cell_text(v, False) for v in (0.874, 1.0)] == ["87", "100"]


def test_missing_cells_are_grey(tmp_path: Path):
    import matplotlib
    from matplotlib.colors import to_rgba

    with matplotlib.rc_context(plots.RC):
        fig = heatmaps.heatmap(np.array([[0.5, np.nan]]), ["run"], ["hi", "ta"], "t", signed=False, colour_label="%")
        cells = fig._indicifeval_heatmap.cells
        assert tuple(cells.faces[1]) == to_rgba(heatmaps.MISSING_COLOUR)
        assert sum(len(where) for _, where, _, _ in cells.glyphs) == len("50") + len("–")  # glyphs stamped
        files = figures.save(fig, tmp_path, "t")
    assert [p.name for p in files] == ["t.png", "t.svg"] and all(p.stat().st_size > 1000 for p in files)

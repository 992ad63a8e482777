"""Every figure's files: ``write_plots`` draws each figure the registered analyses declare
(each analysis's unit holds its own, see ``reports/units``) and writes each as PNG (150 dpi)
and SVG (text as paths, so it shows without the fonts in a browser).

A figure is skipped when its table is absent or empty. Titles and labels wider than their
figure (long run names, few runs) are wrapped, then shrunk, before saving; the layout is then
kept for both files (see ``save``). Deterministic: the Agg canvas encoded here (no metadata),
no dates in the SVG, a fixed SVG hash salt. Needs matplotlib: imported only to draw.
"""

from __future__ import annotations

import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

from indicifeval.reports import heatmaps
from indicifeval.reports.fonts import PlotFonts
from indicifeval.reports.model import Report
from indicifeval.reports.plots import DPI, RC
from indicifeval.reports.registry import Figure, registered_figures, slug


def _labels(fig) -> list:
    """The figure's titles and axis labels (colour bars' too): the texts that name things."""
    texts = [fig._suptitle] if fig._suptitle is not None else []
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
    return [t for t in texts if t.get_visible() and t.get_text()]


def _fit_labels(fig, rounds: int = 4) -> None:
    """Wrap, then shrink, the labels that run past the figure's edge (a long run name, few runs
    or rows): constrained layout makes room around a label but cannot shorten it. Leaves the
    figure laid out for its labels as they end up."""
    original: dict = {}  # each label as the figure set it: rewrapped from it, narrower each round
    for _ in range(rounds):
        fig.draw_without_rendering()  # lays the figure out as saving will
        renderer, box = fig.canvas.get_renderer(), fig.bbox
        over = [(t, t.get_window_extent(renderer)) for t in _labels(fig)]
        over = [(t, e) for t, e in over if e.x0 < box.x0 - 0.5 or e.x1 > box.x1 + 0.5 or e.y0 < box.y0 - 0.5
                or e.y1 > box.y1 + 0.5]
        if not over:
            return
        for text, extent in over:
            if abs(text.get_rotation() % 180 - 90) < 1:  # vertical: a y label, a colour bar's label
                size, room = extent.height, box.height - 8
            elif text.get_horizontalalignment() == "left":
                size, room = extent.width, box.x1 - max(extent.x0, box.x0) - 8
            else:
                size, room = extent.width, box.width - 8
            ratio = max(room, 1.0) / max(size, 1.0)
            lines = original.setdefault(text, text.get_text()).split("\n")
            width = max(12, int(max(len(line) for line in text.get_text().split("\n")) * min(ratio, 0.97)))
            wrapped = "\n".join(textwrap.fill(line, width, break_long_words=False) for line in lines)
            if wrapped.count("\n") > text.get_text().count("\n"):
                text.set_text(wrapped)
            else:  # nothing left to wrap at: smaller
                text.set_fontsize(max(5.0, text.get_fontsize() * min(ratio, 0.97)))
    fig.draw_without_rendering()  # the last round's changes, laid out


def _pin_labels(fig) -> None:
    """Keep titles and axis labels where the layout put them: otherwise every draw measures all
    tick labels again (several times) to place them, a third of a heatmap's drawing."""
    for ax in fig.axes:
        if getattr(ax, "_autotitlepos", False) is not False:
            ax._autotitlepos = False  # what set_title(y=...) does; the titles keep their positions
        to_axes = ax.transAxes.inverted()
        for axis in (ax.xaxis, ax.yaxis):
            label = axis.label
            xy = to_axes.transform(label.get_transform().transform(label.get_position()))
            axis.set_label_coords(*xy)


def png_bytes(rgba: np.ndarray, dpi: float = DPI) -> bytes:
    """A PNG of an RGBA pixel array (RGB when it is opaque, as a figure on its white ground is):
    unfiltered rows, zlib level 6, the dpi recorded, nothing else. Three times faster than
    Pillow's adaptive filters here (flat colours and white) and a smaller file."""
    import struct
    import zlib

    height, width = rgba.shape[:2]
    pixels = rgba[..., :3] if bool((rgba[..., 3] == 255).all()) else rgba
    rows = np.zeros((height, 1 + width * pixels.shape[2]), dtype=np.uint8)  # each row: filter 0, pixels
    rows[:, 1:] = pixels.reshape(height, -1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    per_metre = round(dpi / 0.0254)
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2 if pixels is not rgba else 6, 0, 0, 0))
            + chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))
            + chunk(b"IDAT", zlib.compress(rows.data, 6)) + chunk(b"IEND", b""))


def write_figure(fig, out_dir: Path, name: str) -> list[Path]:
    """``name``.png (the Agg canvas's pixels, see ``heatmaps.render``) and ``name``.svg, each
    written atomically."""
    import io

    from indicifeval.core.files import write_bytes

    png, svg = out_dir / f"{name}.png", out_dir / f"{name}.svg"
    write_bytes(png, png_bytes(heatmaps.render(fig), fig.dpi))
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", dpi=DPI, metadata={"Date": None})
    write_bytes(svg, buffer.getvalue())
    return [png, svg]


def save(fig, out_dir: Path, name: str) -> list[Path]:
    """PNG and SVG of ``fig``: laid out once (while fitting its labels), then drawn once per
    file with the layout, titles and axis labels kept (each draw of a figure with a layout
    engine lays it out again, and saving one draws it twice: the text layout is most of a
    figure's time). A refilled heatmap is laid out already; a heatmap is kept for the next of
    its shape, any other figure is cleared."""
    if fig.get_layout_engine() is not None:
        fig.set_dpi(DPI)
        PlotFonts.widen(fig)
        _fit_labels(fig)
        fig.set_layout_engine(None)  # not "none": its placeholder engine still makes savefig draw twice
        _pin_labels(fig)
    paths = write_figure(fig, out_dir, name)
    if not heatmaps.keep(fig):
        fig.clear()
    return paths


def write_plots(report: Report, out_dir: str | Path, step: Callable[[str], None] | None = None) -> list[Path]:
    """Write every figure the report's tables allow into ``out_dir``; returns the files (PNG and
    SVG of each figure, in that order).

    Text no installed font draws becomes one line in ``report.notes`` (what to install), not
    matplotlib's warning per missing glyph; other warnings pass."""
    import matplotlib

    from indicifeval.reports.fonts import GLYPH_WARNING, configure_matplotlib, missing_fonts_note

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    with matplotlib.rc_context(RC), warnings.catch_warnings():  # type: ignore[arg-type]  # the caller's rcParams come back afterwards
        warnings.filterwarnings("ignore", message=GLYPH_WARNING, category=UserWarning)
        PlotFonts.setup(configure_matplotlib(warn=False))
        matplotlib.rcParams["font.family"] = PlotFonts.latin
        with heatmaps.reusing():
            for unit, figure in registered_figures():
                files += _draw(figure, report, unit.table_in(report), out_dir)
                if step is not None:
                    step(f"figure {figure.stem}")
    note = missing_fonts_note(PlotFonts.missing)
    if note and note not in report.notes:
        report.notes.append(note)
    return files


def _draw(figure: Figure, report: Report, table, out_dir: Path) -> list[Path]:
    """One registered figure's files: one figure, or one per run (named by the run's slug)."""
    if not figure.per_run:
        fig = figure.draw(report, table)
        return [] if fig is None else save(fig, out_dir, figure.stem)
    files, used = [], set()
    for run, fig in figure.draw(report, table) or ():
        name, i = slug(run), 2
        while name in used:
            name, i = f"{slug(run)}-{i}", i + 1
        used.add(name)
        files += save(fig, out_dir, f"{figure.stem}_{name}")
    return files

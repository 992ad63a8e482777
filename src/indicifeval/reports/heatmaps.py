"""Heatmaps, drawn for speed (the units import this module where they draw: it needs matplotlib).

A heatmap's cells and numbers are one artist, :class:`Cells`: a square stamped at every cell,
and each glyph of the numbers outlined once and stamped wherever it occurs (one path collection
each, a ``<use>`` per stamp in the SVG), instead of an image, grid lines and a text artist per
cell: drawing those texts was most of a heatmap's time, and every run adds cells. A heatmap is
kept, laid out, for the next one of the same shape and labels (the per-run Δ by category),
which then changes only its cells and title (:func:`heatmap`, :func:`reusing`); its canvas
keeps what does not change, so the PNG draws only the cells and the title (:func:`render`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib
import numpy as np
from matplotlib.artist import Artist
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize, to_rgba
from matplotlib.font_manager import FontProperties, findfont, get_font
from matplotlib.path import Path
from matplotlib.text import Text, TextPath
from matplotlib.textpath import text_to_path
from matplotlib.transforms import Affine2D, IdentityTransform

from indicifeval.reports.fonts import PlotFonts
from indicifeval.reports.plots import DIVERGING, MISSING_COLOUR, SEQUENTIAL, new_figure, signed_limit

GRID, GRID_WIDTH = to_rgba("white"), 1.2  # the lines between the cells, in points
VALUE_SIZE = 8  # points
NO_EDGE = np.zeros((0, 4))
INK = {"dark": to_rgba("black"), "light": to_rgba("white"), "none": to_rgba("#555555")}
_SQUARE = Path([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5), (-0.5, -0.5)], closed=True)
_outlines: dict = {}  # glyph -> its outline in points
_layouts: dict = {}  # (number, font families, dpi) -> its glyphs


def cell_text(v: float, signed: bool) -> str:
    """A cell's number: whole points, signed on a Δ map, a true minus sign, '–' for none."""
    if not np.isfinite(v):
        return "–"
    text = f"{100 * v:.0f}"
    if signed and text not in ("0", "-0"):
        text = f"{100 * v:+.0f}"
    return ("0" if text == "-0" else text).replace("-", "−")


def _glyphs(text: str, fig) -> list[tuple[str, float, float]]:
    """A number's glyphs, (glyph, x, y) in points from its cell's centre, where ``ax.text(...,
    ha="center", va="center")`` would put them (measured once on such a text); each glyph's
    outline goes to ``_outlines``, drawn once per figure and stamped wherever it occurs."""
    families = tuple(matplotlib.rcParams["font.family"])
    key = (text, families, fig.dpi)
    if key in _layouts:
        return _layouts[key]
    prop = FontProperties(family=list(families), size=VALUE_SIZE)
    probe = Text(0, 0, text, fontproperties=prop, ha="center", va="center")
    probe.set_figure(fig)
    renderer = fig.canvas.get_renderer()
    centred = probe.get_window_extent(renderer)
    probe.set_verticalalignment("baseline")
    baseline = probe.get_window_extent(renderer)
    to_points = 72 / fig.dpi
    x0, y0 = centred.x0 * to_points, (centred.y0 - baseline.y0) * to_points
    font = get_font(findfont(prop))
    if all(font.get_char_index(ord(c)) for c in text):  # the first family draws it all (digits, signs)
        font.set_size(text_to_path.FONT_SCALE, text_to_path.DPI)
        info, outlines, _ = text_to_path.get_glyphs_with_font(font, text)
        scale = VALUE_SIZE / text_to_path.FONT_SCALE
        for glyph, (verts, codes) in outlines.items():
            _outlines.setdefault(glyph, Path(verts * scale, codes))
        glyphs = [(glyph, x0 + x * scale, y0 + y * scale) for glyph, x, y, _ in info]
    else:  # drawn by fallback fonts: the whole number as one outline
        _outlines.setdefault(text, TextPath((0, 0), text, prop=prop))
        glyphs = [(text, x0, y0)]
    _layouts[key] = glyphs
    return glyphs


class Cells(Artist):
    """A heatmap's cells and the numbers on them, drawn through the renderer's path collections."""

    def __init__(self, ax, shape: tuple[int, int], norm, colormap):
        super().__init__()
        self.ax, self.shape, self.norm, self.colormap = ax, shape, norm, colormap
        self.centres = np.array([(j, i) for i, j in np.ndindex(*shape)], dtype=float)
        self.faces = np.zeros((len(self.centres), 4))
        self.glyphs: list[tuple] = []  # (outline, cells, offsets in points, colours) per glyph
        self.set_zorder(1)
        self.set_in_layout(False)  # inside the axes: nothing to make room for
        ax.add_artist(self)

    def fill(self, values: np.ndarray, signed: bool) -> None:
        """Colour the cells by ``values`` and write them: dark on light cells, light on dark."""
        flat = values.ravel()
        finite = np.isfinite(flat)
        self.faces = self.colormap(self.norm(np.ma.masked_invalid(flat * 100)))
        rgba = self.colormap(self.norm(np.where(finite, 100 * flat, 0.0)))
        light = 0.2126 * rgba[:, 0] + 0.7152 * rgba[:, 1] + 0.0722 * rgba[:, 2] > 0.5
        fig = self.ax.get_figure()
        groups: dict[str, tuple[list, list, list]] = {}  # glyph -> cells, offsets (points), colours
        for k, v in enumerate(flat):
            ink = INK["none" if not finite[k] else "dark" if light[k] else "light"]
            for glyph, x, y in _glyphs(cell_text(v, signed), fig):
                cells, offsets, colours = groups.setdefault(glyph, ([], [], []))
                cells.append(k)
                offsets.append((x, y))
                colours.append(ink)
        self.glyphs = [(_outlines[glyph], np.array(cells), np.array(offsets), np.array(colours))
                       for glyph, (cells, offsets, colours) in groups.items()]
        self.stale = True

    def draw(self, renderer) -> None:
        if not self.get_visible():
            return
        ax, (n_rows, n_cols) = self.ax, self.shape
        centres = ax.transData.transform(self.centres)
        identity = IdentityTransform()
        cell = Affine2D().scale(ax.bbox.width / n_cols, ax.bbox.height / n_rows).get_matrix()
        per_point = renderer.points_to_pixels(1.0)
        points = Affine2D().scale(per_point).get_matrix()
        renderer.open_group("cells", gid=self.get_gid())
        gc = renderer.new_gc()
        renderer.draw_path_collection(gc, identity, [_SQUARE], [cell], centres, identity, self.faces, [GRID],
                                      [GRID_WIDTH], [(0, None)], [True], [None], "screen")
        for outline, where, offsets, colours in self.glyphs:
            renderer.draw_path_collection(gc, identity, [outline], [points], centres[where] + offsets * per_point,
                                          identity, colours, NO_EDGE, [0], [(0, None)], [True], [None], "screen")
        gc.restore()
        renderer.close_group("cells")
        self.stale = False


class _Kept:
    """What a heatmap keeps to be refilled: its cells, its title, and the title's extent when
    the figure was laid out (None: fitting changed the title, or it reaches past the axes, so
    its width took part in the layout and another title would need another)."""

    def __init__(self, key: tuple, cells: Cells, title):
        self.key, self.cells, self.title = key, cells, title
        self.as_set = (title.get_text(), title.get_fontsize())
        self.box = None
        self.background = None  # the canvas without the cells and the title, once drawn

    def render(self, fig) -> None:
        """Draw the canvas: what stays (axes, labels, colour bar) once, kept, then the cells and
        the title over it (they overlap nothing else, so the pixels are those of a full draw)."""
        renderer = fig.canvas.get_renderer()
        if self.background is None:
            self.cells.set_visible(False)
            self.title.set_visible(False)
            fig.canvas.draw()
            self.cells.set_visible(True)
            self.title.set_visible(True)
            self.background = renderer.copy_from_bbox(fig.bbox)
        else:
            renderer.restore_region(self.background)
        self.cells.draw(renderer)
        self.title.draw(renderer)

    def laid_out(self, fig) -> None:
        box = self.title.get_window_extent(fig.canvas.get_renderer())
        fitted = (self.title.get_text(), self.title.get_fontsize()) != self.as_set
        self.box = None if fitted or box.x1 > self.cells.ax.bbox.x1 else box

    def refill(self, fig, values: np.ndarray, title: str, signed: bool) -> bool:
        """Show ``values`` and ``title``; False when the title would lay the figure out otherwise."""
        if self.box is None:
            return False
        self.title.set_text(title)
        self.title.set_fontfamily(PlotFonts.families_of(title))
        box, old = self.title.get_window_extent(fig.canvas.get_renderer()), self.box
        if (box.x0, box.y0, box.y1) != (old.x0, old.y0, old.y1) or box.x1 > self.cells.ax.bbox.x1:
            return False
        self.as_set = (title, self.title.get_fontsize())
        self.cells.fill(values, signed)
        return True


_spare: list = []  # the one laid-out heatmap kept for the next of its shape: [(_Kept, figure)]
_keeping = False  # only while write_plots runs (:func:`reusing`)


@contextmanager
def reusing() -> Iterator[None]:
    """Keep each saved heatmap for the next of its shape until the block ends."""
    global _keeping
    _keeping = True
    try:
        yield
    finally:
        _keeping = False
        _drop()


def _drop() -> None:
    while _spare:
        kept, fig = _spare.pop()
        kept.background = None
        fig.clear()


def render(fig) -> np.ndarray:
    """``fig`` drawn on its Agg canvas, as RGBA pixels (a heatmap draws only what changed)."""
    kept = getattr(fig, "_indicifeval_heatmap", None)
    if kept is None:
        fig.canvas.draw()
    else:
        kept.render(fig)
    return np.asarray(fig.canvas.buffer_rgba())


def keep(fig) -> bool:
    """After ``fig`` is saved: keep it if it is a heatmap (dropping the one kept before);
    False: the caller is done with it."""
    kept = getattr(fig, "_indicifeval_heatmap", None)
    if kept is None or not _keeping:
        if kept is not None:
            kept.background = None
        return False
    kept.laid_out(fig)
    _drop()
    _spare.append((kept, fig))
    return True


def heatmap(values: np.ndarray, row_labels: list[str], col_labels: list[str], title: str, *,
            signed: bool, colour_label: str, note: str = "", limit: float | None = None):
    """A heatmap of ``values`` (fractions, shown as points), rows and columns labelled."""
    if signed:
        limit = limit or signed_limit(values)
    key = (values.shape, tuple(row_labels), tuple(col_labels), signed, colour_label, note, limit)
    if _spare and _spare[0][0].key == key:
        kept, fig = _spare.pop()
        if kept.refill(fig, values, title, signed):
            return fig
        fig.clear()
    n_rows, n_cols = values.shape
    longest = max((len(r) for r in row_labels), default=4)
    width = min(24.0, 1.2 + 0.075 * longest + 0.62 * n_cols + 1.0)
    height = min(30.0, 1.4 + 0.34 * n_rows + (0.25 if note else 0))
    fig = new_figure(width, height)
    ax = fig.add_subplot()
    norm = Normalize(-limit, limit) if signed and limit is not None else Normalize(0.0, 100.0)
    colormap = matplotlib.colormaps[DIVERGING if signed else SEQUENTIAL].with_extremes(bad=MISSING_COLOUR)
    cells = Cells(ax, values.shape, norm, colormap)
    cells.fill(values, signed)
    ax.set_xlim(-0.5, n_cols - 0.5)
    ax.set_ylim(n_rows - 0.5, -0.5)
    ax.set_xticks(range(n_cols), col_labels)
    ax.set_yticks(range(n_rows), row_labels)
    ax.tick_params(axis="x", top=True, bottom=False, labeltop=True, labelbottom=False, length=0, pad=3)
    ax.tick_params(axis="y", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    axes_height = 0.34 * n_rows  # inches
    length = min(axes_height, 4.0)  # a colour bar at most 4 inches long, about 0.15 wide
    bar = fig.colorbar(ScalarMappable(norm, colormap), ax=ax, shrink=length / axes_height, pad=0.01,
                       aspect=max(5.0, length / 0.15))
    bar.set_label(colour_label)
    kept = _Kept(key, cells, ax.set_title(title, loc="left", pad=10))
    if note:  # the x ticks are on top: the bottom holds the note
        ax.set_xlabel(note, fontsize=7, color="#444444", loc="left")
    fig._indicifeval_heatmap = kept
    return fig

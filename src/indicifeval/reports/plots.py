"""The report's figures, each written as PNG (150 dpi) and SVG (text as paths, so it shows
without the fonts in a browser).

Figures (one skipped when its table is absent or empty):

* ``trans_languages`` / ``ground_languages``: heatmap run × language, accuracy in %;
* ``paper_reference_trans`` / ``paper_reference_ground``: the same for the paper's published
  numbers (the tables' ``paper:`` rows), kept apart from the runs;
* ``delta_language``: heatmap run × language of Δ = English − Indic, diverging around 0;
* ``delta_category_<run>``: heatmap category × language of Δ, one per run;
* ``indic_average``: bars of the Indic average per run (Trans and Ground) with 95% intervals;
* ``keywords``: bars of keyword inclusion vs exclusion per run (a panel per subset) with 95%
  intervals;
* ``thinking``: slope chart as the paper's Figure 7, no thinking → thinking for each model pair,
  accuracy in one panel and Δ in the other.

Titles and labels wider than their figure (long run names, few runs) are wrapped, then shrunk,
before saving. Deterministic: the Agg canvas, no dates in the files, a fixed SVG hash salt.
"""

from __future__ import annotations

import re
import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

from indicifeval.reports.analyses import METRIC_NAMES
from indicifeval.reports.fonts import PlotFonts
from indicifeval.reports.model import Estimate, Report

DPI = 150
PAPER_PREFIX = "paper: "
# Okabe & Ito's colour-blind-safe palette (black last)
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000")
SEQUENTIAL = "viridis"  # perceptually uniform, colour-blind safe
DIVERGING = "RdBu_r"  # ColorBrewer RdBu (colour-blind safe); red: English ahead, blue: Indic ahead
MISSING_COLOUR = "#d9d9d9"

RC = {
    "svg.fonttype": "path",
    "svg.hashsalt": "indicifeval",
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "font.size": 9,
    "axes.titlesize": 11,
    "figure.titlesize": 12,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


# -- helpers -----------------------------------------------------------------------------------
def _value(cell) -> float | None:
    if isinstance(cell, Estimate):
        return cell.value
    if isinstance(cell, (int, float)) and not isinstance(cell, bool):
        return float(cell)
    return None


def _interval(cell) -> tuple[float, float] | None:
    if isinstance(cell, Estimate) and None not in (cell.value, cell.low, cell.high):
        return cell.low, cell.high
    return None


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "run"


def _unique_slugs(names: list[str]) -> dict[str, str]:
    out, used = {}, set()
    for name in names:
        slug, i = _slug(name), 2
        while slug in used:
            slug, i = f"{_slug(name)}-{i}", i + 1
        used.add(slug)
        out[name] = slug
    return out


def _language_label(code: str) -> str:
    """'hi\\nहिन्दी': the code over the native name from the language profile."""
    from indicifeval.languages import UnknownLanguageError, get_profile

    try:
        native = get_profile(code).native_name
    except (UnknownLanguageError, KeyError):
        return code
    return code if native == code else f"{code}\n{native}"


def _column_label(column: str) -> str:
    return "Indic\navg" if column == "Avg" else _language_label(column)


def _text_colour(rgba) -> str:
    r, g, b = rgba[:3]
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "white"


def _metric(report: Report) -> str:
    return METRIC_NAMES.get(report.metric, report.metric)


def _instruction_metric(report: Report) -> str:
    return "instruction-level " + ("strict" if report.metric.endswith("strict") else "loose")


def _new_figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _labels(fig) -> list:
    """The figure's titles and axis labels (colour bars' too): the texts that name things."""
    texts = [fig._suptitle] if fig._suptitle is not None else []
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
    return [t for t in texts if t.get_visible() and t.get_text()]


def _fit_labels(fig, rounds: int = 4) -> None:
    """Wrap, then shrink, the labels that run past the figure's edge (a long run name, few runs
    or rows): constrained layout makes room around a label but cannot shorten it."""
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


def _save(fig, out_dir: Path, name: str) -> list[Path]:
    PlotFonts.widen(fig)
    _fit_labels(fig)
    paths = []
    for fmt in ("png", "svg"):
        path = out_dir / f"{name}.{fmt}"
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        fig.savefig(path, format=fmt, dpi=DPI, metadata=metadata)  # constrained layout: no "tight" redraw
        paths.append(path)
        fig.set_layout_engine("none")  # laid out by the first save: the second keeps the positions
    fig.clear()
    return paths


# -- heatmaps ----------------------------------------------------------------------------------
def _heatmap(values: np.ndarray, row_labels: list[str], col_labels: list[str], title: str, *,
             signed: bool, colour_label: str, note: str = "", limit: float | None = None):
    n_rows, n_cols = values.shape
    longest = max((len(r) for r in row_labels), default=4)
    width = min(24.0, 1.2 + 0.075 * longest + 0.62 * n_cols + 1.0)
    height = min(30.0, 1.4 + 0.34 * n_rows + (0.25 if note else 0))
    fig = _new_figure(width, height)
    ax = fig.add_subplot()
    data = np.ma.masked_invalid(values * 100)
    if signed:
        limit = limit or _signed_limit(values)
        vmin, vmax, cmap = -limit, limit, DIVERGING
    else:
        vmin, vmax, cmap = 0.0, 100.0, SEQUENTIAL
    import matplotlib

    colormap = matplotlib.colormaps[cmap].with_extremes(bad=MISSING_COLOUR)
    image = ax.imshow(data, cmap=colormap, vmin=vmin, vmax=vmax, aspect="auto", interpolation="nearest")
    ax.set_xticks(range(n_cols), col_labels)
    ax.set_yticks(range(n_rows), row_labels)
    ax.tick_params(axis="x", top=True, bottom=False, labeltop=True, labelbottom=False, length=0, pad=3)
    ax.tick_params(axis="y", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xticks(np.arange(n_cols + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n_rows + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.2)
    ax.tick_params(which="minor", length=0)
    for i in range(n_rows):
        for j in range(n_cols):
            v = values[i, j]
            if np.isfinite(v):
                text = f"{100 * v:.0f}"
                if signed and text not in ("0", "-0"):
                    text = f"{100 * v:+.0f}"
                text = "0" if text == "-0" else text
                colour = _text_colour(colormap(image.norm(100 * v)))
            else:
                text, colour = "–", "#555555"
            ax.text(j, i, text.replace("-", "−"), ha="center", va="center", fontsize=8, color=colour)
    axes_height = 0.34 * n_rows  # inches
    length = min(axes_height, 4.0)  # a colour bar at most 4 inches long, about 0.15 wide
    bar = fig.colorbar(image, ax=ax, shrink=length / axes_height, pad=0.01, aspect=max(5.0, length / 0.15))
    bar.set_label(colour_label)
    ax.set_title(title, loc="left", pad=10)
    if note:  # the x ticks are on top: the bottom holds the note
        ax.set_xlabel(note, fontsize=7, color="#444444", loc="left")
    return fig


def _signed_limit(values: np.ndarray) -> float:
    """Colour scale ± this many points: the largest |value| rounded up to 10, at least 10."""
    finite = np.abs(values[np.isfinite(values)]) * 100
    return max(10.0, float(np.ceil(finite.max() / 10) * 10) if finite.size else 10.0)


def _matrix(rows: list[list], first: int, count: int) -> np.ndarray:
    return np.array([[np.nan if _value(c) is None else _value(c) for c in row[first:first + count]] for row in rows],
                    dtype=float).reshape(len(rows), count)


def _language_heatmaps(report: Report, out_dir: Path) -> list[Path]:
    files = []
    for subset in ("trans", "ground"):
        table = report.tables.get(f"{subset}_languages")
        if table is None or not table.rows:
            continue
        cols = table.columns[1:]
        labels = [_column_label(c) for c in cols]
        name = "Trans" if subset == "trans" else "Ground"
        runs = [r for r in table.rows if not str(r[0]).startswith(PAPER_PREFIX)]
        paper = [r for r in table.rows if str(r[0]).startswith(PAPER_PREFIX)]
        for rows, file, title, note in (
            (runs, f"{subset}_languages", f"IndicIFEval-{name}: {_metric(report)} accuracy by language (%)",
             table.note.split(";")[0] if subset == "trans" else ""),
            (paper, f"paper_reference_{subset}",
             f"IndicIFEval-{name}, the paper's published numbers: prompt-level loose accuracy (%)", ""),
        ):
            if not rows or np.isnan(_matrix(rows, 1, len(cols))).all():
                continue
            row_labels = [str(r[0]).removeprefix(PAPER_PREFIX) for r in rows]
            fig = _heatmap(_matrix(rows, 1, len(cols)), row_labels, labels, title, signed=False,
                           colour_label="accuracy (%)", note=note)
            files += _save(fig, out_dir, file)
    return files


def _delta_language(report: Report, out_dir: Path) -> list[Path]:
    table = report.tables.get("delta_language")
    if table is None or not table.rows:
        return []
    cols = table.columns[1:]
    fig = _heatmap(_matrix(table.rows, 1, len(cols)), [str(r[0]) for r in table.rows],
                   [_column_label(c) for c in cols],
                   f"Disparity Δ = English − Indic by language, Trans ({_metric(report)}, points)", signed=True,
                   colour_label="Δ (points; > 0: English ahead)")
    return _save(fig, out_dir, "delta_language")


def _delta_category(report: Report, out_dir: Path) -> list[Path]:
    table = report.tables.get("delta_category")
    if table is None or not table.rows:
        return []
    cols = table.columns[2:]
    runs: dict[str, list[list]] = {}
    for row in table.rows:
        runs.setdefault(str(row[0]), []).append(row)
    slugs = _unique_slugs(list(runs))
    limit = _signed_limit(_matrix(table.rows, 2, len(cols)))  # one colour scale for all runs
    files = []
    for run, rows in runs.items():
        fig = _heatmap(_matrix(rows, 2, len(cols)), [str(r[1]) for r in rows], [_column_label(c) for c in cols],
                       f"Δ = English − Indic by instruction category: {run}\n(Trans, {_instruction_metric(report)}, "
                       f"points)", signed=True, colour_label="Δ (points; > 0: English ahead)", limit=limit)
        files += _save(fig, out_dir, f"delta_category_{slugs[run]}")
    return files


# -- bar charts --------------------------------------------------------------------------------
def _bars(ax, groups: list[str], series: list[tuple[str, list]], colours=PALETTE, percent: bool = True):
    """Grouped bars of Estimates with their 95% intervals as error bars."""
    n = len(series)
    width = 0.8 / max(n, 1)
    x = np.arange(len(groups))
    for k, (label, cells) in enumerate(series):
        values = np.array([np.nan if _value(c) is None else _value(c) for c in cells], dtype=float) * 100
        lows, highs = [], []
        for c, v in zip(cells, values):
            iv = _interval(c)
            lows.append(0.0 if iv is None else v - 100 * iv[0])
            highs.append(0.0 if iv is None else 100 * iv[1] - v)
        pos = x - 0.4 + width * (k + 0.5)
        ax.bar(pos, np.nan_to_num(values), width * 0.92, label=label, color=colours[k % len(colours)],
               yerr=[lows, highs], capsize=3, error_kw={"elinewidth": 1, "ecolor": "#333333"})
        for p, v, h in zip(pos, values, highs):
            if np.isfinite(v):
                ax.text(p, v + h + 1.5, f"{v:.0f}", ha="center", va="bottom", fontsize=7)
            else:
                ax.text(p, 1.5, "–", ha="center", va="bottom", fontsize=8, color="#555555")
    ax.set_xticks(x, groups)
    if percent:
        ax.set_ylim(0, 112)
        ax.set_yticks(range(0, 101, 20))
    ax.grid(axis="y", color="#e5e5e5", linewidth=0.8)
    ax.set_axisbelow(True)


def _wrap(name: str, width: int = 16) -> str:
    """Break a long run name at spaces, hyphens or brackets for an x tick label."""
    if len(name) <= width:
        return name
    if " (" in name:  # "Qwen3-8B (no thinking)": the bracket on its own line
        head, _, tail = name.partition(" (")
        return f"{_wrap(head, width)}\n{_wrap('(' + tail, width)}"
    parts = re.split(r"(?<=[-\s_/])|(?=\()", name)
    lines, line = [], ""
    for part in parts:
        if line and len(line) + len(part.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += part
    lines.append(line.rstrip())
    return "\n".join(lines)


def _indic_average(report: Report, out_dir: Path) -> list[Path]:
    series, runs = [], []
    for subset in ("trans", "ground"):
        table = report.tables.get(f"{subset}_languages")
        if table is None or "Avg" not in table.columns:
            continue
        col = table.columns.index("Avg")
        rows = {str(r[0]): r[col] for r in table.rows if not str(r[0]).startswith(PAPER_PREFIX)}
        if not any(_value(c) is not None for c in rows.values()):
            continue
        runs += [r for r in rows if r not in runs]
        series.append((subset.capitalize(), rows))
    if not series:
        return []
    fig = _new_figure(max(5.0, 1.5 + 1.1 * len(runs) * max(1, len(series)) / 2 + 1), 4.2)
    ax = fig.add_subplot()
    _bars(ax, [_wrap(r) for r in runs], [(label, [rows.get(r, Estimate(None)) for r in runs]) for label, rows in series])
    ax.set_ylabel(f"{_metric(report)} accuracy (%)")
    ax.set_title(f"Indic average per run ({_metric(report)}), 95% bootstrap intervals", loc="left")
    fig.legend(*ax.get_legend_handles_labels(), frameon=False, ncols=len(series), loc="outside lower center")
    return _save(fig, out_dir, "indic_average")


def _keywords(report: Report, out_dir: Path) -> list[Path]:
    table = report.tables.get("keywords")
    if table is None or not table.rows:
        return []
    subsets = [s for s in ("trans", "ground") if any(r[1] == s for r in table.rows)]
    runs = list(dict.fromkeys(str(r[0]) for r in table.rows))
    width = max(4.5, 1.2 + 1.0 * len(runs))
    fig = _new_figure(min(24.0, max(5.2, width * len(subsets))), 4.4)  # 5.2: the legend's width
    axes = fig.subplots(1, len(subsets), sharey=True, squeeze=False)[0]
    for ax, subset in zip(axes, subsets):
        by_run = {str(r[0]): r for r in table.rows if r[1] == subset}
        cells = {k: [by_run[r][i] if r in by_run else Estimate(None) for r in runs]
                 for k, i in (("inclusion", 2), ("exclusion", 3))}
        _bars(ax, [_wrap(r, 14) for r in runs], [("inclusion (existence, frequency)", cells["inclusion"]),
                                                   ("exclusion (forbidden words)", cells["exclusion"])],
              colours=(PALETTE[0], PALETTE[1]))
        ax.set_title(subset.capitalize())
    axes[0].set_ylabel(f"{_instruction_metric(report)} accuracy (%)")
    fig.legend(*axes[0].get_legend_handles_labels(), frameon=False, ncols=2, loc="outside lower center")
    fig.suptitle(f"Keyword inclusion vs exclusion, Indic languages pooled ({_instruction_metric(report)}), "
                 f"95% bootstrap intervals", x=0.01, ha="left")
    return _save(fig, out_dir, "keywords")


# -- thinking slope chart ----------------------------------------------------------------------
def _spread(ys: list[float], gap: float) -> list[float]:
    """Label positions near ``ys``, at least ``gap`` apart: overlapping labels form a block
    centred on their values' mean; blocks that then overlap merge."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    blocks = [[i] for i in order]  # each block: members in ascending order

    def bounds(block):
        centre = sum(ys[i] for i in block) / len(block)
        start = centre - gap * (len(block) - 1) / 2
        return start, start + gap * (len(block) - 1)

    merged = True
    while merged:
        merged = False
        for k in range(len(blocks) - 1):
            if bounds(blocks[k])[1] + gap > bounds(blocks[k + 1])[0] + 1e-12:
                blocks[k:k + 2] = [blocks[k] + blocks[k + 1]]
                merged = True
                break
    out = list(ys)
    for block in blocks:
        start = bounds(block)[0]
        for n, i in enumerate(block):
            out[i] = start + n * gap
    return out


def _thinking(report: Report, out_dir: Path) -> list[Path]:
    table = report.tables.get("thinking")
    if table is None or not table.rows:
        return []
    col = {c: i for i, c in enumerate(table.columns)}
    labels = []
    for row in table.rows:
        model = str(row[col["model"]]).split("/")[-1]
        size = _value(row[col["size (B)"]])
        labels.append(model if size is None or f"{size:g}B".lower() in model.lower() else f"{model} ({size:g}B)")
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):  # two pairs of one model (different settings): number them
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            labels[i] = f"{label} #{seen[label]}"
    labels = [_wrap(label, 26) for label in labels]  # a long name would squeeze the panels to make room
    fig = _new_figure(10.0, 4.8)
    axes = fig.subplots(1, 2)
    panels = ((axes[0], "no thinking", "thinking", "Indic average accuracy (%)"),
              (axes[1], "Δ no thinking", "Δ thinking", "Δ = English − Indic (points)"))
    for ax, off_col, on_col, ylabel in panels:
        ends = []
        for k, row in enumerate(table.rows):
            off, on = row[col[off_col]], row[col[on_col]]
            v0, v1 = _value(off), _value(on)
            if v0 is None or v1 is None:
                ends.append(None)
                continue
            colour = PALETTE[k % len(PALETTE)]
            marker = "osD^v<>p"[k % 8]
            ax.plot([0, 1], [100 * v0, 100 * v1], color=colour, marker=marker, linewidth=2, markersize=6)
            for x, cell in ((0, off), (1, on)):
                iv = _interval(cell)
                if iv is not None:
                    ax.errorbar(x + (k - (len(table.rows) - 1) / 2) * 0.012, 100 * _value(cell),
                                yerr=[[100 * (_value(cell) - iv[0])], [100 * (iv[1] - _value(cell))]],
                                color=colour, alpha=0.45, capsize=2, linewidth=1)
            ends.append((k, 100 * v0, 100 * v1))
        drawn = [e for e in ends if e is not None]
        if not drawn:
            ax.text(0.5, 0.5, "no values", ha="center", va="center", transform=ax.transAxes)
        low, high = ax.get_ylim()
        gap = (high - low) * 0.055
        lines = max((labels[e[0]].count("\n") + 1 for e in drawn), default=1)  # the names' side: room for each
        for side, x, ha in ((1, 1.06, "left"), (0, -0.06, "right")):
            ys = _spread([e[1 + side] for e in drawn], gap * (lines if side else 1))
            for (k, v0, v1), y in zip(drawn, ys):
                value = f"{v1 if side else v0:.1f}".replace("-", "−")
                ax.text(x, y, f"{labels[k]}  {value}" if side else value, ha=ha, va="center", fontsize=8,
                        color=PALETTE[k % len(PALETTE)])
        if "Δ" in off_col:
            ax.axhline(0, color="#888888", linewidth=0.8, linestyle="--")
        ax.set_xticks([0, 1], ["no thinking", "thinking"])
        ax.set_xlim(-0.35, 1.75)
        ax.spines["bottom"].set_bounds(0, 1)
        ax.set_ylabel(ylabel)
        ax.grid(axis="y", color="#ececec", linewidth=0.8)
        ax.set_axisbelow(True)
    axes[0].set_title("Accuracy", loc="left")
    axes[1].set_title("Disparity Δ", loc="left")
    fig.suptitle(f"Thinking vs non-thinking, Trans ({_metric(report)}), 95% bootstrap intervals", x=0.01, ha="left")
    return _save(fig, out_dir, "thinking")


FIGURES: tuple[Callable[[Report, Path], list[Path]], ...] = (
    _language_heatmaps, _delta_language, _delta_category, _indic_average, _keywords, _thinking,
)


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
    with matplotlib.rc_context(RC), warnings.catch_warnings():  # the caller's rcParams come back afterwards
        warnings.filterwarnings("ignore", message=GLYPH_WARNING, category=UserWarning)
        PlotFonts.setup(configure_matplotlib(warn=False))
        matplotlib.rcParams["font.family"] = PlotFonts.latin
        for figure in FIGURES:
            files += figure(report, out_dir)
            if step is not None:
                step(f"figure {figure.__name__.strip('_')}")
    note = missing_fonts_note(PlotFonts.missing)
    if note and note not in report.notes:
        report.notes.append(note)
    return files

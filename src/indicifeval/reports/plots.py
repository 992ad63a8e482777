"""The figures' common ground: the style (palette, colour maps, ``RC``), value and interval
readers, tick labels, grouped bars with intervals and wrapped run names. Each analysis's unit
draws its own figures with these (see ``reports/units``); heatmaps are drawn by
``reports/heatmaps``, and ``reports/figures`` lays every figure out and writes its files.
"""

from __future__ import annotations

import re

import numpy as np

from indicifeval.reports.analyses import METRIC_NAMES
from indicifeval.reports.model import Column, Estimate, Report, TableRow

DPI = 150
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
def value(cell) -> float | None:
    if isinstance(cell, Estimate):
        return cell.value
    if isinstance(cell, (int, float)) and not isinstance(cell, bool):
        return float(cell)
    return None


def interval(cell) -> tuple[float, float] | None:
    if isinstance(cell, Estimate) and cell.value is not None and cell.low is not None and cell.high is not None:
        return cell.low, cell.high
    return None


def _language_label(code: str) -> str:
    """'hi\\nहिन्दी': the code over the native name from the language profile."""
    from indicifeval.languages import UnknownLanguageError, get_profile

    try:
        native = get_profile(code).native_name
    except (UnknownLanguageError, KeyError):
        return code
    return code if native == code else f"{code}\n{native}"


def column_label(column: Column) -> str:
    """A value column's tick label: a language's code and native name, or the Indic average."""
    return "Indic\navg" if column.kind == "avg" else _language_label(column)


def metric_name(report: Report) -> str:
    return METRIC_NAMES.get(report.metric, report.metric)


def instruction_metric(report: Report) -> str:
    return "instruction-level " + ("strict" if report.metric.endswith("strict") else "loose")


def new_figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as MatplotlibFigure

    fig = MatplotlibFigure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


# -- heatmaps (drawn by ``reports.heatmaps``) -----------------------------------------------------
def signed_limit(values: np.ndarray) -> float:
    """Colour scale ± this many points: the largest |value| rounded up to 10, at least 10."""
    finite = np.abs(values[np.isfinite(values)]) * 100
    return max(10.0, float(np.ceil(finite.max() / 10) * 10) if finite.size else 10.0)


def matrix(rows: list[TableRow], columns: list[int]) -> np.ndarray:
    """The values of ``rows`` in the columns at these positions (NaN where there is none)."""
    return np.array([[np.nan if value(row[i]) is None else value(row[i]) for i in columns] for row in rows],
                    dtype=float).reshape(len(rows), len(columns))


# -- bar charts --------------------------------------------------------------------------------
def bars(ax, groups: list[str], series: list[tuple[str, list]], colours=PALETTE, percent: bool = True):
    """Grouped bars of Estimates with their 95% intervals as error bars."""
    n = len(series)
    width = 0.8 / max(n, 1)
    x = np.arange(len(groups))
    for k, (label, cells) in enumerate(series):
        values = np.array([np.nan if value(c) is None else value(c) for c in cells], dtype=float) * 100
        lows, highs = [], []
        for c, v in zip(cells, values):
            iv = interval(c)
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


def wrap(name: str, width: int = 16) -> str:
    """Break a long run name at spaces, hyphens or brackets for an x tick label."""
    if len(name) <= width:
        return name
    if " (" in name:  # "Qwen3-8B (no thinking)": the bracket on its own line
        head, _, tail = name.partition(" (")
        return f"{wrap(head, width)}\n{wrap('(' + tail, width)}"
    parts = re.split(r"(?<=[-\s_/])|(?=\()", name)
    lines, line = [], ""
    for part in parts:
        if line and len(line) + len(part.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += part
    lines.append(line.rstrip())
    return "\n".join(lines)



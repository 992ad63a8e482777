"""The report as an HTML page: sortable tables, the figures inline and a per-sample browser,
with no network access (inline CSS, a small vanilla script, SVG inline, PNG as data URIs); the
samples are one script file per run beside the page (``samples/``), loaded when shown.

This module lays the page out; the tables, figures and samples have a module each
(``html_tables``, ``html_figures``, ``html_samples``). The stylesheet and the scripts are
package assets (``reports/assets``), inlined as they are, for other pages to reuse; the font
stack comes from the scripts' data (:func:`~indicifeval.reports.fonts.css_font_stack`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path

from indicifeval.core.files import write_text
from indicifeval.reports.analyses import METRIC_NAMES
from indicifeval.reports.fonts import css_font_stack
from indicifeval.reports.html_figures import collect_figures, figures_section
from indicifeval.reports.html_samples import samples_index, samples_section, write_samples
from indicifeval.reports.html_tables import esc, explanation, short_title, table_section
from indicifeval.reports.model import Report, RunInfo, Table

# What the metrics mean (shown in the header).
METRIC_HELP = {
    "prompt_loose": "a prompt counts as followed when every one of its instructions passes, after IFEval's loose "
                    "normalisations (markdown asterisks removed, first or last line dropped)",
    "prompt_strict": "a prompt counts as followed when every one of its instructions passes on the answer as written",
    "inst_loose": "the share of individual instructions followed, after IFEval's loose normalisations",
    "inst_strict": "the share of individual instructions followed, on the answer as written",
}
NUM = ' class="num"'
ASSETS = ("report.css", "error-trap.js", "report.js")  # the stylesheet, the script run first, the page's script


@cache
def asset(name: str) -> str:
    """One of the page's assets (``reports/assets``), as text."""
    return resources.files("indicifeval.reports").joinpath("assets", name).read_text(encoding="utf-8")


def stylesheet() -> str:
    """The page's CSS: the font stack from the scripts' data, then the stylesheet asset (which
    reads it as ``var(--report-fonts)``)."""
    return f":root{{--report-fonts:{css_font_stack()}}}\n{asset('report.css')}"


def write_html(report: Report, path: str | Path, figures: Sequence[str | Path] | None = None,
               index: dict | None = None) -> Path:
    """Write ``report`` as an HTML page at ``path`` and its samples beside it, one file per run
    in ``samples/`` (each file atomically; ``index``: they are there already, as it says);
    returns the page's path."""
    path = Path(path)
    if index is None:
        index = write_samples(report, path.parent)  # first: the page lists what they hold
    write_text(path, render_html(report, figures or [], index))
    return path


def render_html(report: Report, figures: Sequence[str | Path], index: dict | None = None) -> str:
    """The page; ``index`` describes the sample files (without it: as if they were written)."""
    index = index if index is not None else write_samples(report, None)
    toc = [("overview", "Overview"), ("how-to-read", "How to read")]
    for section, tables in _sections(report):
        if section is not None:
            toc.append((_section_id(section), section))
        toc += [(f"t-{t.name}", short_title(t)) for t in tables]
    figs = collect_figures(figures, [r.name for r in report.runs])
    if figs:
        toc.append(("figures", "Figures"))
    toc.append(("samples", "Samples"))
    body = [
        _header(report, index),
        '<nav class="toc" aria-label="Contents"><ul>'
        + "".join(f'<li><a href="#{esc(i)}">{esc(label)}</a></li>' for i, label in toc) + "</ul></nav>",
        '<main>',
        _overview(report, index),
        _how_to_read(report),
        *(part for section, tables in _sections(report)
          for part in ([] if section is None else [_section_heading(section)]) + [table_section(t) for t in tables]),
        figures_section(figs),
        samples_section(report),
        '</main>',
        ('<footer><p>Made by indicifeval. No network access: the page and the samples folder beside it are all it '
         'reads; every number is also in tables/*.csv (in percent, as here) and report.json (as fractions, 0–1). '
         'Script errors on this page: <span id="js-errors">not run</span>.</p></footer>'),
    ]
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; '
        'script-src \'unsafe-inline\' \'self\'; img-src data:">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>IndicIFEval report · {esc(report.metric)} · {len(report.runs)} runs</title>\n"
        f"<style>{stylesheet()}</style>\n<script>{asset('error-trap.js')}</script>\n</head>\n<body>\n"
        + "\n".join(b for b in body if b)
        + f"\n{samples_index(index)}\n<script>{asset('report.js')}</script>\n</body>\n</html>\n"
    )


def _sections(report: Report) -> list[tuple[str | None, list[Table]]]:
    """The tables in their sections (a report of several suites), in order; one section None
    otherwise."""
    out: list[tuple[str | None, list[Table]]] = []
    for t in report.tables.values():
        if not out or out[-1][0] != t.section:
            out.append((t.section, []))
        out[-1][1].append(t)
    return out


def _section_id(section: str) -> str:
    return "s-" + "-".join("".join(ch if ch.isalnum() else " " for ch in section.lower()).split())


def _section_heading(section: str) -> str:
    return f'<section id="{esc(_section_id(section))}" class="suite-section"><h2>{esc(section)}</h2></section>'


def _thinking(run: RunInfo) -> str:
    return "–" if run.thinking is None else ("on" if run.thinking else "off")


# -- header, overview, how to read ---------------------------------------------------------------
def _header(report: Report, index: dict) -> str:
    metric = METRIC_NAMES.get(report.metric, report.metric)
    return (
        '<header class="top"><h1>IndicIFEval report</h1>'
        f'<p class="lede">Metric: <strong>{esc(metric)}</strong> <code>{esc(report.metric)}</code> · '
        f"{len(report.runs)} run{'s' if len(report.runs) != 1 else ''} · {sum(index['counts']):,} samples · "
        f"numbers are percentages (differences in points) with 95% bootstrap intervals ({report.n_boot:,} "
        f"resamples of prompts, seed {report.seed})</p></header>"
    )


def _overview(report: Report, index: dict) -> str:
    counts = dict(zip(index["runs"], index["counts"]))
    rows = "".join(
        f'<tr><td class="run" title="{esc(r.folder)}">{esc(r.name)}</td><td>{esc(r.model)}</td><td>{esc(r.family)}</td>'
        f'<td class="num" data-v="{"" if r.size_b is None else f"{r.size_b:g}"}">'
        f'{"–" if r.size_b is None else f"{r.size_b:g}"}</td>'
        f"<td>{_thinking(r)}</td><td>{esc(r.scoring)}</td>"
        f'<td class="num" data-v="{counts.get(r.name, 0)}">{counts.get(r.name, 0):,}</td></tr>'
        for r in report.runs
    )
    notes = "".join(f"<li>{esc(n)}</li>" for n in report.notes if n)
    return (
        '<section id="overview"><h2>Runs</h2><div class="scroll">'
        '<table class="sortable runs"><thead><tr>'
        + "".join(f'<th{NUM if c in ("size (B)", "samples") else ""} aria-sort="none">'
                  f'<button type="button">{c}</button></th>'
                  for c in ("run", "model", "family", "size (B)", "thinking", "scoring", "samples"))
        + "</tr></thead>"
        f"<tbody>{rows}</tbody></table></div>"
        + (f'<h3>Notes</h3><ul class="notes">{notes}</ul>' if notes else "")
        + "</section>"
    )


def _how_to_read(report: Report) -> str:
    metric_help = METRIC_HELP.get(report.metric, "")
    items, seen = [], set()
    for t in report.tables.values():
        if (t.unit or t.name) in seen:  # a report of several suites: each analysis told once
            continue
        seen.add(t.unit or t.name)
        what, how = explanation(t) or (t.title, t.note)
        items.append(f'<div><dt><a href="#t-{esc(t.name)}">{esc(short_title(t))}</a></dt>'
                     f'<dd><span class="what">{esc(what)}</span><br><span class="how">{esc(how)}</span></dd></div>')
    return (
        '<section id="how-to-read"><h2>How to read this report</h2>'
        f"<p>The metric: {esc(metric_help)}. Each value is a percentage; hover a cell for its 95% interval "
        "and the number of prompts behind it (also printed small under it). Click a column header to sort, "
        "click a cell of a run to open its samples below. In Δ columns (English − Indic) "
        '<span class="swatch bad">red</span> means English is ahead of the Indic language; in gains and run '
        'comparisons <span class="swatch good">green</span> is a gain and red a loss; a deeper tint and bold figures '
        "mark a difference whose 95% interval excludes 0.</p>"
        f'<dl class="howto">{"".join(items)}</dl></section>'
    )


__all__ = ["METRIC_HELP", "asset", "render_html", "stylesheet", "write_html"]

"""The report as one self-contained HTML page: sortable tables, the figures inline and a
per-sample browser, with no network access (inline CSS, a small vanilla script, SVG inline,
PNG as data URIs, the samples as an embedded JSON blob rendered by the script)."""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

from indicifeval.languages import composition, get_profile
from indicifeval.reports.model import Estimate, Report, RunInfo, Table
from indicifeval.reports.writers import display

# What the metrics mean (shown in the header).
METRIC_HELP = {
    "prompt_loose": "a prompt counts as followed when every one of its instructions passes, after IFEval's loose "
                    "normalisations (markdown asterisks removed, first or last line dropped)",
    "prompt_strict": "a prompt counts as followed when every one of its instructions passes on the answer as written",
    "inst_loose": "the share of individual instructions followed, after IFEval's loose normalisations",
    "inst_strict": "the share of individual instructions followed, on the answer as written",
}

# "How to read" each analysis: (what it shows, how it is computed). Reused in the README.
EXPLANATIONS: dict[str, tuple[str, str]] = {
    "trans_languages": (
        "How often each run follows a prompt's instructions in each language of IndicIFEval-Trans, the IFEval "
        "prompts translated into 14 Indic languages, with the English originals as the reference column; "
        "'paper' rows are the published numbers.",
        "Each cell is the share of that language's prompts that pass under the report's metric, in percent; Avg is "
        "the unweighted mean of the 14 Indic languages (English left out); the 95% interval bootstraps prompts.",
    ),
    "ground_languages": (
        "The same measure on IndicIFEval-Ground: prompts written natively in each language around local "
        "topics, so they have no English counterpart and no English column.",
        "Share of each language's prompts that pass, in percent; Avg is the unweighted mean over the languages; "
        "95% intervals bootstrap prompts within each language.",
    ),
    "delta_language": (
        "The disparity: how many points a run loses when the same prompt is asked in an Indic language instead of "
        "in English (positive: better in English).",
        "Δ = accuracy on the English prompts − accuracy on their translations, over the Trans prompts both "
        "languages have; Avg is the mean of the per-language Δ; a paired bootstrap resamples the shared prompts.",
    ),
    "delta_category": (
        "Where the disparity comes from: Δ for each of the paper's five instruction categories (English-case, "
        "keyword, format, length and language instructions; paper Table 3).",
        "Instruction-level accuracy on the instructions of one category only, English minus each Indic language "
        "over shared Trans prompts; Avg averages the per-language Δ; paired bootstrap over prompts.",
    ),
    "delta_family": (
        "Whether some model families lose more in Indic languages than others.",
        "Each family's Δ pools the paired English/Indic differences of all its runs (their mean) per language; "
        "Avg averages over the languages; intervals bootstrap prompts in every run of the family.",
    ),
    "keywords": (
        "Whether runs handle 'use these words' and 'avoid these words' differently in Indic languages.",
        "Instruction-level accuracy of keywords:existence and keywords:frequency (inclusion) against "
        "keywords:forbidden_words (exclusion), Indic languages pooled per subset; the last column is their gap.",
    ),
    "cross_lingual": (
        "Instructions that require an English answer to a prompt written in an Indic language, against the same "
        "prompts asked in English.",
        "Rows whose answer must be in English (resp_lang en), Indic languages pooled, versus the English versions "
        "of those prompts; 'English − Indic' is the gap, 'prompts' the number of Indic prompts behind it.",
    ),
    "thinking": (
        "What thinking (reasoning before answering) buys: accuracy and disparity for runs of one model whose "
        "settings differ only in thinking.",
        "Indic-average accuracy without and with thinking, the gain paired over shared prompts with an exact "
        "McNemar p-value; Δ is English − Indic average per run, 'change in Δ' their difference (negative: "
        "thinking narrows the gap).",
    ),
    "per_instruction": (
        "Which instruction types each run follows or misses, over all languages and both subsets.",
        "For each instruction id, the share of its occurrences that pass (instruction level), pooling every prompt "
        "that contains it; intervals bootstrap those prompts.",
    ),
    "comparison": (
        "Each run against the first one, language by language, to tell real differences from noise.",
        "Accuracy of the run − accuracy of the first run over the prompts both answered, with paired bootstrap "
        "intervals; 'pooled' covers all languages of the subset, with an exact McNemar test on paired outcomes.",
    ),
}

# Figure captions by file stem (the names indicifeval.reports.plots writes), in the page's order;
# a stem that starts with a key (delta_category_<run>) takes that key's caption.
CAPTIONS = {
    "trans_languages": "Accuracy by language on IndicIFEval-Trans, one row per run (brighter: more prompts "
                       "followed); the numbers of the Trans table, without the intervals.",
    "paper_reference_trans": "The paper's published Trans accuracies (prompt-level loose), to place the runs among "
                             "the models the authors evaluated.",
    "ground_languages": "Accuracy by language on IndicIFEval-Ground, one row per run, same colour scale.",
    "paper_reference_ground": "The paper's published Ground accuracies (prompt-level loose).",
    "indic_average": "Indic-average accuracy per run on Trans and Ground, with 95% bootstrap intervals as error bars.",
    "delta_language": "Disparity Δ = English − Indic per run and language, in points: red cells, English ahead; "
                      "blue cells, the Indic language ahead; white, no gap.",
    "delta_category": "Δ = English − Indic by instruction category for one run: which kinds of instructions lose "
                      "most when asked in an Indic language (red: English ahead).",
    "delta_family": "Δ by model family, averaged over each family's runs.",
    "keywords": "Keyword inclusion (existence, frequency) against exclusion (forbidden words), Indic languages "
                "pooled, per subset, with 95% intervals.",
    "cross_lingual": "English-output instructions asked in an Indic language vs in English.",
    "thinking": "Thinking vs non-thinking for runs of one model: accuracy (left) and disparity Δ (right) without "
                "and with thinking, with 95% intervals.",
    "per_instruction": "Accuracy per instruction id for each run.",
    "comparison": "Each run minus the first run, per language, with paired 95% intervals.",
}

FONT_STACK = (
    'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, '
    '"Noto Sans Devanagari", "Noto Sans Bengali", "Noto Sans Gujarati", "Noto Sans Gurmukhi", '
    '"Noto Sans Kannada", "Noto Sans Malayalam", "Noto Sans Oriya", "Noto Sans Tamil", "Noto Sans Telugu", '
    '"Noto Naskh Arabic", "Nirmala UI", "Mangal", "Kohinoor Devanagari", "Kohinoor Bangla", "Lohit Devanagari", '
    '"Lohit Bengali", "Lohit Gujarati", "Lohit Gurmukhi", "Lohit Kannada", "Lohit Malayalam", "Lohit Odia", '
    '"Lohit Tamil", "Lohit Telugu", "Shruti", "Tunga", "Kartika", "Kalinga", "Latha", "Gautami", "Vrinda", '
    'sans-serif'
)
URDU_STACK = ('"Noto Nastaliq Urdu", "Jameel Noto Nastaliq", "Urdu Typesetting", "Noto Naskh Arabic", '
              '"Geeza Pro", "Segoe UI", "Arial", sans-serif')

NUM = ' class="num"'
MAX_REASONING = 20_000  # characters of reasoning kept per sample (the rest is cut, with a note)


# --------------------------------------------------------------------------------------------
def write_html(report: Report, path: str | Path, figures: list[str | Path] | None = None) -> Path:
    """Write ``report`` as one self-contained HTML file at ``path``; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(report, figures or []), encoding="utf-8")
    return path


def render_html(report: Report, figures: list[str | Path]) -> str:
    runs = {r.name for r in report.runs}
    toc = [("overview", "Overview"), ("how-to-read", "How to read")]
    toc += [(f"t-{t.name}", _short_title(t)) for t in report.tables.values()]
    figs = _figures(figures, [r.name for r in report.runs])
    if figs:
        toc.append(("figures", "Figures"))
    toc.append(("samples", "Samples"))
    body = [
        _header(report),
        '<nav class="toc" aria-label="Contents"><ul>'
        + "".join(f'<li><a href="#{_e(i)}">{_e(label)}</a></li>' for i, label in toc) + "</ul></nav>",
        '<main>',
        _overview(report),
        _how_to_read(report),
        *(_table_section(t, runs) for t in report.tables.values()),
        _figures_section(figs),
        _samples_section(report),
        '</main>',
        '<footer><p>Made by indicifeval. Self-contained: no network access; every number is also in '
        'tables/*.csv (in percent, as here) and report.json (as fractions, 0–1). Script errors on this page: '
        '<span id="js-errors">not run</span>.</p></footer>',
    ]
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; '
        'script-src \'unsafe-inline\'; img-src data:">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>IndicIFEval report · {_e(report.metric)} · {len(report.runs)} runs</title>\n"
        f"<style>{_css()}</style>\n<script>{ERROR_TRAP_JS}</script>\n</head>\n<body>\n"
        + "\n".join(b for b in body if b)
        + f"\n{_samples_blob(report)}\n<script>{APP_JS}</script>\n</body>\n</html>\n"
    )


# -- small helpers -----------------------------------------------------------------------------
def _e(text) -> str:
    return html.escape("" if text is None else str(text), quote=True)


def _short_title(table: Table) -> str:
    return {
        "trans_languages": "Trans by language", "ground_languages": "Ground by language",
        "delta_language": "Δ by language", "delta_category": "Δ by category", "delta_family": "Δ by family",
        "keywords": "Keywords", "cross_lingual": "Cross-lingual", "thinking": "Thinking",
        "per_instruction": "Per instruction", "comparison": "Run comparison",
    }.get(table.name, table.title.split(" (")[0])


def _language_name(code: str) -> str:
    try:
        p = get_profile(code)
    except Exception:  # an unknown code: show it as it is
        return code
    return p.name if p.native_name == p.name else f"{p.name} ({p.native_name})"


def _order() -> tuple[str, ...]:
    from indicifeval.reports.analyses import column_languages

    return column_languages()


def _languages() -> dict[str, str]:
    return {c: _language_name(c) for c in _order()}


def _thinking(run: RunInfo) -> str:
    return "–" if run.thinking is None else ("on" if run.thinking else "off")


# -- header, overview, how to read ---------------------------------------------------------------
def _header(report: Report) -> str:
    from indicifeval.reports.analyses import METRIC_NAMES

    metric = METRIC_NAMES.get(report.metric, report.metric)
    return (
        '<header class="top"><h1>IndicIFEval report</h1>'
        f'<p class="lede">Metric: <strong>{_e(metric)}</strong> <code>{_e(report.metric)}</code> · '
        f"{len(report.runs)} run{'s' if len(report.runs) != 1 else ''} · {len(report.samples):,} samples · "
        f"numbers are percentages (differences in points) with 95% bootstrap intervals ({report.n_boot:,} "
        f"resamples of prompts, seed {report.seed})</p></header>"
    )


def _overview(report: Report) -> str:
    counts: dict[str, int] = {}
    for s in report.samples:
        counts[s.get("run")] = counts.get(s.get("run"), 0) + 1
    rows = "".join(
        f'<tr><td class="run" title="{_e(r.folder)}">{_e(r.name)}</td><td>{_e(r.model)}</td><td>{_e(r.family)}</td>'
        f'<td class="num" data-v="{"" if r.size_b is None else f"{r.size_b:g}"}">'
        f'{"–" if r.size_b is None else f"{r.size_b:g}"}</td>'
        f"<td>{_thinking(r)}</td><td>{_e(r.scoring)}</td>"
        f'<td class="num" data-v="{counts.get(r.name, 0)}">{counts.get(r.name, 0):,}</td></tr>'
        for r in report.runs
    )
    notes = "".join(f"<li>{_e(n)}</li>" for n in report.notes if n)
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
    items = []
    for t in report.tables.values():
        what, how = EXPLANATIONS.get(t.name, (t.title, t.note))
        items.append(f'<div><dt><a href="#t-{_e(t.name)}">{_e(_short_title(t))}</a></dt>'
                     f'<dd><span class="what">{_e(what)}</span><br><span class="how">{_e(how)}</span></dd></div>')
    return (
        '<section id="how-to-read"><h2>How to read this report</h2>'
        f"<p>The metric: {_e(metric_help)}. Each value is a percentage; hover a cell for its 95% interval "
        "and the number of prompts behind it (also printed small under it). Click a column header to sort, "
        "click a cell of a run to open its samples below. In Δ columns (English − Indic) "
        '<span class="swatch bad">red</span> means English is ahead of the Indic language; in gains and run '
        'comparisons <span class="swatch good">green</span> is a gain and red a loss; a deeper tint and bold figures '
        "mark a difference whose 95% interval excludes 0.</p>"
        f'<dl class="howto">{"".join(items)}</dl></section>'
    )


# -- tables ----------------------------------------------------------------------------------------
def _gap_column(table: Table, column: str) -> bool:
    """Signed columns where a positive value is a gap (English ahead): coloured red when positive."""
    return table.name.startswith("delta_") or "Δ" in column or column == "English − Indic"


def _fmt(v: float, signed: bool) -> str:
    text = f"{100 * v:+.1f}" if signed else f"{100 * v:.1f}"
    return text.replace("-", "−")


def _cell(table: Table, column: str, cell, attrs: str) -> str:
    signed = table.is_signed(column)
    if isinstance(cell, Estimate):
        if cell.value is None:
            return f'<td class="num na"{attrs} data-v="">–</td>'
        v = cell.value
        text = display(cell, signed).replace("-", "−")
        tip = [f"{column}: {text}"]
        ci = ""
        has_ci = cell.low is not None and cell.high is not None
        if has_ci:
            lo, hi = _fmt(cell.low, signed), _fmt(cell.high, signed)
            tip.append(f"95% CI {lo} to {hi}")
            ci = f'<small class="ci">{lo}…{hi}</small>'
        if cell.n:
            tip.append(f"n = {cell.n} prompts")
        classes, style = ["num", "est"], ""
        if signed:
            bad = (v > 0) == _gap_column(table, column)
            significant = has_ci and (cell.low > 0 or cell.high < 0)
            # subtle: the tint grows with the size of the difference, halved when the interval holds 0
            alpha = min(abs(v) / 0.3, 1.0) * (0.34 if significant or not has_ci else 0.17)
            if abs(v) >= 0.0005:
                rgb = "220,38,38" if bad else "22,163,74"
                style = f' style="background:rgba({rgb},{alpha:.3f})"'
            if significant:
                classes.append("sig")
        else:
            style = f' style="background:rgba(37,99,235,{max(0.0, min(v, 1.0)) * 0.16:.3f})"'
        return (f'<td class="{" ".join(classes)}"{attrs}{style} data-v="{v:.6g}" title="{_e(" · ".join(tip))}">'
                f'<span class="v">{_e(text)}</span>{ci}</td>')
    if isinstance(cell, bool) or cell is None:
        return f'<td{attrs} data-v="">{"–" if cell is None else _e(cell)}</td>'
    if isinstance(cell, (int, float)):
        title = f' title="p = {cell:.3g}"' if column.startswith("p ") else ""
        return f'<td class="num"{attrs} data-v="{cell:.6g}"{title}>{_e(display(cell))}</td>'
    text = str(cell)
    if text.startswith("paper: "):
        model = text[len("paper: "):]
        return (f'<td class="label"{attrs} data-v="{_e(text)}" title="published in the paper: {_e(model)}">'
                f'<span class="badge paper-badge">paper</span> {_e(model.split("/")[-1])}</td>')
    return f'<td class="label"{attrs} data-v="{_e(text)}">{_e(text)}</td>'


def _table_section(table: Table, runs: set[str]) -> str:
    langs = _languages()
    cols = table.columns
    head = []
    for i, c in enumerate(cols):
        numeric = any(isinstance(r[i], (Estimate, int, float)) and not isinstance(r[i], bool)
                      for r in table.rows if i < len(r))
        title = f' title="{_e(langs[c])}"' if c in langs else ""
        head.append(f'<th{NUM if numeric else ""}{title} aria-sort="none">'
                    f'<button type="button">{_e(c)}</button></th>')
    subset = ("trans" if table.name.startswith(("trans_", "delta_"))
              else "ground" if table.name.startswith("ground_") else None)
    body, n_paper = [], 0
    for row in table.rows:
        first = str(row[0]) if row else ""
        paper = first.startswith("paper: ")
        n_paper += paper
        base = {}
        if first in runs and cols[0] in ("run",):
            base["run"] = first
        if cols[0] == "instruction":
            base["inst"] = first
        if "subset" in cols:
            base["subset"] = str(row[cols.index("subset")])
        elif subset:
            base["subset"] = subset
        cells = []
        for i, (c, cell) in enumerate(zip(cols, row)):
            f = dict(base)
            if c in langs:
                f["lang"] = c
            if c in runs:
                f["run"] = c
            drill = not paper and i > 0 and isinstance(cell, Estimate) and cell.value is not None and "run" in f
            attrs = ("".join(f' data-{k}="{_e(v)}"' for k, v in f.items()) + ' data-drill="1"') if drill else ""
            cells.append(_cell(table, c, cell, attrs))
        row_class = ' class="paper"' if paper else ""
        body.append(f'<tr{row_class}>{"".join(cells)}</tr>')
    what, how = EXPLANATIONS.get(table.name, ("", ""))
    toggle = (f'<label class="toggle"><input type="checkbox" checked data-toggle-paper="t-{_e(table.name)}"> '
              f"show the paper's published numbers ({n_paper} rows)</label>" if n_paper else "")
    legend = ""
    signed_cols = [c for c in cols[1:] if table.is_signed(c)]
    if signed_cols:
        parts = []
        if any(_gap_column(table, c) for c in signed_cols):
            parts.append('in Δ columns <span class="swatch bad">red</span> English ahead of the Indic language, '
                         '<span class="swatch good">green</span> the Indic language ahead')
        if not all(_gap_column(table, c) for c in signed_cols):
            parts.append('<span class="swatch good">green</span> a gain, <span class="swatch bad">red</span> a loss')
        parts.append("deeper tint and bold: the 95% interval excludes 0")
        legend = f'<p class="legend">{" · ".join(parts)}</p>'

    return (
        f'<section id="t-{_e(table.name)}" class="table-section"><h2>{_e(table.title)}</h2>'
        + (f'<p class="howto-line"><span class="what">{_e(what)}</span><br><span class="how">{_e(how)}</span></p>'
           if what else "")
        + (f'<p class="note">{_e(table.note)}</p>' if table.note else "")
        + toggle
        + f'<div class="scroll"><table class="sortable data" id="table-{_e(table.name)}">'
        + f'<thead><tr>{"".join(head)}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
        + legend + "</section>"
    )


# -- figures ---------------------------------------------------------------------------------------
_SVG_DROP = [
    re.compile(r"<\?xml[^>]*\?>", re.S),
    re.compile(r"<!DOCTYPE[^>]*>", re.S | re.I),
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"<script\b.*?</script\s*>", re.S | re.I),
    re.compile(r"<metadata\b.*?</metadata\s*>", re.S | re.I),
]


def _inline_svg(text: str, prefix: str) -> str:
    """An SVG file's markup for inlining: declarations, comments, scripts and metadata dropped,
    ids prefixed (so figures cannot clash), sized by CSS from its viewBox."""
    for pattern in _SVG_DROP:
        text = pattern.sub("", text)
    text = re.sub(r'\son\w+\s*=\s*"[^"]*"', "", text)  # no event handlers
    ids = set(re.findall(r'\sid="([^"]+)"', text))
    if ids:
        text = re.sub(r'(\sid=")([^"]+)"', lambda m: f'{m.group(1)}{prefix}{m.group(2)}"', text)
        text = re.sub(r'((?:xlink:)?href=")#([^"]+)"',
                      lambda m: f'{m.group(1)}#{prefix}{m.group(2)}"' if m.group(2) in ids else m.group(0), text)
        text = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})" if m.group(1) in ids else m.group(0),
                      text)
    start = text.find("<svg")
    if start < 0:
        return ""
    text = text[start:].strip()
    return re.sub(r"^<svg\b", '<svg role="img" focusable="false"', text, count=1)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _caption(stem: str, svg: str | None, runs: list[str]) -> str:
    if stem in CAPTIONS:
        return CAPTIONS[stem]
    for key, caption in CAPTIONS.items():
        if stem.startswith(key + "_"):
            rest = stem[len(key) + 1:]
            run = next((r for r in runs if _slug(r) == rest), None)
            return f"{caption} Run: {run or rest.replace('-', ' ')}."
    if svg:
        m = re.search(r"<title>([^<]{3,200})</title>", svg)
        if m:
            return html.unescape(m.group(1)).strip()
    return stem.replace("_", " ").replace("-", " ").strip().capitalize()


_UNITS_PX = {"pt": 96 / 72, "px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "": 1.0}


def _svg_width_px(svg: str) -> float | None:
    m = re.search(r'<svg\b[^>]*?\swidth="([\d.]+)(pt|px|in|cm|mm|)"', svg)
    return float(m.group(1)) * _UNITS_PX[m.group(2)] if m else None


def _png_width_px(data: bytes) -> float | None:
    """The CSS width of a PNG: its pixels at the resolution it records (pHYs), else at 2x."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    width = int.from_bytes(data[16:20], "big")
    dpi = 192.0
    at = data.find(b"pHYs", 8, 4096)
    if at > 0 and data[at + 12] == 1:  # unit: metre
        ppm = int.from_bytes(data[at + 4:at + 8], "big")
        if ppm > 0:
            dpi = ppm * 0.0254
    return width * 96 / dpi


def _figures(figures: list[str | Path], runs: list[str] | None = None) -> list[tuple[str, str, str, float | None]]:
    """(stem, caption, markup) per figure, one per stem: the SVG inline when there is one, else the PNG."""
    by_stem: dict[str, dict[str, Path]] = {}
    for f in figures:
        p = Path(f)
        if p.suffix.lower() in (".svg", ".png") and p.is_file():
            by_stem.setdefault(p.stem, {})[p.suffix.lower()] = p
    order = list(CAPTIONS)

    def rank(stem: str) -> int:  # the report's order: figures of earlier tables first
        return next((k for k, name in enumerate(order) if stem == name or stem.startswith(name + "_")), len(order))

    out = []
    for i, (stem, files) in enumerate(sorted(by_stem.items(), key=lambda item: rank(item[0]))):
        svg_text = None
        markup, width = "", None
        if ".svg" in files:
            svg_text = files[".svg"].read_text(encoding="utf-8", errors="replace")
            markup = _inline_svg(svg_text, f"f{i}-")
            width = _svg_width_px(markup) if markup else None
        caption = _caption(stem, svg_text, runs or [])
        if not markup and ".png" in files:
            raw = files[".png"].read_bytes()
            width = _png_width_px(raw)
            markup = f'<img src="data:image/png;base64,{base64.b64encode(raw).decode("ascii")}" alt="{_e(caption)}">'
        if markup:
            out.append((stem, caption, markup, width))
    return out


def _figures_section(figs: list[tuple[str, str, str, float | None]]) -> str:
    """Figures at their natural size (never wider than the page), side by side where they fit."""
    if not figs:
        return ""
    items = "".join(
        f'<figure id="fig-{_e(stem)}"' + (f' style="width:{max(width, 320) + 22:.0f}px"' if width else "") + '>'
        f'<div class="fig">{markup}</div>'
        f"<figcaption><strong>Figure {i}.</strong> {_e(caption)}</figcaption></figure>"
        for i, (stem, caption, markup, width) in enumerate(figs, start=1)
    )
    return f'<section id="figures"><h2>Figures</h2><div class="figures">{items}</div></section>'


# -- samples ---------------------------------------------------------------------------------------
def _samples_data(report: Report) -> dict:
    runs = [r.name for r in report.runs]
    run_index = {n: i for i, n in enumerate(runs)}
    ids: dict[str, int] = {}
    prompts: dict[str, int] = {}
    rows = []
    for s in report.samples:
        run = s.get("run")
        if run not in run_index:
            run_index[run] = len(runs)
            runs.append(run)
        prompt = s.get("prompt") or ""
        p = prompts.setdefault(prompt, len(prompts))
        reasoning = s.get("reasoning") or ""
        if len(reasoning) > MAX_REASONING:
            reasoning = reasoning[:MAX_REASONING] + f"\n… [{len(reasoning) - MAX_REASONING:,} more characters cut]"
        iids = [ids.setdefault(i, len(ids)) for i in s.get("instruction_id_list") or []]
        rows.append([
            run_index[run], s.get("language") or "", s.get("subset") or "", str(s.get("key")), p,
            s.get("answer"), reasoning, s.get("finish_reason") or "", iids,
            [1 if v else 0 for v in s.get("strict") or []], [1 if v else 0 for v in s.get("loose") or []],
            list(s.get("explanations") or []), 1 if s.get("prompt_strict") else 0, 1 if s.get("prompt_loose") else 0,
        ])
    langs = sorted({r[1] for r in rows}, key=lambda c: (_order().index(c) if c in _order()
                                                        else 99, c))
    return {
        "fields": ["run", "language", "subset", "key", "prompt", "answer", "reasoning", "finish_reason",
                   "instructions", "strict", "loose", "explanations", "prompt_strict", "prompt_loose"],
        "runs": runs, "ids": list(ids), "prompts": list(prompts),
        "languages": {c: _language_name(c) for c in langs}, "rows": rows,
    }


def _json_for_script(data) -> str:
    """JSON safe inside <script type="application/json">: no '<', '>' or '&' that could end it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _samples_blob(report: Report) -> str:
    return f'<script type="application/json" id="samples-data">{_json_for_script(_samples_data(report))}</script>'


def _samples_section(report: Report) -> str:
    return (
        '<section id="samples"><h2>Samples</h2>'
        '<p class="howto-line"><span class="what">Every prompt of every run with its answer and the verdict on each '
        'instruction, to see what a number is made of.</span><br><span class="how">Filter by run, language, '
        'subset and instruction; the verdict filter applies to the chosen instruction, or to the whole prompt '
        'when none is chosen; the search looks in keys, prompts, answers and explanations.</span></p>'
        '<form class="filters" id="filters" role="search">'
        '<label>Run <select id="f-run"><option value="">all runs</option></select></label>'
        '<label>Language <select id="f-lang"><option value="">all languages</option></select></label>'
        '<label>Subset <select id="f-subset"><option value="">both</option><option value="trans">trans</option>'
        '<option value="ground">ground</option></select></label>'
        '<label>Instruction <select id="f-inst"><option value="">any instruction</option></select></label>'
        '<label>Verdict <select id="f-verdict"><option value="">all</option>'
        '<option value="pass-loose">passed (loose)</option><option value="fail-loose">failed (loose)</option>'
        '<option value="pass-strict">passed (strict)</option><option value="fail-strict">failed (strict)</option>'
        '</select></label>'
        '<label class="grow">Search <input type="search" id="f-q" placeholder="words in prompt, answer, key…" '
        'autocomplete="off"></label>'
        '<button type="button" id="f-reset">Reset</button></form>'
        '<div class="pager" id="pager-top"></div>'
        '<noscript><p class="note">The sample browser needs JavaScript; the samples are in the run folders '
        '(generations.jsonl, scores.jsonl).</p></noscript>'
        '<div id="sample-list" aria-live="polite"></div>'
        '<div class="pager" id="pager-bottom"></div></section>'
    )


# -- CSS and scripts -------------------------------------------------------------------------------
def _css() -> str:
    return CSS.replace("__FONTS__", FONT_STACK).replace("__URDU__", URDU_STACK)


CSS = r"""
:root{color-scheme:light;--fg:#1f2933;--muted:#5f6b7a;--line:#d9dee5;--bg:#fff;--soft:#f5f7fa;--accent:#2557d6;
--good:#15803d;--bad:#c62828;--paper:#fbf6e9}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:__FONTS__;color:var(--fg);background:var(--bg);font-size:15px;line-height:1.45;
overflow-wrap:break-word}
:lang(ur),.lang-ur{font-family:__URDU__;line-height:2}
header.top{padding:22px 32px 14px;border-bottom:1px solid var(--line);background:linear-gradient(180deg,#f3f6fc,#fff)}
h1{margin:0 0 4px;font-size:26px;letter-spacing:-.01em}
h2{font-size:19px;margin:0 0 6px}
h3{font-size:15px;margin:14px 0 4px}
.lede{margin:0;color:var(--muted)}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:var(--soft);
padding:0 4px;border-radius:3px}
nav.toc{position:sticky;top:0;z-index:5;background:rgba(255,255,255,.96);border-bottom:1px solid var(--line);
padding:6px 32px}
nav.toc ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 14px;font-size:13px}
nav.toc a{color:var(--accent);text-decoration:none}
nav.toc a:hover{text-decoration:underline}
main{padding:8px 32px 24px;max-width:1800px}
section{margin:22px 0 30px;scroll-margin-top:44px}
.notes{margin:4px 0;padding-left:20px;color:var(--muted)}
dl.howto{display:grid;grid-template-columns:repeat(auto-fill,minmax(480px,1fr));gap:10px 28px;margin:10px 0 0}
dl.howto>div{border-left:3px solid #dfe5ee;padding:1px 0 1px 10px}
dl.howto dt{font-weight:600;font-size:14px}
dl.howto dt a{color:var(--fg);text-decoration:none}
dl.howto dt a:hover{color:var(--accent)}
dl.howto dd{margin:0;font-size:13.5px}
.what{color:var(--fg)}
.how{color:var(--muted);font-size:.92em}
.howto-line{margin:0 0 6px;max-width:110ch}
.note{color:var(--muted);font-size:13px;margin:2px 0 6px}
.legend{color:var(--muted);font-size:12px;margin:4px 0 0}
.swatch{padding:0 5px;border-radius:3px}
.swatch.bad{background:rgba(220,38,38,.28)}
.swatch.good{background:rgba(22,163,74,.28)}
.toggle{font-size:13px;color:var(--muted);display:inline-block;margin:2px 0 6px;cursor:pointer}
.scroll{overflow-x:auto;max-width:100%;width:fit-content;border:1px solid var(--line);border-radius:6px}
/* wide tables scroll in their own box; long run names wrap (first column at 40vw, headers at 14em) */
.scroll>table{width:max-content}
.scroll th{white-space:normal;max-width:14em}
.scroll th:first-child,.scroll td:first-child{white-space:normal;max-width:40vw}
table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums}
th,td{padding:3px 7px;border-bottom:1px solid #edf0f4;text-align:left;vertical-align:top;white-space:nowrap}
th{background:var(--soft);font-weight:600;position:relative}
th button{all:unset;cursor:pointer;display:block;width:100%}
th button:focus-visible{outline:2px solid var(--accent)}
th.num,td.num{text-align:right}
th[aria-sort=ascending] button::after{content:" ▲";font-size:9px;color:var(--accent)}
th[aria-sort=descending] button::after{content:" ▼";font-size:9px;color:var(--accent)}
th:first-child,td:first-child{position:sticky;left:0;background:#fff;z-index:1;border-right:1px solid #edf0f4}
th:first-child{background:var(--soft);z-index:2}
tbody tr:hover td{filter:brightness(.96)}
td.est .v{display:block}
td .ci{display:block;font-size:9.5px;color:var(--muted);line-height:1.1}
td.sig .v{font-weight:700}
td.na{color:#b6bec8}
td[data-drill]{cursor:pointer}
td[data-drill]:hover{outline:1px solid var(--accent);outline-offset:-1px}
tr.paper td{background-color:var(--paper);color:#6b5a2e;font-style:italic}
tr.paper td:first-child{background:var(--paper)}
.badge{display:inline-block;font-size:10px;font-style:normal;font-weight:600;padding:0 5px;border-radius:8px;
background:#e8ecf3;color:#384252;vertical-align:1px}
.paper-badge{background:#f1dfae;color:#6b5016;text-transform:uppercase;letter-spacing:.04em}
table.hide-paper tr.paper{display:none}
.figures{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}
figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:10px;background:#fff;break-inside:avoid;
max-width:100%;width:640px}
figure .fig svg,figure .fig img{display:block;width:100%;height:auto;max-height:720px}
figcaption{font-size:13px;color:var(--muted);margin-top:6px}
.filters{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:end;background:var(--soft);border:1px solid var(--line);
border-radius:6px;padding:10px 12px;margin:8px 0}
.filters label{display:flex;flex-direction:column;font-size:12px;color:var(--muted);gap:2px}
.filters label.grow{flex:1 1 220px}
.filters select,.filters input,.filters button,.pager button,.pager select{font:inherit;font-size:13px;padding:4px 6px;
border:1px solid #c4ccd6;border-radius:4px;background:#fff;color:var(--fg)}
.filters button,.pager button{cursor:pointer}
.filters button:hover,.pager button:hover:not(:disabled){border-color:var(--accent)}
.pager{display:flex;gap:10px;align-items:center;font-size:13px;color:var(--muted);margin:6px 0}
.pager .count{color:var(--fg)}
.pager .grow{flex:1}
article.sample{border:1px solid var(--line);border-radius:6px;margin:10px 0;background:#fff;break-inside:avoid}
article.sample>header{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center;padding:6px 10px;
background:var(--soft);border-bottom:1px solid var(--line);font-size:13px;border-radius:6px 6px 0 0}
article.sample .key{font-family:ui-monospace,Menlo,Consolas,monospace;color:var(--muted)}
.verdict{font-weight:600;padding:0 6px;border-radius:8px;font-size:12px}
.verdict.ok{background:#dcf3e3;color:var(--good)}
.verdict.no{background:#fbe1e1;color:var(--bad)}
.verdict.warn{background:#fff1c7;color:#7a5a00}
.texts{display:grid;grid-template-columns:1fr 1fr;gap:0}
.texts>div{padding:8px 10px;min-width:0}
.texts>div+div{border-left:1px solid var(--line)}
.texts h4,.sample h4{margin:0 0 3px;font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
.text{white-space:pre-wrap;overflow-wrap:anywhere;max-height:22em;overflow:auto;font-size:14px;line-height:1.6}
.text.empty{color:#9aa4b1;font-style:italic}
details.reasoning{padding:0 10px 8px}
details.reasoning summary{cursor:pointer;font-size:12px;color:var(--muted)}
details.reasoning .text{background:var(--soft);padding:6px 8px;border-radius:4px;font-size:13px;color:#3d4653}
table.inst{width:100%;table-layout:fixed;border-top:1px solid var(--line)}
table.inst th:nth-child(1){width:32%}table.inst th:nth-child(2),table.inst th:nth-child(3){width:60px}
table.inst td,table.inst th{white-space:normal;font-size:12.5px}
table.inst td:first-child,table.inst th:first-child{position:static;border-right:none;overflow-wrap:anywhere}
table.inst td.vd,table.inst th:nth-child(2),table.inst th:nth-child(3){text-align:center}
table.inst tr.hl td{background:#fffbe6}
.ok{color:var(--good)}.no{color:var(--bad)}
footer{padding:12px 32px 28px;color:var(--muted);font-size:12px;border-top:1px solid var(--line)}
@media (max-width:800px){.texts{grid-template-columns:1fr}.texts>div+div{border-left:none;border-top:1px solid var(--line)}
main,header.top,nav.toc,footer{padding-left:12px;padding-right:12px}}
@media print{
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{font-size:11px}
nav.toc,.filters,.pager,.toggle,footer{display:none}
main,header.top{padding:0}
.scroll{overflow:visible;border:none}
table{font-size:10px}
th,td{padding:2px 4px}
th:first-child,td:first-child{position:static}
tr{break-inside:avoid}
section{break-inside:auto;margin:10px 0}
h2{break-after:avoid}
.text{max-height:none;overflow:visible}
.figures{display:block}
figure{margin-bottom:10px;width:auto!important}
figure .fig svg,figure .fig img{max-height:none}
a{color:inherit;text-decoration:none}
}
"""

# Installed first: records every script error and console.error call, and shows the count.
ERROR_TRAP_JS = r"""
(function(){
  var errors = window.__errors = [];
  function show(){ var el = document.getElementById('js-errors'); if (el) el.textContent = String(errors.length); }
  window.__showErrors = show;
  window.addEventListener('error', function(e){ errors.push(String(e.message || e)); show(); });
  window.addEventListener('unhandledrejection', function(e){ errors.push('unhandled rejection: ' + String(e.reason)); show(); });
  var original = console.error;
  console.error = function(){ errors.push(Array.prototype.join.call(arguments, ' ')); show(); return original.apply(console, arguments); };
})();
"""

APP_JS = r"""
(function(){
'use strict';
function $(id){ return document.getElementById(id); }
function el(tag, cls, text){ var e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; }

// ---- sortable tables ----
function cellValue(td){
  var v = td.getAttribute('data-v');
  if (v === null) v = td.textContent.trim();
  return v;
}
function sortTable(table, col, th){
  var tbody = table.tBodies[0]; if (!tbody) return;
  var dir = th.getAttribute('aria-sort') === 'descending' ? 'ascending' :
            th.getAttribute('aria-sort') === 'ascending' ? 'descending' : (th.classList.contains('num') ? 'descending' : 'ascending');
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function(h){ h.setAttribute('aria-sort', 'none'); });
  th.setAttribute('aria-sort', dir);
  var rows = Array.prototype.slice.call(tbody.rows);
  var keyed = rows.map(function(r, i){
    var td = r.cells[col]; var raw = td ? cellValue(td) : '';
    var num = raw === '' ? NaN : Number(raw);
    return {r: r, i: i, raw: raw, num: num};
  });
  var numeric = keyed.every(function(k){ return k.raw === '' || !isNaN(k.num); });
  var sign = dir === 'ascending' ? 1 : -1;
  keyed.sort(function(a, b){
    var ae = a.raw === '', be = b.raw === '';
    if (ae || be) return ae === be ? a.i - b.i : (ae ? 1 : -1);   // missing values last either way
    var c = numeric ? a.num - b.num : a.raw.localeCompare(b.raw, undefined, {numeric: true, sensitivity: 'base'});
    return c === 0 ? a.i - b.i : sign * c;
  });
  var frag = document.createDocumentFragment();
  keyed.forEach(function(k){ frag.appendChild(k.r); });
  tbody.appendChild(frag);
}
Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function(table){
  if (!table.tHead) return;
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function(th, col){
    th.setAttribute('aria-sort', 'none');
    th.addEventListener('click', function(){ sortTable(table, col, th); });
  });
});
Array.prototype.forEach.call(document.querySelectorAll('input[data-toggle-paper]'), function(box){
  var table = document.querySelector('#' + box.getAttribute('data-toggle-paper') + ' table');
  box.addEventListener('change', function(){ if (table) table.classList.toggle('hide-paper', !box.checked); });
});

// ---- samples ----
var blob = $('samples-data');
var data = blob ? JSON.parse(blob.textContent) : {runs: [], ids: [], prompts: [], languages: {}, rows: []};
var R = {run: 0, lang: 1, subset: 2, key: 3, prompt: 4, answer: 5, reasoning: 6, finish: 7, ids: 8, strict: 9,
         loose: 10, expl: 11, pstrict: 12, ploose: 13};
var rows = data.rows;
var state = {run: '', lang: '', subset: '', inst: '', verdict: '', q: '', page: 0, size: 25};
var matches = rows.map(function(_, i){ return i; });
var haystacks = null;

function fill(select, items){
  items.forEach(function(it){ var o = el('option', null, it[1]); o.value = it[0]; select.appendChild(o); });
}
fill($('f-run'), data.runs.map(function(n, i){ return [String(i), n]; }));
fill($('f-lang'), Object.keys(data.languages).map(function(c){ return [c, c + ' · ' + data.languages[c]]; }));
fill($('f-inst'), data.ids.map(function(id, i){ return [String(i), id]; }).sort(function(a, b){ return a[1] < b[1] ? -1 : 1; }));

function haystack(i){
  if (!haystacks) haystacks = new Array(rows.length);
  var h = haystacks[i];
  if (h === undefined){
    var r = rows[i];
    h = haystacks[i] = [r[R.key], data.prompts[r[R.prompt]] || '', r[R.answer] || '', (r[R.expl] || []).join(' '),
                        data.runs[r[R.run]]].join('\n').toLowerCase();
  }
  return h;
}

function apply(){
  var run = state.run === '' ? -1 : Number(state.run), inst = state.inst === '' ? -1 : Number(state.inst);
  var v = state.verdict, want = v.indexOf('pass') === 0, field = v.slice(-5) === 'loose' ? R.loose : R.strict;
  var pfield = v.slice(-5) === 'loose' ? R.ploose : R.pstrict;
  var words = state.q.toLowerCase().split(/\s+/).filter(Boolean);
  matches = [];
  for (var i = 0; i < rows.length; i++){
    var r = rows[i];
    if (run >= 0 && r[R.run] !== run) continue;
    if (state.lang && r[R.lang] !== state.lang) continue;
    if (state.subset && r[R.subset] !== state.subset) continue;
    var pos = -1;
    if (inst >= 0){ pos = r[R.ids].indexOf(inst); if (pos < 0) continue; }
    if (v){
      var ok = pos >= 0 ? !!r[field][pos] : !!r[pfield];
      if (ok !== want) continue;
    }
    if (words.length){
      var h = haystack(i), all = true;
      for (var w = 0; w < words.length; w++){ if (h.indexOf(words[w]) < 0){ all = false; break; } }
      if (!all) continue;
    }
    matches.push(i);
  }
  state.page = 0;
  render();
}

function verdictBadge(label, ok){ return el('span', 'verdict ' + (ok ? 'ok' : 'no'), label + (ok ? ' ✓' : ' ✗')); }

function textBlock(title, text, lang){
  var box = el('div');
  box.appendChild(el('h4', null, title));
  var t = el('div', 'text' + (text ? '' : ' empty'), text ? text : '(empty)');
  t.setAttribute('dir', 'auto');
  if (lang && text){ t.setAttribute('lang', lang); }
  box.appendChild(t);
  return box;
}

function sampleCard(i){
  var r = rows[i], lang = r[R.lang];
  var card = el('article', 'sample');
  card.setAttribute('data-index', String(i));
  var head = el('header');
  head.appendChild(el('strong', null, data.runs[r[R.run]]));
  var l = el('span', 'badge', lang + ' · ' + (data.languages[lang] || lang)); head.appendChild(l);
  head.appendChild(el('span', 'badge', r[R.subset]));
  head.appendChild(el('span', 'key', String(r[R.key])));
  head.appendChild(verdictBadge('prompt strict', r[R.pstrict]));
  head.appendChild(verdictBadge('loose', r[R.ploose]));
  if (r[R.finish] && r[R.finish] !== 'stop') head.appendChild(el('span', 'verdict warn', 'finish: ' + r[R.finish]));
  card.appendChild(head);
  var texts = el('div', 'texts');
  texts.appendChild(textBlock('Prompt', data.prompts[r[R.prompt]], lang));
  texts.appendChild(textBlock('Answer', r[R.answer], null));
  card.appendChild(texts);
  if (r[R.reasoning]){
    var d = el('details', 'reasoning');
    d.appendChild(el('summary', null, 'Reasoning (' + r[R.reasoning].length.toLocaleString() + ' characters)'));
    var t = el('div', 'text', r[R.reasoning]); t.setAttribute('dir', 'auto'); d.appendChild(t);
    card.appendChild(d);
  }
  var table = el('table', 'inst'), thead = el('thead'), tr = el('tr');
  ['instruction', 'strict', 'loose', 'explanation'].forEach(function(h){ tr.appendChild(el('th', null, h)); });
  thead.appendChild(tr); table.appendChild(thead);
  var tbody = el('tbody'), inst = state.inst === '' ? -1 : Number(state.inst);
  r[R.ids].forEach(function(id, k){
    var row = el('tr', id === inst ? 'hl' : null);
    row.appendChild(el('td', null, data.ids[id]));
    row.appendChild(el('td', 'vd ' + (r[R.strict][k] ? 'ok' : 'no'), r[R.strict][k] ? '✓' : '✗'));
    row.appendChild(el('td', 'vd ' + (r[R.loose][k] ? 'ok' : 'no'), r[R.loose][k] ? '✓' : '✗'));
    var ex = el('td', null, (r[R.expl] || [])[k] || ''); ex.setAttribute('dir', 'auto');
    row.appendChild(ex);
    tbody.appendChild(row);
  });
  table.appendChild(tbody);
  card.appendChild(table);
  return card;
}

function pager(box){
  box.textContent = '';
  var pages = Math.max(1, Math.ceil(matches.length / state.size));
  var prev = el('button', null, '‹ previous'); prev.type = 'button'; prev.disabled = state.page <= 0;
  var next = el('button', null, 'next ›'); next.type = 'button'; next.disabled = state.page >= pages - 1;
  prev.addEventListener('click', function(){ go(state.page - 1, box); });
  next.addEventListener('click', function(){ go(state.page + 1, box); });
  var first = state.page * state.size;
  var count = el('span', 'count', matches.length ? (first + 1).toLocaleString() + '–' +
      Math.min(first + state.size, matches.length).toLocaleString() + ' of ' + matches.length.toLocaleString() +
      ' matching samples (' + rows.length.toLocaleString() + ' in all)' : 'no sample matches (' + rows.length.toLocaleString() + ' in all)');
  var pageInfo = el('span', null, 'page ' + (state.page + 1) + ' / ' + pages);
  var size = el('select'); [10, 25, 50, 100].forEach(function(n){ var o = el('option', null, n + ' per page'); o.value = String(n); if (n === state.size) o.selected = true; size.appendChild(o); });
  size.addEventListener('change', function(){ state.size = Number(size.value); state.page = 0; render(); });
  box.appendChild(prev); box.appendChild(pageInfo); box.appendChild(next); box.appendChild(count);
  box.appendChild(el('span', 'grow')); box.appendChild(size);
}
function go(page, box){
  var pages = Math.max(1, Math.ceil(matches.length / state.size));
  state.page = Math.min(Math.max(page, 0), pages - 1);
  render();
  if (box.id === 'pager-bottom') $('samples').scrollIntoView();
}

function render(){
  var list = $('sample-list');
  list.textContent = '';
  var frag = document.createDocumentFragment();
  var first = state.page * state.size;
  for (var k = first; k < Math.min(first + state.size, matches.length); k++) frag.appendChild(sampleCard(matches[k]));
  list.appendChild(frag);
  pager($('pager-top')); pager($('pager-bottom'));
}

function bind(id, key){
  $(id).addEventListener('change', function(){ state[key] = $(id).value; apply(); });
}
bind('f-run', 'run'); bind('f-lang', 'lang'); bind('f-subset', 'subset'); bind('f-inst', 'inst'); bind('f-verdict', 'verdict');
var timer = null;
$('f-q').addEventListener('input', function(){
  clearTimeout(timer);
  timer = setTimeout(function(){ state.q = $('f-q').value; apply(); }, 180);
});
function setFilters(f){
  ['run', 'lang', 'subset', 'inst', 'verdict'].forEach(function(k){ state[k] = f[k] || ''; $('f-' + k).value = state[k]; });
  state.q = f.q || ''; $('f-q').value = state.q;
  apply();
}
$('f-reset').addEventListener('click', function(){ setFilters({}); });
$('filters').addEventListener('submit', function(e){ e.preventDefault(); });  // Enter in the search box

// a click on a table cell opens its samples
document.addEventListener('click', function(e){
  var td = e.target.closest ? e.target.closest('td[data-drill]') : null;
  if (!td) return;
  var f = {};
  var run = td.getAttribute('data-run');
  if (run !== null){ var ri = data.runs.indexOf(run); if (ri >= 0) f.run = String(ri); }
  if (td.getAttribute('data-lang')) f.lang = td.getAttribute('data-lang');
  if (td.getAttribute('data-subset')) f.subset = td.getAttribute('data-subset');
  var inst = td.getAttribute('data-inst');
  if (inst !== null){ var ii = data.ids.indexOf(inst); if (ii >= 0) f.inst = String(ii); }
  setFilters(f);
  $('samples').scrollIntoView();
});

render();
window.__showErrors && window.__showErrors();
})();
"""


__all__ = ["CAPTIONS", "EXPLANATIONS", "METRIC_HELP", "render_html", "write_html"]

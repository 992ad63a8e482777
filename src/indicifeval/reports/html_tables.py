"""The report's tables as HTML: sortable, every estimate with its interval and prompt count,
signed differences tinted by direction and significance, the paper's rows marked, and each
cell of a run linked to its samples. Read from the tables' metadata, not their labels."""

from __future__ import annotations

import html

from indicifeval.languages import UnknownLanguageError, get_profile
from indicifeval.reports.model import Column, Estimate, Table, TableRow
from indicifeval.reports.registry import analysis_of
from indicifeval.reports.writers import display

NUM = ' class="num"'


def esc(text) -> str:
    return html.escape("" if text is None else str(text), quote=True)


def language_name(code: str) -> str:
    try:
        p = get_profile(code)
    except UnknownLanguageError:  # a code no profile has: shown as it is
        return code
    return p.name if p.native_name == p.name else f"{p.name} ({p.native_name})"


def short_title(table: Table) -> str:
    unit = analysis_of(table)
    return unit.short_title if unit else table.title.split(" (")[0]


def explanation(table: Table) -> tuple[str, str] | None:
    """(what the table shows, how it is computed), from its analysis."""
    unit = analysis_of(table)
    return (unit.what, unit.how) if unit else None


def _fmt(v: float, signed: bool) -> str:
    text = f"{100 * v:+.1f}" if signed else f"{100 * v:.1f}"
    return text.replace("-", "−")


def _estimate_cell(column: Column, cell: Estimate, attrs: str) -> str:
    if cell.value is None:
        return f'<td class="num na"{attrs} data-v="">–</td>'
    v, signed = cell.value, column.signed
    text = display(cell, signed).replace("-", "−")
    tip = [f"{column}: {text}"]
    ci, has_ci, significant = "", False, False
    if cell.low is not None and cell.high is not None:
        lo, hi = _fmt(cell.low, signed), _fmt(cell.high, signed)
        tip.append(f"95% CI {lo} to {hi}")
        ci = f'<small class="ci">{lo}…{hi}</small>'
        has_ci, significant = True, cell.low > 0 or cell.high < 0
    if cell.n:
        tip.append(f"n = {cell.n} prompts")
    classes, style = ["num", "est"], ""
    if signed:
        bad = (v > 0) == (column.diff == "gap")  # a gap: positive is English ahead; a gain: negative is a loss
        # subtle: the tint grows with the size of the difference, halved when the interval holds 0
        alpha = min(abs(v) / 0.3, 1.0) * (0.34 if significant or not has_ci else 0.17)
        if abs(v) >= 0.0005:
            rgb = "220,38,38" if bad else "22,163,74"
            style = f' style="background:rgba({rgb},{alpha:.3f})"'
        if significant:
            classes.append("sig")
    else:
        style = f' style="background:rgba(37,99,235,{max(0.0, min(v, 1.0)) * 0.16:.3f})"'
    return (f'<td class="{" ".join(classes)}"{attrs}{style} data-v="{v:.6g}" title="{esc(" · ".join(tip))}">'
            f'<span class="v">{esc(text)}</span>{ci}</td>')


def _cell(column: Column, cell, attrs: str) -> str:
    if isinstance(cell, Estimate):
        return _estimate_cell(column, cell, attrs)
    if isinstance(cell, bool) or cell is None:
        return f'<td{attrs} data-v="">{"–" if cell is None else esc(cell)}</td>'
    if isinstance(cell, (int, float)):
        title = f' title="p = {cell:.3g}"' if column.kind == "p_value" else ""
        return f'<td class="num"{attrs} data-v="{cell:.6g}"{title}>{esc(display(cell))}</td>'
    return f'<td class="label"{attrs} data-v="{esc(cell)}">{esc(cell)}</td>'


def _paper_label(row: TableRow) -> str:
    model = str(row.name)
    return (f'<td class="label" data-v="{esc(row[0])}" title="published in the paper: {esc(model)}">'
            f'<span class="badge paper-badge">paper</span> {esc(model.split("/")[-1])}</td>')


def _row(table: Table, row: TableRow) -> str:
    """One row; each value of a run's becomes a link to its samples (run, language, subset)."""
    cols = table.columns
    base = {}
    if row.kind == "run":
        base["run"] = row.name
    elif row.kind == "instruction":
        base["inst"] = row.name
    subset_at = table.where("subset")
    if subset_at:
        base["subset"] = str(row[subset_at[0]])
    elif table.subset:
        base["subset"] = table.subset
    cells = []
    for i, (c, cell) in enumerate(zip(cols, row)):
        if i == 0 and row.kind == "paper":
            cells.append(_paper_label(row))
            continue
        f = dict(base)
        if c.kind == "language":
            f["lang"] = str(c)
        elif c.kind == "run":
            f["run"] = str(c)
        drill = (row.kind != "paper" and i > 0 and isinstance(cell, Estimate) and cell.value is not None
                 and "run" in f)
        attrs = ("".join(f' data-{k}="{esc(v)}"' for k, v in f.items()) + ' data-drill="1"') if drill else ""
        cells.append(_cell(c, cell, attrs))
    row_class = ' class="paper"' if row.kind == "paper" else ""
    return f'<tr{row_class}>{"".join(cells)}</tr>'


def _legend(table: Table) -> str:
    signed = [c for c in table.columns if c.signed]
    if not signed:
        return ""
    parts = []
    if any(c.diff == "gap" for c in signed):
        parts.append('in Δ columns <span class="swatch bad">red</span> English ahead of the Indic language, '
                     '<span class="swatch good">green</span> the Indic language ahead')
    if any(c.diff == "gain" for c in signed):
        parts.append('<span class="swatch good">green</span> a gain, <span class="swatch bad">red</span> a loss')
    parts.append("deeper tint and bold: the 95% interval excludes 0")
    return f'<p class="legend">{" · ".join(parts)}</p>'


def table_section(table: Table) -> str:
    head = []
    for i, c in enumerate(table.columns):
        numeric = any(isinstance(r[i], (Estimate, int, float)) and not isinstance(r[i], bool)
                      for r in table.rows if i < len(r))
        title = f' title="{esc(language_name(c))}"' if c.kind == "language" else ""
        head.append(f'<th{NUM if numeric else ""}{title} aria-sort="none">'
                    f'<button type="button">{esc(c)}</button></th>')
    body = [_row(table, row) for row in table.rows]
    n_paper = sum(row.kind == "paper" for row in table.rows)
    what, how = explanation(table) or ("", "")
    toggle = (f'<label class="toggle"><input type="checkbox" checked data-toggle-paper="t-{esc(table.name)}"> '
              f"show the paper's published numbers ({n_paper} rows)</label>" if n_paper else "")
    return (
        f'<section id="t-{esc(table.name)}" class="table-section"><h2>{esc(table.title)}</h2>'
        + (f'<p class="howto-line"><span class="what">{esc(what)}</span><br><span class="how">{esc(how)}</span></p>'
           if what else "")
        + (f'<p class="note">{esc(table.note)}</p>' if table.note else "")
        + toggle
        + f'<div class="scroll"><table class="sortable data" id="table-{esc(table.name)}">'
        + f'<thead><tr>{"".join(head)}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
        + _legend(table) + "</section>"
    )

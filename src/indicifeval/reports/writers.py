"""Tables as Markdown, CSV and JSON.

One scale for people, one for programs: report.md, report.html and tables/*.csv show every
estimate in percent (differences in percentage points), and each CSV header says so with a
unit suffix (``hi (%)``, ``hi low (%)``, ``Δ thinking (pp)``) so a spreadsheet shows it; the
prompt counts (``hi n``), p-values and other plain numbers are written as they are.
report.json keeps the raw estimates on 0–1 and says so at its top (``"scale": "fraction"``).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from indicifeval.core.files import atomic_writer, write_text
from indicifeval.reports.model import Column, Estimate, Report, Table


def display(cell, signed: bool = False) -> str:
    """A cell as text: estimates in percent (signed ones with +/−), p-values compactly."""
    if isinstance(cell, Estimate):
        if cell.value is None:
            return "–"
        text = f"{100 * cell.value:+.1f}" if signed else f"{100 * cell.value:.1f}"
        return text
    if isinstance(cell, float):
        return f"{cell:.3g}" if cell < 0.001 else f"{cell:.3f}" if cell < 1 else f"{cell:g}"
    return "–" if cell is None else str(cell)


_MD_SPECIAL = str.maketrans({"|": "\\|", "<": "&lt;", ">": "&gt;", "&": "&amp;", "\\": "\\\\", "`": "\\`",
                             "*": "\\*", "_": "\\_", "[": "\\[", "]": "\\]", "\n": " ", "\r": " "})


def md_cell(value: object) -> str:
    """Text from a run (a model name, a folder) as one Markdown table cell: no HTML, no table
    break, no emphasis or link it did not mean."""
    return str(value).translate(_MD_SPECIAL)


def table_markdown(table: Table) -> str:
    lines = [f"### {table.title}", ""]
    if table.note:
        lines += [f"_{table.note}_", ""]
    lines.append("| " + " | ".join(table.columns) + " |")
    lines.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(table.columns))) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(md_cell(display(c, col.signed)) for c, col in zip(row, table.columns)) + " |")
    return "\n".join(lines) + "\n"


def unit(column: Column) -> str:
    """The CSV unit of an estimate column: differences are in points, not percent of something."""
    return "pp" if column.signed else "%"


def write_csv(table: Table, path: Path) -> None:
    """One column per value, with its interval and prompt count beside it, in the Markdown's
    percent (the header names the unit: a bare 54.7 next to report.json's 0.547 misleads)."""
    with atomic_writer(path, newline="") as fh:
        writer = csv.writer(fh)
        estimate_cols = [i for i in range(len(table.columns)) if any(isinstance(r[i], Estimate) for r in table.rows)]
        header = []
        for i, col in enumerate(table.columns):
            if i in estimate_cols:
                u = unit(col)
                header += [f"{col} ({u})", f"{col} low ({u})", f"{col} high ({u})", f"{col} n"]
            else:
                header.append(col)
        writer.writerow(header)
        for row in table.rows:
            out = []
            for i, cell in enumerate(row):
                if i in estimate_cols:
                    est = cell if isinstance(cell, Estimate) else Estimate(None)
                    out += [_num(est.value), _num(est.low), _num(est.high), est.n]
                else:
                    out.append("" if cell is None else cell)
            writer.writerow(out)


def _num(value: float | None) -> str:
    """A 0–1 estimate in percent, with the precision the fractions had (6 decimals)."""
    return "" if value is None else f"{100 * value:.4f}"


def report_markdown(report: Report) -> str:
    parts = ["# IndicIFEval report\n", (f"Metric: **{report.metric}** · runs: {len(report.runs)} · bootstrap: "
             f"{report.n_boot} resamples of prompts, seed {report.seed} · numbers are percentages (differences in "
             "points), as in tables/*.csv; report.json holds them as fractions (0–1)\n")]
    parts.append("| run | model | family | size (B) | thinking | scoring | folder |\n|---|---|---|---:|---|---|---|")
    for r in report.runs:
        cells = [r.name, r.model, r.family, "" if r.size_b is None else r.size_b,
                 "–" if r.thinking is None else ("on" if r.thinking else "off"), r.scoring, r.folder]
        parts.append("| " + " | ".join(md_cell(c) for c in cells) + " |")
    parts.append("")
    for note in report.notes:
        parts.append(f"> {note}\n")
    section = None
    for table in report.tables.values():
        if table.section is not None and table.section != section:  # a report of several suites
            section = table.section
            parts.append(f"## {md_cell(section)}\n")
        parts.append(table_markdown(table))
    return "\n".join(parts)


def write_tables(report: Report, out: Path) -> list[Path]:
    written = []
    for table in report.tables.values():
        path = out / "tables" / f"{table.name}.csv"
        write_csv(table, path)
        written.append(path)
    md = out / "report.md"
    write_text(md, report_markdown(report))
    js = out / "report.json"
    write_text(js, json.dumps(report.to_json(), ensure_ascii=False, indent=1) + "\n")
    return [md, js, *written]

"""The build report: per build folder (a language), the counts of every stage, the validator's
findings, the review's progress and its agreement, as one self-contained HTML page made with
the benchmark report's assets (stylesheet, sortable tables, error trap). The rows come from
``builder.status``; this module only draws them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from indicifeval.builder.status import (
    COEFFICIENTS,
    agreement_rows,
    build_names,
    finding_rows,
    open_builds,
    review_rows,
    stage_rows,
)
from indicifeval.core.files import atomic_writer
from indicifeval.reports.html import asset, stylesheet
from indicifeval.reports.html_tables import esc, table_section
from indicifeval.reports.model import Column, Table, TableRow


def _stages(rows: list[tuple]) -> Table:
    return Table("stages", "Stages and their counts",
                 [Column("build"), Column("language", "language"), Column("stage"), Column("status"),
                  Column("counts"), Column("note")],
                 [TableRow([name, language, stage, status, ", ".join(f"{k} {v}" for k, v in counts.items()), note])
                  for name, language, stage, status, counts, note in rows])


def _findings(rows: list[tuple]) -> Table:
    return Table("findings", "Validator findings", [Column("build"), Column("language", "language"), Column("subset"),
                                                    Column("check"), Column("severity"), Column("findings")],
                 [TableRow(list(r)) for r in rows],
                 note="" if rows else "No findings (or the validate stages have not run).")


def _review(rows: list[tuple]) -> Table:
    return Table("review", "Review progress", [Column("build"), Column("language", "language"), Column("annotator"),
                                               Column("assigned"), Column("done")], [TableRow(list(r)) for r in rows],
                 note="" if rows else "No review yet.")


def _estimate(e: dict) -> str:
    value = e.get("value")
    return "—" if value is None else f"{value:.3f}" + (
        f" [{e['low']:.2f}, {e['high']:.2f}]" if e.get("low") is not None else "")


def _agreement(rows: list[tuple]) -> Table:
    return Table("agreement", "Agreement (95% bootstrap intervals)",
                 [Column("build"), Column("language"), Column("question"), Column("items rated twice"),
                  *map(Column, COEFFICIENTS)],
                 [TableRow([name, language, question, twice, *map(_estimate, estimates)])
                  for name, language, question, twice, estimates in rows],
                 note="" if rows else "No agreement yet (indicifeval build review agreement).")


def render_build_report(folders: Sequence[str | Path]) -> str:
    builds = open_builds(folders)
    names = build_names(folders)
    tables = [_stages(stage_rows(builds, names)), _findings(finding_rows(builds, names)),
              _review(review_rows(builds, names)), _agreement(agreement_rows(builds, names))]
    languages = ", ".join(names)
    listed = ", ".join(f"{n} ({b.language})" for n, b in zip(names, builds))
    body = "".join(table_section(t) for t in tables)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; '
            'script-src \'unsafe-inline\'">\n'
            f"<title>IndicIFEval build report · {esc(languages)}</title>\n<style>{stylesheet()}</style>\n"
            f"<script>{asset('error-trap.js')}</script>\n</head>\n<body>\n"
            f"<header><h1>Build report</h1><p>{len(builds)} build folder{'' if len(builds) == 1 else 's'}: "
            f"{esc(listed)}</p></header>\n"
            f"<main>{body}</main>\n<footer><p>Made by indicifeval. Script errors on this page: "
            f'<span id="js-errors">not run</span>.</p></footer>\n'
            f"<script>{asset('report.js')}</script>\n</body>\n</html>\n")


def write_build_report(folders: Sequence[str | Path], out: str | Path) -> Path:
    path = Path(out)
    with atomic_writer(path) as fh:
        fh.write(render_build_report(folders))
    return path


__all__ = ["render_build_report", "write_build_report"]

"""The build report: per build folder (a language), the counts of every stage, the validator's
findings, the review's progress and its agreement, as one self-contained HTML page made with
the benchmark report's assets (stylesheet, sortable tables, error trap)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from indicifeval.builder.project import BuildFolder
from indicifeval.core.files import atomic_writer
from indicifeval.core.jsonl import read_jsonl
from indicifeval.records.layout import REVIEW_AGREEMENT, REVIEW_DB, TRANS_VALIDATION
from indicifeval.reports.html import asset, stylesheet
from indicifeval.reports.html_tables import esc, table_section
from indicifeval.reports.model import Column, Row, Table

VALIDATIONS = (TRANS_VALIDATION, "ground/validation.jsonl")
COEFFICIENTS = ("raw_agreement", "cohen_kappa", "fleiss_kappa", "krippendorff_alpha", "gwet_ac1")


def build_names(folders: Sequence[str | Path]) -> list[str]:
    """Each build by its folder's name (``hi-ground``), or by the path as given where two folders
    share a name: two builds of one language (Trans and Ground) must not both read ``hi``."""
    names = [Path(f).name or str(f) for f in folders]
    return [str(f) if names.count(n) > 1 else n for f, n in zip(folders, names)]


def _stages(folders: list[BuildFolder], names: list[str]) -> Table:
    rows = []
    for build, name in zip(folders, names):
        for row in build.status_rows():
            counts = ", ".join(f"{k} {v}" for k, v in row["counts"].items())
            rows.append(Row([name, build.language, row["stage"], row["status"], counts, row["note"] or ""]))
    return Table("stages", "Stages and their counts",
                 [Column("build"), Column("language", "language"), Column("stage"), Column("status"),
                  Column("counts"), Column("note")], rows)


def _findings(folders: list[BuildFolder], names: list[str]) -> Table:
    rows = []
    for build, name in zip(folders, names):
        tally: Counter[tuple[str, str, str]] = Counter()
        for name in VALIDATIONS:
            path = build.folder / name
            if path.is_file():
                for _, f in read_jsonl(path):
                    tally[str(f.get("subset")), str(f.get("check")), str(f.get("severity"))] += 1
        for (subset, check, severity), n in sorted(tally.items()):
            rows.append(Row([name, build.language, subset, check, severity, n]))
    return Table("findings", "Validator findings", [Column("build"), Column("language", "language"), Column("subset"),
                                                    Column("check"), Column("severity"), Column("findings")], rows,
                 note="" if rows else "No findings (or the validate stages have not run).")


def _review(folders: list[BuildFolder], names: list[str]) -> Table:
    from indicifeval.builder.review.store import ReviewStore

    rows = []
    for build, folder in zip(folders, names):
        if not (build.folder / REVIEW_DB).is_file():
            continue
        store = ReviewStore(build.folder, read_only=True)
        try:
            progress = store.progress()
        finally:
            store.close()
        for name, (assigned, done) in progress.items():
            rows.append(Row([folder, build.language, name, assigned, done]))
    return Table("review", "Review progress", [Column("build"), Column("language", "language"), Column("annotator"),
                                               Column("assigned"), Column("done")], rows,
                 note="" if rows else "No review yet.")


def _agreement(folders: list[BuildFolder], names: list[str]) -> Table:
    rows = []
    for build, folder in zip(folders, names):
        path = build.folder / REVIEW_AGREEMENT
        if not path.is_file():
            continue
        for row in json.loads(path.read_text(encoding="utf-8")).get("rows", []):
            cells = []
            for name in COEFFICIENTS:
                e = row.get(name) or {}
                value = e.get("value")
                cells.append("—" if value is None else f"{value:.3f}" + (
                    f" [{e['low']:.2f}, {e['high']:.2f}]" if e.get("low") is not None else ""))
            rows.append(Row([folder, row["language"], row["question"], row.get("items_rated_twice", 0),
                             *cells]))
    return Table("agreement", "Agreement (95% bootstrap intervals)",
                 [Column("build"), Column("language"), Column("question"), Column("items rated twice"),
                  *map(Column, COEFFICIENTS)], rows,
                 note="" if rows else "No agreement yet (indicifeval build review agreement).")


def render_build_report(folders: Sequence[str | Path]) -> str:
    builds = [BuildFolder(f) for f in folders]
    for build in builds:
        build.manifest()  # a build folder, or a clear error
    names = build_names(folders)
    tables = [_stages(builds, names), _findings(builds, names), _review(builds, names), _agreement(builds, names)]
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


__all__ = ["build_names", "render_build_report", "write_build_report"]

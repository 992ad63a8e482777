"""The disparity Δ = English − Indic on Trans, paired over the prompts both languages have: per
language, per instruction category (the paper's Table 3) and per model family; figures:
heatmaps of Δ per run and language, and per category and language for each run."""

from __future__ import annotations

from collections import defaultdict

from indicifeval.reports import plots
from indicifeval.reports.analyses import TRANS, Analyses, mean_of_differences
from indicifeval.reports.model import Column, Estimate, Report, Table, TableRow, run_row
from indicifeval.reports.registry import analysis
from indicifeval.reports.rundata import RunData


def _delta_columns(ctx: Analyses) -> list[Column]:
    return [*(Column(c, "language", "gap") for c in ctx.indic), Column("Avg", "avg", "gap")]


@analysis(
    "delta_language", short_title="Δ by language",
    what="The disparity: how many points a run loses when the same prompt is asked in an Indic language instead of "
         "in English (positive: better in English).",
    how="Δ = accuracy on the English prompts − accuracy on their translations, over the Trans prompts both "
        "languages have; Avg is the mean of the per-language Δ; a paired bootstrap resamples the shared prompts.",
)
def delta_language(ctx: Analyses) -> Table:
    table = Table("delta_language", f"Disparity Δ = English − Indic ({ctx.metric_name}, Trans)",
                  [Column("run", "label"), *_delta_columns(ctx)], [],
                  note=ctx.subset_note + "; paired over shared prompts", subset=TRANS)
    for run in ctx.runs:
        found = ctx.delta_cells(run, f"{run.info.name}|delta|avg")
        if found is not None:
            table.rows.append(run_row(run.info.name, [*found[0], found[1]]))
    return table


@analysis(
    "delta_category", short_title="Δ by category",
    what="Where the disparity comes from: Δ for each of the paper's five instruction categories (English-case, "
         "keyword, format, length and language instructions; paper Table 3).",
    how="Instruction-level accuracy on the instructions of one category only, English minus each Indic language "
        "over shared Trans prompts; Avg averages the per-language Δ; paired bootstrap over prompts.",
)
def delta_category(ctx: Analyses) -> Table:
    paper = "paper Table 3; " if ctx.section in (None, "ifeval") else ""
    table = Table("delta_category", f"Δ by instruction category ({paper}instruction-level {ctx.kind}, Trans)",
                  [Column("run", "label"), Column("category", "category"), *_delta_columns(ctx)], [],
                  note=ctx.subset_note, subset=TRANS)
    for run in ctx.runs:
        for category, ids in ctx.categories.items():
            found = ctx.delta_cells(run, f"{run.info.name}|cat|{category}", frozenset(ids), category)
            if found is not None:
                table.rows.append(run_row(run.info.name, [category, *found[0], found[1]]))
    return table


@analysis(
    "delta_family", short_title="Δ by family",
    what="Whether some model families lose more in Indic languages than others.",
    how="Each family's Δ pools the paired English/Indic differences of all its runs (their mean) per language; "
        "Avg averages over the languages; intervals bootstrap prompts in every run of the family.",
)
def delta_family(ctx: Analyses) -> Table:
    table = Table("delta_family", f"Δ by model family (mean over the family's runs, {ctx.metric_name})",
                  [Column("family", "label"), Column("runs", "text"), *_delta_columns(ctx)], [],
                  note=ctx.subset_note, subset=TRANS)
    families: dict[str, list[RunData]] = defaultdict(list)
    for run in ctx.runs:
        families[run.info.family].append(run)
    for family, runs in sorted(families.items()):
        cells, all_pairs = [], []
        per_run = [ctx.deltas(run) for run in runs]
        for i, lang in enumerate(ctx.indic):
            pairs = [g for deltas in per_run for g in deltas[i][1]]
            all_pairs += pairs
            cells.append(ctx.estimate(pairs, mean_of_differences, f"family|{family}|{lang}") if pairs
                         else Estimate(None))
        if any(c.value is not None for c in cells):
            avg = ctx.estimate(all_pairs, mean_of_differences, f"family|{family}|avg")
            table.rows.append(TableRow([family, ", ".join(r.info.name for r in runs), *cells, avg], "family", family))
    return table


# -- figures -------------------------------------------------------------------------------------
DELTA_LABEL = "Δ (points; > 0: English ahead)"


@delta_language.figure("delta_language", "Disparity Δ = English − Indic per run and language, in points: red "
                                         "cells, English ahead; blue cells, the Indic language ahead; white, no gap.")
def _delta_heatmap(report: Report, table: Table | None):
    if table is None or not table.rows:
        return None
    from indicifeval.reports import heatmaps  # matplotlib: imported to draw only

    cols = table.where("language", "avg")
    return heatmaps.heatmap(plots.matrix(table.rows, cols), [str(r.name) for r in table.rows],
                            [plots.column_label(table.columns[i]) for i in cols],
                            f"Disparity Δ = English − Indic by language, Trans ({plots.metric_name(report)}, points)",
                            signed=True, colour_label=DELTA_LABEL)


@delta_category.figure("delta_category", "Δ = English − Indic by instruction category for one run: which kinds of "
                                         "instructions lose most when asked in an Indic language (red: English "
                                         "ahead).", per_run=True)
def _category_heatmaps(report: Report, table: Table | None):
    if table is None or not table.rows:
        return
    from indicifeval.reports import heatmaps  # matplotlib: imported to draw only

    cols, category = table.where("language", "avg"), table.where("category")[0]
    runs: dict[str, list[TableRow]] = {}
    for row in table.rows:
        runs.setdefault(str(row.name), []).append(row)
    limit = plots.signed_limit(plots.matrix(table.rows, cols))  # one colour scale for all runs
    for run, rows in runs.items():
        yield run, heatmaps.heatmap(
            plots.matrix(rows, cols), [str(r[category]) for r in rows], [plots.column_label(table.columns[i])
                                                                        for i in cols],
            f"Δ = English − Indic by instruction category: {run}\n(Trans, {plots.instruction_metric(report)}, "
            f"points)", signed=True, colour_label=DELTA_LABEL, limit=limit)
